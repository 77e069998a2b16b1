//! Line series sampled at display resolution with a per-pixel min/max envelope, so that fast
//! oscillations stay visible as a band instead of aliasing into a false slow wave.

/// One drawn column: an x value and the lowest and highest y of the points it covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    pub x: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Reduces `ys[n]` (at `x_of(n)`) to at most `px` columns. With no more points than pixels,
/// every point is its own column (`lo == hi`).
pub fn envelope(ys: &[f64], x_of: impl Fn(usize) -> f64, px: usize) -> Vec<Column> {
    let px = px.max(1);
    if ys.len() <= px {
        return ys
            .iter()
            .enumerate()
            .map(|(n, &y)| Column {
                x: x_of(n),
                lo: y,
                hi: y,
            })
            .collect();
    }
    let mut out = Vec::with_capacity(px);
    for p in 0..px {
        let start = p * ys.len() / px;
        let end = ((p + 1) * ys.len() / px).max(start + 1);
        let (lo, hi) = ys[start..end]
            .iter()
            .filter(|y| y.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &y| {
                (lo.min(y), hi.max(y))
            });
        if lo <= hi {
            out.push(Column {
                x: (x_of(start) + x_of(end - 1)) / 2.0,
                lo,
                hi,
            });
        }
    }
    out
}

/// A polyline through the columns that sweeps each column's full `[lo, hi]` range,
/// alternating direction so that neighbouring columns join at nearby ends.
pub fn polyline(columns: &[Column]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(columns.len() * 2);
    for (n, c) in columns.iter().enumerate() {
        if c.lo == c.hi {
            out.push((c.x, c.lo));
        } else if n % 2 == 0 {
            out.extend([(c.x, c.lo), (c.x, c.hi)]);
        } else {
            out.extend([(c.x, c.hi), (c.x, c.lo)]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_extremes_of_a_fast_oscillation() {
        let ys: Vec<f64> = (0..10_000).map(|n| (n as f64 * 2.9).sin()).collect();
        let cols = envelope(&ys, |n| n as f64, 100);
        assert_eq!(cols.len(), 100);
        assert!(cols.iter().all(|c| c.lo < -0.9 && c.hi > 0.9));
    }

    #[test]
    fn small_series_pass_through() {
        let cols = envelope(&[1.0, 2.0], |n| n as f64 * 10.0, 100);
        assert_eq!(polyline(&cols), vec![(0.0, 1.0), (10.0, 2.0)]);
    }
}

/// Sinusoid terms a long curve may cost per repaint (a few milliseconds in wasm).
pub const TERMS_PER_FRAME: usize = 1_000_000;
/// The terms a curve drawn from quick data may evaluate while a slider moves: with the charts
/// beside it, it must fit its share of the frame (still [`MIN_DRAWN_POINTS`] points at least).
pub const QUICK_TERMS: usize = TERMS_PER_FRAME / 16;
/// A curve is never drawn from fewer points than this (several per pixel on any screen).
pub const MIN_DRAWN_POINTS: usize = 1536;

/// The whole stride at which a curve of `n` points, each costing `terms` sinusoid terms, is
/// evaluated for display: 1 (every point) when that fits in `budget`, else the smallest stride
/// that does, never leaving fewer than [`MIN_DRAWN_POINTS`] points. Exports use every point.
pub fn display_stride(n: usize, terms: usize, budget: usize) -> usize {
    let affordable = (budget / terms.max(1)).max(MIN_DRAWN_POINTS);
    n.div_ceil(affordable).max(1)
}

/// The terms a curve of `n` distances at [`display_stride`] evaluates: the work its paint
/// does (see `Painter::quick_for`).
pub fn display_work(n: usize, terms: usize, budget: usize) -> f64 {
    (n.div_ceil(display_stride(n, terms, budget)) * terms.max(1)) as f64
}

#[cfg(test)]
mod stride_tests {
    use super::*;

    #[test]
    fn strides_only_when_over_budget() {
        assert_eq!(display_stride(8192, 64, TERMS_PER_FRAME), 1);
        assert_eq!(display_stride(131_073, 256, TERMS_PER_FRAME), 34);
        // The work follows the stride: every distance when affordable, capped near the budget.
        assert_eq!(display_work(8192, 64, TERMS_PER_FRAME), (8192 * 64) as f64);
        assert_eq!(
            display_work(131_073, 256, TERMS_PER_FRAME),
            (131_073usize.div_ceil(34) * 256) as f64
        );
        // Very expensive points still keep MIN_DRAWN_POINTS.
        assert_eq!(display_stride(131_072, 1 << 30, TERMS_PER_FRAME), 86);
    }
}
