//! Dot products with independent partial sums (vectorised at opt-level 3).

/// A dot product with eight partial sums, so that it vectorises (wasm simd128).
pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        // Fixed-size arrays: no bounds checks, so the loop vectorises.
        let (x, y): (&[f32; 8], &[f32; 8]) = (x.try_into().unwrap(), y.try_into().unwrap());
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// Dot products of `a` with four rows at once: `a` is read once for all four.
pub fn dot4_f32(a: &[f32], rows: [&[f32]; 4]) -> [f32; 4] {
    let n = a.len();
    let [r0, r1, r2, r3] = rows.map(|r| &r[..n]);
    let mut acc = [[0.0f32; 4]; 4];
    let chunks = a
        .chunks_exact(4)
        .zip(r0.chunks_exact(4))
        .zip(r1.chunks_exact(4))
        .zip(r2.chunks_exact(4))
        .zip(r3.chunks_exact(4));
    for ((((x, y0), y1), y2), y3) in chunks {
        for l in 0..4 {
            acc[0][l] += x[l] * y0[l];
            acc[1][l] += x[l] * y1[l];
            acc[2][l] += x[l] * y2[l];
            acc[3][l] += x[l] * y3[l];
        }
    }
    let tail = n - n % 4;
    let mut out = [0.0f32; 4];
    for (r, row) in [r0, r1, r2, r3].iter().enumerate() {
        let t: f32 = a[tail..].iter().zip(&row[tail..]).map(|(x, y)| x * y).sum();
        out[r] = acc[r].iter().sum::<f32>() + t;
    }
    out
}

/// [`dot_f32`] for f64, with four partial sums.
pub fn dot_f64(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        let (x, y): (&[f64; 4], &[f64; 4]) = (x.try_into().unwrap(), y.try_into().unwrap());
        for l in 0..4 {
            acc[l] += x[l] * y[l];
        }
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// `out += a · x`.
pub fn axpy_f64(out: &mut [f64], a: f64, x: &[f64]) {
    for (o, v) in out.iter_mut().zip(x) {
        *o += a * v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dots_equal_the_plain_sums() {
        for n in [0, 1, 3, 4, 7, 8, 9, 17, 384, 385] {
            let a: Vec<f32> = (0..n).map(|i| ((i * 7 % 13) as f32 - 6.0) / 8.0).collect();
            let rows: Vec<Vec<f32>> = (0..4)
                .map(|r| {
                    (0..n)
                        .map(|i| ((i * (r + 3) % 11) as f32 - 5.0) / 4.0)
                        .collect()
                })
                .collect();
            let plain =
                |x: &[f32], y: &[f32]| x.iter().zip(y).map(|(a, b)| (a * b) as f64).sum::<f64>();
            let four = dot4_f32(&a, [&rows[0], &rows[1], &rows[2], &rows[3]]);
            for (r, row) in rows.iter().enumerate() {
                let want = plain(&a, row);
                assert!((dot_f32(&a, row) as f64 - want).abs() < 1e-4, "n={n}");
                assert!((four[r] as f64 - want).abs() < 1e-4, "n={n} row {r}");
            }
            let (a64, b64): (Vec<f64>, Vec<f64>) = a
                .iter()
                .zip(&rows[1])
                .map(|(x, y)| (*x as f64, *y as f64))
                .unzip();
            assert!((dot_f64(&a64, &b64) - plain(&a, &rows[1])).abs() < 1e-12);
        }
    }
}
