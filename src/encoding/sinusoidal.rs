//! The fixed sinusoidal encoding of Vaswani et al. (2017).
//!
//! `PE[pos, 2i] = sin(pos · ω_i)`, `PE[pos, 2i+1] = cos(pos · ω_i)`, `ω_i = base^(-2i/d_model)`.
//! In column form an even `col` is `sin(pos / base^(col/d_model))` and an odd `col` is
//! `cos(pos / base^((col-1)/d_model))`; that also defines odd widths, whose last column is a
//! sin column without a cos partner.

use std::f64::consts::TAU;

/// Where the sin and cos of each pair live among the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// `[sin ω_0, cos ω_0, sin ω_1, cos ω_1, …]` (Vaswani et al., PyTorch tutorial).
    #[default]
    Interleaved,
    /// `[sin ω_0 … sin ω_{n-1} | cos ω_0 … cos ω_{m-1}]` (tensor2tensor, TensorFlow tutorial).
    Concat,
}

impl Layout {
    pub const ALL: [Layout; 2] = [Layout::Interleaved, Layout::Concat];

    /// The name used in URLs and exports.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Interleaved => "interleaved",
            Layout::Concat => "concat",
        }
    }

    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// Whether a column holds the sine or the cosine of its pair's angle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    Sin,
    Cos,
}

impl ColumnKind {
    pub fn name(self) -> &'static str {
        match self {
            ColumnKind::Sin => "sin",
            ColumnKind::Cos => "cos",
        }
    }

    /// The function itself, applied to an angle in radians.
    pub fn apply(self, angle_rad: f64) -> f64 {
        match self {
            ColumnKind::Sin => angle_rad.sin(),
            ColumnKind::Cos => angle_rad.cos(),
        }
    }
}

/// Number of distinct frequencies (pairs) for a width: `ceil(d_model / 2)`.
pub fn pair_count(d_model: usize) -> usize {
    d_model.div_ceil(2)
}

/// `ω_i = base^(-2i/d_model)`, in radians per position.
pub fn omega(i: usize, d_model: usize, base: f64) -> f64 {
    omega_by(i, d_model, base, f64::powf)
}

/// [`omega`], with the power taken by `pow` (the Train it yourself view takes `libm`'s, the
/// same on every platform).
pub fn omega_by(i: usize, d_model: usize, base: f64, pow: impl Fn(f64, f64) -> f64) -> f64 {
    pow(base, -((2 * i) as f64) / d_model as f64)
}

/// The pair index and sin/cos role of a column.
pub fn column_role(col: usize, d_model: usize, layout: Layout) -> (usize, ColumnKind) {
    match layout {
        Layout::Interleaved => {
            let kind = if col.is_multiple_of(2) {
                ColumnKind::Sin
            } else {
                ColumnKind::Cos
            };
            (col / 2, kind)
        }
        Layout::Concat => {
            let sin_cols = pair_count(d_model);
            if col < sin_cols {
                (col, ColumnKind::Sin)
            } else {
                (col - sin_cols, ColumnKind::Cos)
            }
        }
    }
}

/// The column holding `kind` of pair `i`, if the width has one (an odd width has no cos for
/// its last pair).
pub fn column_of(i: usize, kind: ColumnKind, d_model: usize, layout: Layout) -> Option<usize> {
    let col = match layout {
        Layout::Interleaved => match kind {
            ColumnKind::Sin => 2 * i,
            ColumnKind::Cos => 2 * i + 1,
        },
        Layout::Concat => match kind {
            ColumnKind::Sin => i,
            ColumnKind::Cos => pair_count(d_model) + i,
        },
    };
    (col < d_model && i < pair_count(d_model)).then_some(col)
}

/// A sinusoidal table, its frequencies computed once so that any cell costs one sin or cos.
#[derive(Clone, Debug, PartialEq)]
pub struct Sinusoid {
    pub d_model: usize,
    pub base: f64,
    pub layout: Layout,
    /// `ω_i` for every pair.
    pub omegas: Vec<f64>,
    /// Per column: its pair index and role, so that a row is one table walk.
    roles: Vec<(u32, ColumnKind)>,
}

impl Sinusoid {
    pub fn new(d_model: usize, base: f64, layout: Layout) -> Sinusoid {
        let omegas = (0..pair_count(d_model))
            .map(|i| omega(i, d_model, base))
            .collect();
        let roles = (0..d_model)
            .map(|col| {
                let (i, kind) = column_role(col, d_model, layout);
                (i as u32, kind)
            })
            .collect();
        Sinusoid {
            d_model,
            base,
            layout,
            omegas,
            roles,
        }
    }

    /// The pair index and role of a column.
    pub fn role(&self, col: usize) -> (usize, ColumnKind) {
        let (i, kind) = self.roles[col];
        (i as usize, kind)
    }

    /// The angle `pos · ω_i` of a column at a position, in radians.
    pub fn angle(&self, pos: usize, col: usize) -> f64 {
        let (i, _) = self.role(col);
        pos as f64 * self.omegas[i]
    }

    /// `PE[pos, col]`.
    pub fn value(&self, pos: usize, col: usize) -> f64 {
        let (i, kind) = self.role(col);
        kind.apply(pos as f64 * self.omegas[i])
    }

    /// Column `col` at positions `0..n`, by rotation recurrence (no `sin` per cell; within a
    /// few hundred ulps of [`Sinusoid::value`]): what the curves chart needs at every move.
    pub fn column(&self, col: usize, n: usize) -> Vec<f64> {
        let (i, kind) = self.role(col);
        let omega = [self.omegas[i]];
        let (a, b) = match kind {
            ColumnKind::Sin => ([0.0], [1.0]),
            ColumnKind::Cos => ([1.0], [0.0]),
        };
        pe_kernels::series::weighted_series(&omega, &a, &b, 1.0, n)
    }

    /// Column `col` as a wave: `PE[pos, col] = sin(pos · ω + quarter · π/2)`, quarter 0 for
    /// a sine column and 1 for a cosine (what [`crate::render::raster::SampledGrid::waves`]
    /// draws).
    pub fn wave(&self, col: usize) -> (f64, u32) {
        let (i, kind) = self.roles[col];
        (self.omegas[i as usize], u32::from(kind == ColumnKind::Cos))
    }

    /// Writes row `pos` into `out` (length `d_model`).
    pub fn fill_row(&self, pos: usize, out: &mut [f64]) {
        let p = pos as f64;
        for (cell, &(i, kind)) in out.iter_mut().zip(&self.roles) {
            *cell = kind.apply(p * self.omegas[i as usize]);
        }
    }

    /// The whole matrix, row-major. Only for sizes the caller has bounded.
    pub fn matrix(&self, seq_len: usize) -> Vec<f64> {
        let mut out = vec![0.0; seq_len * self.d_model];
        if self.d_model > 0 {
            for (pos, row) in out.chunks_exact_mut(self.d_model).enumerate() {
                self.fill_row(pos, row);
            }
        }
        out
    }

    /// Wavelength of pair `i` in positions: `2π / ω_i`.
    pub fn wavelength(&self, i: usize) -> f64 {
        TAU / self.omegas[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_drawn_as_a_grid_equal_the_cells() {
        use crate::render::raster::{AxisSamples, SampledGrid};
        for layout in [Layout::Interleaved, Layout::Concat] {
            let pe = Sinusoid::new(96, 10000.0, layout);
            let grid = SampledGrid::waves(
                AxisSamples::centred(70_000, 37),
                AxisSamples::centred(96, 40),
                |col| pe.wave(col),
            );
            let cols = grid.cols.indices.len();
            for (r, &pos) in grid.rows.indices.iter().enumerate() {
                for (k, &col) in grid.cols.indices.iter().enumerate() {
                    let want = pe.value(pos, col);
                    assert!(
                        (grid.values[r * cols + k] - want).abs() < 1e-13,
                        "{pos} {col}"
                    );
                }
            }
        }
    }

    #[test]
    fn column_roles_round_trip_in_both_layouts() {
        for d in 1..12 {
            for layout in Layout::ALL {
                for col in 0..d {
                    let (i, kind) = column_role(col, d, layout);
                    assert_eq!(column_of(i, kind, d, layout), Some(col), "d={d} col={col}");
                }
            }
        }
    }

    #[test]
    fn odd_width_last_column_is_a_lone_sin() {
        assert_eq!(column_role(6, 7, Layout::Interleaved), (3, ColumnKind::Sin));
        assert_eq!(column_of(3, ColumnKind::Cos, 7, Layout::Interleaved), None);
        assert_eq!(column_role(3, 7, Layout::Concat), (3, ColumnKind::Sin));
        assert_eq!(column_role(4, 7, Layout::Concat), (0, ColumnKind::Cos));
        assert_eq!(column_of(3, ColumnKind::Cos, 7, Layout::Concat), None);
    }

    #[test]
    fn concat_is_a_column_permutation_of_interleaved() {
        let a = Sinusoid::new(10, 10000.0, Layout::Interleaved);
        let b = Sinusoid::new(10, 10000.0, Layout::Concat);
        for pos in 0..20 {
            for col in 0..10 {
                let (i, kind) = a.role(col);
                let other = column_of(i, kind, 10, Layout::Concat).unwrap();
                assert_eq!(a.value(pos, col), b.value(pos, other));
            }
        }
    }
}

#[cfg(test)]
mod column_tests {
    use super::*;

    #[test]
    fn a_column_by_recurrence_matches_the_formula() {
        for (d, base, layout) in [
            (128, 10_000.0, Layout::Interleaved),
            (4096, 10_000.0, Layout::Concat),
            (7, 37.5, Layout::Interleaved),
        ] {
            let pe = Sinusoid::new(d, base, layout);
            for col in [0, 1, d / 2, d - 1] {
                let ys = pe.column(col, 9000);
                assert_eq!(ys.len(), 9000);
                for (pos, y) in ys.iter().enumerate() {
                    assert!(
                        (y - pe.value(pos, col)).abs() < 1e-11,
                        "d {d} col {col} pos {pos}"
                    );
                }
            }
        }
    }
}
