//! Heatmaps computed at display resolution and painted as one RGBA image.
//!
//! A matrix with more rows or columns than the canvas has pixels is sampled: only the cells that
//! land on a pixel are ever computed. A smaller matrix is computed once per cell and each cell
//! spans several pixels.

use super::colormap::ColorMap;

/// The colour of cells with no value (NaN): masked attention, positions past a table's end.
pub const MASKED: [u8; 3] = [150, 150, 150];

/// How the pixels along one axis map onto matrix indices.
#[derive(Clone, Debug, PartialEq)]
pub struct AxisSamples {
    /// The matrix indices that are computed, ascending.
    pub indices: Vec<usize>,
    /// For every pixel, which entry of `indices` it shows.
    px_to_sample: Vec<u32>,
}

impl AxisSamples {
    /// Each pixel shows the index under its centre. `n` indices over `px` pixels.
    pub fn centred(n: usize, px: usize) -> AxisSamples {
        let px = px.max(1);
        if n <= px {
            AxisSamples {
                indices: (0..n).collect(),
                px_to_sample: (0..px).map(|p| (p * n / px) as u32).collect(),
            }
        } else {
            AxisSamples {
                indices: (0..px).map(|p| ((2 * p + 1) * n) / (2 * px)).collect(),
                px_to_sample: (0..px as u32).collect(),
            }
        }
    }

    /// Indices `0, s, 2s, …` at a whole stride `s = ceil(n / px)`, so that differences of
    /// sampled indices are multiples of `s` (what a Toeplitz matrix needs).
    pub fn strided(n: usize, px: usize) -> (AxisSamples, usize) {
        let px = px.max(1);
        let stride = n.div_ceil(px).max(1);
        (AxisSamples::with_stride(n, stride, px), stride)
    }

    /// Indices `0, stride, 2·stride, …` below `n`, spread over `px` pixels.
    pub fn with_stride(n: usize, stride: usize, px: usize) -> AxisSamples {
        let px = px.max(1);
        let stride = stride.max(1);
        let count = n.div_ceil(stride);
        AxisSamples {
            indices: (0..count).map(|k| k * stride).collect(),
            px_to_sample: (0..px).map(|p| (p * count / px) as u32).collect(),
        }
    }

    /// Number of pixels along the axis.
    pub fn px(&self) -> usize {
        self.px_to_sample.len()
    }

    /// The matrix index shown at a pixel, if the axis has any index.
    pub fn index_at_px(&self, px: usize) -> Option<usize> {
        let sample = *self.px_to_sample.get(px.min(self.px().saturating_sub(1)))?;
        self.indices.get(sample as usize).copied()
    }
}

/// The sampled cells of a matrix: `rows.indices × cols.indices`, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledGrid {
    pub rows: AxisSamples,
    pub cols: AxisSamples,
    pub values: Vec<f64>,
}

impl SampledGrid {
    /// Computes `f(row, col)` for every sampled cell.
    pub fn compute(
        rows: AxisSamples,
        cols: AxisSamples,
        mut f: impl FnMut(usize, usize) -> f64,
    ) -> SampledGrid {
        let mut values = Vec::with_capacity(rows.indices.len() * cols.indices.len());
        for &r in &rows.indices {
            for &c in &cols.indices {
                values.push(f(r, c));
            }
        }
        SampledGrid { rows, cols, values }
    }

    /// `sin(row · ω + quarter · π/2)` at every sampled cell, `(ω, quarter) = wave(col)`: the
    /// cells of a table of sines and cosines, by the kernels' sine (to about 1e-15, a
    /// fraction of the cost of a library call per cell).
    pub fn waves(
        rows: AxisSamples,
        cols: AxisSamples,
        wave: impl Fn(usize) -> (f64, u32),
    ) -> SampledGrid {
        let positions: Vec<f64> = rows.indices.iter().map(|&r| r as f64).collect();
        let mut omegas = Vec::with_capacity(cols.indices.len());
        let mut quarters = Vec::with_capacity(cols.indices.len());
        for &c in &cols.indices {
            let (w, q) = wave(c);
            omegas.push(w);
            quarters.push(q);
        }
        let mut values = vec![0.0; positions.len() * omegas.len()];
        pe_kernels::trig::sinusoid_grid(&positions, &omegas, &quarters, &mut values);
        SampledGrid { rows, cols, values }
    }

    /// The RGBA image (`cols.px() × rows.px()`, row 0 at the top) of the grid on `[lo, hi]`.
    pub fn paint_rgba(&self, cmap: &ColorMap, lo: f64, hi: f64) -> Vec<u8> {
        let (w, h) = (self.cols.px(), self.rows.px());
        let n_cols = self.cols.indices.len();
        if n_cols == 0 || self.rows.indices.is_empty() {
            return vec![255u8; w * h * 4];
        }
        let cells = cmap.pixels_of(&self.values, lo, hi, MASKED);
        pe_kernels::image::expand_cells(
            &cells,
            n_cols,
            &self.rows.px_to_sample[..h],
            &self.cols.px_to_sample[..w],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centred_sampling_small_and_large() {
        let small = AxisSamples::centred(3, 6);
        assert_eq!(small.indices, vec![0, 1, 2]);
        assert_eq!(
            (0..6)
                .map(|p| small.index_at_px(p).unwrap())
                .collect::<Vec<_>>(),
            vec![0, 0, 1, 1, 2, 2]
        );
        let large = AxisSamples::centred(1000, 10);
        assert_eq!(large.indices.len(), 10);
        assert_eq!(large.indices[0], 50);
        assert_eq!(large.indices[9], 950);
    }

    #[test]
    fn strided_sampling_keeps_whole_strides() {
        let (s, stride) = AxisSamples::strided(8192, 500);
        assert_eq!(stride, 17);
        assert!(s.indices.windows(2).all(|w| w[1] - w[0] == 17));
        assert!(*s.indices.last().unwrap() < 8192);
    }

    #[test]
    fn painting_uses_one_colour_per_cell() {
        let grid = SampledGrid::compute(
            AxisSamples::centred(2, 4),
            AxisSamples::centred(2, 4),
            |r, c| if r == c { 1.0 } else { -1.0 },
        );
        let cmap = ColorMap::diverging();
        let img = grid.paint_rgba(&cmap, -1.0, 1.0);
        assert_eq!(img.len(), 4 * 4 * 4);
        let at = |x: usize, y: usize| [img[(y * 4 + x) * 4], img[(y * 4 + x) * 4 + 1]];
        assert_eq!(at(0, 0), at(1, 1));
        assert_ne!(at(0, 0), at(3, 0));
        assert_eq!(&img[..3], &cmap.at(1.0));
    }
}
