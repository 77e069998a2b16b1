//! The Precision view (`view=precision`): what float32, bfloat16 and float16 arithmetic do to
//! RoPE at long context, path by path as real code computes it.

use leptos::prelude::*;

use super::shared::{ERROR_FLOOR, finite_series, only};

use super::scores::{ErrorPanel, ScorePanel};

use crate::encoding::precision::{
    distinct_positions, inv_freq, rotation,
    wrapped_difference, Path,
};
use crate::export::csv;
use crate::render::charts::{fit_y_range, LineChart, Series, SeriesStyle};
use crate::state::params::toggle_in_order;
use super::state::{PrecisionState, MAX_POS, PRECISION_PRESETS, PREC_HEAD_DIM, PREC_M, PREC_MAX_DIST, PREC_POS, PREC_THETA};
use crate::state::AppState;
use crate::ui::context::{select_state, AppCtx, Keyed};
use crate::ui::export;
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateRange,
};
use crate::views::common::{paint_lines, ExportButtons};

/// Positions shown on each side of `pos` in the positions panel.
const WINDOW: u64 = 40;


/// Where a path stops giving finite numbers, said in words (empty when it never does).
fn breaks_note(p: Path) -> &'static str {
    match p {
        Path::Fp16Seq => crate::captions::PRECISION_FP16_INF,
        _ => "",
    }
}

/// The Precision view.
#[component]
pub fn PrecisionView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let precision_state = select_state(state, |s| s.precision.clone());
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
                <PositionsPanel precision_state=precision_state/>
                <AnglesPanel precision_state=precision_state/>
                <ScorePanel precision_state=precision_state/>
                <ErrorPanel precision_state=precision_state/>
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
                            <span>{p.label()}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

pub(super) fn stem(s: &PrecisionState, panel: &str) -> String {
    format!("{panel}_D{}_theta{}_pos{}", s.head_dim, s.theta, s.pos)
}

#[component]
fn PositionsPanel(precision_state: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-positions";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    // (true positions, stored position per selected path)
    let key = only(precision_state, |s| PrecisionState {
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
                    finite_series(path.label().into(), *path, &x, ys, px, SeriesStyle::Points)
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
        precision_state.with(|s| {
            s.paths
                .iter()
                .map(|&p| {
                    // An infinite stored position is one of the values (see distinct_positions).
                    let inf = if p.stored_position(s.pos).is_infinite() { " (∞ counted once)" } else { "" };
                    format!("{}: {}{inf}", p.label(), distinct_positions(p, s.pos))
                })
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
            <p class="readout">{move || precision_state.with(|s| format!("Distinct positions among 0…{}: ", s.pos))}{counts}</p>
            <p class="about">
                {crate::captions::PRECISION_POSITIONS}
                {move || precision_state.with(|s| s.paths.iter().map(|&p| breaks_note(p)).collect::<String>())}
            </p>
            <ExportButtons chart=canvas stem=Signal::derive(move || precision_state.with(|s| stem(s, ID))) csv=csv_cb/>
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
fn AnglesPanel(precision_state: Memo<PrecisionState>) -> impl IntoView {
    const ID: &str = "precision-angles";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    // Per selected path: |wrapped angle − exact angle| per pair (NaN where not finite).
    let key = only(precision_state, |s| PrecisionState {
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
                    finite_series(path.label().into(), *path, &x, e, px, SeriesStyle::Points)
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
        export::csv_text(precision_state.with_untracked(angles_csv), &format!("{ID}.csv"));
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || key.with(|s| format!("Angle error against the exact angle for each pair at position {}.", s.pos))) paint=paint height=300.0/>
            <p class="about">{crate::captions::PRECISION_ANGLES}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || precision_state.with(|s| stem(s, ID))) csv=csv_cb/>
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
