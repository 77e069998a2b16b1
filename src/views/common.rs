//! Pieces every view uses: chart specs from data, and the export buttons of a panel.

use leptos::prelude::*;

use crate::render::charts::{
    series_colour, LineChart, PlotRect, Series, SeriesStyle, REFERENCE_COLOUR,
};
use crate::render::colormap::ColorMap;
use crate::render::envelope::envelope;
use crate::render::heatmap::{ColourBar, HeatmapFrame};
use crate::state::Highlight;
use crate::ui::context::AppCtx;
use crate::ui::widgets::{ChartRef, ExportBar, Mark, MarkStyle, Painter};
use crate::ui::{dom, export};

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

/// The outlines `hl_cols` and `hl_pos` ask for on a heatmap whose size (columns, rows; rows
/// are positions) `size` gives: the highlight capability every heatmap panel shares.
pub fn highlight_marks(
    size: impl Fn() -> (usize, usize) + Send + Sync + 'static,
) -> Signal<Vec<Mark>> {
    highlight_marks_mapped(size, Some)
}

/// As [`highlight_marks`], with each highlighted column moved to where `column` says it is
/// shown (`None`: not shown). The Sinusoidal heatmap names columns of the interleaved layout
/// (a pair and sin or cos) and outlines them where the current layout puts them.
pub fn highlight_marks_mapped(
    size: impl Fn() -> (usize, usize) + Send + Sync + 'static,
    column: impl Fn(usize) -> Option<usize> + Send + Sync + 'static,
) -> Signal<Vec<Mark>> {
    let state = use_context::<AppCtx>().map(|c| c.state);
    let highlight = Memo::new(move |_| {
        state
            .map(|s| s.with(|s| s.highlight.clone()))
            .unwrap_or_default()
    });
    Signal::derive(move || {
        let (n_cols, n_rows) = size();
        highlight.with(|h| {
            let moved = Highlight {
                cols: h.cols.iter().filter_map(|&c| column(c)).collect(),
                positions: h.positions.clone(),
            };
            marks_for(&moved, n_cols, n_rows)
        })
    })
}

fn marks_for(h: &Highlight, n_cols: usize, n_rows: usize) -> Vec<Mark> {
    let (w, ht) = (n_cols.max(1) as f64, n_rows.max(1) as f64);
    let cols = h.cols.iter().filter(|&&c| c < n_cols).map(|&c| Mark {
        x0: c as f64 / w,
        x1: (c + 1) as f64 / w,
        y0: 0.0,
        y1: 1.0,
        style: MarkStyle::Highlight,
    });
    let rows = h.positions.iter().filter(|&&p| p < n_rows).map(|&p| Mark {
        x0: 0.0,
        x1: 1.0,
        y0: p as f64 / ht,
        y1: (p + 1) as f64 / ht,
        style: MarkStyle::Highlight,
    });
    cols.chain(rows).collect()
}

/// A reference line (a context length, a trained range): grey and dotted, a style no data
/// series uses.
pub fn reference_line(name: String, ys: &[f64], x_of: impl Fn(usize) -> f64, px: usize) -> Series {
    Series {
        colour: REFERENCE_COLOUR,
        name,
        columns: envelope(ys, x_of, px),
        style: SeriesStyle::Reference,
    }
}

/// Draws a line chart filling the canvas.
pub fn paint_lines(p: &Painter, chart: &LineChart) -> Option<PlotRect> {
    p.lines(chart)
}

/// "Copy as NumPy" of a panel whose Python `code` makes: copies it to the clipboard. (The
/// Sinusoidal view's Python is not in the first page: its callback fetches it first.)
pub fn copier(code: impl Fn() -> String + Send + Sync + 'static) -> Callback<()> {
    Callback::new(move |_| dom::copy_text(&code()))
}

/// PNG of a canvas, CSV, optional NPY, and "Copy as NumPy".
#[component]
pub fn ExportButtons(
    /// The chart to export as PNG and SVG.
    chart: ChartRef,
    /// File name stem (no extension) for the PNG.
    #[prop(into)]
    stem: Signal<String>,
    /// Writes the CSV download.
    csv: Callback<()>,
    /// Offers NPY when `.0` is true.
    #[prop(default = None)]
    npy: Option<(Signal<bool>, Callback<()>)>,
    /// Copies Python that regenerates the data to the clipboard (see [`copier`]).
    #[prop(optional)]
    snippet: Option<Callback<()>>,
) -> impl IntoView {
    let copied = RwSignal::new(false);
    view! {
        <DataTable csv=csv/>
        <ExportBar>
            <button on:click=move |_| export::png(chart, &format!("{}.png", stem.get_untracked()))>"PNG"</button>
            <button on:click=move |_| export::svg(chart, format!("{}.svg", stem.get_untracked()))>"SVG"</button>
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
                    code.run(());
                    copied.set(true);
                }>{move || if copied.get() { "Copied ✓" } else { "Copy as NumPy" }}</button>
            })}
        </ExportBar>
    }
}

/// How long the controls must rest before an open data table is refreshed.
const TABLE_REFRESH_MS: u64 = 150;

/// "Show data as table": the first rows and columns of the panel's CSV, kept up to date while
/// open. Closed, it costs nothing; open, it is refreshed once the controls rest, never inside
/// a slider move, so the charts keep their frame budget (a CSV action may evaluate every
/// distance of a long curve).
#[component]
pub fn DataTable(csv: Callback<()>) -> impl IntoView {
    let state = use_context::<crate::ui::context::AppCtx>().map(|c| c.state);
    let open = RwSignal::new(false);
    // One HTML string: far less wasm than a typed view tree for a table.
    let table = RwSignal::new(String::new());
    let pending = StoredValue::new(None::<TimeoutHandle>);
    Effect::new(move |_| {
        if let Some(s) = state {
            s.track();
        }
        if let Some(handle) = pending.get_value() {
            handle.clear();
        }
        if !open.get() {
            return;
        }
        // The table is written by the extras chunk (fetched on first use), where its
        // headers are put in words.
        let refresh = move || match export::preview(csv) {
            Some(p) => crate::ui::lazy::run(crate::ui::lazy::Job::Table(p, table)),
            None => table.set(String::new()),
        };
        pending.set_value(
            set_timeout_with_handle(refresh, std::time::Duration::from_millis(TABLE_REFRESH_MS))
                .ok(),
        );
    });
    on_cleanup(move || {
        if let Some(Some(handle)) = pending.try_get_value() {
            handle.clear();
        }
    });
    view! {
        <details class="data-table" on:toggle=move |ev| {
            let el: web_sys::HtmlDetailsElement = event_target(&ev);
            open.set(el.open());
        }>
            <summary>"Show data as table"</summary>
            <div class="table-wrap" tabindex="0" role="region" aria-label="Chart data" inner_html=table></div>
        </details>
    }
}

/// Says when a long curve is drawn from every `stride`-th point (empty otherwise).
pub fn stride_note(stride: usize) -> String {
    if stride > 1 {
        format!("Long range: drawn at one distance in {stride}, with a min/max band per pixel; the CSV holds every distance.")
    } else {
        String::new()
    }
}
