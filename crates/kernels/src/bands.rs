//! Coloured bands rasterised in memory: the columns of dense line series, with exact
//! antialiasing, for a canvas to draw as one image.

/// A rectangle of pixels: `x, y, width, height`.
pub type Rect = (usize, usize, usize, usize);

/// Coloured bands filled in memory, to be put on a canvas as one image.
///
/// A dense band is a polygon of thousands of vertices covering much of a chart: a browser's
/// software rasteriser spends milliseconds on each (its antialiasing samples every pixel several
/// times over), while its columns are trapezoids whose exact pixel coverage takes a few
/// arithmetic operations per edge pixel. Pixels are straight RGBA (as `ImageData` holds them),
/// composited "over", stored column by column (a band is filled a column at a time).
pub struct BandLayer {
    w: usize,
    h: usize,
    /// Pixel `(x, y)` at `x · h + y`: `r | g << 8 | b << 16 | a << 24`, straight alpha.
    px: Vec<u32>,
    /// The pixels drawn on so far: `x0, y0, x1, y1`, exclusive ends.
    dirty: Option<(usize, usize, usize, usize)>,
}

impl BandLayer {
    /// A transparent layer of `w × h` pixels.
    pub fn new(w: usize, h: usize) -> BandLayer {
        BandLayer {
            w,
            h,
            px: vec![0; w * h],
            dirty: None,
        }
    }

    /// Fills the region between `upper` and `lower` (y grows downwards; the same integer x's,
    /// never decreasing, with `upper.y ≤ lower.y` at each), straight between vertices: the
    /// polygon `upper` then `lower` reversed, in pixel-corner coordinates as a canvas fills it.
    /// (Vertices at one x join by vertical edges, which enclose nothing.)
    /// Returns false, drawing nothing, when the edges are not of that shape.
    // Not inlined: inlined into the size-optimised app, the loop would be built for size.
    #[inline(never)]
    pub fn fill_band(
        &mut self,
        upper: &[(i32, i32)],
        lower: &[(i32, i32)],
        rgb: (u8, u8, u8),
        alpha: f64,
    ) -> bool {
        let shaped = upper.len() == lower.len()
            && upper.len() >= 2
            && upper.windows(2).all(|w| w[1].0 >= w[0].0)
            && upper
                .iter()
                .zip(lower)
                .all(|(u, l)| u.0 == l.0 && u.1 <= l.1);
        if !shaped {
            return false;
        }
        let alpha = alpha.clamp(0.0, 1.0) as f32;
        let colour = [f32::from(rgb.0), f32::from(rgb.1), f32::from(rgb.2), 255.0];
        for k in 1..upper.len() {
            let (xa, xb) = (upper[k - 1].0, upper[k].0);
            if xb == xa {
                continue;
            }
            let along = |a: i32, b: i32, x: f64| {
                f64::from(a) + f64::from(b - a) * (x - f64::from(xa)) / f64::from(xb - xa)
            };
            for x in xa.max(0)..xb.min(self.w as i32) {
                let (l, r) = (f64::from(x), f64::from(x + 1));
                let u = (
                    along(upper[k - 1].1, upper[k].1, l),
                    along(upper[k - 1].1, upper[k].1, r),
                );
                let d = (
                    along(lower[k - 1].1, lower[k].1, l),
                    along(lower[k - 1].1, lower[k].1, r),
                );
                self.fill_column(x as usize, u, d, colour, alpha);
            }
        }
        true
    }

    /// A circle centred on the pixel corner `(cx, cy)` (as a canvas's `arc` takes it): its
    /// outline `width` pixels wide, or the disc when `fill`. Coverage is the distance of each
    /// pixel's centre to the edge, ramped over one pixel: a marker of a few pixels needs no
    /// more, and hundreds of them cost a browser's rasteriser milliseconds as paths.
    #[inline(never)]
    pub fn circle(
        &mut self,
        (cx, cy): (i32, i32),
        radius: f64,
        width: f64,
        fill: bool,
        rgb: (u8, u8, u8),
        alpha: f64,
    ) {
        let alpha = alpha.clamp(0.0, 1.0) as f32;
        let colour = [f32::from(rgb.0), f32::from(rgb.1), f32::from(rgb.2), 255.0];
        let half = if fill { 0.0 } else { width / 2.0 };
        let reach = (radius + half + 1.0).ceil() as i32;
        let (x0, x1) = ((cx - reach).max(0), (cx + reach).min(self.w as i32));
        let (y0, y1) = ((cy - reach).max(0), (cy + reach).min(self.h as i32));
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        for x in x0..x1 {
            let dx = f64::from(x) + 0.5 - f64::from(cx);
            let column = &mut self.px[x as usize * self.h..(x as usize + 1) * self.h];
            for y in y0..y1 {
                let dy = f64::from(y) + 0.5 - f64::from(cy);
                let d = (dx * dx + dy * dy).sqrt();
                let inside = if fill {
                    radius - d
                } else {
                    half - (d - radius).abs()
                };
                let cover = (inside + 0.5).clamp(0.0, 1.0) as f32;
                if cover > 0.0 {
                    let p = &mut column[y as usize];
                    *p = over(*p, colour, cover * alpha);
                }
            }
        }
        let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize, y1 as usize);
        let (a, b, c, d) = self.dirty.unwrap_or((x0, y0, x1, y1));
        self.dirty = Some((a.min(x0), b.min(y0), c.max(x1), d.max(y1)));
    }

    /// Covers column `x` between the edge `u` (its heights at the column's left and right
    /// sides) and the edge `d` below it.
    fn fill_column(
        &mut self,
        x: usize,
        u: (f64, f64),
        d: (f64, f64),
        colour: [f32; 4],
        alpha: f32,
    ) {
        let (upper, lower) = (Edge::new(u), Edge::new(d));
        let first = upper.lo.floor().max(0.0);
        let end = lower.hi.ceil().min(self.h as f64);
        if end <= first {
            return;
        }
        // Rows wholly between the edges, clipped to the rows drawn.
        let inner0 = upper.hi.ceil().clamp(first, end);
        let inner1 = lower.lo.floor().clamp(inner0, end);
        let (first, end) = (first as usize, end as usize);
        let (inner0, inner1) = (inner0 as usize, inner1 as usize);
        let column = &mut self.px[x * self.h..(x + 1) * self.h];
        let cut = |column: &mut [u32], y: usize| {
            let row = y as f64;
            let cover = (lower.above(row) - upper.above(row)).clamp(0.0, 1.0) as f32;
            if cover > 0.0 {
                column[y] = over(column[y], colour, cover * alpha);
            }
        };
        for y in first..inner0 {
            cut(column, y);
        }
        if alpha >= 1.0 {
            column[inner0..inner1].fill(pack(colour.map(|c| c as u8)));
        } else {
            for p in &mut column[inner0..inner1] {
                *p = over(*p, colour, alpha);
            }
        }
        for y in inner1..end {
            cut(column, y);
        }
        let (x0, y0, x1, y1) = self.dirty.unwrap_or((x, first, x + 1, end));
        self.dirty = Some((x0.min(x), y0.min(first), x1.max(x + 1), y1.max(end)));
    }

    /// The pixels drawn on, as `(x, y, w, h)` and straight (not premultiplied) RGBA rows, as
    /// `ImageData` holds them; `None` if nothing was drawn.
    #[inline(never)]
    pub fn drawn(&self) -> Option<(Rect, Vec<u8>)> {
        let (x0, y0, x1, y1) = self.dirty?;
        let (w, h) = (x1 - x0, y1 - y0);
        let mut out = vec![0u8; w * h * 4];
        for (y, row) in out.chunks_exact_mut(w * 4).enumerate() {
            let from = y0 + y + x0 * self.h;
            let pixels = self.px[from..].iter().step_by(self.h);
            for (dst, p) in row.chunks_exact_mut(4).zip(pixels) {
                dst.copy_from_slice(&p.to_le_bytes());
            }
        }
        Some(((x0, y0, w, h), out))
    }
}

/// A pixel from its bytes.
fn pack(rgba: [u8; 4]) -> u32 {
    u32::from_le_bytes(rgba)
}

/// `colour` (0–255, opaque) at opacity `a` over the pixel `p` (straight alpha).
fn over(p: u32, colour: [f32; 4], a: f32) -> u32 {
    let under = p.to_le_bytes();
    let rgb = |w: f32, wu: f32| {
        let mix = |c: usize| (colour[c] * w + f32::from(under[c]) * wu + 0.5) as u8;
        [mix(0), mix(1), mix(2)]
    };
    let pa = f32::from(under[3]) / 255.0;
    let ([r, g, b], alpha) = if under[3] == 0 {
        (rgb(1.0, 0.0), a)
    } else if under[3] == 255 {
        (rgb(a, 1.0 - a), 1.0)
    } else {
        let alpha = a + pa * (1.0 - a);
        (rgb(a / alpha, pa * (1.0 - a) / alpha), alpha)
    };
    pack([r, g, b, (alpha * colour[3] + 0.5) as u8])
}

/// A straight edge across a column, from height `a` at its left side to `b` at its right.
struct Edge {
    a: f64,
    b: f64,
    lo: f64,
    hi: f64,
    /// `1 / (hi − lo)`, or 0 for a flat edge.
    inv: f64,
}

impl Edge {
    fn new((a, b): (f64, f64)) -> Edge {
        let (lo, hi) = (a.min(b), a.max(b));
        let inv = if hi - lo > 1e-9 { 1.0 / (hi - lo) } else { 0.0 };
        Edge { a, b, lo, hi, inv }
    }

    /// The part of pixel row `row` (`row ..= row + 1`) that lies above the edge, averaged over
    /// the column's width: the area under `clamp(e(t) − row, 0, 1)` for `t` in `0 ..= 1`.
    fn above(&self, row: f64) -> f64 {
        if row + 1.0 <= self.lo {
            1.0
        } else if row >= self.hi {
            0.0
        } else if row >= self.lo && row + 1.0 <= self.hi {
            // The edge crosses the whole row: the part above it grows linearly down the ramp.
            (self.hi - row - 0.5) * self.inv
        } else if self.inv == 0.0 {
            (self.a - row).clamp(0.0, 1.0)
        } else {
            // An antiderivative of clamp(v, 0, 1).
            let area = |v: f64| {
                if v <= 0.0 {
                    0.0
                } else if v < 1.0 {
                    v * v / 2.0
                } else {
                    v - 0.5
                }
            };
            (area(self.b - row) - area(self.a - row)) / (self.b - self.a)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layer's alpha at `(x, y)`.
    fn alpha(layer: &BandLayer, x: usize, y: usize) -> u8 {
        layer.px[x * layer.h + y].to_le_bytes()[3]
    }

    #[test]
    fn a_band_covers_exactly_its_area() {
        // A parallelogram: top edge from y = 2 to y = 6 over x 0..4, 3 pixels tall.
        let mut layer = BandLayer::new(8, 12);
        assert!(layer.fill_band(&[(0, 2), (4, 6)], &[(0, 5), (4, 9)], (255, 0, 0), 1.0));
        for x in 0..4 {
            let total: f64 = (0..12)
                .map(|y| f64::from(alpha(&layer, x, y)) / 255.0)
                .sum();
            assert!((total - 3.0).abs() < 0.02, "column {x}: {total}");
        }
        assert!((4..8).all(|x| (0..12).all(|y| alpha(&layer, x, y) == 0)));
        // A row wholly inside is opaque, in the band's colour.
        assert_eq!(layer.px[12 + 4].to_le_bytes(), [255, 0, 0, 255]);
        let ((x, y, w, h), rgba) = layer.drawn().expect("drawn");
        assert_eq!((x, w), (0, 4));
        assert!(y <= 2 && y + h >= 9 && rgba.len() == w * h * 4);
    }

    #[test]
    fn a_half_covered_pixel_is_half_opaque_and_later_bands_go_over() {
        let mut layer = BandLayer::new(4, 4);
        // Top edge at y = 1.5 is impossible with integer vertices; a sloped edge from 1 to 2
        // covers half of row 1.
        layer.fill_band(&[(0, 1), (1, 2)], &[(0, 3), (1, 3)], (0, 0, 255), 1.0);
        assert!((i32::from(alpha(&layer, 0, 1)) - 128).abs() <= 1);
        layer.fill_band(&[(0, 0), (1, 0)], &[(0, 4), (1, 4)], (0, 255, 0), 0.5);
        // Half green over opaque blue.
        assert_eq!(layer.px[2].to_le_bytes(), [0, 128, 128, 255]);
        let (_, rgba) = layer.drawn().expect("drawn");
        assert_eq!(&rgba[..4], &[0, 255, 0, 128]);
    }

    #[test]
    fn vertices_at_one_x_join_by_vertical_edges() {
        let mut one = BandLayer::new(4, 8);
        one.fill_band(&[(0, 1), (2, 1)], &[(0, 5), (2, 5)], (9, 9, 9), 1.0);
        let mut split = BandLayer::new(4, 8);
        let upper = [(0, 1), (1, 1), (1, 0), (1, 1), (2, 1)];
        let lower = [(0, 5), (1, 5), (1, 7), (1, 5), (2, 5)];
        assert!(split.fill_band(&upper, &lower, (9, 9, 9), 1.0));
        assert_eq!(one.px, split.px);
    }

    /// The layer's covered area, in pixels.
    fn covered(layer: &BandLayer) -> f64 {
        layer
            .px
            .iter()
            .map(|p| f64::from(p.to_le_bytes()[3]) / 255.0)
            .sum()
    }

    #[test]
    fn a_circle_covers_its_ring_and_a_disc_its_inside() {
        let mut ring = BandLayer::new(20, 20);
        ring.circle((10, 10), 4.0, 2.0, false, (255, 0, 0), 1.0);
        // On the ring (a pixel centre 3.5 from the centre, within the ring 3..5): opaque; the
        // centre and beyond the ring: clear.
        assert_eq!(alpha(&ring, 10, 6), 255);
        assert_eq!(alpha(&ring, 10, 10), 0);
        assert_eq!(alpha(&ring, 10, 1), 0);
        // The covered area is close to the ring's, 2π·r·w.
        let total = covered(&ring);
        let area = 2.0 * std::f64::consts::PI * 4.0 * 2.0;
        assert!((total - area).abs() < 0.05 * area, "{total} vs {area}");
        let mut disc = BandLayer::new(20, 20);
        disc.circle((10, 10), 4.0, 2.0, true, (0, 0, 255), 1.0);
        assert_eq!(alpha(&disc, 10, 10), 255);
        let total = covered(&disc);
        let area = std::f64::consts::PI * 16.0;
        assert!((total - area).abs() < 0.05 * area, "{total} vs {area}");
        // Clipped to the layer, the drawn rectangle inside it.
        let mut edge = BandLayer::new(6, 6);
        edge.circle((0, 0), 3.0, 1.0, false, (0, 0, 0), 1.0);
        let ((x, y, w, h), _) = edge.drawn().expect("drawn");
        assert!(x == 0 && y == 0 && w <= 6 && h <= 6);
    }

    #[test]
    fn edges_that_are_not_a_band_are_refused() {
        let mut layer = BandLayer::new(4, 4);
        assert!(!layer.fill_band(&[(1, 0), (0, 1)], &[(1, 2), (0, 3)], (0, 0, 0), 1.0));
        assert!(!layer.fill_band(&[(0, 3), (2, 3)], &[(0, 1), (2, 1)], (0, 0, 0), 1.0));
        assert!(layer.drawn().is_none());
    }
}
