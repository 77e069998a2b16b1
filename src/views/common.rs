//! Pieces every view uses: chart specs from data, and the export buttons of a panel.

use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

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
        <DataTable csv=csv/>
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

/// How long the controls must rest before an open data table is refreshed.
const TABLE_REFRESH_MS: u64 = 150;

/// "Show data as table": the first rows and columns of the panel's CSV, kept up to date while
/// open. Closed, it costs nothing; open, it is refreshed once the controls rest, never inside
/// a slider move, so the charts keep their frame budget (a CSV action may evaluate every
/// distance of a long curve).
#[component]
pub fn DataTable(csv: Callback<()>) -> impl IntoView {
    let state = use_context::<crate::ui::app::AppCtx>().map(|c| c.state);
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
        let refresh = move || {
            table.set(
                export::preview(csv)
                    .map(|p| p.to_html())
                    .unwrap_or_default(),
            )
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
        format!("Long range: drawn from every {stride}th distance, with a min/max band per pixel; the CSV holds every distance.")
    } else {
        String::new()
    }
}

/// A lazily computed, cached value that updates when what it reads changes: a [`Memo`] whose
/// value is type-erased, so that the reactive machinery is compiled once for every value type
/// and every closure (each `Memo<T>` type and each memo closure otherwise adds its own copy,
/// about a kilobyte each). Like a memo, an unchanged result does not wake what depends on it.
pub struct Computed<T: 'static> {
    memo: Memo<Erased>,
    _value: PhantomData<fn() -> T>,
}

impl<T> Clone for Computed<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Computed<T> {}

/// A value of any type, with the equality of that type.
#[derive(Clone)]
struct Erased {
    value: Arc<dyn Any + Send + Sync>,
    eq: fn(&dyn Any, &dyn Any) -> bool,
}

impl PartialEq for Erased {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.value, &other.value) || (self.eq)(&*self.value, &*other.value)
    }
}

fn same<T: PartialEq + 'static>(a: &dyn Any, b: &dyn Any) -> bool {
    a.downcast_ref::<T>() == b.downcast_ref::<T>()
}

type Producer = Arc<dyn Fn() -> Erased + Send + Sync>;

fn erased_memo(produce: Producer) -> Memo<Erased> {
    Memo::new(move |_| produce())
}

fn never_same(_: &dyn Any, _: &dyn Any) -> bool {
    false
}

impl<T: PartialEq + Send + Sync + 'static> Computed<T> {
    /// A value compared with the last one: small values derived from big state, where an
    /// unchanged result should not wake what depends on it.
    pub fn new(compute: impl Fn() -> T + Send + Sync + 'static) -> Self {
        Self::with_eq(compute, same::<T>)
    }
}

impl<T: Send + Sync + 'static> Computed<T> {
    /// A value never compared: large data recomputed only when its inputs change, where a
    /// comparison would cost as much as the work it saves.
    pub fn fresh(compute: impl Fn() -> T + Send + Sync + 'static) -> Self {
        Self::with_eq(compute, never_same)
    }

    fn with_eq(
        compute: impl Fn() -> T + Send + Sync + 'static,
        eq: fn(&dyn Any, &dyn Any) -> bool,
    ) -> Self {
        Computed {
            memo: erased_memo(Arc::new(move || Erased {
                value: Arc::new(compute()),
                eq,
            })),
            _value: PhantomData,
        }
    }

    fn value(e: &Erased) -> &T {
        // Only `new` makes the value, always of type T.
        e.value
            .downcast_ref::<T>()
            .expect("Computed holds its own type")
    }

    /// Subscribes to the value without reading it.
    pub fn track(&self) {
        self.memo.track();
    }

    /// Reads the value and subscribes to it.
    pub fn with<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        self.memo.with(|e| read(Self::value(e)))
    }

    /// Reads the value without subscribing.
    pub fn with_untracked<R>(&self, read: impl FnOnce(&T) -> R) -> R {
        self.memo.with_untracked(|e| read(Self::value(e)))
    }

    pub fn get(&self) -> T
    where
        T: Clone,
    {
        self.with(T::clone)
    }

    pub fn get_untracked(&self) -> T
    where
        T: Clone,
    {
        self.with_untracked(T::clone)
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
