//! Shared widgets: range controls, choices, the panel frame, chart canvases and export buttons.
//! Every view builds from these; none copies them.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use wasm_bindgen::{Clamped, JsCast};

use super::canvas::Canvas2d;
use super::context::AppCtx;
use super::dom;
use super::schedule::{self, Slot};
use crate::format::sig;
use crate::render::charts::{
    colour_bar_width, draw_colour_bar, draw_heatmap_axes, draw_line_parts, HeatmapFrame, LineChart,
    LineParts, PlotRect, Theme,
};
use crate::render::raster::SampledGrid;
use crate::state::params::{FloatSpec, IntSpec};
use crate::state::AppState;

/// What a range control needs to know about its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RangeSpec {
    pub name: &'static str,
    pub label: &'static str,
    pub min: f64,
    pub max: f64,
    pub log: bool,
    pub integer: bool,
    pub unit: &'static str,
}

impl From<IntSpec> for RangeSpec {
    fn from(s: IntSpec) -> Self {
        RangeSpec {
            name: s.name,
            label: s.label,
            min: s.min as f64,
            max: s.max as f64,
            log: false,
            integer: true,
            unit: s.unit,
        }
    }
}

impl From<FloatSpec> for RangeSpec {
    fn from(s: FloatSpec) -> Self {
        RangeSpec {
            name: s.name,
            label: s.label,
            min: s.min,
            max: s.max,
            log: s.log,
            integer: false,
            unit: s.unit,
        }
    }
}

/// Rounds a log-slider value to three significant digits, so that slides land on readable
/// values (10000 stays reachable).
fn nice(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return v;
    }
    let magnitude = 10f64.powi(v.log10().floor() as i32 - 2);
    (v / magnitude).round() * magnitude
}

fn show_value(v: f64, integer: bool) -> String {
    if integer {
        format!("{}", v.round() as i64)
    } else {
        sig(v, 6)
    }
}

/// A labelled slider with a number box for exact values. Out-of-range or malformed entries are
/// clamped or refused with a message under the control; the last good value stays.
#[component]
pub fn RangeControl(
    /// The parameter: name, label, range, scale, unit.
    spec: RangeSpec,
    /// The current value.
    #[prop(into)]
    value: Signal<f64>,
    /// An upper bound tighter than the spec's (set by another control).
    #[prop(into, optional)]
    max: Option<Signal<f64>>,
    /// Receives every new, already clamped value.
    on_change: Callback<f64>,
) -> impl IntoView {
    let id = format!("ctl-{}", spec.name);
    let message = RwSignal::new(None::<String>);
    let upper = move || max.map_or(spec.max, |m| m.get().clamp(spec.min, spec.max));
    let to_slider = move |v: f64| if spec.log { v.log10() } else { v };
    let from_slider = move |x: f64| {
        let v = if spec.log { nice(10f64.powf(x)) } else { x };
        if spec.integer {
            v.round()
        } else {
            v
        }
    };
    let key = schedule::control_key();
    let on_range = move |ev: leptos::ev::Event| {
        if let Some(x) = crate::format::parse_decimal(&event_target_value(&ev)) {
            schedule::apply_in_frame(key, move || {
                message.set(None);
                on_change.run(from_slider(x).clamp(spec.min, upper()));
            });
        }
    };
    let on_number = move |ev: leptos::ev::Event| {
        let raw = event_target_value(&ev);
        match crate::format::parse_decimal(&raw) {
            Some(v) => {
                let v = if spec.integer { v.round() } else { v };
                let clamped = v.clamp(spec.min, upper());
                message.set((clamped != v).then(|| {
                    format!(
                        "{} ranges from {} to {}; used {}.",
                        spec.label,
                        show_value(spec.min, spec.integer),
                        show_value(upper(), spec.integer),
                        show_value(clamped, spec.integer)
                    )
                }));
                on_change.run(clamped);
            }
            _ => {
                message.set(Some(format!(
                    "“{}” is not a number; kept {}.",
                    crate::state::params::shorten(&raw, 20),
                    show_value(value.get_untracked(), spec.integer)
                )));
                // Put the last good value back in the box.
                if let Some(input) = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                {
                    input.set_value(&show_value(value.get_untracked(), spec.integer));
                }
            }
        }
    };
    let step = if spec.log {
        "0.001".to_string()
    } else if spec.integer {
        "1".to_string()
    } else {
        "any".to_string()
    };
    let unit = spec.unit;
    let class = control_class(spec.name, CONTROL);
    view! {
        <div class=class data-control=spec.name>
            <label for=id.clone()>{spec.label}</label>
            <div class="control-row">
                <input
                    type="range"
                    id=id
                    min=to_slider(spec.min).to_string()
                    max=move || to_slider(upper()).to_string()
                    step=step
                    prop:value=move || to_slider(value.get()).to_string()
                    aria-valuetext=move || {
                        format!("{} {}", show_value(value.get(), spec.integer), unit).trim().to_string()
                    }
                    on:input=on_range
                />
                <input
                    type="text"
                    inputmode="decimal"
                    class="num"
                    aria-label=format!("{} (exact value)", spec.label)
                    prop:value=move || show_value(value.get(), spec.integer)
                    on:change=on_number
                />
            </div>
            <p class="control-msg" role="status">{move || message.get()}</p>
        </div>
    }
}

/// The class of the control `name`'s widget, `base` followed by `gone` when the page hides it
/// (`hide=`) or `locked` when it locks it (`lock=`: shown dimmed, and made `inert` by the
/// page's one-line observer in index.html, so nothing in it can be changed). Read once: a view,
/// and each lesson step's panels, are built anew with their state. A class string costs the
/// download nothing over the fixed class it replaces; an attribute more would.
pub fn control_class(name: &'static str, base: &'static [&'static str; 3]) -> &'static str {
    let flags = use_context::<AppCtx>().map(|c| {
        c.state
            .with_untracked(|s| (s.hidden.contains(&name), s.locked.contains(&name)))
    });
    match flags {
        Some((true, _)) => base[1],
        Some((_, true)) => base[2],
        _ => base[0],
    }
}

/// The classes of a plain control: as it is, hidden, locked (see [`control_class`]).
pub const CONTROL: &[&str; 3] = &["control", "control gone", "control locked"];

fn no_tighter_max(_: &AppState) -> f64 {
    f64::INFINITY
}

/// A [`RangeControl`] bound to one field of the application state by two plain functions.
/// They are `fn` pointers, not closures, so that every control shares one compiled body: a
/// closure per control would cost the wasm download about a kilobyte each.
#[component]
pub fn StateRange(
    #[prop(into)] spec: RangeSpec,
    /// Reads the value from the state.
    get: fn(&AppState) -> f64,
    /// Writes an already clamped value into the state.
    put: fn(&mut AppState, f64),
    /// A tighter upper bound that depends on other controls.
    #[prop(default = no_tighter_max)]
    max: fn(&AppState) -> f64,
) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let value = Memo::new(move |_| state.with(get));
    let upper = Memo::new(move |_| state.with(max));
    let on_change = Callback::new(move |v: f64| state.update(|s| put(s, v)));
    view! { <RangeControl spec=spec value=value max=upper on_change=on_change/> }
}

/// A [`Choice`] bound to the application state by two plain functions (see [`StateRange`]).
#[component]
pub fn StateChoice(
    name: &'static str,
    label: &'static str,
    options: Vec<(&'static str, &'static str)>,
    /// The chosen option's value, read from the state.
    get: fn(&AppState) -> &'static str,
    /// Writes the chosen option's value into the state.
    put: fn(&mut AppState, &str),
) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let value = Memo::new(move |_| state.with(get).to_string());
    let on_change = Callback::new(move |v: String| state.update(|s| put(s, &v)));
    view! { <Choice name=name label=label options=options value=value on_change=on_change/> }
}

/// A set of radio buttons for one choice.
#[component]
pub fn Choice(
    /// The URL name of the parameter.
    name: &'static str,
    /// The visible label.
    label: &'static str,
    /// `(value, label)` pairs.
    options: Vec<(&'static str, &'static str)>,
    /// The chosen value.
    #[prop(into)]
    value: Signal<String>,
    on_change: Callback<String>,
) -> impl IntoView {
    let class = control_class(
        name,
        &[
            "control choice",
            "control choice gone",
            "control choice locked",
        ],
    );
    view! {
        <fieldset class=class data-control=name>
            <legend>{label}</legend>
            {options
                .into_iter()
                .map(|(v, text)| {
                    view! {
                        <label class="choice-option">
                            <input
                                type="radio"
                                name=name
                                value=v
                                prop:checked=move || value.get() == v
                                on:change=move |_| on_change.run(v.to_string())
                            />
                            <span>{text}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}

/// The panels a lesson step shows (provided by the lesson frame around its view).
#[derive(Clone, Debug)]
pub struct LessonPanels(pub Vec<&'static str>);

/// Charts for presenter mode: text and lines scaled up (provided as an `Option` by the lesson
/// frame: `Some` in presenter mode). Their height there is the lesson's CSS: what fits.
#[derive(Clone, Copy, Debug)]
pub struct ChartPresentation {
    pub text_scale: f64,
}

/// Whether a panel is shown (`panel=ID` shows one; a lesson step shows its own).
pub fn panel_visible(id: &str) -> bool {
    if let Some(LessonPanels(panels)) = use_context::<LessonPanels>() {
        return panels.contains(&id);
    }
    use_context::<AppCtx>().is_none_or(|ctx| {
        ctx.state
            .with_untracked(|s| s.panel.as_deref().is_none_or(|p| p == id))
    })
}

/// A panel: a `<section data-panel=ID>` with heading, chart(s), explanation and exports.
#[component]
pub fn Panel(
    /// The stable panel ID; its heading comes from the view registry.
    id: &'static str,
    children: Children,
) -> impl IntoView {
    let title = crate::state::registry::panel_title(id).unwrap_or(id);
    let heading = format!("{id}-title");
    let labelled_by = heading.clone();
    let section = NodeRef::<leptos::html::Section>::new();
    section.on_load(|el| schedule::observe_panel(&el));
    view! {
        <section class="panel" data-panel=id aria-labelledby=labelled_by node_ref=section>
            <h2 id=heading>{title}</h2>
            {children()}
        </section>
    }
}

/// Painting context handed to a chart's paint function.
pub struct Painter {
    pub canvas: web_sys::HtmlCanvasElement,
    pub theme: Theme,
    /// The chart's last heatmap frame, kept to be copied back (see [`Painter::heatmap_frame`]).
    frame_cache: StoredValue<Option<FrameCache>, LocalStorage>,
    /// Device pixels per image pixel: 1 for a full paint; more for the quick paint of a chart
    /// too slow for a frame while a slider moves (refined once the controls rest).
    pub coarse: usize,
    /// Whether the paint asked for [`Painter::raster`] or used [`Painter::quick`]: only such
    /// a paint can be coarse (a chart that ignores both is drawn in full, and is not painted
    /// again at rest).
    reduced: std::cell::Cell<bool>,
    /// Whether the paint drew from quick data ([`Painter::quick`]): its cost says nothing of
    /// a full paint's.
    quick_data: std::cell::Cell<bool>,
    /// The work a full paint does, as told by [`Painter::quick_for`].
    work: std::cell::Cell<Option<f64>>,
    slot: Slot,
    /// Painting for an SVG export: drawn in full, nothing copied from a cache.
    vector: bool,
}

/// What a chart's frame (everything but its data) shows, with the theme and canvas size.
#[derive(PartialEq)]
struct FrameKey {
    shows: FrameShows,
    theme: Theme,
    size: (u32, u32),
}

#[derive(PartialEq)]
enum FrameShows {
    /// A heatmap's axes and colour bar: labels, cell counts, colour map and range.
    Heatmap {
        labels: [String; 3],
        cells: (usize, usize),
        cmap: &'static str,
        range: (f64, f64),
    },
    /// A line chart's axes, bands and legend ([`LineChart::frame`]).
    Lines(LineChart),
}

/// A chart's frame as last drawn: what it showed, the plotting area it left and, once the
/// same frame has been drawn twice, a copy of the canvas with it.
struct FrameCache {
    key: FrameKey,
    rect: PlotRect,
    /// The copy's canvas, kept for reuse; it holds this frame when `holds`.
    copy: Option<web_sys::HtmlCanvasElement>,
    holds: bool,
}

impl Painter {
    pub fn area(&self) -> Option<DrawingArea<Canvas2d, Shift>> {
        Canvas2d::new(self.canvas.clone()).map(|b| b.into_drawing_area())
    }

    /// Draws a heatmap's frame (axes, labels, colour bar) and returns the area its image must
    /// fill (see [`Painter::framed`]).
    pub fn heatmap_frame(&self, frame: &HeatmapFrame<'_>) -> Option<PlotRect> {
        let cb = &frame.colour_bar;
        let shows = FrameShows::Heatmap {
            labels: [
                frame.x_label.clone(),
                frame.y_label.clone(),
                cb.label.clone(),
            ],
            cells: (frame.n_cols, frame.n_rows),
            cmap: cb.cmap.name,
            range: (cb.lo, cb.hi),
        };
        self.framed(shows, &|| {
            let area = self.area()?;
            let theme = &self.theme;
            area.fill(&theme.background).ok()?;
            // The fill is drawn before the bar's copy goes over it.
            area.present().ok()?;
            let (w, h) = area.dim_in_pixel();
            let bar_w = colour_bar_width(w, theme);
            let (main, right) = area.split_horizontally(w - bar_w);
            if self.vector {
                // Its labels as text, not a copy of the cached bar's pixels.
                draw_colour_bar(&right, &frame.colour_bar, theme).ok()?;
            } else {
                let bar = colour_bar(&frame.colour_bar, (bar_w, h), theme)?;
                let ctx = self.context()?;
                ctx.draw_image_with_html_canvas_element(&bar, f64::from(w - bar_w), 0.0)
                    .ok()?;
            }
            draw_heatmap_axes(&main, frame, theme).ok()
        })
    }

    /// The chart canvas's 2D context.
    fn context(&self) -> Option<web_sys::CanvasRenderingContext2d> {
        self.canvas
            .get_context("2d")
            .ok()
            .flatten()?
            .dyn_into::<web_sys::CanvasRenderingContext2d>()
            .ok()
    }

    /// Draws a line chart: its frame (axes, labels, bands, legend; see [`Painter::framed`]),
    /// then its series.
    pub fn lines(&self, chart: &LineChart) -> Option<PlotRect> {
        let area = self.area()?;
        self.framed(FrameShows::Lines(chart.frame()), &|| {
            let rect = draw_line_parts(&area, chart, &self.theme, LineParts::Frame).ok();
            // Strokes the grid lines still waiting (see `Canvas2d`) before the frame is copied.
            area.present().ok()?;
            rect
        })?;
        draw_line_parts(&area, chart, &self.theme, LineParts::Series).ok()
    }

    /// Draws a chart's frame with `draw` and returns the plotting area it leaves. When the
    /// frame is what this chart last drew (only the data moved), the pixels are copied back
    /// instead of drawn again: labels and grid lines are most of a chart's paint.
    fn framed(&self, shows: FrameShows, draw: &dyn Fn() -> Option<PlotRect>) -> Option<PlotRect> {
        let key = FrameKey {
            shows,
            theme: self.theme,
            size: (self.canvas.width(), self.canvas.height()),
        };
        let context = |c: &web_sys::HtmlCanvasElement| {
            c.get_context("2d")
                .ok()
                .flatten()
                .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        };
        let cached = self.frame_cache.with_value(|c| {
            c.as_ref()
                .filter(|c| c.key == key && c.holds)
                .and_then(|c| Some((c.copy.clone()?, c.rect)))
        });
        if let Some((copy, rect)) = cached {
            let ctx = context(&self.canvas)?;
            if ctx
                .draw_image_with_html_canvas_element(&copy, 0.0, 0.0)
                .is_ok()
            {
                return Some(rect);
            }
        }
        let rect = draw()?;
        // A frame is copied when it is drawn a second time (the data moved, the axes stayed):
        // while a slider changes the axes on every move, copying each new frame would only
        // cost a full-canvas copy per move. The copy's canvas is reused.
        let mut cache = self.frame_cache.try_update_value(|c| c.take()).flatten();
        let again = cache.as_ref().is_some_and(|c| c.key == key);
        let copy = cache.as_mut().and_then(|c| c.copy.take()).or_else(|| {
            again
                .then(|| dom::window()?.document()?.create_element("canvas").ok())
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        });
        let holds = again
            && copy.as_ref().is_some_and(|copy| {
                if (copy.width(), copy.height()) != (self.canvas.width(), self.canvas.height()) {
                    copy.set_width(self.canvas.width());
                    copy.set_height(self.canvas.height());
                }
                context(copy).is_some_and(|ctx| {
                    let (w, h) = (f64::from(copy.width()), f64::from(copy.height()));
                    ctx.clear_rect(0.0, 0.0, w, h);
                    ctx.draw_image_with_html_canvas_element(&self.canvas, 0.0, 0.0)
                        .is_ok()
                })
            });
        self.frame_cache.set_value(Some(FrameCache {
            key,
            rect,
            copy,
            holds,
        }));
        Some(rect)
    }

    /// Whether this paint may draw from cheaper data (fewer samples) because a slider is
    /// moving and a full paint of this chart would not fit in a frame. A chart that uses it
    /// is painted again, in full, once the controls rest.
    pub fn quick(&self) -> bool {
        let quick = self.coarse > 1;
        if quick {
            self.reduced.set(true);
            self.quick_data.set(true);
        }
        quick
    }

    /// As [`Painter::quick`], for a chart that knows the `work` its full paint does (samples,
    /// rotations: what its cost grows in proportion to). The decision then follows the work
    /// this state asks for, not only what the last paint cost: a slider that jumps from a
    /// small value to a large one draws quick in that move's frame instead of missing it.
    pub fn quick_for(&self, work: f64) -> bool {
        self.work.set(Some(work));
        let quick = self.quick() || self.slot.quick_for(work);
        if quick {
            self.reduced.set(true);
            self.quick_data.set(true);
        }
        quick
    }

    /// Whether the controls rest (no input for a moment): work done a slice at a time may take
    /// larger slices then.
    pub fn at_rest(&self) -> bool {
        !schedule::moving()
    }

    /// This paint showed work that is not finished (a long scan done a slice per paint): the
    /// chart is painted again once the controls rest, until a paint finishes it.
    pub fn unfinished(&self) {
        self.reduced.set(true);
        self.quick_data.set(true);
    }

    /// The size of the image that fills `rect` in this paint: `rect`'s own, or a fraction of
    /// it in a quick paint.
    pub fn raster(&self, rect: PlotRect) -> (usize, usize) {
        self.reduced.set(true);
        let c = self.coarse.max(1);
        ((rect.width() / c).max(1), (rect.height() / c).max(1))
    }

    /// Puts a heatmap's image (the grid's pixel size) into `rect`, scaled up when it was
    /// computed at a coarser [`Painter::raster`].
    pub fn put_grid(&self, rect: PlotRect, grid: &SampledGrid, rgba: &[u8]) {
        let (w, h) = (grid.cols.px(), grid.rows.px());
        let (rw, rh) = (rect.width(), rect.height());
        if (w, h) == (rw, rh) {
            self.put_rgba(rect, rgba);
            return;
        }
        if w == 0 || h == 0 || rgba.len() < w * h * 4 {
            return;
        }
        // Nearest neighbour: each image pixel becomes a block.
        let out = pe_kernels::image::upscale_nearest(rgba, (w, h), (rw, rh));
        self.put_rgba(rect, &out);
    }

    /// Puts an RGBA image (exactly `rect`'s size) into the canvas at `rect`.
    pub fn put_rgba(&self, rect: PlotRect, rgba: &[u8]) {
        let Some(ctx) = self.context() else {
            return;
        };
        if rect.width() == 0 || rect.height() == 0 {
            return;
        }
        if let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            Clamped(rgba),
            rect.width() as u32,
            rect.height() as u32,
        ) {
            let _ = ctx.put_image_data(&img, rect.x0 as f64, rect.y0 as f64);
        }
    }
}

/// What a colour bar shows, with its size and theme.
#[derive(PartialEq)]
struct BarKey {
    cmap: &'static str,
    range: (f64, f64),
    label: String,
    size: (u32, u32),
    theme: Theme,
}

thread_local! {
    /// Colour bars drawn lately, each on a canvas of its own: a heatmap whose axes change on
    /// every move (`seq_len`, `d_model`) keeps its bar, whose 96 steps and labels were a
    /// third of drawing its frame.
    static BARS: std::cell::RefCell<Vec<(BarKey, web_sys::HtmlCanvasElement)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The most colour bars [`BARS`] keeps (a view has at most a few heatmaps on screen).
const BARS_KEPT: usize = 6;

/// A canvas of `size` with the colour bar `cb` on the theme's background (see
/// [`draw_colour_bar`]): kept from before when the same bar was drawn.
fn colour_bar(
    cb: &crate::render::charts::ColourBar<'_>,
    size: (u32, u32),
    theme: &Theme,
) -> Option<web_sys::HtmlCanvasElement> {
    let key = BarKey {
        cmap: cb.cmap.name,
        range: (cb.lo, cb.hi),
        label: cb.label.clone(),
        size,
        theme: *theme,
    };
    if let Some(kept) =
        BARS.with_borrow(|b| b.iter().find(|(k, _)| *k == key).map(|(_, c)| c.clone()))
    {
        return Some(kept);
    }
    let canvas: web_sys::HtmlCanvasElement = dom::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into()
        .ok()?;
    canvas.set_width(size.0.max(1));
    canvas.set_height(size.1.max(1));
    {
        let area = Canvas2d::new(canvas.clone())?.into_drawing_area();
        area.fill(&theme.background).ok()?;
        draw_colour_bar(&area, cb, theme).ok()?;
        area.present().ok()?;
    }
    BARS.with_borrow_mut(|b| {
        if b.len() >= BARS_KEPT {
            b.remove(0);
        }
        b.push((key, canvas.clone()));
    });
    Some(canvas)
}

/// The largest backing store of one canvas side, in device pixels.
const MAX_CANVAS_PX: f64 = 4096.0;

/// A chart's paint function, type-erased so that every chart shares one copy of the canvas code.
pub type PaintFn = std::rc::Rc<dyn Fn(&Painter) -> Option<PlotRect>>;

/// A chart on the page as its owner and its exports hold it: its canvas and its place in the
/// schedule. Made by the panel, built by [`ChartCanvas`] (which every panel builds at once: the
/// chart is pending until its first paint).
#[derive(Clone, Copy)]
pub struct ChartRef {
    canvas: NodeRef<Canvas>,
    slot: Slot,
}

impl ChartRef {
    /// A chart to be built by [`ChartCanvas`].
    #[allow(clippy::new_without_default)]
    pub fn new() -> ChartRef {
        ChartRef {
            canvas: NodeRef::new(),
            slot: Slot::register(),
        }
    }

    /// The chart's canvas, once it is in the page.
    pub fn canvas(&self) -> Option<web_sys::HtmlCanvasElement> {
        self.canvas.get_untracked()
    }

    /// The chart's place in the schedule.
    pub fn slot(&self) -> u32 {
        self.slot.id()
    }
}

thread_local! {
    /// Every chart built on the page, by its slot: its paint function and text scale, for the
    /// SVG export (which paints it again on a recording context).
    static PAINTS: std::cell::RefCell<Vec<(u32, PaintFn, f64)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Paints `chart` on `target`, a canvas of the same size whose context records (see
/// `ui::svg`): in full, with the page's theme and scale.
pub fn paint_export(chart: ChartRef, target: web_sys::HtmlCanvasElement) -> Option<PlotRect> {
    let canvas = chart.canvas()?;
    let slot = chart.slot;
    let (paint, text_scale) = PAINTS.with_borrow(|c| {
        c.iter()
            .find(|(id, _, _)| *id == slot.id())
            .map(|(_, p, t)| (p.clone(), *t))
    })?;
    // The theme in use, as the shell sets it on <html> (this runs outside any component).
    let dark = dom::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("data-theme"))
        .is_some_and(|t| t == "dark");
    let scale = f64::from(canvas.width()) / f64::from(canvas.client_width().max(1)) * text_scale;
    let painter = Painter {
        canvas: target,
        theme: if dark {
            Theme::dark(scale)
        } else {
            Theme::light(scale)
        },
        frame_cache: StoredValue::new_local(None),
        coarse: 1,
        reduced: std::cell::Cell::new(false),
        quick_data: std::cell::Cell::new(false),
        work: std::cell::Cell::new(None),
        slot,
        vector: true,
    };
    paint(&painter)
}

/// A chart canvas sized to its box at device resolution and repainted by `paint` whenever
/// anything `paint` reads changes (and on resize or theme change). Pointer positions are handed
/// out as fractions of the plotting area that `paint` returned.
#[component]
pub fn ChartCanvas<P>(
    /// The chart, as its exports hold it.
    chart: ChartRef,
    /// Accessible name of the chart.
    #[prop(into)]
    label: Signal<String>,
    /// Height in CSS pixels.
    #[prop(default = 340.0)]
    height: f64,
    /// Paints the chart and returns its plotting area.
    paint: P,
    /// Pointer over the plotting area (`None` when it leaves).
    #[prop(optional)]
    on_hover: Option<Callback<Option<(f64, f64)>>>,
    /// A click in the plotting area.
    #[prop(optional)]
    on_click: Option<Callback<(f64, f64)>>,
    /// Outlines drawn over the chart (highlights, the hovered cell), redrawn without
    /// repainting the chart.
    #[prop(optional)]
    marks: Option<Signal<Vec<Mark>>>,
) -> impl IntoView
where
    P: Fn(&Painter) -> Option<PlotRect> + 'static,
{
    chart_canvas(Chart {
        chart,
        label,
        height,
        paint: std::rc::Rc::new(paint),
        on_hover,
        on_click,
        marks,
    })
}

/// What [`chart_canvas`] needs: the props of [`ChartCanvas`], with the paint function erased.
struct Chart {
    chart: ChartRef,
    label: Signal<String>,
    height: f64,
    paint: PaintFn,
    on_hover: Option<Callback<Option<(f64, f64)>>>,
    on_click: Option<Callback<(f64, f64)>>,
    marks: Option<Signal<Vec<Mark>>>,
}

/// A box over a chart's plotting area, in fractions of it (x right, y down, 0 to 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub style: MarkStyle,
}

/// How a [`Mark`] is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkStyle {
    /// A highlight asked for (by the URL or a lesson): a bold outline.
    Highlight,
    /// Related to the pointer (the hovered column's partner): a dashed outline.
    Related,
    /// The cell under the pointer: an outline and a crosshair through its centre.
    Crosshair,
}

/// The SVG of `marks` over the plotting area `r` (device pixels).
fn marks_svg(marks: &[Mark], r: PlotRect) -> String {
    let (w, h) = (f64::from(r.x1 - r.x0), f64::from(r.y1 - r.y0));
    let x = |f: f64| f64::from(r.x0) + f.clamp(0.0, 1.0) * w;
    let y = |f: f64| f64::from(r.y0) + f.clamp(0.0, 1.0) * h;
    let mut out = String::new();
    for m in marks {
        let (x0, y0, x1, y1) = (x(m.x0), y(m.y0), x(m.x1), y(m.y1));
        let class = match m.style {
            MarkStyle::Highlight => "mark-hl",
            MarkStyle::Related => "mark-related",
            MarkStyle::Crosshair => "mark-cell",
        };
        if m.style == MarkStyle::Crosshair {
            let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
            out += &format!(
                "<line class=\"mark-cross\" x1=\"{}\" y1=\"{cy:.1}\" x2=\"{}\" y2=\"{cy:.1}\"/><line class=\"mark-cross\" x1=\"{cx:.1}\" y1=\"{}\" x2=\"{cx:.1}\" y2=\"{}\"/>",
                r.x0, r.x1, r.y0, r.y1
            );
        }
        out += &format!(
            "<rect class=\"{class}\" x=\"{x0:.1}\" y=\"{y0:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>",
            (x1 - x0).max(1.0),
            (y1 - y0).max(1.0)
        );
    }
    out
}

/// The body of [`ChartCanvas`], not generic: one copy in the binary for every chart.
fn chart_canvas(chart: Chart) -> AnyView {
    let Chart {
        chart,
        label,
        height,
        paint,
        on_hover,
        on_click,
        marks,
    } = chart;
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let presentation = use_context::<Option<ChartPresentation>>().flatten();
    let text_scale = presentation.map_or(1.0, |p| p.text_scale);
    let rect = StoredValue::new(PlotRect::default());
    let frame_cache = StoredValue::new_local(None);
    // Its name as first built; afterwards it changes with the chart's paints.
    let shown_label = RwSignal::new(label.get_untracked());
    // The plotting area and canvas size as last painted, for the overlay of marks.
    let painted = RwSignal::new((PlotRect::default(), 0u32, 0u32));
    // The canvas's laid-out width, from a ResizeObserver: a chart built before it is in the
    // page (a view loaded on demand) or resized by the layout repaints at its real width.
    // Its height too: the chart's own, unless a stylesheet sizes it (presenter mode fits it to
    // the screen).
    let laid_out = RwSignal::new((0.0f64, 0.0f64));
    // Painted in animation frames, on screen first (see `schedule`).
    let slot = chart.slot;
    PAINTS.with_borrow_mut(|c| c.push((slot.id(), paint.clone(), text_scale)));
    on_cleanup(move || {
        let _ = PAINTS.try_with(|c| c.borrow_mut().retain(|(id, _, _)| *id != slot.id()));
    });
    let node_ref = chart.canvas;
    node_ref.on_load(move |canvas| {
        observe_size(&canvas, laid_out);
        schedule::observe_on_screen(&canvas, slot);
    });
    Effect::new(move |_| {
        if !slot.granted() {
            // An input changed what the chart draws: it paints in its turn, with whatever the
            // state is by then (reading nothing else here, so further inputs do not wake it).
            slot.dirty();
            return;
        }
        // The chart's name and summary follow its paints: read (and so computed, with the data
        // they may describe) only when the chart paints, never in the frame of an input that
        // changed an off-screen chart.
        let name = label.get();
        if shown_label.with_untracked(|l| *l != name) {
            shown_label.set(name);
        }
        // Out of sight, any change of the state marks the chart stale directly. Otherwise
        // telling it so would first recompute every memo its paint read (that is how a
        // reactive graph learns whether a memo changed): an off-screen chart's data would be
        // computed in every slider's frame. It repaints once the controls rest, or when it
        // scrolls in.
        if !slot.on_screen() {
            ctx.state.track();
        }
        let dark = ctx.dark.get();
        ctx.layout_tick.track();
        let (observed, observed_h) = laid_out.get();
        let Some(canvas) = node_ref.get() else {
            slot.painted(1, 0.0);
            return;
        };
        let dpr = dom::device_pixel_ratio();
        // The observed width; reading the element's would force a layout in every frame.
        let css_w = if observed > 0.0 {
            observed
        } else {
            f64::from(canvas.client_width())
        }
        .max(200.0);
        let w = (css_w * dpr).min(MAX_CANVAS_PX).round() as u32;
        let css_h = if observed_h > 0.0 { observed_h } else { height };
        let h = (css_h * dpr).min(MAX_CANVAS_PX).round() as u32;
        if canvas.width() != w {
            canvas.set_width(w);
        }
        if canvas.height() != h {
            canvas.set_height(h);
        }
        let scale = f64::from(w) / css_w * text_scale;
        let theme = if dark {
            Theme::dark(scale)
        } else {
            Theme::light(scale)
        };
        let coarse = slot.coarseness();
        let painter = Painter {
            canvas,
            theme,
            frame_cache,
            coarse,
            reduced: std::cell::Cell::new(false),
            quick_data: std::cell::Cell::new(false),
            work: std::cell::Cell::new(None),
            slot,
            vector: false,
        };
        let started = dom::now_ms();
        if let Some(r) = paint(&painter) {
            rect.set_value(r);
            if marks.is_some() && painted.get_untracked() != (r, w, h) {
                painted.set((r, w, h));
            }
            // The plotting area in device pixels, for tests that point at a known cell.
            let _ = painter
                .canvas
                .set_attribute("data-plot", &format!("{},{},{},{}", r.x0, r.y0, r.x1, r.y1));
        }
        let ms = dom::now_ms() - started;
        let coarse = if painter.reduced.get() { coarse } else { 1 };
        if painter.quick_data.get() {
            slot.painted_quick(coarse, ms);
        } else {
            if let Some(work) = painter.work.get() {
                slot.worked(work, ms);
            }
            slot.painted(coarse, ms);
        }
        // A coarser raster or quick data: refined once the controls rest. Marked on the
        // canvas (`data-reduced`) for the specs that check which picture a frame showed.
        let reduced = coarse > 1 || painter.quick_data.get();
        let _ = if reduced {
            painter.canvas.set_attribute("data-reduced", "")
        } else {
            painter.canvas.remove_attribute("data-reduced")
        };
        dom::mark_painted(reduced);
    });
    let fraction = move |ev: &web_sys::MouseEvent| -> Option<(f64, f64)> {
        let canvas = node_ref.get_untracked()?;
        let css_w = f64::from(canvas.client_width()).max(1.0);
        let scale = f64::from(canvas.width()) / css_w;
        rect.get_value().fraction(
            f64::from(ev.offset_x()) * scale,
            f64::from(ev.offset_y()) * scale,
        )
    };
    let on_move = move |ev: web_sys::MouseEvent| {
        if let Some(cb) = on_hover {
            cb.run(fraction(&ev));
        }
    };
    let on_leave = move |_| {
        if let Some(cb) = on_hover {
            cb.run(None);
        }
    };
    let on_press = move |ev: web_sys::MouseEvent| {
        if let (Some(cb), Some(f)) = (on_click, fraction(&ev)) {
            cb.run(f);
        }
    };
    let overlay = marks.map(|marks| {
        let svg = move || {
            let (r, _, _) = painted.get();
            marks.with(|m| marks_svg(m, r))
        };
        let view_box = move || {
            let (_, w, h) = painted.get();
            format!("0 0 {w} {h}")
        };
        view! {
            <svg class="chart-overlay" aria-hidden="true" preserveAspectRatio="none"
                viewBox=view_box style=format!("height:{height}px") inner_html=svg></svg>
        }
    });
    view! {
        <div class="chart-wrap">
        {overlay}
        <canvas
            class="chart"
            class:clickable=on_click.is_some()
            node_ref=node_ref
            role="img"
            aria-label=move || shown_label.get()
            style=format!("height:{height}px")
            on:mousemove=on_move
            on:mouseleave=on_leave
            on:click=on_press
        ></canvas>
        </div>
        // The one-line summary, visible (the canvas carries the same text as its name).
        <p class="chart-summary" aria-hidden="true">{move || shown_label.get()}</p>
    }
    .into_any()
}

/// Keeps `size` equal to the element's laid-out CSS width and height; stops when the component
/// goes.
fn observe_size(element: &web_sys::HtmlCanvasElement, size: RwSignal<(f64, f64)>) {
    use wasm_bindgen::JsCast;
    let callback = wasm_bindgen::closure::Closure::<dyn Fn(js_sys::Array)>::new(
        move |entries: js_sys::Array| {
            let Some(entry) = entries
                .get(0)
                .dyn_into::<web_sys::ResizeObserverEntry>()
                .ok()
            else {
                return;
            };
            let rect = entry.content_rect();
            let new = (rect.width().round(), rect.height().round());
            // `try_`: a late notification after the chart is gone does nothing.
            if new.0 > 0.0 && size.try_get_untracked().is_some_and(|old| old != new) {
                size.try_set(new);
            }
        },
    );
    let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
        return;
    };
    observer.observe(element);
    // Both live as long as the component (the closure is dropped with its owner).
    let kept = StoredValue::new_local((observer, callback));
    on_cleanup(move || {
        kept.try_with_value(|(observer, _)| observer.disconnect());
    });
}

/// A row of export buttons.
#[component]
pub fn ExportBar(children: Children) -> impl IntoView {
    view! { <div class="exports" role="group" aria-label="Export">{children()}</div> }
}
