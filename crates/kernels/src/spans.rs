//! Dense line series filled as one band.
//!
//! A series with more points than the chart has pixels is reduced to one column per pixel
//! (its lowest and highest value there: the app's `render::envelope`). Stroked as a polyline, a fast
//! oscillation zigzags through every column's full height: hundreds of thousands of pixels of
//! antialiased line, milliseconds of a browser's software rasteriser per chart (4.2 of a
//! Sinusoidal frame's 4.7 ms of canvas raster, traced). The same columns outlined as one
//! polygon and filled write each pixel once, with the smooth edges of a stroke.

/// One column of a dense series, in device pixels: its centre `x` and the span
/// `top ..= bottom` the line covers there (y grows downwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub x: f64,
    pub top: f64,
    pub bottom: f64,
}

/// The outline of a line `width` pixels wide through `spans` (ordered by x): the upper edge
/// from left to right, then the lower edge back, a polygon to fill.
///
/// Each column covers `top − pad ..= bottom + pad`, where `pad = width/2 · √(1 + s²)` for the
/// local slope `s` (half the width on a flat stretch), never reaching past its neighbours'
/// spans by more than half the width: a steep line is then as thick across as a stroke of that
/// width, and a fast oscillation stays inside its band. Spans that are not finite are skipped.
pub fn outline(spans: &[Span], width: f64) -> Vec<(f64, f64)> {
    let width = width.max(1.0);
    let spans: Vec<&Span> = spans
        .iter()
        .filter(|s| s.x.is_finite() && s.top.is_finite() && s.bottom.is_finite())
        .collect();
    let mid = |s: &Span| (s.top + s.bottom) / 2.0;
    let mut upper = Vec::with_capacity(spans.len());
    let mut lower = Vec::with_capacity(spans.len());
    for (k, &s) in spans.iter().enumerate() {
        let a = spans[k.saturating_sub(1)];
        let b = spans.get(k + 1).copied().unwrap_or(s);
        let slope = if b.x > a.x {
            (mid(b) - mid(a)).abs() / (b.x - a.x)
        } else {
            0.0
        };
        let pad = width / 2.0 * (1.0 + slope * slope).sqrt();
        let top = (s.top - pad).max(a.top.min(b.top).min(s.top) - width / 2.0);
        let bottom = (s.bottom + pad).min(a.bottom.max(b.bottom).max(s.bottom) + width / 2.0);
        upper.push((s.x, top));
        lower.push((s.x, bottom));
    }
    upper.extend(lower.into_iter().rev());
    upper
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: f64, top: f64, bottom: f64) -> Span {
        Span { x, top, bottom }
    }

    type Edge = Vec<(f64, f64)>;

    /// The outline's upper and lower edge, each from left to right.
    fn edges(o: &[(f64, f64)]) -> (Edge, Edge) {
        let n = o.len() / 2;
        (o[..n].to_vec(), o[n..].iter().rev().copied().collect())
    }

    #[test]
    fn a_flat_line_is_as_thick_as_its_width() {
        let spans: Vec<Span> = (0..10).map(|x| at(x as f64, 5.0, 5.0)).collect();
        let (up, down) = edges(&outline(&spans, 2.0));
        assert_eq!(up.len(), 10);
        assert!(up.iter().all(|&(_, y)| y == 4.0));
        assert!(down.iter().all(|&(_, y)| y == 6.0));
    }

    #[test]
    fn a_steep_line_is_as_thick_across_as_its_width() {
        // Slope 10: the band is √101 ≈ 10 times the width tall, i.e. the width across.
        let spans: Vec<Span> = (0..12)
            .map(|x| {
                let y = 10.0 + 10.0 * x as f64;
                at(x as f64, y, y)
            })
            .collect();
        let (up, down) = edges(&outline(&spans, 2.0));
        for k in 1..11 {
            let tall = down[k].1 - up[k].1;
            let across = tall / (1.0f64 + 100.0).sqrt();
            assert!((across - 2.0).abs() < 0.01, "column {k}: {across}");
        }
    }

    #[test]
    fn an_oscillation_stays_inside_its_band() {
        let spans: Vec<Span> = (0..40)
            .map(|x| {
                let (top, bottom) = if x % 2 == 0 {
                    (10.0, 30.0)
                } else {
                    (30.0, 50.0)
                };
                at(x as f64, top, bottom)
            })
            .collect();
        let o = outline(&spans, 2.0);
        assert!(o.iter().all(|&(_, y)| (9.0..=51.0).contains(&y)));
        // Each column still covers its own span.
        let (up, down) = edges(&o);
        for (k, s) in spans.iter().enumerate() {
            assert!(up[k].1 <= s.top && down[k].1 >= s.bottom);
        }
    }

    #[test]
    fn the_outline_goes_right_along_the_top_and_back_along_the_bottom() {
        let spans = [
            at(4.0, 2.0, 2.0),
            at(f64::NAN, 1.0, 1.0),
            at(10.0, 2.0, 3.0),
        ];
        let o = outline(&spans, 2.0);
        let xs: Vec<f64> = o.iter().map(|p| p.0).collect();
        assert_eq!(xs, vec![4.0, 10.0, 10.0, 4.0]);
        assert!(o.iter().all(|p| p.1.is_finite()));
    }
}

/// A linear axis as the charts' plotting library (plotters) maps it: values `lo ..= hi` onto
/// the pixels `from ..= to` (`to < from` for a y axis that grows upwards).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelAxis {
    pub lo: f64,
    pub hi: f64,
    pub from: i32,
    pub to: i32,
}

impl PixelAxis {
    /// The pixel of `v`, exactly as plotters' `RangedCoordf64::map` rounds it.
    pub fn map(&self, v: f64) -> i32 {
        if self.hi == self.lo {
            return (self.to - self.from) / 2;
        }
        let logic = (v - self.lo) / (self.hi - self.lo);
        let actual = self.to - self.from;
        if actual == 0 {
            return self.to;
        }
        if logic.is_infinite() {
            return if logic > 0.0 { self.to } else { self.from };
        }
        if actual > 0 {
            self.from + (f64::from(actual) * logic + 1e-3).floor() as i32
        } else {
            self.from + (f64::from(actual) * logic - 1e-3).ceil() as i32
        }
    }
}

/// The polygon that fills a dense series `width` pixels wide: its columns `(x, lo, hi)` (on
/// the axes' scales) mapped to pixels, columns that land on the same pixel column merged,
/// outlined (see [`outline`]) and rounded, relative to `origin`. The whole per-column path of
/// a band in one optimised loop (in the size-optimised app it cost about a millisecond a frame
/// for a chart of seven dense curves).
#[inline(never)]
pub fn band_polygon(
    columns: &[(f64, f64, f64)],
    x: PixelAxis,
    y: PixelAxis,
    width: f64,
    origin: (i32, i32),
) -> Vec<(i32, i32)> {
    let mut spans: Vec<Span> = Vec::with_capacity(columns.len());
    for &(cx, lo, hi) in columns {
        let px = f64::from(x.map(cx));
        let (bottom, top) = (f64::from(y.map(lo)), f64::from(y.map(hi)));
        match spans.last_mut() {
            Some(last) if last.x == px => {
                last.top = last.top.min(top);
                last.bottom = last.bottom.max(bottom);
            }
            _ => spans.push(Span { x: px, top, bottom }),
        }
    }
    outline(&spans, width)
        .into_iter()
        .map(|(px, py)| (px.round() as i32 - origin.0, py.round() as i32 - origin.1))
        .collect()
}

#[cfg(test)]
mod band_tests {
    use super::*;

    #[test]
    fn axes_round_as_plotters_does() {
        let x = PixelAxis {
            lo: 0.0,
            hi: 10.0,
            from: 50,
            to: 150,
        };
        assert_eq!((x.map(0.0), x.map(10.0), x.map(5.0)), (50, 150, 100));
        // A fraction of a pixel is floored unless it is within 1e-3 of the next pixel.
        assert_eq!(x.map(0.0998), 50);
        assert_eq!(x.map(0.09995), 51);
        let y = PixelAxis {
            lo: -1.0,
            hi: 1.0,
            from: 300,
            to: 100,
        };
        assert_eq!((y.map(-1.0), y.map(1.0), y.map(0.0)), (300, 100, 200));
        assert_eq!(y.map(f64::INFINITY), 100);
    }

    #[test]
    fn columns_on_one_pixel_merge_into_one_span() {
        let x = PixelAxis {
            lo: 0.0,
            hi: 100.0,
            from: 0,
            to: 50,
        };
        let y = PixelAxis {
            lo: 0.0,
            hi: 100.0,
            from: 100,
            to: 0,
        };
        // 101 columns over 50 pixels: two or three per pixel, each its own height.
        let cols: Vec<(f64, f64, f64)> = (0..=100)
            .map(|k| (k as f64, (k % 3) as f64 * 10.0, (k % 3) as f64 * 10.0 + 5.0))
            .collect();
        let poly = band_polygon(&cols, x, y, 2.0, (0, 0));
        // One vertex per pixel column on each edge.
        assert_eq!(poly.len(), 2 * 51);
        // Each merged column spans all of its columns: pixel 1 holds k = 2 (20..25) and
        // k = 3 (0..5), so y from 100 − 25 to 100 − 0, padded.
        let (top, bottom) = (poly[1].1, poly[poly.len() - 2].1);
        assert!(top <= 75 && bottom >= 100, "{top} {bottom}");
    }

    #[test]
    fn the_polygon_is_relative_to_the_origin() {
        let x = PixelAxis {
            lo: 0.0,
            hi: 3.0,
            from: 10,
            to: 40,
        };
        let y = PixelAxis {
            lo: 0.0,
            hi: 1.0,
            from: 60,
            to: 20,
        };
        let cols = [
            (0.0, 0.5, 0.5),
            (1.0, 0.5, 0.5),
            (2.0, 0.5, 0.5),
            (3.0, 0.5, 0.5),
        ];
        let poly = band_polygon(&cols, x, y, 2.0, (10, 20));
        assert_eq!(poly[0], (0, 19));
        assert_eq!(poly[3], (30, 19));
        assert_eq!(poly[4], (30, 21));
    }
}
