//! Sums of sinusoids over evenly spaced arguments, by rotation recurrence.
//!
//! `e^{i(k+1)·step·ω} = e^{ik·step·ω}·e^{i·step·ω}`: one complex multiply per term instead of a
//! `sin` and a `cos`, with an exact re-seed every [`RESEED_EVERY`] steps so the drift stays at
//! a few hundred ulps. Four independent partial sums let the loop vectorise (wasm simd128).

/// Rotations between exact re-seeds.
pub const RESEED_EVERY: usize = 256;

/// `Σ_j (a_j cos(k·step·ω_j) + b_j sin(k·step·ω_j))` for `k = 0 … count−1`.
pub fn weighted_series(omegas: &[f64], a: &[f64], b: &[f64], step: f64, count: usize) -> Vec<f64> {
    weighted_series_from(omegas, a, b, step, 0, count)
}

/// [`weighted_series`] for `k = start … start+count−1`. Re-seeded at `start` and every
/// [`RESEED_EVERY`] after: with `start` a multiple of it, the values are those of the series
/// from 0, bit for bit (a series is extended without computing it again).
pub fn weighted_series_from(
    omegas: &[f64],
    a: &[f64],
    b: &[f64],
    step: f64,
    start: usize,
    count: usize,
) -> Vec<f64> {
    let n = omegas.len();
    let lanes = n.div_ceil(4) * 4;
    let pad = |v: &[f64], fill: f64| {
        let mut out = vec![fill; lanes];
        out[..n].copy_from_slice(&v[..n]);
        out
    };
    let (wa, wb) = (pad(a, 0.0), pad(b, 0.0));
    let mut cd = vec![1.0; lanes];
    let mut sd = vec![0.0; lanes];
    for (j, w) in omegas.iter().enumerate() {
        let (s, c) = (step * w).sin_cos();
        cd[j] = c;
        sd[j] = s;
    }
    let mut c = vec![0.0; lanes];
    let mut s = vec![0.0; lanes];
    let mut out = vec![0.0; count];
    for (chunk_index, chunk) in out.chunks_mut(RESEED_EVERY).enumerate() {
        let k0 = (start + chunk_index * RESEED_EVERY) as f64 * step;
        for (j, w) in omegas.iter().enumerate() {
            let (sv, cv) = (k0 * w).sin_cos();
            c[j] = cv;
            s[j] = sv;
        }
        for cell in chunk.iter_mut() {
            let mut acc = [0.0f64; 4];
            for ((((c4, s4), cd4), sd4), (a4, b4)) in c
                .chunks_exact_mut(4)
                .zip(s.chunks_exact_mut(4))
                .zip(cd.chunks_exact(4))
                .zip(sd.chunks_exact(4))
                .zip(wa.chunks_exact(4).zip(wb.chunks_exact(4)))
            {
                for l in 0..4 {
                    acc[l] += a4[l] * c4[l] + b4[l] * s4[l];
                    let cn = c4[l] * cd4[l] - s4[l] * sd4[l];
                    s4[l] = s4[l] * cd4[l] + c4[l] * sd4[l];
                    c4[l] = cn;
                }
            }
            *cell = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_direct_evaluation_far_out() {
        let omegas = [1.0, 0.3, 0.01, 1e-4, 2.5];
        let (a, b) = ([1.0, -2.0, 0.5, 3.0, 1.0], [0.0, 1.0, -1.0, 0.25, 2.0]);
        let out = weighted_series(&omegas, &a, &b, 3.0, 5000);
        for (k, v) in out.iter().enumerate() {
            let x = 3.0 * k as f64;
            let direct: f64 = (0..5)
                .map(|j| a[j] * (x * omegas[j]).cos() + b[j] * (x * omegas[j]).sin())
                .sum();
            assert!((v - direct).abs() < 1e-10, "k={k}");
        }
    }

    #[test]
    fn extends_bit_for_bit_from_a_multiple_of_the_reseed() {
        let omegas = [1.0, 0.3, 0.01, 1e-4, 2.5];
        let (a, b) = ([1.0, -2.0, 0.5, 3.0, 1.0], [0.0, 1.0, -1.0, 0.25, 2.0]);
        let whole = weighted_series(&omegas, &a, &b, 1.0, 3 * RESEED_EVERY + 17);
        let mut parts = weighted_series(&omegas, &a, &b, 1.0, RESEED_EVERY);
        parts.extend(weighted_series_from(
            &omegas,
            &a,
            &b,
            1.0,
            RESEED_EVERY,
            2 * RESEED_EVERY + 17,
        ));
        assert_eq!(whole, parts);
    }
}
