//! The context-extension view (`view=scaling`): every RoPE scaling method side by side, with
//! model presets and a pasted `config.json`.

use std::sync::Arc;

use leptos::prelude::*;

use crate::encoding::rope::{scale, Method, Rope, Scaled};
use crate::encoding::rope_config::parse_config;
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{fit_y_range, Band, LineChart, SeriesStyle};
use crate::render::envelope::{display_stride, display_work, TERMS_PER_FRAME};
use crate::state::params::toggle_in_order;
use crate::state::params::FloatSpec;
use crate::state::rope::{
    ATTN_FACTOR, BETA_FAST, BETA_SLOW, CUR_LEN, FACTOR, HEAD_DIM, HIGH_FREQ, LOW_FREQ,
    MODEL_PRESETS, MSCALE, MSCALE_ALL_DIM, ORIG_CTX, PARTIAL, THETA,
};
use crate::state::ScalingState;
use crate::ui::context::{select, select_state, AppCtx, Computed, Keyed};
use crate::ui::export;
use crate::ui::schedule;
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, ExportBar, Painter, Panel, StateChoice,
    StateRange, CONTROL,
};
use crate::views::common::{
    copier, line_series, paint_lines, reference_line, stride_note, ExportButtons,
};

/// The methods' frequencies, or why a method could not be applied.
type Results = Vec<(Method, Result<Scaled, String>)>;

fn label(method: Method, s: &Scaled) -> String {
    if (s.attention - 1.0).abs() > 1e-12 {
        format!("{} (α = {})", method.name(), sig(s.attention, 5))
    } else {
        method.name().to_string()
    }
}

fn snippet(s: &ScalingState) -> String {
    format!(
        "import numpy as np\n\nD, theta = {}, {:?}\ninv_freq = theta ** (-np.arange(0, D, 2) / D)\n# linear (transformers): inv_freq / {f}; static NTK (bloc97, not a transformers rope type): base = theta * {f} ** (D / (D - 2))\n",
        s.rotary_dim(),
        s.theta,
        f = s.factor
    )
}

/// The context-extension view.
#[component]
pub fn ScalingView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let ss = select_state(state, |s| s.scaling.clone());
    let results = Computed::new(move || {
        ss.with(|s| {
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
                .filter_map(|(m, r)| r.as_ref().err().map(|e| format!("{}: {e}", m.name())))
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
                    <FrequenciesPanel ss=ss results=results/>
                    <ScoreDistancePanel ss=ss results=results/>
                </div>
            </div>
            </div>
        </div>
    }
}

/// Checkboxes for the methods drawn.
#[component]
fn MethodPicker() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let class = control_class(
        "method",
        &[
            "control choice methods",
            "control choice methods gone",
            "control choice methods locked",
        ],
    );
    view! {
        <fieldset class=class data-control="method">
            <legend>"Methods"</legend>
            {Method::ALL
                .into_iter()
                .map(|m| {
                    let checked = move || ctx.state.with(|s| s.scaling.methods.contains(&m));
                    let toggle = move |_| {
                        ctx.state
                            .update(|s| toggle_in_order(&mut s.scaling.methods, m, &Method::ALL))
                    };
                    view! {
                        <label class="choice-option">
                            <input type="checkbox" name="method" value=m.name() prop:checked=checked on:change=toggle/>
                            <span>{m.title()}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// A number that may be left blank ("automatic").
#[component]
fn OptionalNumber(
    spec: FloatSpec,
    get: fn(&ScalingState) -> Option<f64>,
    put: fn(&mut ScalingState, Option<f64>),
) -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let message = RwSignal::new(None::<String>);
    let id = format!("ctl-{}", spec.name);
    let value = move || {
        ctx.state
            .with(|s| get(&s.scaling).map(|v| format!("{v}")).unwrap_or_default())
    };
    let on_change = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let raw = raw.trim();
        if raw.is_empty() {
            message.set(None);
            ctx.state.update(|s| put(&mut s.scaling, None));
            return;
        }
        match crate::format::parse_decimal(raw) {
            Some(v) => {
                let c = spec.clamp(v);
                message.set((c != v).then(|| {
                    format!(
                        "{} ranges from {} to {}; used {c}.",
                        spec.label, spec.min, spec.max
                    )
                }));
                ctx.state.update(|s| put(&mut s.scaling, Some(c)));
            }
            _ => message.set(Some(
                "Not a number; the last value stays. Leave it blank for automatic.".into(),
            )),
        }
    };
    let class = control_class(spec.name, CONTROL);
    view! {
        <div class=class data-control=spec.name>
            <label for=id.clone()>{spec.label}</label>
            <input id=id type="text" inputmode="decimal" class="num" placeholder="auto" prop:value=value on:change=on_change/>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

/// A LongRoPE factor list; blank means the illustrative lists.
#[component]
fn FactorList(name: &'static str) -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let message = RwSignal::new(None::<String>);
    let get = move |s: &ScalingState| {
        if name == "short_factor" {
            s.short_factor.clone()
        } else {
            s.long_factor.clone()
        }
    };
    let value = move || {
        ctx.state.with(|s| {
            get(&s.scaling)
                .as_deref()
                .map(crate::format::number_list)
                .unwrap_or_default()
        })
    };
    let on_change = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let mut notes = crate::state::Notices::default();
        let parsed = crate::state::rope::ScalingState::read(
            &|k: &str| (k == name).then(|| raw.clone()),
            &mut notes,
        );
        let list = if name == "short_factor" {
            parsed.short_factor
        } else {
            parsed.long_factor
        };
        if raw.trim().is_empty() || list.is_some() {
            message.set(None);
            ctx.state.update(|s| {
                if name == "short_factor" {
                    s.scaling.short_factor = list.clone();
                } else {
                    s.scaling.long_factor = list.clone();
                }
            });
        } else {
            message.set(Some(
                "Use positive numbers separated by commas, one per pair. The last list stays."
                    .into(),
            ));
        }
    };
    let id = format!("ctl-{name}");
    let class = control_class(name, CONTROL);
    view! {
        <div class=class data-control=name>
            <label for=id.clone()>{format!("LongRoPE {name} (blank: illustrative)")}</label>
            <textarea id=id rows="2" placeholder="short: all 1; long: 1 → factor" prop:value=value on:change=on_change></textarea>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

/// Model and figure presets.
#[component]
fn Presets() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let source = RwSignal::new(None::<String>);
    let on_model = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(p) = MODEL_PRESETS.iter().find(|p| p.name == name) {
            if let Ok(c) = parse_config(p.config) {
                ctx.state.update(|s| {
                    s.scaling.apply_config(&c);
                });
                source.set(Some(format!("{}: from {}.", p.name, p.source)));
            }
        }
    };
    let yarn_figure = move |_| {
        ctx.state.update(|s| {
            s.scaling = ScalingState {
                methods: vec![Method::None, Method::Linear, Method::Ntk, Method::Yarn],
                head_dim: 128,
                theta: 10000.0,
                factor: 16.0,
                orig_ctx: 4096,
                seq_len: 65536,
                ..ScalingState::default()
            }
        });
        source.set(Some("YaRN on LLaMA-2: Peng et al. (2023), “YaRN: Efficient Context Window Extension of Large Language Models” — D 128, base 10000, L₀ 4096, s = 16 (65,536 positions).".into()));
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
        <div class=class data-control="preset">
            <label for="ctl-preset">"Model preset"</label>
            <select id="ctl-preset" on:change=on_model>
                <option value="">"Choose a model…"</option>
                {MODEL_PRESETS.iter().map(|p| view! { <option value=p.name>{p.name}</option> }).collect_view()}
            </select>
            <button class="figure" on:click=yarn_figure>"Figure: YaRN on LLaMA-2"</button>
            <p class="source">{move || source.get()}</p>
        </div>
    }
}

/// A box for a pasted config.json: applied only when it parses; errors leave everything as is.
#[component]
fn ConfigPaste() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let text = RwSignal::new(String::new());
    let message = RwSignal::new(None::<(bool, String)>);
    let apply = move |_| match parse_config(&text.get_untracked()) {
        Ok(c) => {
            let mut notes = Vec::new();
            ctx.state.update(|s| notes = s.scaling.apply_config(&c));
            let summary = format!(
                "Applied: {}head_dim {}, base (rope_theta) {}, rotary fraction {}, rope type {}.{}",
                c.model_type
                    .as_ref()
                    .map(|m| format!("{m}, "))
                    .unwrap_or_default(),
                c.head_dim,
                c.theta,
                c.partial,
                c.method.name(),
                if notes.is_empty() {
                    String::new()
                } else {
                    format!(" {}", notes.join(" "))
                }
            );
            message.set(Some((true, summary)));
        }
        Err(e) => message.set(Some((false, format!("Not applied: {e}")))),
    };
    let class = control_class(
        "config",
        &[
            "control config-paste",
            "control config-paste gone",
            "control config-paste locked",
        ],
    );
    view! {
        <div class=class data-control="config">
            <label for="ctl-config">"Paste a config.json (read here, never sent)"</label>
            <textarea id="ctl-config" rows="3" placeholder="{\"hidden_size\": 4096, \"num_attention_heads\": 32, \"rope_theta\": 500000, …}"
                prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button on:click=apply>"Apply config"</button>
            <p class="control-msg" class:ok=move || message.get().is_some_and(|m| m.0) role="status">{move || message.get().map(|m| m.1)}</p>
        </div>
    }
}

#[component]
fn FrequenciesPanel(ss: Memo<ScalingState>, results: Computed<Results>) -> impl IntoView {
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
    let contexts = select(ss, |s| (s.orig_ctx as f64, s.factor));
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
                    "ω_i, radians per position (log)"
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
                        parts.push(format!("base′ = {}", sig(t, 6)));
                    }
                    if let Some((lo, hi)) = s.correction {
                        parts.push(format!("ramp over pairs {} to {}", sig(lo, 4), sig(hi, 4)));
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
        ss.with(|s| format!("{ID}_D{}_theta{}_s{}", s.rotary_dim(), s.theta, s.factor))
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=freq_canvas label=Signal::derive(move || "Rotation frequency of each pair under each method, log scale.".to_string()) paint=move |p: &Painter| paint_with(p, false) height=280.0/>
            <ChartCanvas chart=wave_canvas label=Signal::derive(move || "Wavelength of each pair under each method, with the original and extended contexts.".to_string()) paint=move |p: &Painter| paint_with(p, true) height=260.0/>
            <table class="method-summary"><tbody>{summary}</tbody></table>
            <p class="about">{crate::captions::SCALING_FREQUENCIES}</p>
            <ExportButtons chart=freq_canvas stem=stem csv=csv_cb snippet=copier(move || ss.with_untracked(snippet))/>
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
fn ScoreDistancePanel(ss: Memo<ScalingState>, results: Computed<Results>) -> impl IntoView {
    const ID: &str = "scaling-score-distance";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let distance = Computed::new(move || ss.with(ScalingState::score_distance));
    let contexts = select(ss, |s| (s.orig_ctx as f64, s.factor));
    // The last curves of each method: a move of one method's parameter (a YaRN β, a Llama 3
    // factor, the length that dynamic NTK sees) computes that method's curve alone.
    let kept = StoredValue::new(Vec::<KeptCurve>::new());
    // q = k = 1 scores per method, α² included, every `stride`-th distance (`None`: the
    // display stride, and the curves are kept).
    let curves_at = move |stride: Option<usize>, budget: usize| {
        let n = distance.get_untracked() + 1;
        let (h, d) = ss.with_untracked(|s| (s.head_dim, s.rotary_dim()));
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
    let dims = select(ss, |s| (s.head_dim, s.rotary_dim()));
    let key = Computed::new(move || (results.with(Clone::clone), distance.get(), dims.get()));
    let curves = Keyed::new(key, move |_| curves_at(None, TERMS_PER_FRAME));
    // While a slider moves: a quarter of the terms (a coarser stride), refined at rest.
    let quick = Keyed::new(key, move |_| curves_at(None, TERMS_PER_FRAME / 4));
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
                x_label: "distance m − n".into(),
                y_label: "score, q = k = 1 (α² included)".into(),
                x_range: (0.0, n.max(1) as f64),
                y_range: fit_y_range(&series, false),
                y_log: false,
                x_log: false,
                series,
                bands: vec![Band {
                    x0: 0.0,
                    x1: l0.min(n as f64),
                    label: format!("trained range 0…{l0}"),
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
        ss.with(|s| format!("{ID}_D{}_s{}_L0{}", s.rotary_dim(), s.factor, s.orig_ctx))
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Score with q = k = 1 against distance up to {}, one curve per method.", distance.get())) paint=paint height=320.0/>
            <p class="about">{crate::captions::SCALING_SCORE_DISTANCE}</p>
            <p class="sampling-note">{note}</p>
            <ExportButtons chart=canvas stem=stem csv=csv_cb snippet=copier(move || ss.with_untracked(snippet))/>
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
