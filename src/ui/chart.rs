//! A chart on the page: [`ChartCanvas`] (its canvas sized to its box, painted in the schedule's
//! turns, pointer positions as fractions of the plotting area, outlines drawn over it) and
//! [`ChartRef`], the handle its panel and exports hold.

use leptos::html::Canvas;
use leptos::prelude::*;

use super::context::{publish, AppCtx, ChartPresentation};
use super::dom;
use super::painter::Painter;
use super::schedule::{self, Slot};
use crate::render::charts::{Cramped, PlotRect, Theme};

/// The largest backing store of one canvas side, in device pixels.
const MAX_CANVAS_PX: f64 = 4096.0;

/// A chart's paint function, type-erased so that every chart shares one copy of the canvas code.
pub type PaintFn = std::rc::Rc<dyn Fn(&Painter) -> Option<PlotRect>>;

/// A chart's text scale, shared with the SVG export (presenter mode fits it to the chart).
type TextScale = std::rc::Rc<std::cell::Cell<f64>>;

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
    /// Every chart built on the page, by its slot: its paint function and the text scale it
    /// last painted with, for the SVG export (which paints it again on a recording context).
    static PAINTS: std::cell::RefCell<Vec<(u32, PaintFn, TextScale)>> =
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
            .map(|(_, p, t)| (p.clone(), t.get()))
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
    // Presenter mode's text as large as fits: a chart that cut a legend entry or an axis title
    // at the presenter's scale paints again a step smaller, down to the page's own size. The
    // scale found holds while the canvas keeps its size (so moves paint once).
    let fitted: TextScale = std::rc::Rc::new(std::cell::Cell::new(text_scale));
    let fitted_at = std::cell::Cell::new((0u32, 0u32));
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
    PAINTS.with_borrow_mut(|c| c.push((slot.id(), paint.clone(), fitted.clone())));
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
            if let Some(canvas) = node_ref.get_untracked() {
                slot.check_seen(&canvas);
            }
            slot.dirty();
            return;
        }
        // The chart's name and summary follow its paints: read (and so computed, with the data
        // they may describe) only when the chart paints, never in the frame of an input that
        // changed an off-screen chart.
        let name = label.get();
        publish(shown_label, name);
        // Out of sight, any change of the state marks the chart stale directly. Otherwise
        // telling it so would first recompute every memo its paint read (that is how a
        // reactive graph learns whether a memo changed): an off-screen chart's data would be
        // computed in every slider's frame. It repaints once the controls rest, or when it
        // scrolls in.
        let out_of_sight = !slot.on_screen();
        if out_of_sight {
            ctx.state.track();
        }
        slot.painted_out_of_sight(out_of_sight);
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
        if fitted_at.get() != (w, h) {
            fitted_at.set((w, h));
            fitted.set(text_scale);
        }
        let coarse = slot.coarseness();
        let started = dom::now_ms();
        let (painter, painted_rect) = loop {
            let scale = f64::from(w) / css_w * fitted.get();
            let theme = if dark {
                Theme::dark(scale)
            } else {
                Theme::light(scale)
            };
            let painter = Painter {
                canvas: canvas.clone(),
                theme,
                frame_cache,
                coarse,
                reduced: std::cell::Cell::new(false),
                quick_data: std::cell::Cell::new(false),
                work: std::cell::Cell::new(None),
                slot,
                vector: false,
            };
            let r = paint(&painter);
            let cut = r.is_some_and(|r| r.cramped != Cramped::default());
            if cut && fitted.get() > 1.0 {
                fitted.set((fitted.get() - 0.3).max(1.0));
                continue;
            }
            break (painter, r);
        };
        if let Some(r) = painted_rect {
            rect.set_value(r);
            if marks.is_some() {
                publish(painted, (r, w, h));
            }
            // The plotting area in device pixels, for tests that point at a known cell.
            let _ = painter
                .canvas
                .set_attribute("data-plot", &format!("{},{},{},{}", r.x0, r.y0, r.x1, r.y1));
            // What the chart cut to fit (render::charts::Cramped), for the presenter-fit specs.
            let _ = match r.cramped.words() {
                w if w.is_empty() => painter.canvas.remove_attribute("data-cramped"),
                w => painter.canvas.set_attribute("data-cramped", &w),
            };
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
    super::dom::keep_observer(observer, callback, web_sys::ResizeObserver::disconnect);
}
