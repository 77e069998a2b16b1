//! What the Precision panels share: paths' samples, error floors and series.

use leptos::prelude::*;


use crate::encoding::precision::{
    self as precision, Path,
};
use crate::render::charts::{Series, SeriesStyle};
use super::state::PrecisionState;
use crate::ui::context::Computed;
use crate::views::common::line_series;

/// Positions sampled (log-spaced, 1 to 2^26) in the error panel.
pub(super) const ERROR_SAMPLES: usize = 160;
/// Angle errors below this are drawn at it (a log axis has no zero).
pub(super) const ERROR_FLOOR: f64 = precision::ERROR_FLOOR_RAD;

/// Points of `ys` at `xs`, keeping only finite values (inf and NaN become gaps).
pub(super) fn finite_series(
    name: String,
    p: Path,
    xs: &[f64],
    ys: &[f64],
    px: usize,
    style: SeriesStyle,
) -> Series {
    let (fx, fy): (Vec<f64>, Vec<f64>) = xs
        .iter()
        .zip(ys)
        .filter(|(_, y)| y.is_finite())
        .map(|(&x, &y)| (x, y))
        .unzip();
    line_series(name, path_colour(p), &fy, |n| fx[n], px, style)
}

/// The part of the state a panel's data depends on (the other fields set to a constant): its
/// data is not recomputed, nor its chart repainted, when only the other fields move.
pub(super) fn only(
    precision_state: Memo<PrecisionState>,
    keep: fn(&PrecisionState) -> PrecisionState,
) -> Computed<PrecisionState> {
    Computed::new(move || precision_state.with(keep))
}

/// The series colour of a path (fixed, so a path keeps its colour whatever is selected).
pub(super) fn path_colour(p: Path) -> usize {
    Path::ALL.iter().position(|&q| q == p).unwrap_or(0)
}
