//! Radix-2 complex FFTs in f64 and f32, and the summed autocorrelation built on them.

macro_rules! radix2_fft {
    ($name:ident, $t:ty, $doc:literal) => {
        #[doc = $doc]
        /// An iterative radix-2 FFT of one power-of-two length. Each stage's twiddles are stored
        /// contiguously and each butterfly block is split in halves, so that the inner loop is a
        /// bounds-check-free zip over slices.
        pub struct $name {
            /// Bit-reversed index of each position.
            rev: Vec<u32>,
            /// The twiddles of the stage of block length `len` start at `len / 2 − 1`.
            tw_re: Vec<$t>,
            tw_im: Vec<$t>,
        }

        impl $name {
            pub fn new(m: usize) -> $name {
                let bits = m.trailing_zeros();
                let rev = (0..m)
                    .map(|i| {
                        if bits == 0 {
                            0
                        } else {
                            (i.reverse_bits() >> (usize::BITS - bits)) as u32
                        }
                    })
                    .collect();
                let (mut tw_re, mut tw_im) = (Vec::with_capacity(m), Vec::with_capacity(m));
                let mut len = 2;
                while len <= m {
                    for k in 0..len / 2 {
                        let a = -2.0 * std::f64::consts::PI * k as f64 / len as f64;
                        tw_re.push(a.cos() as $t);
                        tw_im.push(a.sin() as $t);
                    }
                    len *= 2;
                }
                $name { rev, tw_re, tw_im }
            }

            /// In place; `inverse` conjugates the twiddles and does not divide by `m`.
            pub fn run(&self, re: &mut [$t], im: &mut [$t], inverse: bool) {
                let m = re.len();
                for (i, &j) in self.rev.iter().enumerate() {
                    let j = j as usize;
                    if j > i {
                        re.swap(i, j);
                        im.swap(i, j);
                    }
                }
                let sign: $t = if inverse { -1.0 } else { 1.0 };
                let mut len = 2;
                while len <= m {
                    let half = len / 2;
                    let (wr, wi) = (
                        &self.tw_re[half - 1..len - 1],
                        &self.tw_im[half - 1..len - 1],
                    );
                    for (cr, ci) in re.chunks_exact_mut(len).zip(im.chunks_exact_mut(len)) {
                        let (ar, br) = cr.split_at_mut(half);
                        let (ai, bi) = ci.split_at_mut(half);
                        let halves = ar
                            .iter_mut()
                            .zip(br.iter_mut())
                            .zip(ai.iter_mut().zip(bi.iter_mut()));
                        for (((ar, br), (ai, bi)), (wr, wi)) in halves.zip(wr.iter().zip(wi)) {
                            let wi = sign * wi;
                            let tr = *br * wr - *bi * wi;
                            let ti = *br * wi + *bi * wr;
                            *br = *ar - tr;
                            *bi = *ai - ti;
                            *ar += tr;
                            *ai += ti;
                        }
                    }
                    len *= 2;
                }
            }
        }
    };
}

radix2_fft!(Fft, f64, "In f64.");
radix2_fft!(Fft32, f32, "In f32 (twice the SIMD lanes of f64).");

/// `Σ_j Σ_p x_j[p]·x_j[p + k]` for `k = 0 … n−1`: the autocorrelations of `cols` real series of
/// length `n`, summed. `series` holds them one after the other (`series[j·n + p]`).
///
/// Wiener–Khinchin: the sum of the autocorrelations is the inverse FFT of the summed power
/// spectra (zero-padded to `m ≥ 2n`, so that the correlation is linear, not circular). Two real
/// series share one complex f32 FFT; the spectra are summed and inverted in f64.
pub fn summed_autocorrelation(series: &[f32], n: usize, cols: usize) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let m = (2 * n).next_power_of_two();
    let fft = Fft32::new(m);
    let mut power = vec![0.0f64; m];
    let (mut re, mut im) = (vec![0.0f32; m], vec![0.0f32; m]);
    for j in (0..cols).step_by(2) {
        re[..n].copy_from_slice(&series[j * n..(j + 1) * n]);
        if j + 1 < cols {
            im[..n].copy_from_slice(&series[(j + 1) * n..(j + 2) * n]);
        } else {
            im[..n].fill(0.0);
        }
        re[n..].fill(0.0);
        im[n..].fill(0.0);
        fft.run(&mut re, &mut im, false);
        // z = x + iy: |X_f|² + |Y_f|² = (|Z_f|² + |Z_(m−f)|²) / 2.
        let sq = |f: usize| (re[f] as f64).powi(2) + (im[f] as f64).powi(2);
        power[0] += sq(0);
        for (f, p) in power.iter_mut().enumerate().skip(1) {
            *p += 0.5 * (sq(f) + sq(m - f));
        }
    }
    let mut zeros = vec![0.0f64; m];
    Fft::new(m).run(&mut power, &mut zeros, true);
    power.truncate(n);
    power.iter_mut().for_each(|v| *v /= m as f64);
    power
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summed_autocorrelation_equals_the_direct_sums() {
        for (n, cols) in [(1, 1), (2, 3), (5, 2), (37, 5), (64, 7)] {
            let series: Vec<f32> = (0..n * cols)
                .map(|i| ((i * 7919 % 101) as f32 - 50.0) / 50.0)
                .collect();
            let got = summed_autocorrelation(&series, n, cols);
            assert_eq!(got.len(), n);
            for k in 0..n {
                let want: f64 = (0..cols)
                    .map(|j| {
                        (0..n - k)
                            .map(|p| series[j * n + p] as f64 * series[j * n + p + k] as f64)
                            .sum::<f64>()
                    })
                    .sum();
                assert!(
                    (got[k] - want).abs() < 1e-4 * (1.0 + want.abs()),
                    "n={n} cols={cols} k={k}: {} vs {want}",
                    got[k]
                );
            }
        }
    }

    #[test]
    fn f32_matches_f64() {
        let m = 512;
        let re0: Vec<f64> = (0..m).map(|i| ((i * 5 % 7) as f64 - 3.0) * 0.5).collect();
        let (mut a, mut b) = (re0.clone(), vec![0.0; m]);
        Fft::new(m).run(&mut a, &mut b, false);
        let (mut c, mut d): (Vec<f32>, Vec<f32>) =
            (re0.iter().map(|v| *v as f32).collect(), vec![0.0; m]);
        Fft32::new(m).run(&mut c, &mut d, false);
        for f in 0..m {
            assert!((a[f] - c[f] as f64).abs() < 1e-3 && (b[f] - d[f] as f64).abs() < 1e-3);
        }
    }

    #[test]
    fn matches_the_direct_dft_and_inverts() {
        for m in [1, 2, 4, 8, 64, 256] {
            let re0: Vec<f64> = (0..m).map(|i| ((i * 5 % 7) as f64 - 3.0) * 0.5).collect();
            let im0: Vec<f64> = (0..m).map(|i| ((i * 3 % 5) as f64 - 2.0) * 0.25).collect();
            let fft = Fft::new(m);
            let (mut re, mut im) = (re0.clone(), im0.clone());
            fft.run(&mut re, &mut im, false);
            for f in 0..m {
                let (mut sr, mut si) = (0.0, 0.0);
                for t in 0..m {
                    let a = -2.0 * std::f64::consts::PI * (f * t) as f64 / m as f64;
                    sr += re0[t] * a.cos() - im0[t] * a.sin();
                    si += re0[t] * a.sin() + im0[t] * a.cos();
                }
                assert!(
                    (re[f] - sr).abs() < 1e-9 && (im[f] - si).abs() < 1e-9,
                    "m={m} f={f}"
                );
            }
            fft.run(&mut re, &mut im, true);
            for t in 0..m {
                assert!((re[t] / m as f64 - re0[t]).abs() < 1e-12, "m={m}");
                assert!((im[t] / m as f64 - im0[t]).abs() < 1e-12, "m={m}");
            }
        }
    }
}
