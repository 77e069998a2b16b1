//! NPY version 1.0 files of float32 matrices, little-endian, C order.

/// The NPY header for a float32 C-order array of `shape`, padded so the data starts on a
/// 64-byte boundary.
pub fn header_f32(shape: &[usize]) -> Vec<u8> {
    let dims = match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {dims}, }}");
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut out = Vec::with_capacity(10 + dict.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// The NPY file of a float64 array of `shape` (C order).
pub fn f64_file(shape: &[usize], values: &[f64]) -> Vec<u8> {
    // The float32 header with its type written as float64: the same length, so the same
    // padding.
    let mut file = header_f32(shape);
    if let Some(at) = file.windows(3).position(|w| w == b"<f4") {
        file[at + 2] = b'8';
    }
    for v in values {
        file.extend_from_slice(&v.to_le_bytes());
    }
    file
}

/// Reads a float64, C-order NPY file (version 1 or 2): its shape and values; an error for any
/// other type or a file cut short.
pub fn read_f64(file: &[u8]) -> Result<(Vec<usize>, Vec<f64>), String> {
    let bad = |what: &str| format!("not a float64 NPY array: {what}");
    if file.len() < 12 || !file.starts_with(b"\x93NUMPY") {
        return Err(bad("no NPY magic"));
    }
    let (len, start) = match file.get(6) {
        Some(1) => (u16::from_le_bytes([file[8], file[9]]) as usize, 10),
        Some(2) if file.len() >= 12 => (
            u32::from_le_bytes([file[8], file[9], file[10], file[11]]) as usize,
            12,
        ),
        _ => return Err(bad("an NPY version other than 1 or 2")),
    };
    let header = file
        .get(start..start + len)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad("its header"))?;
    if !header.contains("'descr': '<f8'") || !header.contains("'fortran_order': False") {
        return Err(bad("another type or order"));
    }
    let dims = header
        .split_once("'shape': (")
        .and_then(|(_, rest)| rest.split_once(')'))
        .ok_or_else(|| bad("no shape"))?
        .0;
    let shape = dims
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| d.parse::<usize>().map_err(|_| bad("its shape")))
        .collect::<Result<Vec<_>, _>>()?;
    let data = &file[start + len..];
    let count = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .filter(|&n| n.checked_mul(8) == Some(data.len()))
        .ok_or_else(|| bad("its data is not its shape's size"))?;
    let values = data
        .chunks_exact(8)
        .take(count)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
        .collect();
    Ok((shape, values))
}

/// Appends values as little-endian float32.
pub fn push_f32(out: &mut Vec<u8>, values: &[f64]) {
    for v in values {
        out.extend_from_slice(&(*v as f32).to_le_bytes());
    }
}

/// Streams a `(rows, cols)` matrix as NPY: the header, then the data in chunks of about
/// `chunk_bytes`.
pub fn stream_matrix(
    rows: usize,
    cols: usize,
    mut fill_row: impl FnMut(usize, &mut [f64]),
    chunk_bytes: usize,
    mut emit: impl FnMut(Vec<u8>),
) {
    let mut chunk = header_f32(&[rows, cols]);
    let mut row = vec![0.0; cols];
    for r in 0..rows {
        fill_row(r, &mut row);
        push_f32(&mut chunk, &row);
        if chunk.len() >= chunk_bytes {
            emit(std::mem::take(&mut chunk));
        }
    }
    if !chunk.is_empty() {
        emit(chunk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_aligned_and_readable() {
        let h = header_f32(&[3, 4]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert!(text.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"));
        assert!(text.ends_with('\n'));
        assert_eq!(u16::from_le_bytes([h[8], h[9]]) as usize, h.len() - 10);
    }

    #[test]
    fn data_follows_in_c_order() {
        let mut bytes = Vec::new();
        stream_matrix(
            2,
            2,
            |r, row| row.copy_from_slice(&[r as f64, 0.5]),
            1 << 20,
            |c| bytes.extend(c),
        );
        let data = &bytes[header_f32(&[2, 2]).len()..];
        let read: Vec<f32> = data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        assert_eq!(read, vec![0.0, 0.5, 1.0, 0.5]);
    }
}
