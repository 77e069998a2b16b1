//! Where each precision path breaks: the score against distance at a far position
//! (`precision-score`) and the largest angle error against position (`precision-error`).

use leptos::prelude::*;

use crate::encoding::precision::{
    self as precision, angles, inv_freq, largest_error, scores, Path, EXACT_BREAK_SCAN,
};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{fit_y_range, LineChart, Series, SeriesStyle};
use super::state::PrecisionState;
use crate::ui::context::Keyed;
use crate::ui::{export, schedule};
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, Painter, Panel,
};
use crate::views::common::{paint_lines, stride_note, ExportButtons};
use super::shared::{ERROR_FLOOR, ERROR_SAMPLES, finite_series, only};

/// Rotations (one per key position) the score chart may compute per path and frame.
const SCORE_BUDGET: u64 = 60_000;

/// The distances drawn (every `stride`-th, within `budget` rotations per path) and each
/// path's scores at them.
fn score_data(s: &PrecisionState, budget: u64) -> (Vec<u64>, Vec<(Path, Vec<f64>)>) {
    let (last, stride) = score_stride(s, budget);
    let ds: Vec<u64> = (0..=last).step_by(stride as usize).collect();
    let per_path = s
        .paths
        .iter()
        .map(|&p| (p, scores_at(p, s, &ds)))
        .collect::<Vec<_>>();
    (ds, per_path)
}

/// The last distance drawn and the stride: the chart reads every `stride`-th distance (the
/// CSV every one).
fn score_stride(s: &PrecisionState, budget: u64) -> (u64, u64) {
    let last = s.score_distances();
    let stride = ((last + 1) * (s.head_dim as u64 / 2))
        .div_ceil(budget)
        .max(1);
    (last, stride)
}

/// The rotations [`score_data`] computes: the work of the score chart's full paint.
fn score_work(s: &PrecisionState, budget: u64) -> f64 {
    let (last, stride) = score_stride(s, budget);
    ((last + 1).div_ceil(stride) * (s.head_dim as u64 / 2).max(1) * s.paths.len() as u64) as f64
}

/// The q = k = 1 scores of the query at `s.m` with the keys `d` back, for each `d` in `ds`.
fn scores_at(p: Path, s: &PrecisionState, ds: &[u64]) -> Vec<f64> {
    scores(p, &inv_freq(p, s.head_dim, s.theta), s.m, ds)
}

#[component]
pub(super) fn ScorePanel(precision_state: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-score";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let key = only(precision_state, |s| PrecisionState {
        pos: 0,
        ..s.clone()
    });
    let scores = Keyed::new(key, |s: &PrecisionState| score_data(s, SCORE_BUDGET));
    // While a slider moves: an eighth of the distances, refined once the controls rest.
    let quick = Keyed::new(key, |s: &PrecisionState| score_data(s, SCORE_BUDGET / 8));
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        let work = key.with(|s| score_work(s, SCORE_BUDGET));
        let scores = if p.quick_for(work) { quick } else { scores };
        scores.with(|(ds, all)| {
            let n = ds.last().map_or(1, |&d| d as usize + 1);
            let x: Vec<f64> = ds.iter().map(|&d| d as f64).collect();
            let series: Vec<Series> = all
                .iter()
                .map(|(path, ys)| {
                    let style = if *path == Path::Exact {
                        SeriesStyle::Line
                    } else {
                        SeriesStyle::Points
                    };
                    finite_series(path.label().into(), *path, &x, ys, px, style)
                })
                .collect();
            let finite: Vec<Series> = series
                .iter()
                .filter(|s| !s.columns.is_empty())
                .cloned()
                .collect();
            let y_range = if finite.is_empty() {
                (-1.0, 1.0)
            } else {
                fit_y_range(&finite, false)
            };
            let chart = LineChart {
                x_label: "distance Δ = m − n".into(),
                y_label: "score, q = k = 1".into(),
                x_range: (0.0, n.saturating_sub(1).max(1) as f64),
                y_range,
                y_log: false,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = precision_state.with_untracked(|s| {
            let ds: Vec<u64> = (0..=s.score_distances()).collect();
            let all: Vec<(Path, Vec<f64>)> =
                s.paths.iter().map(|&p| (p, scores_at(p, s, &ds))).collect();
            let x: Vec<f64> = ds.iter().map(|&d| d as f64).collect();
            let mut names = vec!["distance".to_string()];
            names.extend(all.iter().map(|(p, _)| format!("score_{}", p.name())));
            let mut cols: Vec<&[f64]> = vec![&x];
            cols.extend(all.iter().map(|(_, y)| y.as_slice()));
            csv::columns_csv(&names, &cols)
        });
        export::csv_text(text, &format!("{ID}.csv"));
    });
    // Once the controls rest: the scores are computed when the chart paints, not in a
    // slider's frame for a line of text.
    let note = schedule::at_rest(move || {
        scores.with(|(ds, _)| stride_note(ds.get(1).map_or(1, |&d| d as usize)))
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || key.with(PrecisionState::score_caption)) paint=paint height=300.0/>
            <p class="about">{crate::captions::PRECISION_SCORE}</p>
            <p class="sampling-note">{note}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || precision_state.with(|s| format!("{ID}_D{}_m{}", s.head_dim, s.m))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
pub(super) fn ErrorPanel(precision_state: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-error";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    // Log-spaced positions 1 … 2^26 (whole numbers, no repeats).
    let positions = || {
        let mut out: Vec<u64> = (0..ERROR_SAMPLES)
            .map(|k| {
                2f64.powf(26.0 * k as f64 / (ERROR_SAMPLES - 1) as f64)
                    .round() as u64
            })
            .collect();
        out.dedup();
        out
    };
    let errors = Keyed::new(
        only(precision_state, |s| PrecisionState {
            m: 0,
            max_dist: 0,
            pos: 0,
            ..s.clone()
        }),
        move |s: &PrecisionState| {
            let xs = positions();
            // Angles only (no cos/sin), the exact ones once per position.
            let exact_inv = inv_freq(Path::Exact, s.head_dim, s.theta);
            let exact: Vec<Vec<f64>> = xs
                .iter()
                .map(|&x| angles(Path::Exact, &exact_inv, x))
                .collect();
            let per_path: Vec<(Path, Vec<f64>)> = s
                .paths
                .iter()
                .map(|&p| {
                    let inv = inv_freq(p, s.head_dim, s.theta);
                    let e = xs
                        .iter()
                        .zip(&exact)
                        .map(|(&x, ex)| {
                            if p == Path::Exact {
                                0.0
                            } else {
                                largest_error(&angles(p, &inv, x), ex)
                            }
                        })
                        .collect();
                    (p, e)
                })
                .collect();
            (xs, per_path)
        },
    );
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        errors.with(|(xs, per_path)| {
            let x: Vec<f64> = xs.iter().map(|&v| (v as f64).log2()).collect();
            let series: Vec<Series> = per_path
                .iter()
                .map(|(path, e)| {
                    let floored: Vec<f64> = e
                        .iter()
                        .map(|v| {
                            if v.is_nan() {
                                f64::NAN
                            } else {
                                v.max(ERROR_FLOOR)
                            }
                        })
                        .collect();
                    finite_series(
                        path.label().into(),
                        *path,
                        &x,
                        &floored,
                        px,
                        SeriesStyle::Points,
                    )
                })
                .collect();
            let chart = LineChart {
                x_label: "log₂ position (0 = position 1, 26 = 2^26)".into(),
                y_label: "largest angle error (rad, log)".into(),
                x_range: (0.0, 26.0),
                y_range: (ERROR_FLOOR, 4.0),
                y_log: true,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = errors.with_untracked(|(xs, per_path)| {
            let x: Vec<f64> = xs.iter().map(|&v| v as f64).collect();
            let mut names = vec!["position".to_string()];
            names.extend(
                per_path
                    .iter()
                    .map(|(p, _)| format!("max_angle_error_{}", p.name())),
            );
            let mut cols: Vec<&[f64]> = vec![&x];
            cols.extend(per_path.iter().map(|(_, e)| e.as_slice()));
            csv::columns_csv(&names, &cols)
        });
        export::csv_text(text, &format!("{ID}.csv"));
    });
    // Exact (every position) up to EXACT_BREAK_SCAN, where the 16-bit paths break; past it,
    // from the chart's samples, said "about".
    let first_break = schedule::at_rest(move || {
        let (head_dim, theta) = precision_state.with(|s| (s.head_dim, s.theta));
        errors.with(|(xs, per_path)| {
            per_path
                .iter()
                .filter(|(p, _)| *p != Path::Exact)
                .map(|(p, e)| {
                    let exact =
                        precision::first_break(*p, head_dim, theta, 0.1, 1..=EXACT_BREAK_SCAN);
                    let sampled = || {
                        xs.iter()
                            .zip(e)
                            .find(|(&x, &v)| x > EXACT_BREAK_SCAN && (v.is_nan() || v > 0.1))
                            .map(|(&x, _)| x)
                    };
                    match (exact, sampled()) {
                        (Some(x), _) => {
                            format!("{}: the error first exceeds 0.1 rad at position {x}", p.label())
                        }
                        // Past the exact scan only the chart's samples are checked: an
                        // earlier position between two samples may already pass 0.1 rad.
                        (None, Some(x)) => format!(
                            "{}: within 0.1 rad at every position up to {EXACT_BREAK_SCAN}; the chart's samples first pass 0.1 rad at {} (positions between samples are not checked)",
                            p.label(),
                            sig(x as f64, 3)
                        ),
                        (None, None) => format!("{}: under 0.1 rad up to 2^26", p.label()),
                    }
                })
                .collect::<Vec<_>>()
                .join(" · ")
        })
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Largest angle error over all pairs against the position, log scales, one series per path.".to_string()) paint=paint height=300.0/>
            <p class="readout">{first_break}</p>
            <p class="about">{crate::captions::PRECISION_ERROR}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || precision_state.with(|s| format!("{ID}_D{}_theta{}", s.head_dim, s.theta))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}
