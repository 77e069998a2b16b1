//! Heatmap images: cells expanded to screen pixels, and coarse paints scaled up.

/// `rgba` (`w × h` RGBA pixels) scaled to `rw × rh` by nearest neighbour: each source pixel
/// becomes a block. Rows that repeat a source row are copied whole.
#[inline(never)]
pub fn upscale_nearest(rgba: &[u8], (w, h): (usize, usize), (rw, rh): (usize, usize)) -> Vec<u8> {
    let mut out = vec![0u8; rw * rh * 4];
    if w == 0 || h == 0 || rgba.len() < w * h * 4 {
        return out;
    }
    let xs: Vec<usize> = (0..rw).map(|x| x * w / rw * 4).collect();
    let mut last: Option<(usize, usize)> = None;
    for y in 0..rh {
        let sy = y * h / rh;
        let (done, row) = out.split_at_mut(y * rw * 4);
        let row = &mut row[..rw * 4];
        match last {
            Some((from, s)) if s == sy => row.copy_from_slice(&done[from..from + rw * 4]),
            _ => {
                let src = &rgba[sy * w * 4..(sy + 1) * w * 4];
                for (dst, &sx) in row.chunks_exact_mut(4).zip(&xs) {
                    dst.copy_from_slice(&src[sx..sx + 4]);
                }
                last = Some((y * rw * 4, sy));
            }
        }
    }
    out
}

/// The colour of each value (RGBA bytes, as `u32::from_le_bytes`) from a colour table of
/// `lut.len()` entries spread over `[lo, hi]`: the nearest entry, the ends for values
/// beyond them, the middle when the range is empty, `masked` for NaN.
#[inline(never)]
pub fn colour_cells(values: &[f64], (lo, hi): (f64, f64), lut: &[u32], masked: u32) -> Vec<u32> {
    let Some(last) = lut.len().checked_sub(1) else {
        return vec![masked; values.len()];
    };
    let span = hi - lo;
    let scale = last as f64;
    values
        .iter()
        .map(|&v| {
            if v.is_nan() {
                return masked;
            }
            let t = if span > 0.0 { (v - lo) / span } else { 0.5 };
            let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
            // Rounded half up (t ≥ 0): `f64::round` is a library call in WebAssembly.
            lut[((t * scale + 0.5).floor() as usize).min(last)]
        })
        .collect()
}

/// The RGBA image of a grid of cells: pixel `(x, y)` takes the colour (RGBA bytes, as
/// `u32::from_le_bytes`) of cell `(rows[y], cols[x])`, with `cells` in rows of `n_cols`. Rows
/// that repeat the previous row's cells are copied whole.
#[inline(never)]
pub fn expand_cells(cells: &[u32], n_cols: usize, rows: &[u32], cols: &[u32]) -> Vec<u8> {
    let w = cols.len();
    let mut out = vec![0u8; w * rows.len() * 4];
    for (y, &r) in rows.iter().enumerate() {
        let (done, row) = out.split_at_mut(y * w * 4);
        let row = &mut row[..w * 4];
        if y > 0 && rows[y - 1] == r {
            row.copy_from_slice(&done[(y - 1) * w * 4..]);
            continue;
        }
        let line = &cells[r as usize * n_cols..(r as usize + 1) * n_cols];
        for (dst, &c) in row.chunks_exact_mut(4).zip(cols) {
            dst.copy_from_slice(&line[c as usize].to_le_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_take_the_nearest_colour_of_the_table() {
        let lut: Vec<u32> = (0..256).collect();
        let got = colour_cells(
            &[-1.0, 1.0, 0.0, 5.0, -5.0, f64::NAN, 0.6 / 255.0 * 2.0 - 1.0],
            (-1.0, 1.0),
            &lut,
            999,
        );
        assert_eq!(got, vec![0, 255, 128, 255, 0, 999, 1]);
        // An empty range shows the middle.
        assert_eq!(colour_cells(&[3.0], (2.0, 2.0), &lut, 999), vec![128]);
    }

    #[test]
    fn each_pixel_becomes_a_block() {
        // 2 × 2 → 4 × 3.
        let px = |v: u8| [v, v, v, 255];
        let src: Vec<u8> = [1, 2, 3, 4].into_iter().flat_map(px).collect();
        let out = upscale_nearest(&src, (2, 2), (4, 3));
        let values: Vec<u8> = out.chunks_exact(4).map(|p| p[0]).collect();
        assert_eq!(values, vec![1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn cells_expand_to_their_pixels() {
        let cells: Vec<u32> = (1..=6).collect();
        // 2 rows × 3 columns of cells on 4 × 3 pixels.
        let out = expand_cells(&cells, 3, &[0, 0, 1], &[0, 1, 1, 2]);
        let values: Vec<u8> = out.chunks_exact(4).map(|p| p[0]).collect();
        assert_eq!(values, vec![1, 2, 2, 3, 1, 2, 2, 3, 4, 5, 5, 6]);
    }

    #[test]
    fn a_short_source_gives_a_transparent_image() {
        assert!(upscale_nearest(&[1, 2, 3], (2, 2), (3, 3))
            .iter()
            .all(|&b| b == 0));
    }
}
