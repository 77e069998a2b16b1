//! The comparison view (`view=compare`): the schemes side by side.

use leptos::prelude::*;

use crate::encoding::bias::alibi_slopes;
use crate::encoding::learned::OffsetCurve;
use crate::encoding::rope::Rope;
use crate::encoding::similarity::cos_sum_series;
use crate::encoding::sinusoidal::{Layout, Sinusoid};
use crate::export::csv;
use crate::render::charts::{LineChart, SeriesStyle};
use super::state::K_MAX;
use crate::ui::context::{select_state, AppCtx, Computed};
use crate::ui::export;
use crate::ui::tables::TableStore;
use crate::ui::widgets::{panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateRange};
use crate::views::common::{line_series, paint_lines, ExportButtons};

/// Width used for the fixed schemes in the similarity chart.
const WIDTH: usize = super::state::COMPARE_WIDTH;
/// ALiBi head count for the chart (its middle head is drawn).
const ALIBI_HEADS: usize = 8;

/// The comparison view.
#[component]
pub fn CompareView() -> impl IntoView {
    view! {
        <div class="view view-compare">
            <style>{COMPARE_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::COMPARE_INTRO}</p>
            </div>
            <div class="panels single">
                <TablePanel/>
                <SimilarityPanel/>
            </div>
        </div>
    }
}

#[component]
fn TablePanel() -> impl IntoView {
    const ID: &str = "compare-table";
    if !panel_visible(ID) {
        return ().into_any();
    }
    const ROWS: [[&str; 6]; 5] = crate::captions::COMPARE_ROWS;
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // The table as one HTML string (fixed text), the scheme names as buttons that open their
    // view through one delegated click handler.
    let table: String = ROWS.iter().fold(
        "<table class=\"compare-table\"><thead><tr><th scope=\"col\">Scheme</th><th scope=\"col\">Learned parameters</th><th scope=\"col\">Absolute or relative</th><th scope=\"col\">Beyond the trained length</th><th scope=\"col\">Used by</th></tr></thead><tbody>".to_string(),
        |html, r| {
            html + &format!(
                "<tr><th scope=\"row\"><button class=\"link\" data-view=\"{}\">{}</button></th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                r[1], r[0], r[2], r[3], r[4], r[5]
            )
        },
    ) + "</tbody></table>";
    let open_view = move |ev: web_sys::MouseEvent| {
        let name = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.get_attribute("data-view"));
        if let Some(view) =
            name.and_then(|n| crate::state::registry::view_named(&n).map(|spec| spec.view))
        {
            // Opening a scheme's view leaves a lesson, as the navigation does.
            ctx.state.update(|s| {
                s.lesson = None;
                s.view = view;
            });
        }
    };
    let csv_cb = move |_| {
        let mut text = csv::header(&[
            "scheme",
            "parameters",
            "absolute_or_relative",
            "extrapolation",
            "used_by",
        ]);
        for r in ROWS {
            let cells: Vec<String> = [r[0], r[2], r[3], r[4], r[5]]
                .iter()
                .map(|c| csv::field(c))
                .collect();
            text.push_str(&cells.join(","));
            text.push('\n');
        }
        export::csv_text(text, "compare-table.csv");
    };
    view! {
        <Panel id=ID>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Comparison table" inner_html=table on:click=open_view></div>
            <p class="about">{crate::captions::COMPARE_TABLE}</p>
            <div class="exports" role="group" aria-label="Export"><button on:click=csv_cb>"CSV"</button></div>
        </Panel>
    }
    .into_any()
}

#[component]
fn SimilarityPanel() -> impl IntoView {
    const ID: &str = "compare-similarity";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let store = use_context::<TableStore>().expect("TableStore");
    let canvas = ChartRef::new();
    let k_max = select_state(ctx.state, |s| s.compare.k_max);
    let learned = Computed::fresh(move || {
        store
            .minilm
            .with(|t| t.as_ref().map(|t| OffsetCurve::new(&t.table).mean))
    });
    // (name, values at k = 0..=k_max)
    let curves = Computed::fresh(move || {
        let n = k_max.get() + 1;
        let pe = Sinusoid::new(WIDTH, 10000.0, Layout::Interleaved);
        let sinusoidal: Vec<f64> = cos_sum_series(&pe.omegas, 1, n)
            .iter()
            .map(|v| v / (WIDTH / 2) as f64)
            .collect();
        let rope = Rope::plain(WIDTH, 1.0, 10000.0, crate::encoding::rope::PairLayout::Half);
        let w = rope.weights(&vec![1.0; WIDTH], &vec![1.0; WIDTH]);
        let rope_curve: Vec<f64> = rope
            .score_series(&w, 1.0, n)
            .iter()
            .map(|v| v / WIDTH as f64)
            .collect();
        let slope = alibi_slopes(ALIBI_HEADS)[ALIBI_HEADS / 2 - 1];
        let alibi: Vec<f64> = (0..n).map(|k| (-slope * k as f64).exp()).collect();
        let mut out = vec![
            (
                format!("sinusoidal: cosine(PE[pos], PE[pos+Δ]), d_model {WIDTH}"),
                sinusoidal,
            ),
            (
                format!("RoPE: score(Δ)/score(0), q = k = 1, D {WIDTH} (dashed: lies exactly on the sinusoidal curve)"),
                rope_curve,
            ),
            (
                format!(
                    "ALiBi: exp(−slope_h·Δ), head h = {} (heads 0 to {})",
                    ALIBI_HEADS / 2 - 1,
                    ALIBI_HEADS - 1
                ),
                alibi,
            ),
        ];
        if let Some(l) = learned.get() {
            out.push((
                "learned (MiniLM): mean cosine(pos, pos+Δ)".into(),
                l.into_iter().take(n).collect(),
            ));
        }
        out
    });
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        curves.with(|cs| {
            let series: Vec<_> = cs
                .iter()
                .enumerate()
                .map(|(k, (name, ys))| {
                    // RoPE's curve lies exactly on the sinusoidal one: dashed, so both show.
                    let style = if k == 1 {
                        SeriesStyle::Dashed
                    } else {
                        SeriesStyle::Line
                    };
                    line_series(name.clone(), k, ys, |x| x as f64, px, style)
                })
                .collect();
            let chart = LineChart {
                x_label: "offset Δ".into(),
                y_label: "similarity of pos and pos + Δ".into(),
                x_range: (0.0, k_max.get() as f64),
                // From −0.3, or lower where a curve goes lower (the learned table's swings
                // past Δ ≈ 240): no curve is cut at the axis.
                y_range: (
                    (cs.iter()
                        .flat_map(|(_, ys)| ys.iter().copied())
                        .filter(|v| v.is_finite())
                        .fold(-0.3f64, f64::min)
                        * 10.0)
                        .floor()
                        / 10.0,
                    1.05,
                ),
                y_log: false,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = curves.with_untracked(|cs| {
            let n = k_max.get_untracked() + 1;
            let x: Vec<f64> = (0..n).map(|k| k as f64).collect();
            let mut names = vec!["offset".to_string()];
            let keys = ["sinusoidal", "rope", "alibi", "learned_minilm"];
            names.extend(keys.iter().take(cs.len()).map(|s| s.to_string()));
            let mut refs: Vec<&[f64]> = vec![&x];
            refs.extend(cs.iter().map(|(_, ys)| ys.as_slice()));
            csv::columns_csv(&names, &refs)
        });
        export::csv_text(text, "compare-similarity.csv");
    });
    let show_controls = ctx.state.with_untracked(|s| s.show_controls);
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <StateRange spec=K_MAX get=|s| s.compare.k_max as f64 put=|s, v| s.compare.k_max = v as usize/>
            })}
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("Similarity against offset up to {} for each scheme.", k_max.get())) paint=paint height=320.0/>
            <Show when=move || store.minilm.with(Option::is_none)>
                <p class="readout">
                    "The learned curve needs the MiniLM table (384 KB), which loads only on request: "
                    <button on:click=move |_| store.load_minilm()>"Load it"</button>
                </p>
            </Show>
            <p class="about">{crate::captions::COMPARE_SIMILARITY}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || format!("{ID}_k{}", k_max.get())) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// This view's styles, fetched with its code (the first page does not carry them).
const COMPARE_CSS: &str = r#"
.view-compare .table-wrap { max-height: none; }
.compare-table { border-collapse: collapse; font-size: 0.92rem; width: 100%; }
.compare-table th, .compare-table td { border-bottom: 1px solid var(--border); padding: 6px 10px; text-align: left; vertical-align: top; }
.panels.single { grid-template-columns: 1fr; }
"#;
