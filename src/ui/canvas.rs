//! The canvas backend the charts draw on: plotters' `CanvasBackend`, except that text is
//! measured with the canvas's own `measureText`. Plotters measures text in the browser by
//! adding a `<span>` to the page and reading its size, which forces a layout of the whole page
//! for every tick label: milliseconds per chart, inside the frame of every slider move.
//! Grid lines of one style are stroked as one path, and dense bands (the columns of line series
//! with more points than pixels) are filled in memory and drawn as one image.

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, Path2d};

use pe_kernels::bands::BandLayer;
use wasm_bindgen::Clamped;

// A series of a few thousand points is one call into JavaScript, not one per point: each
// call from WebAssembly costs more than the browser's own work for a `lineTo`.
#[wasm_bindgen(
    inline_js = "export function polyline(p, xy, d) { if (xy.length < 2) return; for (let k = 0; k < d.length; k += 2) { const x = d[k], y = d[k + 1]; p.moveTo(xy[0] + x, xy[1] + y); for (let i = 2; i < xy.length; i += 2) p.lineTo(xy[i] + x, xy[i + 1] + y); } }"
)]
extern "C" {
    /// Adds the polyline through `(xy[0], xy[1]), (xy[2], xy[3]), …` to `path`, once for each
    /// offset `(d[0], d[1]), (d[2], d[3]), …`.
    fn polyline(path: &Path2d, xy: &[f32], d: &[f32]);
}

#[wasm_bindgen(
    inline_js = "export function segments(p, s) { for (let k = 0; k + 3 < s.length; k += 4) { p.moveTo(s[k], s[k + 1]); p.lineTo(s[k + 2], s[k + 3]); } }"
)]
extern "C" {
    /// Adds the segments `(s[0], s[1]) → (s[2], s[3])`, `(s[4], s[5]) → …` to `path`.
    fn segments(path: &Path2d, s: &[f32]);
}

/// Straight lines of one colour and width, waiting to be stroked as one path.
struct Lines {
    rgb: (u8, u8, u8),
    alpha: f64,
    width: u32,
    /// `x0, y0, x1, y1` of each line.
    ends: Vec<f32>,
}

pub struct Canvas2d {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The font last set on the context: setting one makes the browser parse it, so a chart's
    /// hundred labels in one font set it once.
    font: std::cell::RefCell<String>,
    /// Grid lines and ticks drawn one after another in one style: stroked together, once, when
    /// anything else is drawn (or the backend is presented or dropped), not one stroke each.
    lines: std::cell::RefCell<Option<Lines>>,
    /// Dense bands filled one after another: filled in memory and put on the canvas as one
    /// image (see [`BandLayer`]), when anything else is drawn.
    bands: std::cell::RefCell<Option<BandLayer>>,
}

/// Polygons with at least this many vertices that are bands (see [`BandLayer::fill_band`]) are
/// filled in memory; smaller ones (legend swatches, shaded ranges) by the canvas.
const BAND_VERTICES: usize = 64;

thread_local! {
    /// The canvas a [`BandLayer`]'s pixels are put on before they are drawn over a chart
    /// (`putImageData` replaces pixels; `drawImage` composites). Grown, never shrunk.
    static SCRATCH: std::cell::RefCell<Option<(HtmlCanvasElement, CanvasRenderingContext2d)>> =
        const { std::cell::RefCell::new(None) };
}

impl Canvas2d {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Canvas2d> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Canvas2d {
            inner,
            context,
            font: std::cell::RefCell::new(String::new()),
            lines: std::cell::RefCell::new(None),
            bands: std::cell::RefCell::new(None),
        })
    }

    /// Sets the font of `style` (the string `CanvasBackend` uses) unless it is set already.
    fn use_font<S: BackendTextStyle>(&self, style: &S) {
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str(),
        );
        let mut last = self.font.borrow_mut();
        if *last != font {
            self.context.set_font(&font);
            *last = font;
        }
    }
}

impl Canvas2d {
    /// Draws what is waiting: lines or bands (never both: each flushes the other).
    fn flush(&self) {
        self.flush_lines();
        self.flush_bands();
    }

    /// Draws the waiting bands (see [`Canvas2d::bands`]).
    fn flush_bands(&self) {
        let Some(layer) = self.bands.borrow_mut().take() else {
            return;
        };
        let Some(((x, y, w, h), rgba)) = layer.drawn() else {
            return;
        };
        let Ok(img) = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
            Clamped(&rgba),
            w as u32,
            h as u32,
        ) else {
            return;
        };
        SCRATCH.with_borrow_mut(|scratch| {
            if scratch.is_none() {
                *scratch = scratch_canvas();
            }
            let Some((canvas, ctx)) = scratch.as_ref() else {
                return;
            };
            if canvas.width() < w as u32 || canvas.height() < h as u32 {
                canvas.set_width(canvas.width().max(w as u32));
                canvas.set_height(canvas.height().max(h as u32));
            }
            let _ = ctx.put_image_data(&img, 0.0, 0.0);
            let (x, y, w, h) = (x as f64, y as f64, w as f64, h as f64);
            let _ = self
                .context
                .draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                    canvas, 0.0, 0.0, w, h, x, y, w, h,
                );
        });
    }

    /// Strokes the waiting lines (see [`Canvas2d::lines`]).
    fn flush_lines(&self) {
        let Some(lines) = self.lines.borrow_mut().take() else {
            return;
        };
        let Ok(shape) = Path2d::new() else {
            return;
        };
        segments(&shape, &lines.ends);
        let ctx = &self.context;
        ctx.set_stroke_style_str(&css_colour(BackendColor {
            alpha: lines.alpha,
            rgb: lines.rgb,
        }));
        ctx.set_line_width(f64::from(lines.width));
        ctx.stroke_with_path(&shape);
    }

    /// Strokes the polyline through `xy` (see `draw_path`).
    fn stroke_polyline(&self, xy: &[f32], colour: BackendColor, width: u32) {
        if colour.alpha == 0.0 {
            return;
        }
        let Ok(shape) = Path2d::new() else {
            return;
        };
        // A line two or three pixels wide is that many one-pixel copies, offset (see
        // `draw_path`), in one path stroked once.
        let (line, offsets): (f64, &[f32]) = match width {
            2 => (1.0, &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]),
            3 => (1.0, &[0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0]),
            _ => (f64::from(width), &[0.0, 0.0]),
        };
        polyline(&shape, xy, offsets);
        let ctx = &self.context;
        ctx.set_stroke_style_str(&css_colour(colour));
        ctx.set_line_width(line);
        ctx.stroke_with_path(&shape);
    }
}

/// The CSS colour plotters-canvas writes for a backend colour.
fn css_colour(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    format!("rgba({r},{g},{b},{})", c.alpha)
}

type Result<T> =
    std::result::Result<T, DrawingErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

impl DrawingBackend for Canvas2d {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<()> {
        self.flush();
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<()> {
        self.flush();
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<()> {
        self.flush();
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<()> {
        let (colour, width) = (style.color(), style.stroke_width());
        if colour.alpha == 0.0 {
            return Ok(());
        }
        // As `CanvasBackend::draw_line`: a horizontal or vertical line on pixel centres.
        let (mut a, mut b) = ((from.0 as f32, from.1 as f32), (to.0 as f32, to.1 as f32));
        if a.0 == b.0 {
            a.0 -= 0.5;
            b.0 -= 0.5;
        }
        if a.1 == b.1 {
            a.1 -= 0.5;
            b.1 -= 0.5;
        }
        let same =
            self.lines.borrow().as_ref().is_some_and(|l| {
                l.rgb == colour.rgb && l.alpha == colour.alpha && l.width == width
            });
        if !same {
            self.flush();
            *self.lines.borrow_mut() = Some(Lines {
                rgb: colour.rgb,
                alpha: colour.alpha,
                width,
                ends: Vec::new(),
            });
        }
        if let Some(l) = self.lines.borrow_mut().as_mut() {
            l.ends.extend_from_slice(&[a.0, a.1, b.0, b.1]);
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        self.flush();
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    /// The whole path is handed to the browser in one call. A line two or three pixels wide
    /// is drawn as that many one-pixel lines side by side (offsets right and down): a browser
    /// rasterising without a GPU draws one-pixel lines by a fast special path and wider ones
    /// slowly: 1100 points of a fast oscillation stroked 2 px wide cost 150 ms in headless
    /// Chromium, as three 1-px lines about 3 ms. The copies are one path, stroked once (the
    /// same pixels as three strokes, a third of the calls).
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<()> {
        self.flush();
        let mut xy: Vec<f32> = Vec::new();
        for (x, y) in path {
            xy.push(x as f32);
            xy.push(y as f32);
        }
        self.stroke_polyline(&xy, style.color(), style.stroke_width());
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        self.flush();
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<()> {
        let vert: Vec<BackendCoord> = vert.into_iter().collect();
        let colour = style.color();
        let n = vert.len();
        if n >= BAND_VERTICES && n.is_multiple_of(2) && colour.alpha > 0.0 {
            let upper = &vert[..n / 2];
            let lower: Vec<BackendCoord> = vert[n / 2..].iter().rev().copied().collect();
            self.flush_lines();
            let (w, h) = self.get_size();
            let mut bands = self.bands.borrow_mut();
            let layer = bands.get_or_insert_with(|| BandLayer::new(w as usize, h as usize));
            if layer.fill_band(upper, &lower, colour.rgb, colour.alpha) {
                return Ok(());
            }
        }
        self.flush();
        self.inner.fill_polygon(vert, style)
    }

    /// As `CanvasBackend::draw_text`, setting the font only when it changes.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<()> {
        self.flush();
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let angle = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        } / 180.0
            * std::f64::consts::PI;
        let (mut x, mut y) = (f64::from(pos.0), f64::from(pos.1));
        let ctx = &self.context;
        if angle != 0.0 {
            ctx.save();
            let _ = ctx.translate(x, y);
            let _ = ctx.rotate(angle);
            (x, y) = (0.0, 0.0);
            // The font set inside save/restore is undone by restore.
            self.font.borrow_mut().clear();
        }
        ctx.set_text_baseline(match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        ctx.set_text_align(match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        ctx.set_fill_style_str(&css_colour(color));
        self.use_font(style);
        let _ = ctx.fill_text(text, x, y);
        if angle != 0.0 {
            ctx.restore();
            self.font.borrow_mut().clear();
        }
        Ok(())
    }

    /// The text's advance width and the font's line height, in pixels (what the `<span>` that
    /// plotters would lay out reports).
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32)> {
        self.use_font(style);
        let Ok(metrics) = self.context.measure_text(text) else {
            return Ok((0, 0));
        };
        let line = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        let height = if line.is_finite() && line > 0.0 {
            line
        } else {
            style.size() * 1.15
        };
        Ok((metrics.width().ceil() as u32, height.round() as u32))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, (iw, ih): (u32, u32), src: &[u8]) -> Result<()> {
        self.flush();
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }
}

/// A canvas outside the page, with its 2D context.
fn scratch_canvas() -> Option<(HtmlCanvasElement, CanvasRenderingContext2d)> {
    let canvas: HtmlCanvasElement = web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into()
        .ok()?;
    let ctx = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    Some((canvas, ctx))
}

impl Drop for Canvas2d {
    /// Lines or bands still waiting are drawn when the chart's drawing area is dropped.
    fn drop(&mut self) {
        self.flush();
    }
}
