//! SVG export: a chart's own paint function draws, through the same canvas backend
//! ([`super::canvas::Canvas2d`]) and plotters code, on a recording 2D context that writes SVG
//! instead of pixels. Text stays text (`<text>` in the theme's colours and the chart's fonts),
//! lines and shapes stay paths. Images a chart puts on its canvas (a heatmap's cells, dense
//! bands, point markers) become rectangles when they are made of at most
//! [`MAX_VECTOR_CELLS`] runs of one colour (a heatmap of a few hundred cells), and an embedded
//! PNG otherwise. The PNG export waits here too for a chart to be current. Loaded on demand
//! (its own chunk): the first page does not carry it.

use wasm_bindgen::{JsCast, JsValue};

use super::dom;
use super::widgets::ChartRef;

/// At most this many rectangles of one colour stand for an image in the SVG; an image that
/// needs more (a heatmap of 50 × 512 cells, antialiased markers) is embedded as a PNG.
pub const MAX_VECTOR_CELLS: usize = 4096;

/// The recorder, as the body of a function of `(width, height, maxCells)` that returns
/// `{canvas, begin, end}`: `canvas` is a stand-in canvas whose `getContext("2d")` is the
/// recording context (an object whose prototype is `CanvasRenderingContext2D`'s, so that the
/// backend accepts it, with every member the backend uses as its own); `begin()` lets
/// `new Path2D()` make recording paths; `end(w, h, title, desc, extra)` restores `Path2D` and
/// returns the SVG text. Plain JavaScript kept in this chunk as a string: a wasm-bindgen
/// snippet would be fetched with the first page.
const RECORDER_JS: &str = r#"
const r = (v) => Math.round(v * 100) / 100;
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const out = [];
let st = { fillStyle: '#000000', strokeStyle: '#000000', lineWidth: 1, font: '10px sans-serif', textAlign: 'start', textBaseline: 'alphabetic', globalAlpha: 1, lineCap: 'butt', lineJoin: 'miter', m: [1, 0, 0, 1, 0, 0] };
const stack = [];
class Path {
  constructor() { this.d = ''; }
  moveTo(x, y) { this.d += `M${r(x)} ${r(y)}`; }
  lineTo(x, y) { this.d += `L${r(x)} ${r(y)}`; }
  closePath() { this.d += 'Z'; }
  rect(x, y, w, h) { this.d += `M${r(x)} ${r(y)}h${r(w)}v${r(h)}h${r(-w)}Z`; }
  arc(x, y, q, a0, a1) {
    const full = Math.abs(a1 - a0) >= 2 * Math.PI - 1e-9;
    const px = (a) => r(x + q * Math.cos(a)), py = (a) => r(y + q * Math.sin(a));
    if (full) { this.d += `M${r(x + q)} ${r(y)}A${r(q)} ${r(q)} 0 1 1 ${r(x - q)} ${r(y)}A${r(q)} ${r(q)} 0 1 1 ${r(x + q)} ${r(y)}`; return; }
    this.d += `${this.d ? 'L' : 'M'}${px(a0)} ${py(a0)}A${r(q)} ${r(q)} 0 ${Math.abs(a1 - a0) > Math.PI ? 1 : 0} 1 ${px(a1)} ${py(a1)}`;
  }
}
const paint = (kind, c) => {
  const m = /^rgba?\(([^)]*)\)$/.exec(String(c).trim());
  if (!m) return ` ${kind}="${esc(c)}"`;
  const p = m[1].split(',').map(Number);
  const a = (p.length > 3 ? p[3] : 1) * st.globalAlpha;
  return ` ${kind}="rgb(${p[0]},${p[1]},${p[2]})"` + (a < 1 ? ` ${kind}-opacity="${r(a)}"` : '');
};
const tf = () => {
  const m = st.m;
  return m[0] === 1 && m[1] === 0 && m[2] === 0 && m[3] === 1 && m[4] === 0 && m[5] === 0 ? '' : ` transform="matrix(${m.map(r).join(' ')})"`;
};
const same = (d, i, j) => d[i] === d[j] && d[i + 1] === d[j + 1] && d[i + 2] === d[j + 2] && d[i + 3] === d[j + 3];
// An image as rectangles of one colour: runs along each row; a row equal to the one above
// makes the rectangles above taller. None when it needs more than maxCells.
function cells(img) {
  const { width: w, height: h, data: d } = img;
  const rects = [];
  let open = [], prev = null;
  for (let y = 0; y < h; y++) {
    const row = y * w * 4;
    let equal = prev !== null;
    for (let k = 0; equal && k < w * 4; k++) if (d[row + k] !== d[prev + k]) equal = false;
    if (equal) { for (const o of open) o[3]++; continue; }
    open = [];
    for (let x = 0; x < w;) {
      const i = row + x * 4;
      let x1 = x + 1;
      while (x1 < w && same(d, i, row + x1 * 4)) x1++;
      if (d[i + 3] > 0) {
        const o = [x, y, x1 - x, 1, d[i], d[i + 1], d[i + 2], d[i + 3] / 255];
        open.push(o);
        rects.push(o);
        if (rects.length > maxCells) return null;
      }
      x = x1;
    }
    prev = row;
  }
  return rects;
}
function image(img, x, y, dw, dh) {
  const sx = dw / img.width, sy = dh / img.height;
  const rects = cells(img);
  if (rects) {
    let g = `<g shape-rendering="crispEdges"${tf()}>`;
    for (const [cx, cy, cw, ch, R, G, B, A] of rects) {
      g += `<rect x="${r(x + cx * sx)}" y="${r(y + cy * sy)}" width="${r(cw * sx)}" height="${r(ch * sy)}" fill="rgb(${R},${G},${B})"${A < 1 ? ` fill-opacity="${r(A)}"` : ''}/>`;
    }
    out.push(g + '</g>');
    return;
  }
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  c.getContext('2d').putImageData(img, 0, 0);
  out.push(`<image x="${r(x)}" y="${r(y)}" width="${r(dw)}" height="${r(dh)}" preserveAspectRatio="none" style="image-rendering:pixelated"${tf()} href="${c.toDataURL('image/png')}"/>`);
}
let cur = new Path();
const ctx = Object.create(CanvasRenderingContext2D.prototype);
for (const k of Object.keys(st)) if (k !== 'm') Object.defineProperty(ctx, k, { get: () => st[k], set: (v) => { st[k] = v; }, configurable: true });
const measurer = document.createElement('canvas').getContext('2d');
const canvas = { width, height, getContext: () => ctx, setAttribute() {}, removeAttribute() {} };
const methods = {
  save() { stack.push({ ...st, m: st.m.slice() }); },
  restore() { if (stack.length) st = stack.pop(); },
  setTransform(a, b, c, d, e, f) { st.m = [a, b, c, d, e, f]; },
  resetTransform() { st.m = [1, 0, 0, 1, 0, 0]; },
  translate(x, y) { const m = st.m; m[4] += m[0] * x + m[2] * y; m[5] += m[1] * x + m[3] * y; },
  scale(x, y) { const m = st.m; st.m = [m[0] * x, m[1] * x, m[2] * y, m[3] * y, m[4], m[5]]; },
  rotate(t) { const m = st.m, c = Math.cos(t), s = Math.sin(t); st.m = [m[0] * c + m[2] * s, m[1] * c + m[3] * s, m[2] * c - m[0] * s, m[3] * c - m[1] * s, m[4], m[5]]; },
  beginPath() { cur = new Path(); },
  moveTo(x, y) { cur.moveTo(x, y); },
  lineTo(x, y) { cur.lineTo(x, y); },
  closePath() { cur.closePath(); },
  rect(x, y, w, h) { cur.rect(x, y, w, h); },
  arc(x, y, q, a0, a1) { cur.arc(x, y, q, a0, a1); },
  stroke(p) { const d = (p || cur).d; if (d) out.push(`<path d="${d}" fill="none"${paint('stroke', st.strokeStyle)} stroke-width="${r(st.lineWidth)}"${tf()}/>`); },
  fill(p) { const d = (p || cur).d; if (d) out.push(`<path d="${d}"${paint('fill', st.fillStyle)}${tf()}/>`); },
  fillRect(x, y, w, h) { out.push(`<rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}"${paint('fill', st.fillStyle)}${tf()}/>`); },
  strokeRect(x, y, w, h) { out.push(`<rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}" fill="none"${paint('stroke', st.strokeStyle)} stroke-width="${r(st.lineWidth)}"${tf()}/>`); },
  clearRect(x, y, w, h) { if (x <= 0 && y <= 0 && x + w >= width && y + h >= height) out.length = 0; },
  fillText(t, x, y) {
    const f = /^(?:(\S+) )?([\d.]+)px (.+)$/.exec(st.font) || [];
    const style = f[1] || 'normal';
    const anchor = { center: 'middle', end: 'end', right: 'end' }[st.textAlign];
    const base = { top: 'text-before-edge', middle: 'central', bottom: 'text-after-edge', hanging: 'hanging' }[st.textBaseline];
    out.push(`<text x="${r(x)}" y="${r(y)}"${anchor ? ` text-anchor="${anchor}"` : ''}${base ? ` dominant-baseline="${base}"` : ''} font-family="${esc(f[3] || 'sans-serif')}" font-size="${f[2] || 10}"${style === 'bold' ? ' font-weight="bold"' : style !== 'normal' ? ` font-style="${esc(style)}"` : ''}${paint('fill', st.fillStyle)}${tf()}>${esc(t)}</text>`);
  },
  measureText(t) { measurer.font = st.font; return measurer.measureText(t); },
  putImageData(img, x, y) { image(img, x, y, img.width, img.height); },
  drawImage(src, ...a) {
    let sx = 0, sy = 0, sw = src.width, sh = src.height, dx, dy, dw, dh;
    if (a.length === 2) { [dx, dy] = a; dw = sw; dh = sh; } else if (a.length === 4) { [dx, dy, dw, dh] = a; } else { [sx, sy, sw, sh, dx, dy, dw, dh] = a; }
    if (sw < 1 || sh < 1) return;
    const c = document.createElement('canvas');
    c.width = sw; c.height = sh;
    const g = c.getContext('2d');
    g.drawImage(src, sx, sy, sw, sh, 0, 0, sw, sh);
    image(g.getImageData(0, 0, sw, sh), dx, dy, dw, dh);
  },
};
for (const [k, f] of Object.entries(methods)) Object.defineProperty(ctx, k, { value: f, configurable: true });
const Path2DBefore = globalThis.Path2D;
return {
  canvas,
  begin() { globalThis.Path2D = Path; },
  end(w, h, title, desc, extra) {
    globalThis.Path2D = Path2DBefore;
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${r(w)}" height="${r(h)}" viewBox="0 0 ${width} ${height}">\n<title>${esc(title)}</title>\n<desc>${esc(desc)}</desc>\n${out.join('\n')}\n${extra}</svg>\n`;
  },
};
"#;

/// Calls `object.name(args…)`.
fn call(object: &JsValue, name: &str, args: &js_sys::Array) -> Result<JsValue, JsValue> {
    js_sys::Reflect::get(object, &name.into())?
        .dyn_into::<js_sys::Function>()?
        .apply(object, args)
}

/// The SVG of the chart, at its size on the page (the viewBox in device
/// pixels, width and height in CSS pixels: the panel's aspect), with the panel's heading as its
/// title, the chart's accessible name as its description, and the outlines drawn over it.
fn chart_svg(chart: ChartRef) -> Result<String, JsValue> {
    let canvas = chart.canvas().ok_or("the chart is gone")?;
    let (w, h) = (canvas.width(), canvas.height());
    let make = js_sys::Function::new_with_args("width, height, maxCells", RECORDER_JS);
    let recorder = make.call3(
        &JsValue::NULL,
        &w.into(),
        &h.into(),
        &(MAX_VECTOR_CELLS as u32).into(),
    )?;
    let target: web_sys::HtmlCanvasElement =
        js_sys::Reflect::get(&recorder, &"canvas".into())?.unchecked_into();
    call(&recorder, "begin", &js_sys::Array::new())?;
    let painted = super::widgets::paint_export(chart, target);
    let title = canvas
        .closest("[data-panel]")
        .ok()
        .flatten()
        .and_then(|p| p.query_selector("h2").ok().flatten())
        .and_then(|h| h.text_content())
        .unwrap_or_default();
    let desc = canvas.get_attribute("aria-label").unwrap_or_default();
    // The outlines over the chart (highlights, the hovered cell), in the same coordinates.
    let extra = canvas
        .previous_element_sibling()
        .filter(|e| e.class_list().contains("chart-overlay"))
        .map(|e| {
            format!(
                "<g fill=\"none\" stroke=\"#e8590c\" stroke-width=\"3\">{}</g>\n",
                e.inner_html()
            )
        })
        .unwrap_or_default();
    let rect = canvas.get_bounding_client_rect();
    let svg = call(
        &recorder,
        "end",
        &js_sys::Array::of5(
            &rect.width().into(),
            &rect.height().into(),
            &title.into(),
            &desc.into(),
            &extra.into(),
        ),
    )?;
    if painted.is_none() {
        return Err("the chart could not be drawn".into());
    }
    svg.as_string().ok_or_else(|| "no SVG".into())
}

/// Downloads the chart as SVG (see [`chart_svg`]), once it shows the current state.
pub fn download(chart: ChartRef, filename: String) {
    super::schedule::when_current(chart.slot(), move || match chart_svg(chart) {
        Ok(svg) => {
            let _ =
                dom::download_parts(&js_sys::Array::of1(&svg.into()), "image/svg+xml", &filename);
        }
        Err(e) => web_sys::console::error_2(&"SVG export failed:".into(), &e),
    });
}

/// Downloads the chart as a PNG (`ui::export::png`), once it shows the current state (an off-screen chart may not yet: it paints
/// first).
pub fn download_png(chart: ChartRef, filename: String) {
    let Some(c) = chart.canvas() else {
        return;
    };
    super::schedule::when_current(chart.slot(), move || {
        let on_blob =
            wasm_bindgen::closure::Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
                if let Some(blob) = blob {
                    let _ = dom::download_parts(&js_sys::Array::of1(&blob), "image/png", &filename);
                }
            });
        let _ = c.to_blob(on_blob.unchecked_ref());
    });
}
