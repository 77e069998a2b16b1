//! The chosen models drawn together: their wavelengths against their context
//! (`model-wavelengths`) and their all-ones scores against distance (`model-scores`).

use leptos::prelude::*;

use crate::encoding::base_bound::{
    mean_cos_columns, COLUMN_SAMPLES, QUICK_SAMPLES,
};
use crate::export::csv;
use crate::format::grouped;
use crate::gallery::ModelRow;
use crate::render::charts::{series_colour, LineChart, Series, SeriesStyle};
use crate::render::envelope::Column;
use crate::ui::context::AppCtx;
use crate::ui::export;
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, Painter, Panel,
};
use crate::views::common::{paint_lines, ExportButtons};
use super::shared::{nothing_selected, selected_freqs};

#[component]
pub(super) fn WavelengthsPanel() -> impl IntoView {
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
pub(super) fn cos_mean_columns(
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
pub(super) fn ScoresPanel() -> impl IntoView {
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
            // From −0.3 unless a curve dips lower (GPT-NeoX-20B, DeepSeek-V3 and Llama 4
            // Scout reach −0.34 to −0.40): then to the next tenth below its dip.
            let dip = series
                .iter()
                .flat_map(|s| s.columns.iter().map(|c| c.lo))
                .fold(0.0f64, f64::min);
            let chart = LineChart {
                x_label: "distance Δ = m − n (log)".into(),
                y_label: "score ÷ score at 0".into(),
                x_range: (0.0, x_max),
                y_range: (
                    if dip < -0.3 {
                        (dip * 10.0).floor() / 10.0
                    } else {
                        -0.3
                    },
                    1.02,
                ),
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
