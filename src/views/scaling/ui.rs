//! The context-extension view (`view=scaling`): every RoPE scaling method side by side, with
//! model presets and a pasted `config.json`.

use std::sync::Arc;

use leptos::prelude::*;

use super::controls::{ConfigPaste, FactorList, MethodPicker, OptionalNumber, Presets};

use crate::encoding::rope::{scale, Method, Rope, Scaled};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{fit_y_range, Band, LineChart, SeriesStyle};
use crate::render::envelope::{display_stride, display_work, QUICK_TERMS, TERMS_PER_FRAME};
use super::state::{ATTN_FACTOR, BETA_FAST, BETA_SLOW, CUR_LEN, FACTOR};
use crate::views::rope::state::HEAD_DIM;
use super::state::{HIGH_FREQ, LOW_FREQ, MSCALE, MSCALE_ALL_DIM, ORIG_CTX};
use crate::views::rope::state::{PARTIAL, THETA};
use super::state::ScalingState;
use crate::ui::context::{select, select_state, AppCtx, Computed, Keyed};
use crate::ui::{export, schedule};
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, ExportBar, Painter, Panel, StateChoice,
    StateRange,
};
use crate::views::common::{
    copier, line_series, paint_lines, reference_line, stride_note, ExportButtons,
};

/// The methods' frequencies, or why a method could not be applied.
type Results = Vec<(Method, Result<Scaled, String>)>;

pub(super) fn label(method: Method, s: &Scaled) -> String {
    if (s.attention - 1.0).abs() > 1e-12 {
        format!("{} (α = {})", method.label(), sig(s.attention, 5))
    } else {
        method.label().to_string()
    }
}

/// The context-extension view.
#[component]
pub fn ScalingView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let scaling_state = select_state(state, |s| s.scaling.clone());
    let results = Computed::new(move || {
        scaling_state.with(|s| {
            let d = s.rotary_dim();
            let params = s.params();
            s.methods
                .iter()
                .map(|&m| (m, scale(m, s.theta, d, &params).map_err(|e| e.to_string())))
                .collect::<Results>()
        })
    });
    let show_controls = state.with_untracked(|s| s.show_controls);
    let errors = move || {
        results.with(|rs| {
            rs.iter()
                .filter_map(|(m, r)| r.as_ref().err().map(|e| format!("{}: {e}", m.label())))
                .collect::<Vec<_>>()
        })
    };
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    // Whether any of `methods` is drawn.
    let uses = move |methods: &'static [Method]| {
        move || state.with(|s| s.scaling.methods.iter().any(|m| methods.contains(m)))
    };
    view! {
        <div class="view view-scaling">
            <style>{SCALING_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::SCALING_INTRO}</p>
            </div>
            // Beside the charts on a wide screen (the controls are as tall as a screen): what a
            // slider changes stays in sight while it moves.
            <div class="view-body" class:beside=show_controls>
            {show_controls.then(|| view! {
                <div class="controls scaling-controls" role="group" aria-label="Context-extension controls">
                    <Presets/>
                    <MethodPicker/>
                    <StateRange spec=HEAD_DIM get=|s| s.scaling.head_dim as f64 put=|s, v| s.scaling.head_dim = (v as usize).max(2) & !1/>
                    <StateRange spec=THETA get=|s| s.scaling.theta put=|s, v| s.scaling.theta = v/>
                    <StateRange spec=PARTIAL get=|s| s.scaling.partial put=|s, v| s.scaling.partial = v/>
                    <StateRange spec=FACTOR get=|s| s.scaling.factor put=|s, v| s.scaling.factor = v/>
                    <StateRange spec=ORIG_CTX get=|s| s.scaling.orig_ctx as f64 put=|s, v| s.scaling.orig_ctx = v as usize/>
                    // A method's own parameters only while it is drawn: a control that
                    // changes nothing on screen is not shown.
                    <Show when=uses(&[Method::Dynamic, Method::LongRope])>
                        <fieldset class="method-group" data-method="dynamic longrope">
                            <legend>"Dynamic NTK and LongRoPE"</legend>
                            <StateRange spec=CUR_LEN get=|s| s.scaling.seq_len as f64 put=|s, v| s.scaling.seq_len = v as usize/>
                        </fieldset>
                    </Show>
                    <Show when=uses(&[Method::Yarn])>
                        <fieldset class="method-group" data-method="yarn">
                            <legend>"YaRN"</legend>
                            <StateRange spec=BETA_FAST get=|s| s.scaling.beta_fast put=|s, v| s.scaling.beta_fast = v/>
                            <StateRange spec=BETA_SLOW get=|s| s.scaling.beta_slow put=|s, v| s.scaling.beta_slow = v/>
                            <OptionalNumber spec=MSCALE get=|s| s.mscale put=|s, v| s.mscale = v/>
                            <OptionalNumber spec=MSCALE_ALL_DIM get=|s| s.mscale_all_dim put=|s, v| s.mscale_all_dim = v/>
                            <StateChoice name="truncate" label="YaRN truncate" options=vec![("true", "Round the range (default)"), ("false", "Exact range")]
                                get=|s| if s.scaling.truncate { "true" } else { "false" } put=|s, v| s.scaling.truncate = v == "true"/>
                        </fieldset>
                    </Show>
                    <Show when=uses(&[Method::Yarn, Method::LongRope])>
                        <fieldset class="method-group" data-method="yarn longrope">
                            <legend>"YaRN and LongRoPE"</legend>
                            <OptionalNumber spec=ATTN_FACTOR get=|s| s.attn_factor put=|s, v| s.attn_factor = v/>
                        </fieldset>
                    </Show>
                    <Show when=uses(&[Method::LongRope])>
                        <fieldset class="method-group" data-method="longrope">
                            <legend>"LongRoPE"</legend>
                            <FactorList name="short_factor"/>
                            <FactorList name="long_factor"/>
                        </fieldset>
                    </Show>
                    <Show when=uses(&[Method::Llama3])>
                        <fieldset class="method-group" data-method="llama3">
                            <legend>"Llama 3"</legend>
                            <StateRange spec=LOW_FREQ get=|s| s.scaling.low_freq_factor put=|s, v| s.scaling.low_freq_factor = v/>
                            <StateRange spec=HIGH_FREQ get=|s| s.scaling.high_freq_factor put=|s, v| s.scaling.high_freq_factor = v/>
                        </fieldset>
                    </Show>
                    <ConfigPaste/>
                </div>
            })}
            <div class="view-main">
                <ul class="method-errors" role="status">
                    {move || errors().into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                </ul>
                <div class="panels">
                    <FrequenciesPanel scaling_state=scaling_state results=results/>
                    <ScoreDistancePanel scaling_state=scaling_state results=results/>
                </div>
            </div>
            </div>
        </div>
    }
}

#[component]
fn FrequenciesPanel(scaling_state: Memo<ScalingState>, results: Computed<Results>) -> impl IntoView {
    const ID: &str = "scaling-frequencies";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let freq_canvas = ChartRef::new();
    let wave_canvas = ChartRef::new();
    let yarn_band = move || {
        results.with(|rs| {
            rs.iter().find_map(|(m, r)| match (m, r) {
                (Method::Yarn, Ok(s)) => s.correction.map(|(lo, hi)| Band {
                    x0: lo,
                    x1: hi,
                    label: "YaRN ramp".into(),
                }),
                _ => None,
            })
        })
    };
    // Only what the charts draw: another field's move repaints nothing here.
    let contexts = select(scaling_state, |s| (s.orig_ctx as f64, s.factor));
    let paint_with = move |p: &Painter, wavelength: bool| {
        let px = p.canvas.width() as usize;
        let (l0, s) = contexts.get();
        results.with(|rs| {
            let mut series = Vec::new();
            let mut pairs = 1;
            for (n, (m, r)) in rs.iter().enumerate() {
                let Ok(sc) = r else { continue };
                pairs = sc.inv_freq.len().max(1);
                let ys: Vec<f64> = if wavelength {
                    sc.inv_freq
                        .iter()
                        .map(|w| std::f64::consts::TAU / w)
                        .collect()
                } else {
                    sc.inv_freq.clone()
                };
                series.push(line_series(
                    label(*m, sc),
                    n,
                    &ys,
                    |j| j as f64,
                    px,
                    SeriesStyle::Line,
                ));
            }
            if wavelength {
                series.push(reference_line(
                    format!("L₀ = {l0}"),
                    &vec![l0; pairs],
                    |j| j as f64,
                    px,
                ));
                let mut target = reference_line(
                    format!("s·L₀ = {}", sig(s * l0, 6)),
                    &vec![s * l0; pairs],
                    |j| j as f64,
                    px,
                );
                // Told apart from L0 by its shade.
                target.colour = plotters::style::RGBColor(80, 80, 80);
                series.push(target);
            }
            let chart = LineChart {
                x_label: "pair i".into(),
                y_label: if wavelength {
                    "wavelength, positions (log)"
                } else {
                    "ω_i, ω′_i: rad per position (log)"
                }
                .into(),
                x_range: (0.0, pairs.saturating_sub(1).max(1) as f64),
                y_range: fit_y_range(&series, true),
                y_log: true,
                x_log: false,
                series,
                bands: yarn_band().into_iter().collect(),
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = results.with_untracked(|rs| {
            let ok: Vec<(Method, &Scaled)> = rs
                .iter()
                .filter_map(|(m, r)| r.as_ref().ok().map(|s| (*m, s)))
                .collect();
            let pairs = ok.first().map_or(0, |(_, s)| s.inv_freq.len());
            let mut names = vec!["pair".to_string()];
            let mut cols: Vec<Vec<f64>> = vec![(0..pairs).map(|j| j as f64).collect()];
            for (m, s) in &ok {
                names.push(format!("freq_{}", m.name()));
                cols.push(s.inv_freq.clone());
                names.push(format!("wavelength_{}", m.name()));
                cols.push(
                    s.inv_freq
                        .iter()
                        .map(|w| std::f64::consts::TAU / w)
                        .collect(),
                );
                names.push(format!("attn_{}", m.name()));
                cols.push(vec![s.attention; pairs]);
            }
            let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            csv::columns_csv(&names, &refs)
        });
        export::csv_text(text, "scaling-frequencies.csv");
    });
    // Each method's α, base, ramp and factors: followed once the controls rest (the band
    // on the charts moves live), so that a slider's frame does not lay out the table again.
    let rows = schedule::at_rest(move || {
        results.with(|rs| {
            rs.iter()
                .filter_map(|(m, r)| r.as_ref().ok().map(|s| (*m, s)))
                .map(|(m, s)| {
                    let mut parts = vec![format!("α = {}", sig(s.attention, 8))];
                    if let Some(t) = s.theta {
                        parts.push(match m {
                            Method::Dynamic => format!(
                                "base at seq_len: base·(s·max(seq_len, L₀)/L₀ − (s − 1))^(D/(D−2)) = {}",
                                sig(t, 6)
                            ),
                            _ => format!("NTK-aware base: base·s^(D/(D−2)) = {}", sig(t, 6)),
                        });
                    }
                    if let Some((lo, hi)) = s.correction {
                        // transformers clamps the range at D − 1, past the last pair.
                        let last = s.inv_freq.len().saturating_sub(1) as f64;
                        parts.push(if hi > last {
                            format!(
                                "ramp over pairs {} to {} (the range transformers computes; the pairs stop at D/2 − 1 = {})",
                                sig(lo, 4),
                                sig(hi, 4),
                                last
                            )
                        } else if lo > hi {
                            // β_fast ≤ β_slow: transformers' ramp, (i − lo)/(hi − lo) clamped
                            // to [0, 1], is 1 on the fast pairs and 0 on the slow ones.
                            format!(
                                "ramp over pairs {} to {}, backwards (β_fast ≤ β_slow): the fast pairs are divided by s and the slow ones kept",
                                sig(lo, 4),
                                sig(hi, 4)
                            )
                        } else {
                            format!("ramp over pairs {} to {}", sig(lo, 4), sig(hi, 4))
                        });
                    }
                    if let Some(long) = s.long {
                        parts.push(if long {
                            "long factors (seq_len > L₀)".into()
                        } else {
                            "short factors (seq_len ≤ L₀)".into()
                        });
                    }
                    (m.title(), parts.join(" · "))
                })
                .collect::<Vec<_>>()
        })
    });
    let summary = move || {
        rows.with(|rows| {
            rows.iter()
                .map(|(title, parts)| view! { <tr><th scope="row">{*title}</th><td>{parts.clone()}</td></tr> })
                .collect_view()
        })
    };
    let stem = Signal::derive(move || {
        scaling_state.with(|s| format!("{ID}_D{}_theta{}_s{}", s.rotary_dim(), s.theta, s.factor))
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=freq_canvas label=Signal::derive(move || "Rotation frequency of each pair under each method, log scale.".to_string()) paint=move |p: &Painter| paint_with(p, false) height=280.0/>
            <ChartCanvas chart=wave_canvas label=Signal::derive(move || "Wavelength of each pair under each method, with the original and extended contexts.".to_string()) paint=move |p: &Painter| paint_with(p, true) height=260.0/>
            <table class="method-summary"><tbody>{summary}</tbody></table>
            <p class="about">{crate::captions::SCALING_FREQUENCIES}</p>
            <ExportButtons chart=freq_canvas stem=stem csv=csv_cb snippet=copier(move || scaling_state.with_untracked(|s| crate::snippets::scaling_panel(s, ID)))/>
            <ExportBar>
                <button on:click=move |_| export::png(wave_canvas, &format!("{}_wavelength.png", stem.get_untracked()))>"Wavelength PNG"</button>
                <button on:click=move |_| export::svg(wave_canvas, format!("{}_wavelength.svg", stem.get_untracked()))>"Wavelength SVG"</button>
            </ExportBar>
        </Panel>
    }
    .into_any()
}

/// One method's score curve, kept with what it was computed from.
struct KeptCurve {
    method: Method,
    /// Head and rotary dims, distance stride, distances, attention factor.
    key: (usize, usize, usize, usize, f64),
    inv_freq: Vec<f64>,
    ys: Arc<Vec<f64>>,
}

#[component]
fn ScoreDistancePanel(scaling_state: Memo<ScalingState>, results: Computed<Results>) -> impl IntoView {
    const ID: &str = "scaling-score-distance";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let distance = Computed::new(move || scaling_state.with(ScalingState::score_distance));
    let contexts = select(scaling_state, |s| (s.orig_ctx as f64, s.factor));
    // The last curves of each method: a move of one method's parameter (a YaRN β, a Llama 3
    // factor, the length that dynamic NTK sees) computes that method's curve alone.
    let kept = StoredValue::new(Vec::<KeptCurve>::new());
    // q = k = 1 scores per method, α² included, every `stride`-th distance (`None`: the
    // display stride, and the curves are kept).
    let curves_at = move |stride: Option<usize>, budget: usize| {
        let n = distance.get_untracked() + 1;
        let (h, d) = scaling_state.with_untracked(|s| (s.head_dim, s.rotary_dim()));
        results.with_untracked(|rs| {
            let ok: Vec<(Method, &Scaled)> = rs
                .iter()
                .filter_map(|(m, r)| r.as_ref().ok().map(|s| (*m, s)))
                .collect();
            let terms = (d / 2).max(1) * ok.len().max(1);
            let keep = stride.is_none();
            let stride = stride.unwrap_or_else(|| display_stride(n, terms, budget));
            let series = ok
                .into_iter()
                .map(|(m, s)| {
                    let key = (h, d, stride, n, s.attention);
                    let same = |c: &KeptCurve| c.key == key && c.inv_freq == s.inv_freq;
                    let hit = keep
                        .then(|| {
                            kept.with_value(|k| k.iter().find(|c| same(c)).map(|c| c.ys.clone()))
                        })
                        .flatten();
                    let ys = hit.unwrap_or_else(|| {
                        let layout = crate::encoding::rope::PairLayout::Half;
                        let rope = Rope::new(h, d, layout, s.inv_freq.clone(), s.attention);
                        let w = rope.weights(&vec![1.0; h], &vec![1.0; h]);
                        let ys = Arc::new(rope.score_series(&w, stride as f64, n.div_ceil(stride)));
                        if keep {
                            kept.update_value(|k| {
                                // The newest two per method (the full and the quick stride).
                                if k.iter().filter(|c| c.method == m).count() >= 2 {
                                    if let Some(i) = k.iter().position(|c| c.method == m) {
                                        k.remove(i);
                                    }
                                }
                                k.push(KeptCurve {
                                    method: m,
                                    key,
                                    inv_freq: s.inv_freq.clone(),
                                    ys: ys.clone(),
                                });
                            });
                        }
                        ys
                    });
                    (m, label(m, s), ys)
                })
                .collect::<Vec<_>>();
            (stride, series)
        })
    };
    // Computed when the chart paints (the distance and the results follow the state).
    // What the curves are computed from, and only that: a value that leaves every method's
    // frequencies as they were (a fraction that rounds to the same rotary dim) repaints nothing.
    let dims = select(scaling_state, |s| (s.head_dim, s.rotary_dim()));
    let key = Computed::new(move || (results.with(Clone::clone), distance.get(), dims.get()));
    let curves = Keyed::new(key, move |_| curves_at(None, TERMS_PER_FRAME));
    // While a slider moves: a sixteenth of the terms (`QUICK_TERMS`, a coarser stride), refined
    // at rest.
    let quick = Keyed::new(key, move |_| curves_at(None, QUICK_TERMS));
    // Once the controls rest (a line of text must not compute the curves in a slider's frame).
    let note = schedule::at_rest(move || stride_note(curves.with(|c| c.0)));
    let paint = move |p: &Painter| {
        let n = distance.get();
        let l0 = contexts.get().0;
        let px = p.canvas.width() as usize;
        // The terms of the full curves: a pair per method and distance.
        let terms = dims.get().1 / 2 * results.with(|rs| rs.iter().filter(|r| r.1.is_ok()).count());
        let curves = if p.quick_for(display_work(n + 1, terms, TERMS_PER_FRAME)) {
            quick
        } else {
            curves
        };
        curves.with(|(stride, cs)| {
            let series: Vec<_> = cs
                .iter()
                .enumerate()
                .map(|(k, (_, name, ys))| {
                    line_series(
                        name.clone(),
                        k,
                        ys,
                        |x| (x * stride) as f64,
                        px,
                        SeriesStyle::Line,
                    )
                })
                .collect();
            let chart = LineChart {
                x_label: "distance Δ = m − n".into(),
                y_label: "score, q = k = 1 (α² included)".into(),
                x_range: (0.0, n.max(1) as f64),
                y_range: fit_y_range(&series, false),
                y_log: false,
                x_log: false,
                series,
                bands: vec![Band {
                    x0: 0.0,
                    x1: l0.min(n as f64),
                    label: format!("trained distances 0…{}", l0 - 1.0),
                }],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = {
            let (_, cs) = curves_at(Some(1), TERMS_PER_FRAME);
            let len = cs.first().map_or(0, |c| c.2.len());
            let x: Vec<f64> = (0..len).map(|d| d as f64).collect();
            let mut names = vec!["distance".to_string()];
            names.extend(cs.iter().map(|c| c.0.name().to_string()));
            let mut refs: Vec<&[f64]> = vec![&x];
            refs.extend(cs.iter().map(|c| c.2.as_slice()));
            csv::columns_csv(&names, &refs)
        };
        export::csv_text(text, "scaling-score-distance.csv");
    });
    let stem = Signal::derive(move || {
        scaling_state.with(|s| format!("{ID}_D{}_s{}_L0{}", s.rotary_dim(), s.factor, s.orig_ctx))
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Score with q = k = 1 against distance up to {}, one curve per method.", distance.get())) paint=paint height=320.0/>
            <p class="about">{crate::captions::SCALING_SCORE_DISTANCE}</p>
            <p class="sampling-note">{note}</p>
            <ExportButtons chart=canvas stem=stem csv=csv_cb snippet=copier(move || scaling_state.with_untracked(|s| crate::snippets::scaling_panel(s, ID)))/>
        </Panel>
    }
    .into_any()
}

/// This view's styles, fetched with its code (the first page does not carry them).
const SCALING_CSS: &str = r#"
.method-group { grid-column: 1 / -1; display: grid; grid-template-columns: repeat(auto-fit, minmax(240px, 1fr)); gap: 8px 24px; border: 1px solid var(--border); border-radius: 6px; margin: 0; padding: 4px 12px 8px; }
.method-group legend { font-weight: 600; padding: 0 4px; }
.method-errors { color: var(--focus); margin: 0 0 8px; }
.method-errors:empty { display: none; }
.method-summary { font-size: 0.9rem; border-collapse: collapse; margin: 8px 0; }
.method-summary th { text-align: right; padding-right: 12px; font-weight: 600; }
.controls.scaling-controls { position: static; }
/* Controls as tall as a screen go beside the charts on a wide one, and stay there while the
   page scrolls (their own scroll bar when taller than the window). */
@media (min-width: 1100px) {
  .view-body.beside { display: grid; grid-template-columns: minmax(300px, 23rem) minmax(0, 1fr); gap: 16px; align-items: start; margin-top: 12px; }
  .view-body.beside > .controls {
    position: sticky; top: 8px; max-height: calc(100vh - 16px); overflow-y: auto; margin: 0;
    grid-template-columns: minmax(0, 1fr); overscroll-behavior: contain;
  }
  .view-body.beside .method-group { grid-template-columns: minmax(0, 1fr); }
  .view-body.beside .panels { grid-template-columns: minmax(0, 1fr); }
}
.control-msg.ok { color: var(--muted); }
.presets .source { color: var(--muted); font-size: 0.85rem; margin: 4px 0 0; }
.presets button.figure { margin-top: 6px; }
.sampling-note { color: var(--muted); font-size: 0.85rem; margin: 0; }
.sampling-note:empty { display: none; }
"#;
