//! The canvas backend the charts draw on: plotters' `CanvasBackend`, except that text is
//! measured with the canvas's own `measureText`. Plotters measures text in the browser by
//! adding a `<span>` to the page and reading its size, which forces a layout of the whole page
//! for every tick label: milliseconds per chart, inside the frame of every slider move.
//! Grid lines of one style are stroked as one path, labels of one style are filled by one call
//! (and sizes measured once are remembered), and dense bands (the columns of line series with
//! more points than pixels) and point markers are drawn in memory and put on as one image.
//!
//! Longer than most files: it is one implementation of plotters' `DrawingBackend` with the
//! batches it keeps between calls; split, the batching would be spread over several files.

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

// Four small JavaScript loops, in one module (one file for the page to fetch, not four). A
// series of a few thousand points is one call into JavaScript, not one per point: each call
// from WebAssembly costs more than the browser's own work for a `lineTo`.
#[wasm_bindgen(inline_js = "\
export function polyline(p, xy, d) { for (let k = 0; k < d.length; k += 2) { const x = d[k], y = d[k + 1]; let start = true; for (let i = 0; i + 1 < xy.length; i += 2) { const a = xy[i]; if (a !== a) { start = true; } else if (start) { p.moveTo(a + x, xy[i + 1] + y); start = false; } else { p.lineTo(a + x, xy[i + 1] + y); } } } }
export function segments(p, s) { for (let k = 0; k + 3 < s.length; k += 4) { p.moveTo(s[k], s[k + 1]); p.lineTo(s[k + 2], s[k + 3]); } }
export function texts(c, font, fill, align, base, s, xy) { c.font = font; c.fillStyle = fill; c.textAlign = align; c.textBaseline = base; const t = s.split('\\u0001'); for (let k = 0; k < t.length; k++) c.fillText(t[k], xy[2 * k], xy[2 * k + 1]); }
export function rects(c, r, k) { for (let i = 0; i + 3 < r.length; i += 4) { c.fillStyle = `rgba(${k[i]},${k[i + 1]},${k[i + 2]},${k[i + 3]})`; c.fillRect(r[i], r[i + 1], r[i + 2], r[i + 3]); } }
let moved = 0; const bump = () => moved++; addEventListener('scroll', bump, true); addEventListener('resize', bump);
export function under_bar(e, fresh) { if (fresh || e.ub?.[0] !== moved) { let v = false; for (const b of document.getElementsByClassName('controls')) { const r = b.getBoundingClientRect(); if (r.height && Math.abs(r.top) < 1 && e.getBoundingClientRect().bottom <= r.bottom) v = true; } e.ub = [moved, v]; } return e.ub[1]; }
")]
extern "C" {
    /// Adds the polyline through `(xy[0], xy[1]), (xy[2], xy[3]), …` to `path`, once for each
    /// offset `(d[0], d[1]), (d[2], d[3]), …`. A point whose x is NaN ends one polyline; the
    /// next point starts another.
    fn polyline(path: &Path2d, xy: &[f32], d: &[f32]);

    /// Adds the segments `(s[0], s[1]) → (s[2], s[3])`, `(s[4], s[5]) → …` to `path`.
    fn segments(path: &Path2d, s: &[f32]);

    /// Sets the context's font, fill colour, alignment and baseline, then fills each text of
    /// `s` (separated by U+0001) at `(xy[0], xy[1]), (xy[2], xy[3]), …`.
    fn texts(
        context: &CanvasRenderingContext2d,
        font: &str,
        fill: &str,
        align: &str,
        base: &str,
        s: &str,
        xy: &[f32],
    );

    /// Fills the rectangles `x, y, w, h` of `r`, each in the colour `r, g, b, alpha` at the
    /// same place in `k` (the CSS colour plotters-canvas sets for it).
    fn rects(context: &CanvasRenderingContext2d, r: &[f32], k: &[f64]);

    /// Whether all of `element` that is in the viewport lies under a control bar stuck at its
    /// top (`.controls` is sticky): in the viewport, yet not seen (see `schedule`). Measured
    /// when `fresh` (the viewport observer's calls), else kept from the last time unless the
    /// page scrolled or the window was resized since: measuring forces a layout, which a
    /// slider's frame would otherwise do once, later. (Not a `ResizeObserver` on the page: its
    /// notifications after the charts' own are undeliverable in that loop, an error in WebKit.)
    pub(crate) fn under_bar(element: &web_sys::Element, fresh: bool) -> bool;
}

/// Labels of one font, colour and anchor, waiting to be filled by one call into JavaScript:
/// a chart's few dozen tick labels otherwise cost five calls each (and as many strings
/// copied out of WebAssembly), more than the browser's own work to draw them.
struct Texts {
    font: String,
    fill: String,
    align: &'static str,
    base: &'static str,
    /// The texts, each followed by U+0001.
    joined: String,
    xy: Vec<f32>,
}

/// Polylines of one colour and width (`draw_path`), waiting to be stroked as one path: a dashed
/// line is one call per dash, a chart's curves one each.
struct Paths {
    rgb: (u8, u8, u8),
    alpha: f64,
    width: u32,
    /// The points, each polyline followed by a NaN pair.
    xy: Vec<f32>,
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
    /// Polylines drawn one after another in one style: stroked together (see [`Paths`]).
    paths: std::cell::RefCell<Option<Paths>>,
    /// Labels drawn one after another in one style: filled together (see [`Texts`]). They
    /// may wait beside lines, and are drawn after them: a label is never under a grid line.
    texts: std::cell::RefCell<Option<Texts>>,
    /// Filled rectangles drawn one after another (a colour bar's steps, backgrounds), as
    /// `x, y, w, h` and their colours `r, g, b, alpha`: filled by one call.
    rects: std::cell::RefCell<(Vec<f32>, Vec<f64>)>,
}

/// Circles up to this radius (markers of points) are drawn in memory with the bands.
const MARKER_RADIUS: u32 = 12;

/// Polygons with at least this many vertices that are bands (see [`BandLayer::fill_band`]) are
/// filled in memory; smaller ones (legend swatches, shaded ranges) by the canvas.
const BAND_VERTICES: usize = 64;

thread_local! {
    /// The canvas a [`BandLayer`]'s pixels are put on before they are drawn over a chart
    /// (`putImageData` replaces pixels; `drawImage` composites). Grown, never shrunk.
    static SCRATCH: std::cell::RefCell<Option<(HtmlCanvasElement, CanvasRenderingContext2d)>> =
        const { std::cell::RefCell::new(None) };
    /// Text sizes measured before, by a hash of font and text (see [`text_key`]), sorted by
    /// it: the same tick labels are measured again on every paint of a chart. Emptied when it
    /// holds [`MEASURED_MAX`] entries. (A sorted list costs the download less than a map.)
    static MEASURED: std::cell::RefCell<Vec<(u64, (u32, u32))>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The context texts are measured on, and its font: a chart's context keeps the font of
    /// its labels, and one set on it for measuring (parsed by the browser each time it
    /// changes) would alternate with theirs.
    static MEASURER: std::cell::RefCell<Option<(CanvasRenderingContext2d, String)>> =
        const { std::cell::RefCell::new(None) };
}

/// The 64-bit FNV-1a hash of a font and a text, the key of their size in [`MEASURED`] (two of
/// a few thousand labels sharing one would only size one label like the other).
fn text_key(font: &str, text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in font.bytes().chain([0]).chain(text.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The most text sizes [`MEASURED`] keeps.
const MEASURED_MAX: usize = 4096;

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
            texts: std::cell::RefCell::new(None),
            paths: std::cell::RefCell::new(None),
            rects: std::cell::RefCell::new((Vec::new(), Vec::new())),
        })
    }

    /// Sets the font of `style` (the string `CanvasBackend` uses) unless it is set already.
    fn use_font<S: BackendTextStyle>(&self, style: &S) {
        self.set_font(font_of(style));
    }

    /// Sets `font` on the context unless it is set already.
    fn set_font(&self, font: String) {
        let mut last = self.font.borrow_mut();
        if *last != font {
            self.context.set_font(&font);
            *last = font;
        }
    }
}

impl Canvas2d {
    /// Adds the line `a → b` to the lines waiting (see [`Canvas2d::lines`]).
    fn push_line(&self, a: (f32, f32), b: (f32, f32), colour: BackendColor, width: u32) {
        let same =
            self.lines.borrow().as_ref().is_some_and(|l| {
                l.rgb == colour.rgb && l.alpha == colour.alpha && l.width == width
            });
        self.flush_rects();
        self.flush_bands();
        self.flush_paths();
        if !same {
            self.flush_lines();
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
    }

    /// Draws what is waiting: rectangles, bands, or lines and labels. Each kind flushes the
    /// others when it is drawn, so everything is drawn in the order it was asked for, except
    /// that labels waiting beside lines are drawn after them.
    fn flush(&self) {
        self.flush_rects();
        self.flush_bands();
        self.flush_lines();
        self.flush_paths();
        self.flush_texts();
    }

    /// Draws with `f` on the layer of bands and markers (made as large as the canvas if none
    /// is waiting), after what else is waiting.
    fn in_layer<R>(&self, f: impl FnOnce(&mut BandLayer) -> R) -> R {
        self.flush_rects();
        self.flush_lines();
        self.flush_paths();
        self.flush_texts();
        let (w, h) = self.inner.get_size();
        let mut bands = self.bands.borrow_mut();
        f(bands.get_or_insert_with(|| BandLayer::new(w as usize, h as usize)))
    }

    /// Strokes the waiting polylines (see [`Canvas2d::paths`]).
    fn flush_paths(&self) {
        let Some(p) = self.paths.borrow_mut().take() else {
            return;
        };
        self.stroke_polyline(
            &p.xy,
            BackendColor {
                alpha: p.alpha,
                rgb: p.rgb,
            },
            p.width,
        );
    }

    /// Fills the waiting rectangles (see [`Canvas2d::rects`]).
    fn flush_rects(&self) {
        let (r, k) = std::mem::take(&mut *self.rects.borrow_mut());
        if !r.is_empty() {
            rects(&self.context, &r, &k);
        }
    }

    /// Fills the waiting labels (see [`Canvas2d::texts`]).
    fn flush_texts(&self) {
        let Some(t) = self.texts.borrow_mut().take() else {
            return;
        };
        // The last separator would make an empty text.
        let joined = t.joined.strip_suffix('\u{1}').unwrap_or(&t.joined);
        texts(
            &self.context,
            &t.font,
            &t.fill,
            t.align,
            t.base,
            joined,
            &t.xy,
        );
        *self.font.borrow_mut() = t.font;
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

/// The CSS font plotters-canvas sets for a text style.
fn font_of<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str(),
    )
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

    /// Plotters calls this before every drawing call, so it draws nothing that is waiting:
    /// a chart's grid lines or labels are one batch only because the next call of another
    /// kind flushes them, not each call.
    fn ensure_prepared(&mut self) -> Result<()> {
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
        self.push_line(a, b, colour, width);
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        let colour = style.color();
        if fill && colour.alpha > 0.0 {
            self.flush_bands();
            self.flush_lines();
            self.flush_paths();
            self.flush_texts();
            let (x0, y0) = (upper_left.0 as f32, upper_left.1 as f32);
            let (w, h) = (
                (bottom_right.0 - upper_left.0) as f32,
                (bottom_right.1 - upper_left.1) as f32,
            );
            let (r, g, b) = colour.rgb;
            let mut rects = self.rects.borrow_mut();
            rects.0.extend_from_slice(&[x0, y0, w, h]);
            rects
                .1
                .extend_from_slice(&[r.into(), g.into(), b.into(), colour.alpha]);
            return Ok(());
        }
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
        let mut xy: Vec<f32> = Vec::new();
        for (x, y) in path {
            xy.push(x as f32);
            xy.push(y as f32);
        }
        let (colour, width) = (style.color(), style.stroke_width());
        // One segment one pixel wide (an axis, a tick mark): the same stroke as a line, so it
        // waits with the lines.
        if let ([x0, y0, x1, y1], 1) = (xy.as_slice(), width) {
            if colour.alpha > 0.0 {
                self.push_line((*x0, *y0), (*x1, *y1), colour, width);
            }
            return Ok(());
        }
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let same =
            self.paths.borrow().as_ref().is_some_and(|p| {
                p.rgb == colour.rgb && p.alpha == colour.alpha && p.width == width
            });
        self.flush_rects();
        self.flush_bands();
        self.flush_lines();
        if !same {
            self.flush_paths();
            *self.paths.borrow_mut() = Some(Paths {
                rgb: colour.rgb,
                alpha: colour.alpha,
                width,
                xy: Vec::new(),
            });
        }
        if let Some(p) = self.paths.borrow_mut().as_mut() {
            p.xy.extend_from_slice(&xy);
            p.xy.extend_from_slice(&[f32::NAN, f32::NAN]);
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        if radius > MARKER_RADIUS {
            // A large circle (a clock face) is a few pixels of outline over a wide box: the
            // canvas strokes it faster than a pass over the box in memory.
            self.flush();
            return self.inner.draw_circle(center, radius, style, fill);
        }
        // Markers are drawn in memory with the bands (see `BandLayer::circle`): a chart of
        // points is hundreds of circles, each a path and a stroke of its own for the canvas
        // (their raster was 3 of a 9 ms Precision frame).
        self.in_layer(|layer| {
            layer.circle(
                center,
                f64::from(radius),
                f64::from(style.stroke_width()),
                fill,
                colour.rgb,
                colour.alpha,
            )
        });
        Ok(())
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
            if self.in_layer(|layer| layer.fill_band(upper, &lower, colour.rgb, colour.alpha)) {
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
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let base = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        if angle == 0.0 && !text.contains('\u{1}') {
            let (font, fill) = (font_of(style), css_colour(color));
            let same = self.texts.borrow().as_ref().is_some_and(|t| {
                t.font == font && t.fill == fill && t.align == align && t.base == base
            });
            self.flush_rects();
            self.flush_bands();
            if !same {
                self.flush_texts();
                *self.texts.borrow_mut() = Some(Texts {
                    font,
                    fill,
                    align,
                    base,
                    joined: String::new(),
                    xy: Vec::new(),
                });
            }
            if let Some(t) = self.texts.borrow_mut().as_mut() {
                t.joined.push_str(text);
                t.joined.push('\u{1}');
                t.xy.extend_from_slice(&[x as f32, y as f32]);
            }
            return Ok(());
        }
        self.flush();
        let ctx = &self.context;
        if angle != 0.0 {
            // Rotated about the text's anchor by a transform set and reset (the charts draw
            // under the identity), not save/restore: a restore undoes the font, which the
            // browser then parses again for the next label (about 0.1 ms each time).
            let (sin, cos) = angle.sin_cos();
            let _ = ctx.set_transform(cos, sin, -sin, cos, x, y);
            (x, y) = (0.0, 0.0);
        }
        ctx.set_text_baseline(base);
        ctx.set_text_align(align);
        ctx.set_fill_style_str(&css_colour(color));
        self.use_font(style);
        let _ = ctx.fill_text(text, x, y);
        if angle != 0.0 {
            let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        }
        Ok(())
    }

    /// The text's advance width and the font's line height, in pixels (what the `<span>` that
    /// plotters would lay out reports).
    /// Sizes measured before come from [`MEASURED`].
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32)> {
        let font = font_of(style);
        let key = text_key(&font, text);
        let at =
            match MEASURED.with_borrow(|m| m.binary_search_by_key(&key, |e| e.0).map(|i| m[i].1)) {
                Ok(size) => return Ok(size),
                Err(at) => at,
            };
        let metrics = MEASURER.with_borrow_mut(|m| {
            if m.is_none() {
                *m = scratch_canvas().map(|(_, ctx)| (ctx, String::new()));
            }
            let (ctx, set) = m.as_mut()?;
            if *set != font {
                ctx.set_font(&font);
                set.clone_from(&font);
            }
            ctx.measure_text(text).ok()
        });
        let Some(metrics) = metrics else {
            return Ok((0, 0));
        };
        let line = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        let height = if line.is_finite() && line > 0.0 {
            line
        } else {
            style.size() * 1.15
        };
        let size = (metrics.width().ceil() as u32, height.round() as u32);
        MEASURED.with_borrow_mut(|m| {
            if m.len() >= MEASURED_MAX {
                m.clear();
                m.push((key, size));
            } else {
                m.insert(at, (key, size));
            }
        });
        Ok(size)
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
