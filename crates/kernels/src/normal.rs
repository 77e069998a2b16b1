//! Standard normal samples for random tables (millions of cells per slider move).

/// SplitMix64: the app's seeded generator (its `SeededNormal` draws from one too).
#[derive(Clone, Debug)]
pub struct SplitMix {
    state: u64,
}

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix { state: seed }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }
}

/// The seed of row `row`'s own stream in a table seeded with `seed`.
fn row_seed(seed: u64, row: usize) -> u64 {
    SplitMix::new(seed ^ (row as u64).wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// Fills `out`, rows of `cols` values, with `scale` times standard normal samples: the `k`-th
/// row of `out` is row `first + k · step` of the table seeded with `seed`, each row drawn from
/// a stream of its own. So a few rows of a table (a sample for a quick picture) cost only
/// those rows, and equal the same rows of the whole table.
pub fn fill_normal_rows(
    out: &mut [f32],
    cols: usize,
    first: usize,
    step: usize,
    seed: u64,
    scale: f64,
) {
    if cols == 0 {
        return;
    }
    let mut z = Ziggurat::new(SplitMix::new(0));
    for (k, row) in out.chunks_mut(cols).enumerate() {
        z.rng = SplitMix::new(row_seed(seed, first + k * step));
        for v in row.iter_mut() {
            *v = (scale * z.sample()) as f32;
        }
    }
}

/// Standard normal samples by Marsaglia and Tsang's ziggurat (128 layers): almost every
/// sample costs one random integer and one multiply, no logarithm or sine, so that a new
/// random table (up to millions of cells) is drawn within a frame.
struct Ziggurat {
    rng: SplitMix,
    /// Integer thresholds: below `k[i]` the sample lies inside layer `i`'s rectangle.
    k: [u32; 128],
    /// Layer widths divided by 2³¹.
    w: [f64; 128],
    /// The density at each layer's edge.
    f: [f64; 128],
}

impl Ziggurat {
    /// The tail starts here.
    const R: f64 = 3.442619855899;
    /// The area of each layer.
    const V: f64 = 9.91256303526217e-3;

    fn new(rng: SplitMix) -> Ziggurat {
        let m = 2147483648.0;
        let (mut k, mut w, mut f) = ([0u32; 128], [0.0; 128], [0.0; 128]);
        let mut d = Self::R;
        let mut t = d;
        let q = Self::V / (-0.5 * d * d).exp();
        k[0] = (d / q * m) as u32;
        w[0] = q / m;
        w[127] = d / m;
        f[0] = 1.0;
        f[127] = (-0.5 * d * d).exp();
        for i in (1..=126).rev() {
            d = (-2.0 * (Self::V / d + (-0.5 * d * d).exp()).ln()).sqrt();
            k[i + 1] = (d / t * m) as u32;
            t = d;
            f[i] = (-0.5 * d * d).exp();
            w[i] = d / m;
        }
        Ziggurat { rng, k, w, f }
    }

    #[inline]
    fn sample(&mut self) -> f64 {
        loop {
            let u = self.rng.next_u64();
            // The layer from the low bits, the signed value from the high ones.
            let i = (u & 127) as usize;
            let h = (u >> 32) as u32 as i32;
            let x = h as f64 * self.w[i];
            if h.unsigned_abs() < self.k[i] {
                return x;
            }
            if i == 0 {
                // The tail beyond R (Marsaglia's method).
                loop {
                    let x = -self.rng.uniform().ln() / Self::R;
                    let y = -self.rng.uniform().ln();
                    if y + y >= x * x {
                        return if h > 0 { Self::R + x } else { -Self::R - x };
                    }
                }
            }
            if self.f[i] + self.rng.uniform() * (self.f[i - 1] - self.f[i]) < (-0.5 * x * x).exp() {
                return x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_drawn_alone_equal_the_same_rows_of_the_whole_table() {
        let cols = 7;
        let mut whole = vec![0.0f32; 50 * cols];
        fill_normal_rows(&mut whole, cols, 0, 1, 9, 0.5);
        let mut some = vec![0.0f32; 5 * cols];
        fill_normal_rows(&mut some, cols, 3, 10, 9, 0.5);
        for k in 0..5 {
            let r = 3 + 10 * k;
            assert_eq!(
                &some[k * cols..(k + 1) * cols],
                &whole[r * cols..(r + 1) * cols]
            );
        }
        // Rows differ from one another, and from another seed's.
        assert_ne!(&whole[..cols], &whole[cols..2 * cols]);
        let mut other = vec![0.0f32; 50 * cols];
        fill_normal_rows(&mut other, cols, 0, 1, 10, 0.5);
        assert_ne!(whole, other);
    }

    #[test]
    fn ziggurat_samples_are_standard_normal() {
        let mut z = Ziggurat::new(SplitMix::new(11));
        let n = 1_000_000;
        let xs: Vec<f64> = (0..n).map(|_| z.sample()).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        let frac = |lo: f64| xs.iter().filter(|x| x.abs() > lo).count() as f64 / n as f64;
        assert!(mean.abs() < 0.005, "mean {mean}");
        assert!((var - 1.0).abs() < 0.005, "variance {var}");
        // Two-sided tail masses of the normal distribution.
        for (t, p) in [
            (0.5, 0.617075),
            (1.0, 0.317311),
            (2.0, 0.0455003),
            (3.0, 0.0026998),
            (3.5, 0.000465),
        ] {
            assert!(
                (frac(t) - p).abs() < 4.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-5,
                "P(|x| > {t}) = {} vs {p}",
                frac(t)
            );
        }
    }
}
