//! The canvas backend the charts draw on: plotters' `CanvasBackend`, except that text is
//! measured with the canvas's own `measureText`. Plotters measures text in the browser by
//! adding a `<span>` to the page and reading its size, which forces a layout of the whole page
//! for every tick label: milliseconds per chart, inside the frame of every slider move.

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, Path2d};

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

pub struct Canvas2d {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The font last set on the context: setting one makes the browser parse it, so a chart's
    /// hundred labels in one font set it once.
    font: std::cell::RefCell<String>,
}

impl Canvas2d {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Canvas2d> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let inner = CanvasBackend::with_canvas_object(canvas)?;
        Some(Canvas2d {
            inner,
            context,
            font: std::cell::RefCell::new(String::new()),
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
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<()> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<()> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<()> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
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
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<()> {
        self.inner.fill_polygon(vert, style)
    }

    /// As `CanvasBackend::draw_text`, setting the font only when it changes.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<()> {
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
        self.inner.blit_bitmap(pos, (iw, ih), src)
    }
}
