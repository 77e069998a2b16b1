//! The RoPE view (`view=rope`): its controls, the rotation clocks and the angles. The panels
//! on scores (against distance, the score matrix, long-term decay) and wavelengths are in
//! `scores.rs`.

use leptos::prelude::*;

use super::shared::{snippet, stem, RopeShared};
use plotters::prelude::*;

use crate::encoding::rope::PairLayout;
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{series_colour, PlotRect};
use crate::render::colormap::ColorMap;
use crate::render::raster::{AxisSamples, SampledGrid};
use super::state::{parse_vector, HEAD_DIM, MAX_DIST, PARTIAL, POS, SEED, THETA, QkSource, RopeState};
use crate::ui::context::{select, select_state, AppCtx, Computed};
use crate::ui::dom;
use crate::ui::export::{self, NPY_THRESHOLD_CELLS};
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Choice, Painter, Panel, StateChoice,
    StateRange, CONTROL,
};
use super::scores::{DecayPanel, ScoreDistancePanel, ScoreMatrixPanel, WavelengthPanel};
use crate::views::common::{
    copier, heatmap_frame, highlight_marks,
    ExportButtons,
};

/// At most this many clocks are drawn (pairs spread over the spectrum).
const MAX_CLOCKS: usize = 16;


/// The RoPE view.
#[component]
pub fn RopeView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let rope_state = select_state(state, |s| s.rope.clone());
    let rope = Computed::new(move || rope_state.with(RopeState::rope));
    let vectors = Computed::new(move || rope_state.with(RopeState::vectors));
    let weights = Computed::new(move || rope.with(|r| vectors.with(|(q, k)| r.weights(q, k))));
    let max_dist = select(rope_state, |s| s.max_dist);
    let memos = RopeShared {
        rope_state,
        rope,
        vectors,
        weights,
        max_dist,
    };
    let set = move |f: &dyn Fn(&mut RopeState)| state.update(|s| f(&mut s.rope));
    let show_controls = state.with_untracked(|s| s.show_controls);
    let on_qk = Callback::new(move |v: String| {
        let src = QkSource::OPTIONS
            .iter()
            .find(|(n, _)| *n == v)
            .map_or(QkSource::Ones, |(_, s)| *s);
        set(&|s| {
            s.qk = src;
            if src == QkSource::Custom && (s.q.as_ref().map(Vec::len) != Some(s.head_dim)) {
                // Start custom vectors from the current random ones, so they can be edited.
                let (q, k) = RopeState {
                    qk: QkSource::Random,
                    ..s.clone()
                }
                .vectors();
                s.q = Some(q.iter().map(|v| (v * 100.0).round() / 100.0).collect());
                s.k = Some(k.iter().map(|v| (v * 100.0).round() / 100.0).collect());
            }
        })
    });
    // The figure's state, while the source line names it: shown only while the state is it.
    let figure_state = RwSignal::new(None::<RopeState>);
    let roformer_figure = move |_| {
        state.update(|s| {
            s.rope = RopeState {
                head_dim: 128,
                theta: 10000.0,
                layout: crate::encoding::rope::PairLayout::Interleaved,
                partial: 1.0,
                qk: QkSource::Ones,
                max_dist: 250,
                ..s.rope.clone()
            }
        });
        figure_state.set(Some(state.with_untracked(|s| s.rope.clone())));
    };
    let figure_source = move || {
        let shown = figure_state.with(|f| f.as_ref().is_some_and(|f| rope_state.with(|s| s == f)));
        shown.then_some("Su et al. (2021), “RoFormer: Enhanced Transformer with Rotary Position Embedding”, Figure 2: head_dim 128, base 10000, distance Δ from 0 to 250, drawn in “Long-term decay, and what it depends on”.")
    };
    let rotary_note = move || {
        rope_state.with(|s| {
            let d = s.rotary_dim();
            if d == 0 {
                "No dims rotate at this fraction: RoPE does nothing.".to_string()
            } else if d < s.head_dim {
                format!(
                    "{d} of {} dims rotate ({}); the other {} pass through unchanged.",
                    s.head_dim,
                    crate::format::count(d / 2, "pair", "pairs"),
                    s.head_dim - d
                )
            } else {
                format!("All {d} dims rotate, in {}.", crate::format::count(d / 2, "pair", "pairs"))
            }
        })
    };
    view! {
        <div class="view view-rope">
            <style>{ROPE_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::ROPE_INTRO}</p>
                <div class="formula" inner_html=crate::format::rope_definition()></div>
                <p>
                    <button class="figure" on:click=roformer_figure>"Figure: RoFormer’s long-term decay"</button>
                    " "
                    <span class="source">{figure_source}</span>
                </p>
            </div>
            {show_controls.then(|| view! {
                <div class="controls" role="group" aria-label="RoPE controls">
                    <StateRange spec=HEAD_DIM get=|s| s.rope.head_dim as f64 put=|s, v| s.rope.head_dim = (v as usize).max(2) & !1/>
                    <StateRange spec=THETA get=|s| s.rope.theta put=|s, v| s.rope.theta = v/>
                    <StateRange spec=PARTIAL get=|s| s.rope.partial put=|s, v| s.rope.partial = v/>
                    <StateRange spec=MAX_DIST get=|s| s.rope.max_dist as f64 put=|s, v| s.rope.max_dist = v as usize/>
                    <StateChoice name="layout" label="Pairing" options=vec![("interleaved", "Interleaved (2i, 2i+1)"), ("half", "Half-split (i, i + D/2)")]
                        get=|s| s.rope.layout.name()
                        put=|s, v| s.rope.layout = if v == "interleaved" { PairLayout::Interleaved } else { PairLayout::Half }/>
                    <Choice name="qk" label="q and k" options=vec![("ones", "All ones"), ("random", "Random (seeded)"), ("custom", "Custom")]
                        value=Signal::derive(move || rope_state.with(|s| s.qk.name().to_string())) on_change=on_qk/>
                    <Show when=move || rope_state.with(|s| s.qk == QkSource::Random)>
                        <StateRange spec=SEED get=|s| s.rope.seed as f64 put=|s, v| s.rope.seed = v as u64/>
                    </Show>
                    <Show when=move || rope_state.with(|s| s.qk == QkSource::Custom)>
                        <VectorInput name="q" rope_state=rope_state/>
                        <VectorInput name="k" rope_state=rope_state/>
                    </Show>
                    <p class="control-note">{rotary_note}</p>
                </div>
            })}
            <div class="panels">
                <RotationPanel shared=memos/>
                <AnglesPanel shared=memos/>
                <ScoreDistancePanel shared=memos/>
                <ScoreMatrixPanel shared=memos/>
                <DecayPanel shared=memos/>
                <WavelengthPanel shared=memos/>
            </div>
        </div>
    }
}

/// A text box for a custom q or k vector; a malformed entry is refused with a message.
#[component]
fn VectorInput(name: &'static str, rope_state: Memo<RopeState>) -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let message = RwSignal::new(None::<String>);
    let current = move || {
        rope_state.with(|s| {
            let v = if name == "q" { &s.q } else { &s.k };
            v.as_deref()
                .map(crate::format::number_list)
                .unwrap_or_default()
        })
    };
    let on_change = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        let h = rope_state.with_untracked(|s| s.head_dim);
        match parse_vector(&raw, h) {
            Ok(v) => {
                message.set(None);
                ctx.state.update(|s| {
                    if name == "q" {
                        s.rope.q = Some(v);
                    } else {
                        s.rope.k = Some(v);
                    }
                });
            }
            Err(why) => message.set(Some(format!(
                "Not used: {why}. The last good {name} stays."
            ))),
        }
    };
    let id = format!("ctl-{name}");
    let class = control_class(name, CONTROL);
    view! {
        <div class=class data-control=name>
            <label for=id.clone()>{move || format!("{name} ({} numbers, comma-separated)", rope_state.with(|s| s.head_dim))}</label>
            <textarea id=id rows="2" prop:value=current on:change=on_change></textarea>
            <p class="control-msg" role="status">{move || message.get().or_else(|| mismatch(name, rope_state))}</p>
        </div>
    }
}

/// What the charts use when the custom `name` vector no longer has head_dim numbers (head_dim
/// moved under it): q = k = 1, as a link with these vectors reads ([`RopeState::vectors`]).
fn mismatch(name: &str, rope_state: Memo<RopeState>) -> Option<String> {
    rope_state.with(|s| {
        let v = if name == "q" { &s.q } else { &s.k };
        let len = v.as_ref().map_or(0, Vec::len);
        (s.qk == QkSource::Custom && len != s.head_dim).then(|| {
            format!(
                "{name} has {len} numbers and head_dim is {}: the charts use q = k = 1 until q and k have {} numbers each.",
                s.head_dim, s.head_dim
            )
        })
    })
}

/// The pairs drawn as clocks: all of them, or an even spread when there are many.
fn clock_pairs(pairs: usize) -> Vec<usize> {
    if pairs <= MAX_CLOCKS {
        (0..pairs).collect()
    } else {
        (0..MAX_CLOCKS)
            .map(|n| n * (pairs - 1) / (MAX_CLOCKS - 1))
            .collect()
    }
}

#[component]
fn RotationPanel(shared: RopeShared) -> impl IntoView {
    const ID: &str = "rope-rotation";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = ChartRef::new();
    let pos = select(shared.rope_state, |s| s.pos);
    let playing = RwSignal::new(false);
    let reduced_motion = dom::media_matches("(prefers-reduced-motion: reduce)");
    // (pair, θ_j, angle, rotated q pair) per clock.
    let clocks = Computed::fresh(move || {
        let p = pos.get() as f64;
        shared.rope.with(|r| {
            shared.vectors.with(|(q, _)| {
                clock_pairs(r.inv_freq.len())
                    .into_iter()
                    .map(|j| {
                        let (a, b) = r.layout.dims(j, r.rotary_dim);
                        let angle = p * r.inv_freq[j];
                        let (s, c) = angle.sin_cos();
                        (
                            j,
                            r.inv_freq[j],
                            angle,
                            (q[a], q[b]),
                            (q[a] * c - q[b] * s, q[b] * c + q[a] * s),
                        )
                    })
                    .collect::<Vec<_>>()
            })
        })
    });
    let paint = move |p: &Painter| {
        let area = p.area()?;
        area.fill(&p.theme.background).ok()?;
        let clocks = clocks.get();
        let (w, h) = area.dim_in_pixel();
        let n = clocks.len().max(1);
        let cols = ((n as f64 * w as f64 / h as f64).sqrt().ceil() as usize).clamp(1, n);
        let rows = n.div_ceil(cols);
        let cell_w = w as f64 / cols as f64;
        let cell_h = h as f64 / rows as f64;
        let radius = (cell_w.min(cell_h) * 0.36).max(4.0);
        let font = p.theme.font(12.0);
        let max_len = clocks
            .iter()
            .map(|c| c.3 .0.hypot(c.3 .1))
            .fold(1e-12, f64::max);
        for (n, (j, _, _, orig, rotated)) in clocks.iter().enumerate() {
            let cx = (n % cols) as f64 * cell_w + cell_w / 2.0;
            let cy = (n / cols) as f64 * cell_h + cell_h / 2.0 - 6.0 * p.theme.scale;
            let centre = (cx as i32, cy as i32);
            area.draw(&Circle::new(
                centre,
                radius as i32,
                p.theme.grid.stroke_width(p.theme.px(1.0)),
            ))
            .ok()?;
            let tip = |v: (f64, f64)| {
                let s = radius / max_len;
                ((cx + v.0 * s) as i32, (cy - v.1 * s) as i32)
            };
            area.draw(&PathElement::new(
                vec![centre, tip(*orig)],
                p.theme.grid.stroke_width(p.theme.px(1.5)),
            ))
            .ok()?;
            area.draw(&PathElement::new(
                vec![centre, tip(*rotated)],
                series_colour(0).stroke_width(p.theme.px(2.5)),
            ))
            .ok()?;
            area.draw(&Text::new(
                format!("i = {j}"),
                (
                    (cx - radius) as i32,
                    (cy + radius + 4.0 * p.theme.scale) as i32,
                ),
                font.clone(),
            ))
            .ok()?;
        }
        Some(PlotRect {
            x0: 0,
            y0: 0,
            x1: w as i32,
            y1: h as i32,
            ..PlotRect::default()
        })
    };
    // Animation: advance the position about 30 times a second while playing; never with
    // reduced motion.
    let timer = StoredValue::new(None::<IntervalHandle>);
    let toggle = move |_| {
        if reduced_motion {
            return;
        }
        if let Some(handle) = timer.get_value() {
            handle.clear();
            timer.set_value(None);
            playing.set(false);
            return;
        }
        let tick = move || {
            ctx.state
                .update(|s| s.rope.pos = (s.rope.pos + 1) % (POS.max as usize + 1))
        };
        if let Ok(handle) = set_interval_with_handle(tick, std::time::Duration::from_millis(33)) {
            timer.set_value(Some(handle));
            playing.set(true);
        }
    };
    on_cleanup(move || {
        if let Some(handle) = timer.get_value() {
            handle.clear();
        }
    });
    let csv_cb = Callback::new(move |_| {
        let text = clocks.with_untracked(|cs| {
            let cols: Vec<Vec<f64>> = vec![
                cs.iter().map(|c| c.0 as f64).collect(),
                cs.iter().map(|c| c.1).collect(),
                cs.iter().map(|c| c.2).collect(),
                cs.iter().map(|c| c.4 .0).collect(),
                cs.iter().map(|c| c.4 .1).collect(),
            ];
            let refs: Vec<&[f64]> = cols.iter().map(Vec::as_slice).collect();
            csv::columns_csv(
                &["pair", "omega_i", "angle_rad", "q_x_rotated", "q_y_rotated"],
                &refs,
            )
        });
        export::csv_text(
            text,
            &format!("rope-rotation_pos{}.csv", pos.get_untracked()),
        );
    });
    let show_controls = ctx.state.with_untracked(|s| s.show_controls);
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <div class="control-line">
                    <StateRange spec=POS get=|s| s.rope.pos as f64 put=|s, v| s.rope.pos = v as usize/>
                    <button class="play" on:click=toggle disabled=reduced_motion aria-pressed=move || playing.get().to_string()>
                        {move || if reduced_motion { "Animation off (reduced motion)" } else if playing.get() { "⏸ Pause" } else { "▶ Play" }}
                    </button>
                </div>
            })}
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Clocks: the query's pairs rotated to position {}.", pos.get())) paint=paint height=360.0/>
            <p class="about">{crate::captions::ROPE_ROTATION}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || shared.rope_state.with(|s| stem(s, ID))) csv=csv_cb
                snippet=copier(move || shared.rope_state.with_untracked(|s| snippet(s, ID)))/>
        </Panel>
    }
    .into_any()
}

#[component]
fn AnglesPanel(shared: RopeShared) -> impl IntoView {
    const ID: &str = "rope-angles";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let hover = RwSignal::new(None::<(usize, usize)>);
    let paint = move |p: &Painter| {
        let n = shared.max_dist.get() + 1;
        shared.rope.with(|r| {
            let pairs = r.inv_freq.len();
            let cmap = ColorMap::diverging();
            let frame = heatmap_frame(
                &cmap,
                pairs,
                n,
                "pair i",
                "position",
                -1.0,
                1.0,
                "cos(pos·ω_i)",
            );
            let rect = p.heatmap_frame(&frame)?;
            let grid = SampledGrid::waves(
                AxisSamples::centred(n, p.raster(rect).1),
                AxisSamples::centred(pairs, p.raster(rect).0),
                |j| (r.inv_freq[j], 1),
            );
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, -1.0, 1.0));
            Some(rect)
        })
    };
    let on_hover = Callback::new(move |f: Option<(f64, f64)>| {
        let n = shared.max_dist.get_untracked() + 1;
        let pairs = shared.rope.with_untracked(|r| r.inv_freq.len());
        hover.set(f.filter(|_| pairs > 0).map(|(fx, fy)| {
            (
                ((fy * n as f64) as usize).min(n - 1),
                ((fx * pairs as f64) as usize).min(pairs - 1),
            )
        }));
    });
    let readout = move || {
        let (pos, j) = hover.get()?;
        shared.rope.with(|r| {
            let t = *r.inv_freq.get(j)?;
            Some(format!(
                "pos {pos}, pair i {j}: ω_i = {} rad/pos, angle {} rad, cos = {}",
                sig(t, 5),
                sig(pos as f64 * t, 6),
                sig((pos as f64 * t).cos(), 6)
            ))
        })
    };
    let fill = move |pos: usize, row: &mut [f64]| {
        shared.rope.with_untracked(|r| {
            for (cell, t) in row.iter_mut().zip(&r.inv_freq) {
                *cell = (pos as f64 * t).cos();
            }
        })
    };
    let csv_cb = Callback::new(move |_| {
        let n = shared.max_dist.get_untracked() + 1;
        let pairs = shared.rope.with_untracked(|r| r.inv_freq.len());
        let names: Vec<String> = (0..pairs).map(|j| format!("pair{j}")).collect();
        export::csv_matrix(
            &names,
            n,
            fill,
            &format!("rope-angles_{}.csv", shared.rope_state.with_untracked(|s| stem(s, ""))),
        );
    });
    let big = Signal::derive(move || {
        (shared.max_dist.get() + 1) * shared.rope.with(|r| r.inv_freq.len()) > NPY_THRESHOLD_CELLS
    });
    let npy_cb = Callback::new(move |_| {
        let n = shared.max_dist.get_untracked() + 1;
        let pairs = shared.rope.with_untracked(|r| r.inv_freq.len());
        export::npy_matrix(n, pairs, fill, "rope-angles.npy");
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Heatmap of cos(pos·ω_i) for positions 0 to {} and every pair.", shared.max_dist.get())) paint=paint on_hover=on_hover height=320.0
                marks=highlight_marks(move || (shared.rope.with(|r| r.inv_freq.len()), shared.max_dist.get() + 1))/>
            <p class="readout">{move || readout().unwrap_or_else(|| "Hover for the angle of a pair at a position.".into())}</p>
            <p class="about">{crate::captions::ROPE_ANGLES}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || shared.rope_state.with(|s| stem(s, ID))) csv=csv_cb npy=Some((big, npy_cb))
                snippet=copier(move || shared.rope_state.with_untracked(|s| snippet(s, ID)))/>
        </Panel>
    }
    .into_any()
}

/// Styles only this chunk's markup uses (the first page does not carry them).
const ROPE_CSS: &str = r#"
.control-line { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px 16px; }
.control-line .control { flex: 1; min-width: 220px; }
.control-note { color: var(--muted); font-size: 0.9rem; margin: 0; align-self: center; }
.sampling-note { color: var(--muted); font-size: 0.85rem; margin: 0; }
.sampling-note:empty { display: none; }
"#;
