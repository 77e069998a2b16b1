//! Pieces every view uses: chart specs from data, and the export buttons of a panel.

use leptos::html::Canvas;
use leptos::prelude::*;

use crate::render::charts::{
    draw_line_chart, series_colour, ColourBar, HeatmapFrame, LineChart, PlotRect, Series,
    SeriesStyle,
};
use crate::render::colormap::ColorMap;
use crate::render::envelope::envelope;
use crate::ui::dom;
use crate::ui::export;
use crate::ui::widgets::{ExportBar, Painter};

#[allow(clippy::too_many_arguments)]
pub fn heatmap_frame<'a>(
    cmap: &'a ColorMap,
    n_cols: usize,
    n_rows: usize,
    x: &str,
    y: &str,
    lo: f64,
    hi: f64,
    label: &str,
) -> HeatmapFrame<'a> {
    HeatmapFrame {
        x_label: x.to_string(),
        y_label: y.to_string(),
        n_cols,
        n_rows,
        colour_bar: ColourBar {
            cmap,
            lo,
            hi,
            label: label.to_string(),
        },
    }
}

pub fn line_series(
    name: String,
    n: usize,
    ys: &[f64],
    x_of: impl Fn(usize) -> f64,
    px: usize,
    style: SeriesStyle,
) -> Series {
    Series {
        colour: series_colour(n),
        name,
        columns: envelope(ys, x_of, px),
        style,
    }
}

/// Draws a line chart filling the canvas.
pub fn paint_lines(p: &Painter, chart: &LineChart) -> Option<PlotRect> {
    let area = p.area()?;
    draw_line_chart(&area, chart, &p.theme).ok()
}

/// PNG of a canvas, CSV, optional NPY, and "Copy as NumPy".
#[component]
pub fn ExportButtons(
    /// The chart to export as PNG.
    canvas: NodeRef<Canvas>,
    /// File name stem (no extension) for the PNG.
    #[prop(into)]
    stem: Signal<String>,
    /// Writes the CSV download.
    csv: Callback<()>,
    /// Offers NPY when `.0` is true.
    #[prop(default = None)]
    npy: Option<(Signal<bool>, Callback<()>)>,
    /// Python that regenerates the data.
    #[prop(optional)]
    snippet: Option<Callback<(), String>>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    view! {
        <ExportBar>
            <button on:click=move |_| export::png(canvas, &format!("{}.png", stem.get_untracked()))>"PNG"</button>
            <button on:click=move |_| csv.run(())>"CSV"</button>
            {npy.map(|(offered, cb)| {
                view! {
                    <Show when=move || offered.get()>
                        <button on:click=move |_| cb.run(())>"NPY"</button>
                    </Show>
                }
            })}
            {snippet.map(|code| view! {
                <button on:click=move |_| {
                    dom::copy_text(&code.run(()));
                    copied.set(true);
                }>{move || if copied.get() { "Copied ✓" } else { "Copy as NumPy" }}</button>
            })}
        </ExportBar>
    }
}

/// Says when a long curve is drawn from every `stride`-th point (empty otherwise).
pub fn stride_note(stride: usize) -> String {
    if stride > 1 {
        format!("Long range: drawn from every {stride}th distance, with a min/max band per pixel; the CSV holds every distance.")
    } else {
        String::new()
    }
}

/// A memo of one part of another memo, built from a plain function: every use with the same
/// types shares one copy of the memo code (closures would each add their own).
pub fn select<S, T>(source: Memo<S>, part: fn(&S) -> T) -> Memo<T>
where
    S: Send + Sync + 'static,
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| source.with(part))
}

/// [`select`] for the application state.
pub fn select_state<T>(
    state: RwSignal<crate::state::AppState>,
    part: fn(&crate::state::AppState) -> T,
) -> Memo<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| state.with(part))
}
