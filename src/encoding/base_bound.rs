//! The base a context length needs: Men et al. (NeurIPS 2024), “Base of RoPE Bounds Context
//! Length”. With `θ_i = base^(−2i/D)` over the `D/2` pairs of a rotary width `D`,
//!
//! `B(m) = Σ_{i<D/2} cos(m · θ_i)`
//!
//! is, up to a constant, how much more a query attends to a key equal to itself than to a
//! random one at distance `m`. The paper argues a model can attend to similar tokens at
//! distance `m` only while `B(m) ≥ 0`, so a context of `L` positions needs a base whose first
//! `m` with `B(m) < 0` is at least `L`.
//!
//! The first negative `m` is found by a scan that is exact to a dense one (`pe_kernels::cos_sum`);
//! the smallest base for `L` by bisection on the base, over that scan.

use pe_kernels::cos_sum;

use super::rope::base_inv_freq;

/// The scan stops here: `B(m) ≥ 0` for every `m` below it is reported as such.
pub const SCAN_LIMIT: u64 = 1 << 24;

/// `θ_i` for the pairs of rotary width `d` (even, ≥ 2), fastest first.
pub fn thetas(d: usize, base: f64) -> Vec<f64> {
    base_inv_freq(base, d.max(2))
}

/// `B(m)` at a real `m`, summed directly.
pub fn b_sum(thetas: &[f64], m: f64) -> f64 {
    thetas.iter().map(|t| (m * t).cos()).sum()
}

/// The first integer `m` with `B(m) < 0` below `limit`, and whether the scan finished within
/// `max_evals` evaluations (when it did not, `None` says nothing).
pub fn first_negative(d: usize, base: f64, limit: u64, max_evals: u64) -> cos_sum::Scan {
    cos_sum::first_negative(&thetas(d, base), 0, limit, max_evals)
}

/// A scan for the first negative `B(m)` (up to [`SCAN_LIMIT`]), done in slices: a large base
/// takes longer than a frame, so the page advances it a slice at a time and shows it when done.
#[derive(Clone, Debug, PartialEq)]
pub struct Crossing {
    pub d: usize,
    pub base: f64,
    thetas: Vec<f64>,
    scan: cos_sum::Scan,
}

impl Crossing {
    pub fn new(d: usize, base: f64) -> Crossing {
        Crossing::with_thetas(d, base, thetas(d, base))
    }

    /// A scan of given frequencies (fastest first), e.g. a model's after its scaling.
    pub fn with_thetas(d: usize, base: f64, thetas: Vec<f64>) -> Crossing {
        Crossing {
            d,
            base,
            thetas,
            scan: cos_sum::Scan {
                first: None,
                reached: 0,
                evals: 0,
            },
        }
    }

    pub fn done(&self) -> bool {
        self.scan.finished(SCAN_LIMIT)
    }

    /// The answer once done: `Some(m)`, or `None` for no negative below [`SCAN_LIMIT`].
    pub fn first(&self) -> Option<Option<u64>> {
        self.done().then_some(self.scan.first)
    }

    /// Every `m` below this one is known to have `B(m) ≥ 0`.
    pub fn reached(&self) -> u64 {
        self.scan.reached
    }

    /// Goes on for at most `budget` term evaluations; returns those spent.
    pub fn advance(&mut self, budget: u64) -> u64 {
        if self.done() {
            return 0;
        }
        let n = self.thetas.len().max(1) as u64;
        let s = cos_sum::first_negative(
            &self.thetas,
            self.scan.reached,
            SCAN_LIMIT,
            (budget / n).max(1),
        );
        self.scan.first = s.first;
        self.scan.reached = s.reached;
        self.scan.evals += s.evals;
        s.evals * n
    }
}

/// The bases of the smallest-base chart: [`GRID_PER_DECADE`] per decade over [`GRID_RANGE`].
pub const GRID_PER_DECADE: usize = 10;
pub const GRID_RANGE: (i32, i32) = (1, 9);

/// The first crossing of every grid base for one rotary width, filled in slices.
#[derive(Clone, Debug, PartialEq)]
pub struct BaseGrid {
    pub d: usize,
    pub points: Vec<Crossing>,
}

impl BaseGrid {
    pub fn new(d: usize) -> BaseGrid {
        let n = (GRID_RANGE.1 - GRID_RANGE.0) as usize * GRID_PER_DECADE;
        let points = (0..=n)
            .map(|k| {
                let base = 10f64.powf(GRID_RANGE.0 as f64 + k as f64 / GRID_PER_DECADE as f64);
                Crossing::new(d, base)
            })
            .collect();
        BaseGrid { d, points }
    }

    pub fn done(&self) -> bool {
        self.points.iter().all(Crossing::done)
    }

    /// Advances the unfinished scans, smallest base first, by at most `budget` term
    /// evaluations in all; returns those spent.
    pub fn advance(&mut self, budget: u64) -> u64 {
        let mut spent = 0;
        for p in self.points.iter_mut().filter(|p| !p.done()) {
            if spent >= budget {
                break;
            }
            spent += p.advance(budget - spent);
        }
        spent
    }

    /// The smallest grid base whose `B(m)` stays ≥ 0 below `context` (`None`: none on the grid,
    /// or not all scanned yet).
    pub fn smallest_base(&self, context: u64) -> Option<f64> {
        for p in &self.points {
            match p.first()? {
                Some(m) if m < context => continue,
                _ => return Some(p.base),
            }
        }
        None
    }
}

/// The smallest base for `context`: the first grid base whose `B(m)` stays ≥ 0 below it,
/// refined by bisection (to a relative 10⁻⁶) between it and the grid base below, which fails.
/// (`B`'s first crossing does not grow steadily with the base, so a base between two failing
/// grid bases could pass; the grid is dense enough for a chart, and the tests check the grid.)
pub fn min_base(grid: &BaseGrid, context: u64) -> Option<f64> {
    let d = grid.d;
    let hi_base = grid.smallest_base(context)?;
    let k = grid.points.iter().position(|p| p.base == hi_base)?;
    if k == 0 {
        return Some(hi_base);
    }
    let (mut lo, mut hi) = (grid.points[k - 1].base.ln(), hi_base.ln());
    while hi - lo > 1e-6 {
        let mid = 0.5 * (lo + hi);
        if holds_for(d, mid.exp(), context) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi.exp())
}

/// Whether `B(m) ≥ 0` for every integer `0 ≤ m < context`.
pub fn holds_for(d: usize, base: f64, context: u64) -> bool {
    first_negative(d, base, context, u64::MAX).first.is_none()
}

/// Distances sampled per pixel column of the log-distance charts (all of a column's integers
/// when it holds no more), and in a quick paint.
pub const COLUMN_SAMPLES: usize = 16;
pub const QUICK_SAMPLES: usize = 4;

/// `B(Δ)/(D/2)`, as `(log10 Δ, lowest, highest)`, over the pixel columns of a log axis `0..=x_max` (log10 of the distance): each
/// column's lowest and highest value over every integer in it when it holds at most `samples`,
/// else over `samples` integers spread across it and every distance of `extra` that falls in
/// it (a marked crossing is then always drawn below zero).
pub fn mean_cos_columns(
    thetas: &[f64],
    x_max: f64,
    px: usize,
    samples: usize,
    extra: &[u64],
) -> Vec<(f64, f64, f64)> {
    let n = thetas.len().max(1);
    let quarters = vec![1u32; thetas.len()];
    let mut out = Vec::with_capacity(px);
    let mut next = 1u64;
    let mut values = Vec::new();
    for c in 0..px {
        let hi = 10f64.powf(x_max * (c + 1) as f64 / px as f64).floor() as u64;
        if hi < next {
            continue;
        }
        let (a, b) = (next, hi);
        next = hi + 1;
        let span = b - a + 1;
        let mut ms: Vec<f64> = if span as usize <= samples {
            (a..=b).map(|m| m as f64).collect()
        } else {
            (0..samples)
                .map(|k| (a + (span - 1) * k as u64 / (samples as u64 - 1).max(1)) as f64)
                .collect()
        };
        ms.extend(
            extra
                .iter()
                .filter(|m| (a..=b).contains(m))
                .map(|m| *m as f64),
        );
        values.clear();
        values.resize(ms.len() * thetas.len(), 0.0);
        pe_kernels::trig::sinusoid_grid(&ms, thetas, &quarters, &mut values);
        let (mut lo, mut hi_v) = (f64::INFINITY, f64::NEG_INFINITY);
        for row in values.chunks(n) {
            let v = row.iter().sum::<f64>() / n as f64;
            lo = lo.min(v);
            hi_v = hi_v.max(v);
        }
        out.push(((a as f64).log10(), lo, hi_v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dense scan of every integer, summing directly.
    fn dense(d: usize, base: f64, limit: u64) -> Option<u64> {
        let th = thetas(d, base);
        (0..limit).find(|&m| b_sum(&th, m as f64) < 0.0)
    }

    #[test]
    fn b_is_the_direct_sum() {
        let th = thetas(128, 1e4);
        assert_eq!(th.len(), 64);
        assert_eq!(b_sum(&th, 0.0), 64.0);
        // At m = 1: Σ cos(10000^(−i/64)), summed here independently.
        let direct: f64 = (0..64)
            .map(|i| (10000f64.powf(-(i as f64) / 64.0)).cos())
            .sum();
        assert!((b_sum(&th, 1.0) - direct).abs() < 1e-12);
    }

    #[test]
    fn first_crossing_matches_a_dense_scan() {
        // D = 128 at the bases of the paper's table for 4K, 8K and 32K contexts, and others.
        for (d, base, expect) in [
            (128, 1e4, 1707),
            (128, 2.7e4, 4079),
            (128, 8.4e4, 8592),
            (128, 6.4e5, 27685),
            (64, 1e4, 725),
        ] {
            let scan = first_negative(d, base, SCAN_LIMIT, u64::MAX);
            assert_eq!(scan.first, Some(expect), "D {d}, base {base}");
            assert_eq!(dense(d, base, 40_000), Some(expect), "D {d}, base {base}");
            let th = thetas(d, base);
            assert!(b_sum(&th, expect as f64) < 0.0);
            assert!(b_sum(&th, expect as f64 - 1.0) >= 0.0);
        }
    }

    #[test]
    fn smallest_base_is_where_the_bound_starts_to_hold() {
        let mut grid = BaseGrid::new(64);
        while !grid.done() {
            grid.advance(1 << 20);
        }
        for context in [256u64, 1024, 4096, 65536] {
            let b = min_base(&grid, context).unwrap();
            assert!(holds_for(64, b, context), "L {context}");
            assert!(!holds_for(64, b * (1.0 - 2e-6), context), "L {context}");
            // And by the dense scan, independently of the skipping one.
            assert_eq!(dense(64, b, context), None);
            assert!(dense(64, b * (1.0 - 2e-6), context).is_some());
            // Every grid base below it fails.
            for p in grid.points.iter().filter(|p| p.base < b) {
                assert!(p.first().unwrap().unwrap() < context);
            }
        }
    }

    #[test]
    fn a_scan_in_slices_equals_one_scan() {
        let mut c = Crossing::new(128, 6.4e5);
        let mut slices = 0;
        while !c.done() {
            c.advance(5_000);
            slices += 1;
        }
        assert!(slices > 10);
        assert_eq!(c.first(), Some(Some(27685)));
        assert_eq!(Crossing::new(128, 1e4).first(), None, "not scanned yet");
    }

    #[test]
    fn a_column_holding_the_crossing_dips_below_zero() {
        let th = thetas(128, 1e4);
        let cols = mean_cos_columns(&th, 7.0, 600, COLUMN_SAMPLES, &[1707]);
        let at = cols.iter().rev().find(|c| c.0 <= 1707f64.log10()).unwrap();
        assert!(at.1 < 0.0, "{at:?}");
        // A column with few integers holds every one of them: Δ = 1 … 10 are their own columns.
        assert_eq!(
            cols[0],
            (0.0, b_sum(&th, 1.0) / 64.0, b_sum(&th, 1.0) / 64.0)
        );
        assert!(cols.windows(2).all(|w| w[0].0 < w[1].0));
    }

    /// Why the smallest base is searched on a grid and not by bisection alone: a larger base
    /// can cross zero sooner.
    #[test]
    fn the_first_crossing_is_not_monotone_in_the_base() {
        let at = |base: f64| {
            first_negative(128, base, SCAN_LIMIT, u64::MAX)
                .first
                .unwrap()
        };
        assert_eq!(at(1e4), 1707);
        assert!(at(10f64.powf(4.02)) < 1707);
    }
}
