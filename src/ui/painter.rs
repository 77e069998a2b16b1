//! What a chart's paint function draws with: [`Painter`], with the chart's frame cache (axes
//! and labels copied back when only the data moved), its quick-paint decisions (asked of the
//! schedule), and the cache of colour bars.

use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use wasm_bindgen::{Clamped, JsCast};

use super::canvas::Canvas2d;
use super::dom;
use super::schedule::Slot;
use crate::render::charts::{draw_line_parts, LineChart, LineParts, PlotRect, Theme};
use crate::render::heatmap::{colour_bar_width, draw_colour_bar, draw_heatmap_axes, HeatmapFrame};
use crate::render::raster::SampledGrid;

/// Painting context handed to a chart's paint function.
pub struct Painter {
    pub canvas: web_sys::HtmlCanvasElement,
    pub theme: Theme,
    /// The chart's last heatmap frame, kept to be copied back (see [`Painter::heatmap_frame`]).
    pub(super) frame_cache: StoredValue<Option<FrameCache>, LocalStorage>,
    /// Device pixels per image pixel: 1 for a full paint; more for the quick paint of a chart
    /// too slow for a frame while a slider moves (refined once the controls rest).
    pub coarse: usize,
    /// Whether the paint asked for [`Painter::raster`] or used [`Painter::quick`]: only such
    /// a paint can be coarse (a chart that ignores both is drawn in full, and is not painted
    /// again at rest).
    pub(super) reduced: std::cell::Cell<bool>,
    /// Whether the paint drew from quick data ([`Painter::quick`]): its cost says nothing of
    /// a full paint's.
    pub(super) quick_data: std::cell::Cell<bool>,
    /// The work a full paint does, as told by [`Painter::quick_for`].
    pub(super) work: std::cell::Cell<Option<f64>>,
    pub(super) slot: Slot,
    /// Painting for an SVG export: drawn in full, nothing copied from a cache.
    pub(super) vector: bool,
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
    /// A line chart's axes and legend, with any series drawn with them
    /// ([`LineChart::frame_with`]).
    Lines(LineChart),
}

/// A chart's frame as last drawn: what it showed, the plotting area it left and, once the
/// same frame has been drawn twice, a copy of the canvas with it.
pub(super) struct FrameCache {
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

    /// Draws a line chart: its frame (axes, labels, legend; see [`Painter::framed`]), then its
    /// bands and series.
    pub fn lines(&self, chart: &LineChart) -> Option<PlotRect> {
        self.lines_over(chart, 0)
    }

    /// As [`Painter::lines`], with the first `still` series drawn with the frame and copied
    /// with it: a chart where one control moves a series (a reference line) and leaves the
    /// others draws only that one on a move.
    pub fn lines_over(&self, chart: &LineChart, still: usize) -> Option<PlotRect> {
        let area = self.area()?;
        let frame = self.framed(FrameShows::Lines(chart.frame_with(still)), &|| {
            let rect = draw_line_parts(&area, chart, &self.theme, LineParts::Frame(still)).ok();
            // Strokes the grid lines still waiting (see `Canvas2d`) before the frame is copied.
            area.present().ok()?;
            rect
        })?;
        // What the frame cut (its legend, its axis titles) is the chart's, drawn or copied.
        let rect = draw_line_parts(&area, chart, &self.theme, LineParts::Series(still)).ok()?;
        Some(PlotRect {
            cramped: frame.cramped,
            ..rect
        })
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

    /// Whether this is a full paint: the controls rest, or the drag paused and the chart is
    /// brought up to full (work done a slice at a time may take larger slices then).
    pub fn at_rest(&self) -> bool {
        self.slot.full_paint()
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
    cb: &crate::render::heatmap::ColourBar<'_>,
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
