//! Colour-blind-safe colour maps as 256-entry lookup tables.
//!
//! Diverging: ColorBrewer RdBu (blue for negative, red for positive), readable with the common
//! colour-vision deficiencies. Sequential: viridis (perceptually uniform, colour-blind safe).

/// An RGB colour.
pub type Rgb = [u8; 3];

/// A colour map sampled into a lookup table over a value range.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorMap {
    pub name: &'static str,
    lut: Vec<Rgb>,
    /// The same colours as opaque RGBA pixels (`u32::from_le_bytes`), for whole images.
    pixels: Vec<u32>,
}

const RDBU_STOPS: [u32; 11] = [
    0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7, 0xfddbc7, 0xf4a582, 0xd6604d,
    0xb2182b, 0x67001f,
];

const VIRIDIS_STOPS: [u32; 9] = [
    0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c, 0x28ae80, 0x5ec962, 0xaddc30, 0xfde725,
];

fn rgb_of(hex: u32) -> Rgb {
    [(hex >> 16) as u8, (hex >> 8) as u8, hex as u8]
}

fn build_lut(stops: &[u32]) -> Vec<Rgb> {
    let last = (stops.len() - 1) as f64;
    (0..256)
        .map(|n| {
            let t = n as f64 / 255.0 * last;
            let lo = (t.floor() as usize).min(stops.len() - 2);
            let frac = t - lo as f64;
            let (a, b) = (rgb_of(stops[lo]), rgb_of(stops[lo + 1]));
            let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * frac).round() as u8;
            [mix(a[0], b[0]), mix(a[1], b[1]), mix(a[2], b[2])]
        })
        .collect()
}

impl ColorMap {
    /// Blue (−) through near-white (0) to red (+).
    pub fn diverging() -> ColorMap {
        ColorMap::of("RdBu", build_lut(&RDBU_STOPS))
    }

    /// Dark purple (low) to yellow (high).
    pub fn sequential() -> ColorMap {
        ColorMap::of("viridis", build_lut(&VIRIDIS_STOPS))
    }

    fn of(name: &'static str, lut: Vec<Rgb>) -> ColorMap {
        let pixels = lut
            .iter()
            .map(|&[r, g, b]| u32::from_le_bytes([r, g, b, 255]))
            .collect();
        ColorMap { name, lut, pixels }
    }

    /// The colour of every value on the range `[lo, hi]` as opaque RGBA pixels
    /// (`u32::from_le_bytes`), `masked` for NaN: [`ColorMap::at_value`] over a whole image.
    pub fn pixels_of(&self, values: &[f64], lo: f64, hi: f64, masked: Rgb) -> Vec<u32> {
        let [r, g, b] = masked;
        pe_kernels::image::colour_cells(
            values,
            (lo, hi),
            &self.pixels,
            u32::from_le_bytes([r, g, b, 255]),
        )
    }

    /// The colour of `t` in `[0, 1]` (clamped; NaN maps to the middle).
    pub fn at(&self, t: f64) -> Rgb {
        let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
        self.lut[(t * 255.0).round() as usize]
    }

    /// The colour of `value` on the range `[lo, hi]`.
    pub fn at_value(&self, value: f64, lo: f64, hi: f64) -> Rgb {
        let span = hi - lo;
        if span > 0.0 {
            self.at((value - lo) / span)
        } else {
            self.at(0.5)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_middle() {
        let m = ColorMap::diverging();
        assert_eq!(m.at(0.0), [0x05, 0x30, 0x61]);
        assert_eq!(m.at(1.0), [0x67, 0x00, 0x1f]);
        assert_eq!(m.at_value(0.0, -1.0, 1.0), m.at(0.5));
        assert_eq!(m.at(f64::NAN), m.at(0.5));
        assert_eq!(ColorMap::sequential().at(2.0), [0xfd, 0xe7, 0x25]);
        // A whole image takes the same colours.
        let values = [-1.0, -0.3, 0.0, 0.2, 0.77, 1.0, 3.0, f64::NAN];
        let pixels = m.pixels_of(&values, -1.0, 1.0, [1, 2, 3]);
        for (v, p) in values.iter().zip(&pixels) {
            let want = if v.is_nan() {
                [1, 2, 3]
            } else {
                m.at_value(*v, -1.0, 1.0)
            };
            assert_eq!(p.to_le_bytes(), [want[0], want[1], want[2], 255], "{v}");
        }
    }
}
