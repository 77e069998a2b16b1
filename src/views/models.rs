//! The Real models view (`view=models`): the model gallery, its models' frequencies drawn
//! together, and the base a context length needs (Men et al., 2024).
//!
//! The base-bound scans can take longer than a frame (a large base crosses zero late): they
//! run a slice per paint ([`Crossing::advance`]), the chart says how far they got, and the
//! scheduler paints again at rest until they finish (`Painter::unfinished`).

use std::cell::RefCell;

use leptos::prelude::*;

use crate::encoding::base_bound::{
    mean_cos_columns, min_base, BaseGrid, Crossing, COLUMN_SAMPLES, QUICK_SAMPLES, SCAN_LIMIT,
};
use crate::export::csv;
use crate::format::{base_text, escape_html, grouped};
use crate::gallery::{ModelRow, Scheme, MODELS};
use crate::render::charts::{series_colour, Band, LineChart, Series, SeriesStyle};
use crate::render::envelope::Column;
use crate::state::models::{ModelsState, BB_HEAD_DIM, BB_THETA, MAX_MODELS};
use crate::state::View;
use crate::ui::context::{select_state, AppCtx, Computed};
use crate::ui::export;
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateRange,
};
use crate::views::common::{paint_lines, ExportButtons};

/// Term evaluations (a term is one pair at one `m`) a scan may take in one paint while a
/// slider moves, and at rest.
const MOVING_BUDGET: u64 = 100_000;
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

/// The gallery's RoPE rows.
fn rope_models() -> impl Iterator<Item = &'static ModelRow> {
    MODELS.iter().filter(|m| m.scheme == Scheme::Rope)
}

/// The view.
#[component]
pub fn ModelsView() -> impl IntoView {
    view! {
        <div class="view view-models">
            <style>{MODELS_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::MODELS_INTRO}</p>
            </div>
            <div class="panels single">
                <GalleryPanel/>
                <WavelengthsPanel/>
                <ScoresPanel/>
                <BoundPanel/>
                <MinBasePanel/>
            </div>
        </div>
    }
}

/// The table's cells for one row.
fn row_cells(m: &ModelRow) -> [String; 8] {
    let dash = || "—".to_string();
    let rope = m.scheme == Scheme::Rope;
    [
        m.scheme.name().to_string(),
        format!("{} × {}", m.heads, m.head_dim),
        if rope {
            format!(
                "{} of {} ({} pairs), {}",
                m.rotary,
                m.head_dim,
                m.rotary / 2,
                m.layout.map_or("", |l| l.name())
            )
        } else {
            dash()
        },
        if rope { base_text(m.theta) } else { dash() },
        if m.scaling.is_empty() {
            dash()
        } else {
            m.scaling.to_string()
        },
        if m.original_ctx == m.context {
            grouped(m.context as u64)
        } else {
            format!(
                "{} → {}",
                grouped(m.original_ctx as u64),
                grouped(m.context as u64)
            )
        },
        if m.nope.is_empty() {
            dash()
        } else {
            m.nope.to_string()
        },
        m.note.to_string(),
    ]
}

const TABLE_HEAD: [&str; 9] = [
    "Model",
    "Positions",
    "Heads × head_dim",
    "Rotating dims, pairs, layout",
    "base (rope_theta)",
    "Scaling",
    "Context: L₀ → published",
    "Layers without positions",
    "Note",
];

#[component]
fn GalleryPanel() -> impl IntoView {
    const ID: &str = "model-gallery";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let selected = select_state(ctx.state, |s| s.models.models.clone());
    let table = move || {
        let chosen = selected.get();
        let mut html = String::from("<table class=\"model-table\"><thead><tr>");
        for h in TABLE_HEAD {
            html += &format!("<th scope=\"col\">{h}</th>");
        }
        html += "</tr></thead><tbody>";
        for m in &MODELS {
            let class = if chosen.contains(&m.id) {
                " class=\"chosen\""
            } else {
                ""
            };
            let open = if m.scheme == Scheme::Rope {
                format!(
                    "<br><button class=\"link\" data-open=\"{}\">Open in Context extension</button>",
                    m.id
                )
            } else {
                String::new()
            };
            html += &format!(
                "<tr{class} data-model=\"{}\"><th scope=\"row\">{}{open}</th>",
                m.id,
                escape_html(m.name)
            );
            for c in row_cells(m) {
                html += &format!("<td>{}</td>", escape_html(&c));
            }
            html += "</tr>";
        }
        html + "</tbody></table>"
    };
    let sources: String = MODELS.iter().fold(String::new(), |html, m| {
        html + &format!(
            "<li><b>{}</b> ({}): {}</li>",
            escape_html(m.name),
            m.id,
            escape_html(m.source)
        )
    });
    let open = move |ev: web_sys::MouseEvent| {
        let id = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|e| e.get_attribute("data-open"));
        let Some(row) = id.and_then(|id| ModelRow::find(&id)) else {
            return;
        };
        if let Some(c) = row.rope() {
            ctx.state.update(|s| {
                s.scaling.apply_config(&c);
                s.lesson = None;
                s.view = View::Scaling;
            });
        }
    };
    let csv_cb = move |_| {
        let mut text = csv::header(&[
            "id",
            "model",
            "scheme",
            "heads",
            "head_dim",
            "rotary_dims",
            "layout",
            "rope_theta",
            "scaling",
            "original_context",
            "context",
            "layers_without_positions",
            "note",
            "source",
        ]);
        for m in &MODELS {
            let cells = [
                m.id.to_string(),
                m.name.to_string(),
                m.scheme.name().to_string(),
                m.heads.to_string(),
                m.head_dim.to_string(),
                m.rotary.to_string(),
                m.layout.map_or("", |l| l.name()).to_string(),
                if m.theta > 0.0 {
                    format!("{}", m.theta)
                } else {
                    String::new()
                },
                m.scaling.to_string(),
                m.original_ctx.to_string(),
                m.context.to_string(),
                m.nope.to_string(),
                m.note.to_string(),
                m.source.to_string(),
            ];
            let cells: Vec<String> = cells.iter().map(|c| csv::field(c)).collect();
            text.push_str(&cells.join(","));
            text.push('\n');
        }
        export::csv_text(text, "model-gallery.csv");
    };
    view! {
        <Panel id=ID>
            <ModelPicker/>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Model gallery" inner_html=table on:click=open></div>
            <p class="about">{crate::captions::MODEL_GALLERY}</p>
            <details class="model-sources">
                <summary>"Sources, one per model"</summary>
                <ul inner_html=sources></ul>
            </details>
            <div class="exports" role="group" aria-label="Export"><button on:click=csv_cb>"CSV"</button></div>
        </Panel>
    }
    .into_any()
}

/// The RoPE models drawn together (`models=`): checkboxes written as one HTML string, with one
/// delegated handler (a component per box would put its code in the first download).
#[component]
fn ModelPicker() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    if !ctx.state.with_untracked(|s| s.show_controls) {
        return ().into_any();
    }
    let class = control_class(
        "models",
        &[
            "control model-pick",
            "control model-pick gone",
            "control model-pick locked",
        ],
    );
    let boxes = move || {
        ctx.state.with(|s| {
            let chosen = &s.models.models;
            let full = chosen.len() >= MAX_MODELS;
            rope_models().fold(String::new(), |html, m| {
                let on = chosen.contains(&m.id);
                html + &format!(
                    "<label><input type=\"checkbox\" value=\"{}\"{}{}> {}</label>",
                    m.id,
                    if on { " checked" } else { "" },
                    if full && !on { " disabled" } else { "" },
                    escape_html(m.name)
                )
            })
        })
    };
    let on_change = move |ev: leptos::ev::Event| {
        let id = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            .map(|e| e.value());
        if let Some(id) = id
            .and_then(|id| rope_models().find(|m| m.id == id))
            .map(|m| m.id)
        {
            ctx.state.update(|s| s.models.toggle(id));
        }
    };
    view! {
        <fieldset class=class data-control="models">
            <legend>{format!("Draw together (up to {MAX_MODELS})")}</legend>
            <div class="model-boxes" inner_html=boxes on:change=on_change></div>
        </fieldset>
    }
    .into_any()
}

/// The selected models' frequencies: (row, after scaling, without).
type Freqs = Vec<(&'static ModelRow, Vec<f64>, Vec<f64>)>;

fn selected_freqs(state: RwSignal<crate::state::AppState>) -> Computed<Freqs> {
    let models = select_state(state, |s| s.models.models.clone());
    Computed::fresh(move || {
        let s = ModelsState {
            models: models.get(),
            ..ModelsState::default()
        };
        s.rope_rows()
            .into_iter()
            .filter_map(|m| Some((m, m.scaled()?.inv_freq, m.unscaled()?)))
            .collect()
    })
}

fn nothing_selected(p: &Painter) -> Option<crate::render::charts::PlotRect> {
    let chart = LineChart {
        x_label: "choose models with “Draw together” above".into(),
        y_label: String::new(),
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        y_log: false,
        x_log: false,
        series: vec![],
        bands: vec![],
    };
    paint_lines(p, &chart)
}

#[component]
fn WavelengthsPanel() -> impl IntoView {
    const ID: &str = "model-wavelengths";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = ChartRef::new();
    let freqs = selected_freqs(ctx.state);
    // λ_i / context for each pair.
    let ratio = |m: &ModelRow, w: f64| std::f64::consts::TAU / w / m.context as f64;
    let paint = move |p: &Painter| {
        freqs.with(|fs| {
            if fs.is_empty() {
                return nothing_selected(p);
            }
            let pairs = fs.iter().map(|f| f.1.len()).max().unwrap_or(1);
            let mut series: Vec<Series> = fs
                .iter()
                .enumerate()
                .map(|(k, (m, w, _))| Series {
                    name: m.name.to_string(),
                    colour: series_colour(k),
                    columns: w
                        .iter()
                        .enumerate()
                        .map(|(j, w)| {
                            let y = ratio(m, *w);
                            Column {
                                x: j as f64,
                                lo: y,
                                hi: y,
                            }
                        })
                        .collect(),
                    style: SeriesStyle::Line,
                })
                .collect();
            series.push(Series {
                name: "one turn in the context".into(),
                colour: crate::render::charts::REFERENCE_COLOUR,
                columns: vec![
                    Column {
                        x: 0.0,
                        lo: 1.0,
                        hi: 1.0,
                    },
                    Column {
                        x: (pairs - 1).max(1) as f64,
                        lo: 1.0,
                        hi: 1.0,
                    },
                ],
                style: SeriesStyle::Reference,
            });
            let chart = LineChart::fitted(
                "pair i",
                "wavelength ÷ context (log)",
                (0.0, (pairs - 1).max(1) as f64),
                series,
                true,
            );
            paint_lines(p, &chart)
        })
    };
    let summary = move || {
        freqs.with(|fs| {
            fs.iter()
                .map(|(m, w, w0)| {
                    let turn = w.iter().filter(|w| ratio(m, **w) <= 1.0).count();
                    let scaled = w
                        .iter()
                        .zip(w0)
                        .filter(|(a, b)| (*a - *b).abs() > 1e-12 * *b)
                        .count();
                    let slowed = match (m.scaling.is_empty(), scaled) {
                        (true, _) => "no scaling".to_string(),
                        (false, 1) => "1 pair slowed by its scaling".to_string(),
                        (false, n) => format!("{n} pairs slowed by its scaling"),
                    };
                    format!(
                        "{}: {turn} of {} pairs complete a turn within {} positions; {slowed}.",
                        m.name,
                        w.len(),
                        grouped(m.context as u64)
                    )
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
    };
    let csv_cb = Callback::new(move |_| {
        let mut text = csv::header(&[
            "model",
            "pair",
            "inv_freq",
            "inv_freq_unscaled",
            "wavelength",
            "context",
        ]);
        freqs.with_untracked(|fs| {
            for (m, w, w0) in fs {
                for (j, (a, b)) in w.iter().zip(w0).enumerate() {
                    text.push_str(&csv::field(m.id));
                    text.push(',');
                    csv::push_row(
                        &mut text,
                        &[
                            j as f64,
                            *a,
                            *b,
                            std::f64::consts::TAU / a,
                            m.context as f64,
                        ],
                    );
                }
            }
        });
        export::csv_text(text, "model-wavelengths.csv");
    });
    let stem =
        Signal::derive(move || format!("{ID}_{}", ctx.state.with(|s| s.models.models.join("+"))));
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Wavelength of each rotary pair divided by the model's published context, on a log scale, with the line where one turn fills the context.".to_string()) paint=paint height=320.0/>
            <p class="readout">{summary}</p>
            <p class="about">{crate::captions::MODEL_WAVELENGTHS}</p>
            <ExportButtons chart=canvas stem=stem csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

/// [`mean_cos_columns`] as chart columns.
fn cos_mean_columns(
    thetas: &[f64],
    x_max: f64,
    px: usize,
    samples: usize,
    extra: &[u64],
) -> Vec<Column> {
    mean_cos_columns(thetas, x_max, px, samples, extra)
        .into_iter()
        .map(|(x, lo, hi)| Column { x, lo, hi })
        .collect()
}

#[component]
fn ScoresPanel() -> impl IntoView {
    const ID: &str = "model-scores";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let canvas = ChartRef::new();
    let freqs = selected_freqs(ctx.state);
    let x_max = move || {
        freqs.with(|fs| {
            fs.iter()
                .map(|(m, _, _)| (m.context as f64).log10())
                .fold(3.0f64, f64::max)
        })
    };
    let paint = move |p: &Painter| {
        let px = (p.canvas.width() as usize).max(2) * 2 / 3;
        let x_max = x_max();
        freqs.with(|fs| {
            if fs.is_empty() {
                return nothing_selected(p);
            }
            let samples = if p.quick_for((px * fs.len() * COLUMN_SAMPLES) as f64) {
                QUICK_SAMPLES
            } else {
                COLUMN_SAMPLES
            };
            let series: Vec<Series> = fs
                .iter()
                .enumerate()
                .map(|(k, (m, w, _))| {
                    let own = (m.context as f64).log10();
                    let cols = ((px as f64 * own / x_max).ceil() as usize).max(2);
                    Series {
                        name: format!("{} (to {})", m.name, grouped(m.context as u64)),
                        colour: series_colour(k),
                        columns: cos_mean_columns(w, own, cols, samples, &[]),
                        style: SeriesStyle::Line,
                    }
                })
                .collect();
            let chart = LineChart {
                x_label: "distance Δ = m − n (log)".into(),
                y_label: "score ÷ score at 0".into(),
                x_range: (0.0, x_max),
                y_range: (-0.3, 1.02),
                y_log: false,
                x_log: true,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let mut text = csv::header(&["model", "distance", "score_over_score0"]);
        freqs.with_untracked(|fs| {
            for (m, w, _) in fs {
                // Every power-of-two distance and three between, out to the context.
                let mut d = 1.0f64;
                while d <= m.context as f64 {
                    let v = w.iter().map(|t| (d * t).cos()).sum::<f64>() / w.len() as f64;
                    text.push_str(&csv::field(m.id));
                    text.push(',');
                    csv::push_row(&mut text, &[d, v]);
                    d = (d * 2f64.powf(0.25)).round().max(d + 1.0);
                }
            }
        });
        export::csv_text(text, "model-scores.csv");
    });
    let stem =
        Signal::derive(move || format!("{ID}_{}", ctx.state.with(|s| s.models.models.join("+"))));
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "RoPE score of a query and key of all ones against their distance, divided by its value at distance 0, for each selected model out to its published context.".to_string()) paint=paint height=320.0/>
            <p class="about">{crate::captions::MODEL_SCORES}</p>
            <ExportButtons chart=canvas stem=stem csv=csv_cb/>
        </Panel>
    }
    .into_any()
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
fn BoundPanel() -> impl IntoView {
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
        // While a slider moves, fewer samples per column (refined at rest).
        let samples = if p.at_rest() {
            COLUMN_SAMPLES
        } else {
            p.unfinished();
            QUICK_SAMPLES
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
            y_label: "B(Δ) = Σ cos(Δ·ω_i)".into(),
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
            <ChartCanvas chart=canvas label=Signal::derive(move || { let (d, b) = dims.get(); format!("B(Δ), the sum of cos(Δ·ω_i) over the {} pairs of D = {d} at base {}, against Δ on a log axis.", d / 2, base_text(b)) }) paint=paint height=300.0/>
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
fn MinBasePanel() -> impl IntoView {
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
                name: format!("smallest base with B(Δ) ≥ 0 for all Δ < L, D = {d}"),
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

/// This view's styles, fetched with its code.
const MODELS_CSS: &str = r#"
.panels.single { grid-template-columns: 1fr; }
.view-models .table-wrap { max-height: none; }
.model-table { border-collapse: collapse; font-size: 0.88rem; width: 100%; }
.model-table th, .model-table td { border-bottom: 1px solid var(--border); padding: 5px 8px; text-align: left; vertical-align: top; }
.model-table tr.chosen > * { background: var(--highlight, rgba(255, 200, 0, 0.12)); }
.view-models .model-pick { border: 1px solid var(--border); border-radius: 6px; padding: 6px 10px; }
.model-boxes { display: flex; flex-wrap: wrap; gap: 4px 14px; }
.model-pick label { font-weight: 400; white-space: nowrap; }
.model-sources ul { font-size: 0.85rem; padding-left: 1.2em; }
.bound-readout { min-height: 2.6em; }
"#;
