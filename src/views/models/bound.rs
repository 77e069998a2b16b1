//! How far a base keeps similar tokens scoring higher (Men et al., 2024): B(Δ) for one width
//! and base (`base-bound`), and the smallest base for each context length (`base-bound-min`).
//!
//! The scans can take longer than a frame (a large base crosses zero late): they run a slice
//! per paint ([`Crossing::advance`]), the chart says how far they got, and the scheduler paints
//! again at rest until they finish (`Painter::unfinished`).
use std::cell::RefCell;

use leptos::prelude::*;

use crate::encoding::base_bound::{
    min_base, BaseGrid, Crossing, COLUMN_SAMPLES, QUICK_SAMPLES, SCAN_LIMIT,
};
use crate::export::csv;
use crate::format::{base_text, escape_html, grouped};
use crate::render::charts::{series_colour, Band, LineChart, Series, SeriesStyle};
use crate::render::envelope::Column;
use super::state::{BB_HEAD_DIM, BB_THETA};
use crate::ui::context::{select_state, AppCtx};
use crate::ui::export;
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateRange,
};
use crate::views::common::{paint_lines, ExportButtons};
use super::curves::cos_mean_columns;
use super::shared::rope_models;

/// Term evaluations (a term is one pair at one `m`) a scan may take in one paint while a
/// slider moves, and at rest.
const MOVING_BUDGET: u64 = 50_000;

/// Cosines a quick paint of `base-bound` may evaluate.
const QUICK_TERMS: usize = 50_000;
const REST_BUDGET: u64 = 3_000_000;

/// The largest distance the `base-bound` chart draws: 10⁷ (log axis from 1).
const BOUND_MAX_LOG: f64 = 7.0;
/// The contexts of the `base-bound-min` chart: 10¹ … 10⁷ (log axis).
const MIN_X_LOG: (f64, f64) = (1.0, 7.0);

/// The scans in progress, kept between paints.
#[derive(Default)]
struct Scans {
    /// `base-bound`: the chosen `D` and base.
    current: Option<Crossing>,
    /// `base-bound-min`: every grid base for the chosen `D`.
    grid: Option<BaseGrid>,
    /// The gallery's RoPE models at their own width, in gallery order: at their base, and with
    /// their scaled frequencies.
    models: Vec<(Crossing, Crossing)>,
}

thread_local! {
    static SCANS: RefCell<Scans> = RefCell::new(Scans::default());
}

fn budget(p: &Painter) -> u64 {
    if p.at_rest() {
        REST_BUDGET
    } else {
        MOVING_BUDGET
    }
}

/// Sets the `base-bound` readout from the scan.
fn show_crossing(el: &web_sys::Element, c: &Crossing) {
    let text = match c.first() {
        Some(Some(m)) => {
            let _ = el.set_attribute("data-first-negative", &m.to_string());
            // Released models with this width and base, and the context they were given.
            let same: Vec<String> = rope_models()
                .filter(|r| r.rotary == c.d && r.theta == c.base)
                .map(|r| format!("{} (L₀ = {})", r.name, grouped(r.original_ctx as u64)))
                .collect();
            let models = if same.is_empty() {
                String::new()
            } else {
                format!(" Released with this D and base: {}.", same.join(", "))
            };
            format!(
                "With D = {} and base {}, B(Δ) first drops below 0 at Δ = {}: by the bound, this base serves a context of at most {} tokens.{models}",
                c.d,
                base_text(c.base),
                grouped(m),
                grouped(m)
            )
        }
        Some(None) => {
            let _ = el.remove_attribute("data-first-negative");
            format!(
                "With D = {} and base {}, B(Δ) ≥ 0 for every Δ below {} (the scan's limit).",
                c.d,
                base_text(c.base),
                grouped(SCAN_LIMIT)
            )
        }
        None => {
            let _ = el.remove_attribute("data-first-negative");
            format!(
                "Scanning… B(Δ) ≥ 0 for every Δ below {} so far.",
                grouped(c.reached())
            )
        }
    };
    el.set_text_content(Some(&text));
}

#[component]
pub(super) fn BoundPanel() -> impl IntoView {
    const ID: &str = "base-bound";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = ChartRef::new();
    let readout = NodeRef::<leptos::html::P>::new();
    let dims = select_state(ctx.state, |s| (s.models.head_dim, s.models.theta));
    let paint = move |p: &Painter| {
        let (d, base) = dims.get();
        let px = (p.canvas.width() as usize).max(2) * 2 / 3;
        let crossing = SCANS.with_borrow_mut(|s| {
            let c = match &mut s.current {
                Some(c) if c.d == d && c.base == base => c,
                slot => slot.insert(Crossing::new(d, base)),
            };
            c.advance(budget(p));
            c.clone()
        });
        if !crossing.done() {
            p.unfinished();
        }
        if let Some(el) = readout.get_untracked() {
            show_crossing(&el, &crossing);
        }
        let thetas = crate::encoding::base_bound::thetas(d, base);
        // While a slider moves, fewer samples per column (refined once it pauses): at most
        // QUICK_TERMS cosines, so that a wide D does not cost the frame (at D = 256, 4 samples
        // on 380 columns were 195,000 cosines, 4–6 ms).
        let samples = if p.at_rest() {
            COLUMN_SAMPLES
        } else {
            p.unfinished();
            (QUICK_TERMS / (px * (d / 2).max(1))).clamp(1, QUICK_SAMPLES)
        };
        let marked: Vec<u64> = crossing.first().flatten().into_iter().collect();
        let mut columns = cos_mean_columns(&thetas, BOUND_MAX_LOG, px, samples, &marked);
        // B(Δ) itself, not its mean: the paper's quantity.
        let half = (d / 2) as f64;
        for c in &mut columns {
            c.lo *= half;
            c.hi *= half;
        }
        let mut bands = Vec::new();
        if let Some(Some(m)) = crossing.first() {
            let x = (m as f64).log10();
            bands.push(Band {
                x0: x - 0.01,
                x1: x + 0.01,
                label: format!("first B(Δ) < 0: Δ = {}", grouped(m)),
            });
        }
        let chart = LineChart {
            x_label: "distance Δ (log)".into(),
            y_label: "B(Δ) = Σ_i cos(Δ·ω_i)".into(),
            x_range: (0.0, BOUND_MAX_LOG),
            y_range: (-0.25 * half, half),
            y_log: false,
            x_log: true,
            series: vec![
                Series {
                    name: format!("B(Δ), D = {d}, base {}", base_text(base)),
                    colour: series_colour(0),
                    columns,
                    style: SeriesStyle::Line,
                },
                Series {
                    name: "0".into(),
                    colour: crate::render::charts::REFERENCE_COLOUR,
                    columns: vec![
                        Column {
                            x: 0.0,
                            lo: 0.0,
                            hi: 0.0,
                        },
                        Column {
                            x: BOUND_MAX_LOG,
                            lo: 0.0,
                            hi: 0.0,
                        },
                    ],
                    style: SeriesStyle::Reference,
                },
            ],
            bands,
        };
        paint_lines(p, &chart)
    };
    let csv_cb = Callback::new(move |_| {
        let (d, base) = dims.get_untracked();
        let thetas = crate::encoding::base_bound::thetas(d, base);
        let mut text = csv::header(&["distance", "B"]);
        let mut m = 0.0f64;
        while m <= 10f64.powf(BOUND_MAX_LOG) {
            csv::push_row(
                &mut text,
                &[m, crate::encoding::base_bound::b_sum(&thetas, m)],
            );
            m = if m < 64.0 {
                m + 1.0
            } else {
                (m * 2f64.powf(1.0 / 16.0)).round()
            };
        }
        export::csv_text(text, &format!("base-bound_D{d}_base{base}.csv"));
    });
    let show_controls = ctx.state.with_untracked(|s| s.show_controls);
    view! {
        <Panel id=ID>
            {show_controls.then(|| view! {
                <div class="control-line">
                    <StateRange spec=BB_HEAD_DIM get=|s| s.models.head_dim as f64 put=|s, v| s.models.head_dim = (v as usize).max(2) & !1/>
                    <StateRange spec=BB_THETA get=|s| s.models.theta put=|s, v| s.models.theta = v/>
                </div>
            })}
            <ChartCanvas chart=canvas label=Signal::derive(move || { let (d, b) = dims.get(); format!("B(Δ), the sum of cos(Δ·ω_i) over the {} of D = {d} at base {}, against Δ on a log axis.", crate::format::count(d / 2, "pair", "pairs"), base_text(b)) }) paint=paint height=300.0/>
            <p class="readout bound-readout" node_ref=readout></p>
            <p class="about">{crate::captions::BASE_BOUND}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || { let (d, b) = dims.get(); format!("{ID}_D{d}_base{b}") }) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// The smallest base against the context length, as a staircase: for each grid base in turn,
/// the contexts its first crossing newly covers.
fn staircase(grid: &BaseGrid) -> Vec<Column> {
    let mut out = Vec::new();
    let mut covered = 10f64.powf(MIN_X_LOG.0);
    for p in &grid.points {
        let Some(first) = p.first() else { break };
        let reach = first.map_or(SCAN_LIMIT as f64, |m| m as f64);
        if reach > covered {
            let (x0, x1) = (covered.log10(), reach.min(10f64.powf(MIN_X_LOG.1)).log10());
            out.push(Column {
                x: x0,
                lo: p.base,
                hi: p.base,
            });
            out.push(Column {
                x: x1,
                lo: p.base,
                hi: p.base,
            });
            covered = reach;
        }
    }
    out
}

#[component]
pub(super) fn MinBasePanel() -> impl IntoView {
    const ID: &str = "base-bound-min";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = ChartRef::new();
    let table = NodeRef::<leptos::html::Div>::new();
    let shown = StoredValue::new(String::new());
    let dims = select_state(ctx.state, |s| (s.models.head_dim, s.models.theta));
    let paint = move |p: &Painter| {
        let (d, base) = dims.get();
        // Everything this paint draws is read inside the borrow: the scans stay where they are
        // (a copy per paint would be 81 grid scans and 22 model scans, frequencies included).
        let (done, html, stairs, grid_points, marker) = SCANS.with_borrow_mut(|s| {
            let mut left = budget(p);
            let grid = match &mut s.grid {
                Some(g) if g.d == d => g,
                slot => slot.insert(BaseGrid::new(d)),
            };
            left = left.saturating_sub(grid.advance(left));
            if s.models.is_empty() {
                s.models = rope_models()
                    .map(|m| {
                        let scaled = m.scaled().map(|x| x.inv_freq).unwrap_or_default();
                        (
                            Crossing::new(m.rotary, m.theta),
                            Crossing::with_thetas(m.rotary, m.theta, scaled),
                        )
                    })
                    .collect();
            }
            for (a, b) in s.models.iter_mut() {
                left = left.saturating_sub(a.advance(left));
                left = left.saturating_sub(b.advance(left));
            }
            // The chosen base's own point: the scan `base-bound` shares, advanced here too, so
            // this chart never waits on the other's paints to show it.
            let current = match &mut s.current {
                Some(c) if c.d == d && c.base == base => c,
                slot => slot.insert(Crossing::new(d, base)),
            };
            current.advance(left);
            let (marker, current_done) = (current.first(), current.done());
            let grid = s.grid.as_ref().expect("made above");
            let done =
                grid.done() && current_done && s.models.iter().all(|(a, b)| a.done() && b.done());
            let grid_points: Vec<Column> = grid
                .points
                .iter()
                .filter_map(|c| match c.first() {
                    Some(Some(m)) if m >= 10 => Some(Column {
                        x: (m as f64).log10(),
                        lo: c.base,
                        hi: c.base,
                    }),
                    _ => None,
                })
                .collect();
            (
                done,
                models_table(&s.models),
                staircase(grid),
                grid_points,
                marker,
            )
        });
        if !done {
            p.unfinished();
        }
        // The table changes only as its scans finish: rewritten then, not on every paint (a
        // table's layout would cost a slider its frame).
        if let Some(el) = table.get_untracked() {
            if shown.with_value(|s| *s != html) {
                el.set_inner_html(&html);
                shown.set_value(html);
            }
        }
        // Released models of this width, at their base and original context L₀.
        let released: Vec<Column> = rope_models()
            .filter(|m| m.rotary == d)
            .map(|m| Column {
                x: (m.original_ctx as f64).log10(),
                lo: m.theta,
                hi: m.theta,
            })
            .collect();
        let mut series = vec![
            Series {
                name: format!("smallest grid base with B(Δ) ≥ 0 for all Δ < L, D = {d}"),
                colour: series_colour(0),
                columns: stairs,
                style: SeriesStyle::Line,
            },
            Series {
                name: "each base on the grid at its first crossing".into(),
                colour: crate::render::charts::REFERENCE_COLOUR,
                columns: grid_points,
                style: SeriesStyle::Points,
            },
            Series {
                name: format!("released models with D = {d}: base at L₀"),
                colour: series_colour(1),
                columns: released,
                style: SeriesStyle::Points,
            },
        ];
        if let Some(Some(m)) = marker {
            series.push(Series {
                name: format!("base {} at its first crossing", base_text(base)),
                colour: series_colour(2),
                columns: vec![Column {
                    x: (m.max(10) as f64).log10(),
                    lo: base,
                    hi: base,
                }],
                style: SeriesStyle::Points,
            });
        }
        let chart = LineChart {
            x_label: "context length L (log)".into(),
            y_label: "base (log)".into(),
            x_range: MIN_X_LOG,
            y_range: (10.0, 1e9),
            y_log: true,
            x_log: true,
            series,
            bands: vec![],
        };
        paint_lines(p, &chart)
    };
    let csv_cb = Callback::new(move |_| {
        let (d, _) = dims.get_untracked();
        // The whole grid first (at most a second or so at D = 256), then each power of two.
        let grid = SCANS.with_borrow_mut(|s| {
            let grid = match &mut s.grid {
                Some(g) if g.d == d => g,
                slot => slot.insert(BaseGrid::new(d)),
            };
            while !grid.done() {
                grid.advance(u64::MAX / 2);
            }
            grid.clone()
        });
        let mut text = csv::header(&["context_length", "min_base"]);
        for k in 4..=23 {
            let l = 1u64 << k;
            if let Some(b) = min_base(&grid, l) {
                csv::push_row(&mut text, &[l as f64, b]);
            }
        }
        export::csv_text(text, &format!("base-bound-min_D{d}.csv"));
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || format!("The smallest base on the grid whose B(Δ) stays non-negative for every distance below each context length L, for D = {}, with released models of that D at their base and original context.", dims.get().0)) paint=paint height=320.0/>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Released models against the bound" node_ref=table></div>
            <p class="about">{crate::captions::BASE_BOUND_MIN}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || format!("{ID}_D{}", dims.get().0)) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// Each RoPE model at its own width: where `B` first goes negative at its base, against its
/// original context L₀, and with its scaled frequencies, against its published context.
fn models_table(scans: &[(Crossing, Crossing)]) -> String {
    let first = |c: &Crossing| match c.first() {
        Some(Some(v)) => grouped(v),
        Some(None) => format!("none below {}", grouped(SCAN_LIMIT)),
        None => "…".into(),
    };
    let mut html = String::from("<table class=\"model-table\"><thead><tr><th scope=\"col\">Model</th><th scope=\"col\">D</th><th scope=\"col\">base</th><th scope=\"col\">First Δ with B(Δ) &lt; 0</th><th scope=\"col\">L₀</th><th scope=\"col\">With its scaling: first Δ with Σ cos(Δ·ω′_i) &lt; 0</th><th scope=\"col\">Published context</th></tr></thead><tbody>");
    for (m, (plain, scaled)) in rope_models().zip(scans) {
        let with_scaling = if m.scaling.is_empty() {
            "no scaling".to_string()
        } else {
            first(scaled)
        };
        html += &format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td data-model-first=\"{}\">{}</td><td>{}</td><td data-model-scaled-first=\"{}\">{with_scaling}</td><td>{}</td></tr>",
            escape_html(m.name),
            m.rotary,
            base_text(m.theta),
            m.id,
            first(plain),
            grouped(m.original_ctx as u64),
            m.id,
            grouped(m.context as u64)
        );
    }
    html + "</tbody></table>"
}
