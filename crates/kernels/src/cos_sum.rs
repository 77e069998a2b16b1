//! The first integer m ≥ 0 where a sum of cosines `B(m) = Σ_i cos(m · θ_i)` is negative: the
//! quantity of Men et al. (2024), "Base of RoPE Bounds Context Length". A dense scan of every m
//! would cost `m × θ.len()` cosines (about 10⁸ for a base of 10⁷); this one is exact to the same
//! scan but skips stretches where `B` provably stays non-negative.
//!
//! The bound: order the θ_i from fast to slow; for any k, the k fastest terms are each ≥ −1, and
//! each slow term satisfies `cos(x + tθ) ≥ cos x − tθ|sin x| − t²θ²/2` (Taylor, with
//! |cos| ≤ 1). So for t ≥ 0,
//! `B(m + t) ≥ (Σ_{i≥k} cos x_i − k) − t Σ_{i≥k} θ_i |sin x_i| − t² Σ_{i≥k} θ_i²/2`,
//! and `B` cannot be negative before the positive root of that quadratic. The scan moves to the
//! largest such root over k (at least 1), which only skips integers where `B ≥ 0`.

/// Where a scan stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The first negative integer found, if any.
    pub first: Option<u64>,
    /// Every integer below this one was checked (`limit` when the scan finished, less when it
    /// ran out of evaluations).
    pub reached: u64,
    /// Evaluations of the sum made.
    pub evals: u64,
}

impl Scan {
    /// Whether the scan answered: it found a negative, or checked everything below the limit.
    pub fn finished(&self, limit: u64) -> bool {
        self.first.is_some() || self.reached >= limit
    }
}

/// The first integer `m` in `start..limit` with `Σ cos(m · θ_i) < 0`, evaluating the sum at
/// most `max_evals` times. `thetas` must be ordered from the largest (fastest) to the
/// smallest. A scan that ran out of evaluations resumes from its `reached`.
pub fn first_negative(thetas: &[f64], start: u64, limit: u64, max_evals: u64) -> Scan {
    let n = thetas.len();
    let mut scan = Scan {
        first: None,
        reached: start,
        evals: 0,
    };
    if n == 0 {
        scan.reached = limit;
        return scan;
    }
    // Steps are powers of two, so that a step is a rotation by a precomputed angle (a few
    // multiplications instead of a sine and a cosine per term); every 64 evaluations, and
    // whenever the sum is near zero, the terms are computed afresh, so rounding cannot build up
    // or decide a sign.
    const STEPS: usize = 40;
    let rot: Vec<(f64, f64)> = (0..STEPS)
        .flat_map(|p| {
            thetas
                .iter()
                .map(move |&t| ((1u64 << p) as f64 * t).sin_cos())
        })
        .collect();
    let mut cos = vec![0.0; n];
    let mut sin = vec![0.0; n];
    let exact = |m: u64, cos: &mut [f64], sin: &mut [f64]| {
        for ((c, s), &t) in cos.iter_mut().zip(sin.iter_mut()).zip(thetas) {
            (*s, *c) = (m as f64 * t).sin_cos();
        }
    };
    let quad: Vec<f64> = thetas.iter().map(|t| 0.5 * t * t).collect();
    let mut m: u64 = start;
    let mut evals = 0u64;
    let mut fresh = true;
    while m < limit && evals < max_evals {
        evals += 1;
        if fresh || evals.is_multiple_of(64) {
            exact(m, &mut cos, &mut sin);
        }
        let mut sum: f64 = cos.iter().sum();
        if sum.abs() < 1e-6 {
            exact(m, &mut cos, &mut sin);
            sum = cos.iter().sum();
        }
        if sum < 0.0 {
            scan.first = Some(m);
            break;
        }
        // Suffixes from the slowest term: a = Σ cos − k, lin = Σ θ|sin|, q = Σ θ²/2.
        let (mut a, mut lin, mut q) = (0.0, 0.0, 0.0);
        let mut best = 1.0f64;
        for k in (0..n).rev() {
            a += cos[k];
            lin += thetas[k] * sin[k].abs();
            q += quad[k];
            let slack = a - k as f64;
            if slack > 0.0 {
                // The positive root of q·t² + lin·t − slack = 0, without cancellation.
                let t = 2.0 * slack / (lin + (lin * lin + 4.0 * q * slack).sqrt());
                best = best.max(t);
            }
        }
        // The largest power of two not above the safe step (and not past the limit).
        let mut p = (best.log2().floor().max(0.0) as usize).min(STEPS - 1);
        while p > 0 && m + (1u64 << p) > limit {
            p -= 1;
        }
        let r = &rot[p * n..(p + 1) * n];
        for ((c, s), &(rs, rc)) in cos.iter_mut().zip(sin.iter_mut()).zip(r) {
            (*c, *s) = (*c * rc - *s * rs, *s * rc + *c * rs);
        }
        fresh = false;
        m += 1u64 << p;
    }
    scan.reached = m.min(limit);
    scan.evals = evals;
    scan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thetas(d: usize, base: f64) -> Vec<f64> {
        (0..d / 2)
            .map(|i| base.powf(-2.0 * i as f64 / d as f64))
            .collect()
    }

    fn dense(th: &[f64], limit: u64) -> Option<u64> {
        (0..limit).find(|&m| th.iter().map(|t| (m as f64 * t).cos()).sum::<f64>() < 0.0)
    }

    #[test]
    fn equals_the_dense_scan() {
        for (d, base) in [
            (128, 1e4),
            (64, 500.0),
            (2, 3.0),
            (16, 1e4),
            (128, 2.7e4),
            (96, 1e6),
        ] {
            let th = thetas(d, base);
            let scan = first_negative(&th, 0, 200_000, u64::MAX);
            assert_eq!(scan.first, dense(&th, 200_000), "D = {d}, base = {base}");
            assert!(scan.evals <= scan.first.map_or(200_000, |m| m + 1));
        }
    }

    #[test]
    fn respects_the_limit() {
        let th = thetas(128, 1e4);
        let below = first_negative(&th, 0, 1707, u64::MAX);
        assert_eq!((below.first, below.reached), (None, 1707));
        assert!(below.finished(1707));
        assert_eq!(first_negative(&th, 0, 1708, u64::MAX).first, Some(1707));
        assert_eq!(first_negative(&[], 0, 10, 5).reached, 10);
        // Out of evaluations: not finished, and what was checked is said.
        let short = first_negative(&th, 0, 1708, 10);
        assert_eq!(short.first, None);
        assert!(!short.finished(1708) && short.reached > 0 && short.evals == 10);
        let below = first_negative(&th, 0, short.reached, u64::MAX);
        assert_eq!(
            below.first, None,
            "the skipped integers were all non-negative"
        );
        // Resumed from where it stopped, it finds the same crossing.
        assert_eq!(
            first_negative(&th, short.reached, 1708, u64::MAX).first,
            Some(1707)
        );
    }
}
