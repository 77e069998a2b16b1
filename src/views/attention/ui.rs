//! "Why position?" (`view=attention`): shuffle a sentence and watch a toy attention head.

use leptos::prelude::*;

use crate::encoding::attention::{
    attend, canonical_order, output_changes, reordered, token_status, Positions, TokenStatus,
    TOKENS,
};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{fit_y_range, LineChart, SeriesStyle};
use super::state::DemoEncoding;
use crate::ui::context::{select_state, AppCtx, Computed};
use crate::ui::export;
use crate::ui::widgets::{panel_visible, ChartCanvas, ChartRef, Choice, Painter, Panel};
use crate::views::common::{line_series, paint_lines, ExportButtons};

fn positions(pe: DemoEncoding) -> Positions {
    match pe {
        DemoEncoding::Sinusoidal => Positions::Sinusoidal,
        DemoEncoding::Rope => Positions::Rope,
    }
}

/// The "why position?" view.
#[component]
pub fn AttentionView() -> impl IntoView {
    view! {
        <div class="view view-attention">
            <style>{ATTENTION_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::ATTENTION_INTRO}</p>
            </div>
            <div class="panels single">
                <PermutationPanel/>
            </div>
        </div>
    }
}

#[component]
fn PermutationPanel() -> impl IntoView {
    const ID: &str = "permutation-demo";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let attention_state = select_state(state, |s| s.attention.clone());
    let canvas = ChartRef::new();
    let dragging = RwSignal::new(None::<usize>);
    let shuffles = StoredValue::new(0u64);
    // Equal words swapped are the same sentence (`canonical_order`).
    let set_order =
        move |order: Vec<usize>| state.update(|s| s.attention.order = canonical_order(&order));
    let shuffle = move |_| {
        // A seeded Fisher–Yates shuffle that never returns the current order.
        let current = attention_state.with_untracked(|a| a.order.clone());
        let mut n = shuffles.get_value();
        loop {
            n += 1;
            let mut rng = crate::encoding::rope::SeededNormal::new(n);
            let mut order: Vec<usize> = (0..TOKENS.len()).collect();
            for i in (1..order.len()).rev() {
                let j = ((rng.sample().abs() * 1e6) as usize) % (i + 1);
                order.swap(i, j);
            }
            if canonical_order(&order) != current {
                shuffles.set_value(n);
                set_order(order);
                break;
            }
        }
    };
    let reset = move |_| set_order((0..TOKENS.len()).collect());
    let move_token = move |from: usize, to: usize| {
        let mut order = attention_state.with_untracked(|a| a.order.clone());
        if from < order.len() && to < order.len() && from != to {
            let t = order.remove(from);
            order.insert(to, t);
            set_order(order);
        }
    };
    let on_pe = Callback::new(move |v: String| {
        let pe = DemoEncoding::OPTIONS
            .iter()
            .find(|(n, _)| *n == v)
            .map_or(DemoEncoding::Sinusoidal, |(_, p)| *p);
        state.update(|s| s.attention.pe = pe)
    });
    let changes = Computed::fresh(move || {
        attention_state.with(|a| {
            (
                output_changes(&a.order, Positions::None, a.causal),
                output_changes(&a.order, positions(a.pe), a.causal),
            )
        })
    });
    let table = move |with_pe: bool| {
        attention_state.with(|a| {
            let pos_kind = if with_pe { positions(a.pe) } else { Positions::None };
            let words: Vec<&str> = a.order.iter().map(|&i| TOKENS[i]).collect();
            let result = attend(&words, pos_kind, a.causal);
            let change = changes.with(|(none, pe)| if with_pe { pe.clone() } else { none.clone() });
            // One HTML string (fixed tokens and numbers only): far less wasm than typed rows.
            let mask = if a.causal { ", causal mask" } else { ", no mask" };
            let caption = if with_pe {
                format!("With {} positions{mask}", a.pe.label())
            } else {
                format!("Without positional encoding{mask}")
            };
            let mut html = format!("<caption>{caption}</caption><thead><tr><th>pos</th><th>token</th><th>output</th><th>vs. original order</th></tr></thead><tbody>");
            for (pos, &i) in a.order.iter().enumerate() {
                let shown: Vec<String> = result.outputs[pos].iter().take(4).map(|v| sig(*v, 3)).collect();
                // An unchanged output under a reordering is the failure the lesson names.
                let (status, class) = match token_status(&a.order, pos, a.causal, change[i]) {
                    TokenStatus::Original => ("original order (change 0)".to_string(), ""),
                    TokenStatus::NothingMoved => ("nothing it attends to moved (change 0)".to_string(), ""),
                    TokenStatus::Invisible => ("order invisible (change ≈ 0)".to_string(), "order-invisible"),
                    TokenStatus::Visible(c) => (format!("order visible (change {})", sig(c, 3)), "order-visible"),
                };
                html += &format!(
                    "<tr class=\"{class}\"><td>{pos}</td><th scope=\"row\">{} (#{i})</th><td class=\"vec\">[{}, …]</td><td>{status}</td></tr>",
                    TOKENS[i],
                    shown.join(", ")
                );
            }
            html + "</tbody>"
        })
    };
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        changes.with(|(none, pe)| {
            let series = vec![
                if none.iter().all(|d| d.abs() < 1e-9) {
                    // Zero-height bars would be invisible: draw the zero as a labelled line.
                    line_series(
                        if attention_state.with(|a| reordered(&a.order)) {
                            "without PE: change = 0 for every token (order invisible)".into()
                        } else {
                            "without PE: change = 0 (original order)".into()
                        },
                        1,
                        &[0.0, 0.0],
                        |i| {
                            if i == 0 {
                                -0.6
                            } else {
                                TOKENS.len() as f64 - 0.4
                            }
                        },
                        px,
                        SeriesStyle::Line,
                    )
                } else {
                    line_series(
                        "without PE".into(),
                        1,
                        none,
                        |i| i as f64 - 0.15,
                        px,
                        SeriesStyle::Bars,
                    )
                },
                line_series(
                    format!("with {}", attention_state.with(|a| a.pe.label())),
                    0,
                    pe,
                    |i| i as f64 + 0.15,
                    px,
                    SeriesStyle::Bars,
                ),
            ];
            let (_, hi) = fit_y_range(&series, false);
            let chart = LineChart {
                x_label: "token (original index)".into(),
                y_label: "largest change of its output".into(),
                x_range: (-0.6, TOKENS.len() as f64 - 0.4),
                // A little below zero, so the zero line stands clear of the axis.
                y_range: (-0.04 * hi.max(1e-3), hi.max(1e-3)),
                y_log: false,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = attention_state.with_untracked(|a| {
            let words: Vec<&str> = a.order.iter().map(|&i| TOKENS[i]).collect();
            let none = attend(&words, Positions::None, a.causal);
            let with = attend(&words, positions(a.pe), a.causal);
            let mut names = vec!["position".to_string(), "token_index".to_string()];
            names.extend((0..crate::encoding::attention::DIM).map(|c| format!("out_none_{c}")));
            names.extend(
                (0..crate::encoding::attention::DIM).map(|c| format!("out_{}_{c}", a.pe.name())),
            );
            let mut out = csv::header(&names);
            for (pos, &i) in a.order.iter().enumerate() {
                let mut row = vec![pos as f64, i as f64];
                row.extend(&none.outputs[pos]);
                row.extend(&with.outputs[pos]);
                csv::push_row(&mut out, &row);
            }
            out
        });
        export::csv_text(text, "permutation-demo.csv");
    });
    let chips = move || {
        attention_state.with(|a| {
            let n = a.order.len();
            a.order
                .iter()
                .enumerate()
                .map(|(pos, &i)| {
                    view! {
                        <li class="chip" draggable="true"
                            on:dragstart=move |_| dragging.set(Some(pos))
                            on:dragover=move |ev: web_sys::DragEvent| ev.prevent_default()
                            on:drop=move |ev: web_sys::DragEvent| {
                                ev.prevent_default();
                                if let Some(from) = dragging.get_untracked() { move_token(from, pos); }
                                dragging.set(None);
                            }>
                            <button class="nudge" aria-label=format!("Move {} left", TOKENS[i]) disabled=pos == 0 on:click=move |_| move_token(pos, pos - 1)>"‹"</button>
                            <span>{TOKENS[i]}</span>
                            <button class="nudge" aria-label=format!("Move {} right", TOKENS[i]) disabled=pos + 1 == n on:click=move |_| move_token(pos, pos + 1)>"›"</button>
                        </li>
                    }
                })
                .collect_view()
        })
    };
    let summary = move || {
        let zero = changes.with(|(none, _)| none.iter().all(|d| d.abs() < 1e-9));
        let shuffled = attention_state.with(|a| reordered(&a.order));
        let without = match (shuffled, zero) {
            (false, _) => "the original order, so nothing has changed yet",
            (true, true) => "without PE: change = 0 for every token (order invisible)",
            (true, false) => "without PE the outputs changed",
        };
        format!("Bar chart: how much each token's output changed after reordering, without and with positional encoding; {without}.")
    };
    let show_controls = state.with_untracked(|s| s.show_controls);
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <div class="control-line">
                    <ol class="chips" aria-label="Sentence (drag a word, or use its arrows)">{chips}</ol>
                    <button class="shuffle" on:click=shuffle>"Shuffle"</button>
                    <button class="reset" on:click=reset>"Original order"</button>
                    <Choice name="pe" label="Positional encoding" options=vec![("sinusoidal", "Sinusoidal (added)"), ("rope", "RoPE (rotates q, k)")]
                        value=Signal::derive(move || attention_state.with(|a| a.pe.name().to_string())) on_change=on_pe/>
                    <Choice name="causal" label="Attention mask" options=vec![("0", "None (bidirectional, encoder)"), ("1", "Causal (decoder)")]
                        value=Signal::derive(move || attention_state.with(|a| if a.causal { "1" } else { "0" }.to_string()))
                        on_change=Callback::new(move |v: String| state.update(|s| s.attention.causal = v == "1"))/>
                </div>
            })}
            <div class="side-by-side">
                <table class="demo-table" data-condition="none" inner_html=move || table(false)></table>
                <table class="demo-table" data-condition="pe" inner_html=move || table(true)></table>
            </div>
            <ChartCanvas chart=canvas label=Signal::derive(summary) paint=paint height=220.0/>
            <p class="about">{move || if attention_state.with(|a| a.causal) { crate::captions::PERMUTATION_DEMO_CAUSAL } else { crate::captions::PERMUTATION_DEMO }}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || attention_state.with(|a| format!("{ID}_{}{}", a.pe.name(), if a.causal { "_causal" } else { "" }))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// This view's styles, fetched with its code (the first page does not carry them).
const ATTENTION_CSS: &str = r#"
.chips { display: flex; flex-wrap: wrap; gap: 8px; list-style: none; padding: 0; margin: 0; }
.chip { display: inline-flex; align-items: center; gap: 4px; padding: 4px 6px; border: 1px solid var(--border); border-radius: 999px; background: var(--bg); cursor: grab; font-size: 1.1rem; }
.chip span { padding: 0 4px; font-weight: 600; }
.chip .nudge { padding: 0 6px; border-radius: 999px; }
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 16px; margin: 12px 0; }
.demo-table { border-collapse: collapse; font-size: 0.9rem; font-variant-numeric: tabular-nums; width: 100%; }
.demo-table caption { font-weight: 600; text-align: left; padding-bottom: 4px; }
.demo-table th, .demo-table td { border-bottom: 1px solid var(--border); padding: 3px 8px; text-align: left; }
.demo-table tr.order-visible td:last-child { color: var(--ok); font-weight: 600; }
.demo-table tr.order-invisible td:last-child { color: var(--bad); font-weight: 600; }
.demo-table .vec { font-family: ui-monospace, monospace; font-size: 0.85rem; }
.control-line { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px 16px; }
.control-line .control { flex: 1; min-width: 220px; }
.panels.single { grid-template-columns: 1fr; }
"#;
