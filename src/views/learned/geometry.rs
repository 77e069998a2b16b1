//! The learned table's geometry: its positions on their top two principal components
//! (`learned-pca`) and their similarity against offset (`learned-offset`).


use leptos::prelude::*;
use plotters::prelude::*;

use crate::encoding::learned::{OffsetCurve, Pca};
use crate::export::csv;
use crate::format::sig;
use crate::render::charts::{
    axis_label, fit_y_range, usable_range, Band, LineChart, PlotRect, SeriesStyle,
};
use crate::render::colormap::ColorMap;
use crate::ui::context::Keyed;
use crate::ui::export::{self};
use crate::ui::schedule;
use crate::ui::widgets::{
    panel_visible, ChartCanvas, ChartRef, Painter, Panel,
};
use crate::views::common::{
    line_series, paint_lines, ExportButtons,
};
use super::shared::{LearnedShared, stem};

#[component]
pub(super) fn PcaPanel(shared: LearnedShared) -> impl IntoView {
    const ID: &str = "learned-pca";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let pca = Keyed::new(shared.table_key, move |_| {
        shared.table
            .with_untracked(|t| t.as_ref().map(|t| Pca::new(&t.table)))
    });
    let paint = move |p: &Painter| {
        let n = shared.seq_len.get();
        pca.with(|pca| {
            let pca = pca.as_ref()?;
            let shown = &pca.points[..n.min(pca.points.len())];
            let area = p.area()?;
            area.fill(&p.theme.background).ok()?;
            let (x0, x1) = shown
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
                    (a.min(q.0), b.max(q.0))
                });
            let (y0, y1) = shown
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), q| {
                    (a.min(q.1), b.max(q.1))
                });
            let (x0, x1) = usable_range(x0, x1);
            let (y0, y1) = usable_range(y0, y1);
            let font = |s: f64| p.theme.font(s);
            let mut chart = ChartBuilder::on(&area)
                .margin(p.theme.px(10.0))
                .x_label_area_size(p.theme.px(38.0))
                .y_label_area_size(p.theme.px(56.0))
                .build_cartesian_2d(x0..x1, y0..y1)
                .ok()?;
            chart
                .configure_mesh()
                .x_desc(format!("PC1 ({:.1}% of variance)", pca.explained.0 * 100.0))
                .y_desc(format!("PC2 ({:.1}%)", pca.explained.1 * 100.0))
                .x_label_formatter(&|v| axis_label(*v))
                .y_label_formatter(&|v| axis_label(*v))
                .label_style(font(12.0))
                .axis_desc_style(font(13.0))
                .bold_line_style(p.theme.grid)
                .max_light_lines(0)
                .axis_style(p.theme.axis)
                .draw()
                .ok()?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    shown.to_vec(),
                    p.theme.grid.stroke_width(p.theme.px(1.0)),
                )))
                .ok()?;
            let cmap = ColorMap::sequential();
            let last = shown.len().max(2) - 1;
            chart
                .draw_series(shown.iter().enumerate().map(|(i, &q)| {
                    let [r, g, b] = cmap.at(i as f64 / last as f64);
                    Circle::new(q, p.theme.px(2.5) as i32, RGBColor(r, g, b).filled())
                }))
                .ok()?;
            if let Some(&first) = shown.first() {
                chart
                    .draw_series(std::iter::once(Text::new("pos 0", first, font(12.0))))
                    .ok()?;
            }
            if shown.len() > 1 {
                chart
                    .draw_series(std::iter::once(Text::new(
                        format!("pos {}", shown.len() - 1),
                        shown[shown.len() - 1],
                        font(12.0),
                    )))
                    .ok()?;
            }
            let (xs, ys) = chart.plotting_area().get_pixel_range();
            Some(PlotRect {
                x0: xs.start,
                y0: ys.start,
                x1: xs.end,
                y1: ys.end,
                ..PlotRect::default()
            })
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = pca.with_untracked(|pca| {
            let Some(pca) = pca else { return String::new() };
            let n = shared.seq_len.get_untracked().min(pca.points.len());
            let pos: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let a: Vec<f64> = pca.points[..n].iter().map(|q| q.0).collect();
            let b: Vec<f64> = pca.points[..n].iter().map(|q| q.1).collect();
            csv::columns_csv(&["position", "pc1", "pc2"], &[&pos, &a, &b])
        });
        export::csv_text(text, &format!("{}.csv", stem(&shared, ID)));
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Trajectory of the positions in the plane of the table's top two principal components, coloured from dark (position 0) to yellow.".to_string()) paint=paint height=340.0/>
            <p class="about">{crate::captions::LEARNED_PCA}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || stem(&shared, ID)) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
pub(super) fn OffsetPanel(shared: LearnedShared) -> impl IntoView {
    const ID: &str = "learned-offset";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let canvas = ChartRef::new();
    let curve = Keyed::new(shared.table_key, move |_| {
        shared.table.with_untracked(|t| {
            t.as_ref().map(|t| {
                let c = OffsetCurve::new(&t.table);
                (c.stride, c.mean)
            })
        })
    });
    let paint = move |p: &Painter| {
        let px = p.canvas.width() as usize;
        curve.with(|c| {
            let (stride, ys) = c.as_ref()?;
            let series = vec![line_series(
                "mean cosine(pos, pos + Δ)".into(),
                0,
                ys,
                |k| (k * stride) as f64,
                px,
                SeriesStyle::Line,
            )];
            let chart = LineChart {
                x_label: "offset Δ".into(),
                y_label: "mean cosine similarity".into(),
                x_range: (0.0, ((ys.len().max(2) - 1) * stride) as f64),
                y_range: fit_y_range(&series, false),
                y_log: false,
                x_log: false,
                series,
                bands: vec![Band {
                    x0: 0.0,
                    x1: 1.0,
                    label: String::new(),
                }],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = curve.with_untracked(|c| {
            let Some((stride, ys)) = c else {
                return String::new();
            };
            let k: Vec<f64> = (0..ys.len()).map(|k| (k * stride) as f64).collect();
            csv::columns_csv(&["offset", "mean_cosine"], &[&k, ys])
        });
        export::csv_text(text, &format!("{}.csv", stem(&shared, ID)));
    });
    // Once the controls rest: the curve of a new table is not computed in a slider's frame.
    let first = schedule::at_rest(move || {
        curve.with(|c| {
            c.as_ref()
                .and_then(|(stride, ys)| ys.get(1).map(|v| (stride, v)))
                .map(|(stride, v)| {
                    format!("Mean similarity at offset Δ = {stride}: {}.", sig(*v, 4))
                })
                .unwrap_or_default()
        })
    });
    view! {
        <Panel id=ID>
            <ChartCanvas chart=canvas label=Signal::derive(move || "Mean cosine similarity of positions pos and pos + Δ against the offset Δ.".to_string()) paint=paint height=260.0/>
            <p class="readout">{first}</p>
            <p class="about">{crate::captions::LEARNED_OFFSET}</p>
            <ExportButtons chart=canvas stem=Signal::derive(move || stem(&shared, ID)) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}
