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
    let mut out = Vec::new();
    let mut central = Vec::new();
    for a in arrays {
        // The float32 header with its type written as float64: the same length, so the same
        // padding.
        let mut file = npy::header_f32(&a.shape);
        if let Some(at) = file.windows(3).position(|w| w == b"<f4") {
            file[at + 2] = b'8';
        }
        for v in a.values {
            file.extend_from_slice(&v.to_le_bytes());
        }
        let name = format!("{}.npy", a.name);
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
    out.extend_from_slice(&(arrays.len() as u16).to_le_bytes());
    out.extend_from_slice(&(arrays.len() as u16).to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
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
}
