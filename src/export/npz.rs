//! NPZ files: a ZIP archive of NPY arrays, one per name, stored uncompressed (what
//! `numpy.savez` writes; `numpy.load` reads it as a dict of arrays).

use super::npy;

/// CRC-32 (IEEE 802.3, reflected, as ZIP uses), bit by bit: the files are small.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// One array: its name (the key in `numpy.load`), shape and values, written as float64.
pub struct Array<'a> {
    pub name: &'a str,
    pub shape: Vec<usize>,
    pub values: &'a [f64],
}

/// The NPZ file of `arrays`.
pub fn write(arrays: &[Array]) -> Vec<u8> {
    write_with(arrays, &[])
}

/// The NPZ file of `arrays` and of `files`, members that are not arrays (`numpy.load` gives
/// their bytes).
pub fn write_with(arrays: &[Array], files: &[(&str, &[u8])]) -> Vec<u8> {
    let members = arrays
        .iter()
        .map(|a| (format!("{}.npy", a.name), npy::f64_file(&a.shape, a.values)))
        .chain(files.iter().map(|(n, b)| (n.to_string(), b.to_vec())));
    let mut out = Vec::new();
    let mut central = Vec::new();
    let mut count = 0u16;
    for (name, file) in members {
        count += 1;
        let crc = crc32(&file);
        let offset = out.len() as u32;
        let size = file.len() as u32;
        // Local file header: version 2.0, no flags, stored, no time.
        let fixed = |out: &mut Vec<u8>| {
            out.extend_from_slice(&20u16.to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(&0u32.to_le_bytes());
            out.extend_from_slice(&crc.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&size.to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        fixed(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&file);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes());
        fixed(&mut central);
        // Comment length, disk, internal and external attributes, offset.
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let (start, len) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

fn u16_at(b: &[u8], at: usize) -> Option<usize> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?) as usize)
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The members of an archive as [`write`] makes them (stored, not compressed), by name, in
/// order; an error for anything else (compressed, cut short, a wrong CRC).
pub fn members(bytes: &[u8]) -> Result<Vec<(String, &[u8])>, String> {
    let bad = |what: &str| format!("not an archive PE Lab can read: {what}");
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        match u32_at(bytes, at) {
            Some(0x0403_4b50) => {}
            Some(0x0201_4b50) if !out.is_empty() => return Ok(out),
            _ => return Err(bad("no member where one should start")),
        }
        let field = |off: usize| u16_at(bytes, at + off).ok_or_else(|| bad("cut short"));
        let (flags, method) = (field(6)?, field(8)?);
        if flags & 8 != 0 || method != 0 {
            return Err(bad("a compressed member"));
        }
        let crc = u32_at(bytes, at + 14).ok_or_else(|| bad("cut short"))?;
        let size = u32_at(bytes, at + 18).ok_or_else(|| bad("cut short"))? as usize;
        let (name_len, extra) = (field(26)?, field(28)?);
        let start = at + 30 + name_len + extra;
        let name = bytes
            .get(at + 30..at + 30 + name_len)
            .and_then(|n| std::str::from_utf8(n).ok())
            .ok_or_else(|| bad("a member's name"))?;
        let data = bytes
            .get(start..start + size)
            .ok_or_else(|| bad("cut short"))?;
        if crc32(data) != crc {
            return Err(bad(&format!("{name} is damaged (its CRC differs)")));
        }
        out.push((name.to_string(), data));
        at = start + size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_is_the_zip_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn the_archive_lists_its_arrays() {
        let z = write(&[
            Array {
                name: "a",
                shape: vec![2, 2],
                values: &[1.0, 2.0, 3.0, 4.0],
            },
            Array {
                name: "b",
                shape: vec![0],
                values: &[],
            },
        ]);
        assert_eq!(&z[..4], b"PK\x03\x04");
        assert_eq!(&z[z.len() - 22..z.len() - 18], b"PK\x05\x06");
        let text = String::from_utf8_lossy(&z);
        assert!(text.contains("a.npy") && text.contains("b.npy"));
        assert!(text.contains("'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }"));
    }

    #[test]
    fn what_is_written_reads_back_and_damage_is_an_error() {
        let z = write_with(
            &[Array {
                name: "w/blocks.0.wq",
                shape: vec![2, 3],
                values: &[1.5, -2.0, 3.25, 1e-300, f64::NAN, 6.0],
            }],
            &[("settings.txt", b"task=order")],
        );
        let m = members(&z).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].0, "w/blocks.0.wq.npy");
        let (shape, v) = npy::read_f64(m[0].1).unwrap();
        assert_eq!(shape, vec![2, 3]);
        assert_eq!(v[..4], [1.5, -2.0, 3.25, 1e-300]);
        assert!(v[4].is_nan());
        assert_eq!(m[1], ("settings.txt".to_string(), &b"task=order"[..]));
        // Every cut and every changed byte of the data: an error or a clean read, never a panic.
        for cut in 0..z.len() {
            if let Ok(m) = members(&z[..cut]) {
                for (_, d) in m {
                    let _ = npy::read_f64(d);
                }
            }
        }
        let mut bad = z.clone();
        bad[100] ^= 1;
        assert!(members(&bad).unwrap_err().contains("damaged"));
        assert!(members(b"PK").is_err() && members(&[]).is_err());
        assert!(npy::read_f64(b"\x93NUMPY\x01\x00\xff\xff").is_err());
    }
}
