//! The Precision view (`view=precision`): what float32, bfloat16 and float16 arithmetic do to
//! RoPE at long context, path by path as real code computes it.

use leptos::prelude::*;

use crate::encoding::precision::{
    self as precision, angles, distinct_positions, inv_freq, largest_error, rotation, scores,
    wrapped_difference, Path, EXACT_BREAK_SCAN,
};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{fit_y_range, LineChart, Series, SeriesStyle};
use crate::state::params::toggle_in_order;
use crate::state::precision::{
    PrecisionState, MAX_POS, PRECISION_PRESETS, PREC_HEAD_DIM, PREC_M, PREC_MAX_DIST, PREC_POS,
    PREC_THETA,
};
use crate::state::AppState;
use crate::ui::context::{select_state, AppCtx, Computed, Keyed};
use crate::ui::export;
use crate::ui::schedule;
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateRange,
};
use crate::views::common::{line_series, paint_lines, stride_note, ExportButtons};

/// Positions shown on each side of `pos` in the positions panel.
const WINDOW: u64 = 40;
/// Positions sampled (log-spaced, 1 to 2^26) in the error panel.
const ERROR_SAMPLES: usize = 160;
/// Angle errors below this are drawn at it (a log axis has no zero).
const ERROR_FLOOR: f64 = precision::ERROR_FLOOR_RAD;

/// What a path is, in a few words, for legends and text.
fn path_label(p: Path) -> &'static str {
    match p {
        Path::Exact => "exact (float64)",
        Path::HfF32 => "transformers, float32",
        Path::HfBf16 => "transformers, bfloat16 cos/sin",
        Path::Bf16Cache => "GPT-NeoX bfloat16 cache",
        Path::Fp16Seq => "Megatron float16 positions",
    }
}

/// The series colour of a path (fixed, so a path keeps its colour whatever is selected).
fn path_colour(p: Path) -> usize {
    Path::ALL.iter().position(|&q| q == p).unwrap_or(0)
}

/// Where a path stops giving finite numbers, said in words (empty when it never does).
fn breaks_note(p: Path) -> &'static str {
    match p {
        Path::Fp16Seq => crate::captions::PRECISION_FP16_INF,
        _ => "",
    }
}

/// Points of `ys` at `xs`, keeping only finite values (inf and NaN become gaps).
fn finite_series(
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

/// The Precision view.
#[component]
pub fn PrecisionView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let ps = select_state(state, |s| s.precision.clone());
    let show_controls = state.with_untracked(|s| s.show_controls);
    let on_preset = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(p) = PRECISION_PRESETS.iter().find(|p| p.name == name) {
            let (preset, _) = AppState::from_query(&format!("view=precision&{}", p.query));
            state.update(|s| s.precision = preset.precision);
        }
    };
    let class = control_class(
        "preset",
        &[
            "control presets",
            "control presets gone",
            "control presets locked",
        ],
    );
    view! {
        <div class="view view-precision">
            <style>{PRECISION_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::PRECISION_INTRO}</p>
            </div>
            {show_controls.then(|| view! {
                <div class="controls" role="group" aria-label="Precision controls">
                    <div class=class data-control="preset">
                        <label for="ctl-precision-preset">"Preset"</label>
                        <select id="ctl-precision-preset" on:change=on_preset>
                            <option value="">"Choose a model…"</option>
                            {PRECISION_PRESETS.iter().map(|p| view! { <option value=p.name>{p.name}</option> }).collect_view()}
                        </select>
                    </div>
                    <StateRange spec=PREC_HEAD_DIM get=|s| s.precision.head_dim as f64 put=|s, v| s.precision.head_dim = (v as usize).max(2) & !1/>
                    <StateRange spec=PREC_THETA get=|s| s.precision.theta put=|s, v| s.precision.theta = v/>
                    <StateRange spec=PREC_POS get=|s| s.precision.pos as f64 put=|s, v| s.precision.pos = (v.round() as u64).min(MAX_POS)/>
                    <StateRange spec=PREC_M get=|s| s.precision.m as f64 put=|s, v| s.precision.m = (v.round() as u64).min(MAX_POS)/>
                    <StateRange spec=PREC_MAX_DIST get=|s| s.precision.max_dist as f64 put=|s, v| s.precision.max_dist = v as usize/>
                    <PathPicker/>
                </div>
            })}
            <div class="panels">
                <PositionsPanel ps=ps/>
                <AnglesPanel ps=ps/>
                <ScorePanel ps=ps/>
                <ErrorPanel ps=ps/>
            </div>
        </div>
    }
}

/// Checkboxes for the paths drawn (at least one stays).
#[component]
fn PathPicker() -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let class = control_class(
        "paths",
        &[
            "control choice methods",
            "control choice methods gone",
            "control choice methods locked",
        ],
    );
    view! {
        <fieldset class=class data-control="paths">
            <legend>"Paths"</legend>
            {Path::ALL
                .into_iter()
                .map(|p| {
                    let checked = move || state.with(|s| s.precision.paths.contains(&p));
                    let toggle = move |_| {
                        state.update(|s| toggle_in_order(&mut s.precision.paths, p, &Path::ALL))
                    };
                    view! {
                        <label class="choice-option">
                            <input type="checkbox" name="paths" value=p.name() prop:checked=checked on:change=toggle/>
                            <span>{format!("{} — {}", p.name(), path_label(p))}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// The part of the state a panel's data depends on (the other fields set to a constant): its
/// data is not recomputed, nor its chart repainted, when only the other fields move.
fn only(
    ps: Memo<PrecisionState>,
    keep: fn(&PrecisionState) -> PrecisionState,
) -> Computed<PrecisionState> {
    Computed::new(move || ps.with(keep))
}

fn stem(s: &PrecisionState, panel: &str) -> String {
    format!("{panel}_D{}_theta{}_pos{}", s.head_dim, s.theta, s.pos)
}

#[component]
fn PositionsPanel(ps: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-positions";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    // (true positions, stored position per selected path)
    let key = only(ps, |s| PrecisionState {
        m: 0,
        max_dist: 0,
        head_dim: 0,
        theta: 0.0,
        ..s.clone()
    });
    let data = Keyed::new(key, move |s: &PrecisionState| {
        let lo = s.pos.saturating_sub(WINDOW);
        let hi = (s.pos + WINDOW).min(MAX_POS);
        let xs: Vec<u64> = (lo..=hi).collect();
        let stored: Vec<(Path, Vec<f64>)> = s
            .paths
            .iter()
            .map(|&p| (p, xs.iter().map(|&x| p.stored_position(x)).collect()))
            .collect();
        (xs, stored)
    });
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        data.with(|(xs, stored)| {
            let x: Vec<f64> = xs.iter().map(|&v| v as f64).collect();
            let series: Vec<Series> = stored
                .iter()
                .map(|(path, ys)| {
                    finite_series(path.name().into(), *path, &x, ys, px, SeriesStyle::Points)
                })
                .collect();
            let finite: Vec<Series> = series
                .iter()
                .filter(|s| !s.columns.is_empty())
                .cloned()
                .collect();
            let y_range = if finite.is_empty() {
                (x[0], x[x.len() - 1])
            } else {
                fit_y_range(&finite, false)
            };
            let chart = LineChart {
                x_label: "true position".into(),
                y_label: "position as stored".into(),
                x_range: (x[0], x[x.len() - 1]),
                y_range,
                y_log: false,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let counts = move || {
        ps.with(|s| {
            s.paths
                .iter()
                .map(|&p| format!("{}: {}", p.name(), distinct_positions(p, s.pos)))
                .collect::<Vec<_>>()
                .join(" · ")
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = data.with_untracked(|(xs, stored)| {
            let mut names = vec!["position".to_string()];
            names.extend(stored.iter().map(|(p, _)| format!("seen_{}", p.name())));
            let x: Vec<f64> = xs.iter().map(|&v| v as f64).collect();
            let mut cols: Vec<&[f64]> = vec![&x];
            cols.extend(stored.iter().map(|(_, ys)| ys.as_slice()));
            csv::columns_csv(&names, &cols)
        });
        export::csv_text(text, &format!("{ID}.csv"));
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || key.with(|s| format!("Stored position against true position around {} for each path.", s.pos))) paint=paint height=300.0/>
            <p class="readout">{move || ps.with(|s| format!("Distinct positions among 0…{}: ", s.pos))}{counts}</p>
            <p class="about">
                {crate::captions::PRECISION_POSITIONS}
                {move || ps.with(|s| s.paths.iter().map(|&p| breaks_note(p)).collect::<String>())}
            </p>
            <ExportButtons chart=canvas stem=Signal::derive(move || ps.with(|s| stem(s, ID))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// The angles panel's CSV: `pair,inv_freq_<path>,angle_<path>,cos_<path>,sin_<path>` for each
/// selected path in order, one line per pair; non-finite values as inf, -inf, nan.
pub fn angles_csv(s: &PrecisionState) -> String {
    let pairs = s.head_dim / 2;
    let mut names = vec!["pair".to_string()];
    let mut columns: Vec<Vec<f64>> = Vec::new();
    for &p in &s.paths {
        let inv = inv_freq(p, s.head_dim, s.theta);
        let r = rotation(p, &inv, s.pos);
        for (kind, col) in [
            ("inv_freq", inv),
            ("angle", r.angle),
            ("cos", r.cos),
            ("sin", r.sin),
        ] {
            names.push(format!("{kind}_{}", p.name()));
            columns.push(col);
        }
    }
    let pair: Vec<f64> = (0..pairs).map(|j| j as f64).collect();
    let mut cols: Vec<&[f64]> = vec![&pair];
    cols.extend(columns.iter().map(Vec::as_slice));
    csv::columns_csv(&names, &cols)
}

#[component]
fn AnglesPanel(ps: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-angles";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    // Per selected path: |wrapped angle − exact angle| per pair (NaN where not finite).
    let key = only(ps, |s| PrecisionState {
        m: 0,
        max_dist: 0,
        ..s.clone()
    });
    let errors = Keyed::new(key, move |s: &PrecisionState| {
        let exact = rotation(
            Path::Exact,
            &inv_freq(Path::Exact, s.head_dim, s.theta),
            s.pos,
        );
        s.paths
            .iter()
            .map(|&p| {
                let r = rotation(p, &inv_freq(p, s.head_dim, s.theta), s.pos);
                let e: Vec<f64> = r
                    .angle
                    .iter()
                    .zip(&exact.angle)
                    .map(|(&a, &x)| wrapped_difference(a, x).abs().max(ERROR_FLOOR))
                    .collect();
                (p, e)
            })
            .collect::<Vec<_>>()
    });
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        errors.with(|errs| {
            let pairs = errs.first().map_or(1, |(_, e)| e.len());
            let x: Vec<f64> = (0..pairs).map(|j| j as f64).collect();
            let series: Vec<Series> = errs
                .iter()
                .map(|(path, e)| {
                    finite_series(path.name().into(), *path, &x, e, px, SeriesStyle::Points)
                })
                .collect();
            let chart = LineChart {
                x_label: "pair i".into(),
                y_label: "|angle error| (rad, log)".into(),
                x_range: (0.0, pairs.saturating_sub(1).max(1) as f64),
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
        export::csv_text(ps.with_untracked(angles_csv), &format!("{ID}.csv"));
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || key.with(|s| format!("Angle error against the exact angle for each pair at position {}.", s.pos))) paint=paint height=300.0/>
            <p class="about">{crate::captions::PRECISION_ANGLES}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || ps.with(|s| stem(s, ID))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

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
    let last = (s.max_dist as u64).min(s.m);
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
fn ScorePanel(ps: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-score";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let key = only(ps, |s| PrecisionState {
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
                    finite_series(path.name().into(), *path, &x, ys, px, style)
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
        let text = ps.with_untracked(|s| {
            let ds: Vec<u64> = (0..=(s.max_dist as u64).min(s.m)).collect();
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
            <ChartCanvas chart=canvas label=Signal::derive(move || key.with(|s| format!("Score of a query at {} with keys 0 to {} positions back, for each path.", s.m, s.max_dist.min(s.m as usize)))) paint=paint height=300.0/>
            <p class="about">{crate::captions::PRECISION_SCORE}</p>
            <p class="sampling-note">{note}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || ps.with(|s| format!("{ID}_D{}_m{}", s.head_dim, s.m))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
fn ErrorPanel(ps: Memo<PrecisionState>) -> impl IntoView {
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
        only(ps, |s| PrecisionState {
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
                        path.name().into(),
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
        let (head_dim, theta) = ps.with(|s| (s.head_dim, s.theta));
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
                            format!("{}: errors over 0.1 rad from position {x}", p.name())
                        }
                        // Past the exact scan only the chart's samples are checked: an
                        // earlier position between two samples may already pass 0.1 rad.
                        (None, Some(x)) => format!(
                            "{}: within 0.1 rad at every position up to {EXACT_BREAK_SCAN}; the chart's samples first pass 0.1 rad at {} (positions between samples are not checked)",
                            p.name(),
                            sig(x as f64, 3)
                        ),
                        (None, None) => format!("{}: under 0.1 rad up to 2^26", p.name()),
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
            <ExportButtons chart=canvas stem=Signal::derive(move || ps.with(|s| format!("{ID}_D{}_theta{}", s.head_dim, s.theta))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// Styles only this chunk's markup uses (the first page does not carry them).
const PRECISION_CSS: &str = r#"
.presets .source { color: var(--muted); font-size: 0.85rem; margin: 4px 0 0; }
.presets button.figure { margin-top: 6px; }
.sampling-note { color: var(--muted); font-size: 0.85rem; margin: 0; }
.sampling-note:empty { display: none; }
"#;
