//! Relative properties of the sinusoidal table: the position-similarity `PE·PEᵀ` and the
//! offset map `PE[pos+k] = M(k)·PE[pos]`.
//!
//! For every complete pair, `sin(pω)sin(qω) + cos(pω)cos(qω) = cos((p−q)ω)`, so
//! `dot(PE[p], PE[q]) = Σ_i cos((p−q)·ω_i)` plus, for an odd width, the lone last sin column's
//! `sin(pω)·sin(qω)`. The sum depends on `p − q` only and is computed once per offset.

use super::series::weighted_series;
use super::sinusoidal::{column_of, ColumnKind, Sinusoid};

/// `g(k) = Σ_i cos(k·ω_i)` for `k = 0, step, 2·step, …, (count−1)·step`.
pub fn cos_sum_series(omegas: &[f64], step: usize, count: usize) -> Vec<f64> {
    let ones = vec![1.0; omegas.len()];
    let zeros = vec![0.0; omegas.len()];
    weighted_series(omegas, &ones, &zeros, step as f64, count)
}

/// Dot products between positions of a sinusoidal table, without building the table.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionSimilarity {
    /// Frequencies of the complete (sin, cos) pairs.
    full_pair_omegas: Vec<f64>,
    /// Frequency of an odd width's lone sin column.
    lone_sin_omega: Option<f64>,
}

impl PositionSimilarity {
    pub fn new(pe: &Sinusoid) -> PositionSimilarity {
        let d = pe.d_model;
        let mut full_pair_omegas = Vec::with_capacity(pe.omegas.len());
        let mut lone_sin_omega = None;
        for (i, &w) in pe.omegas.iter().enumerate() {
            if column_of(i, ColumnKind::Cos, d, pe.layout).is_some() {
                full_pair_omegas.push(w);
            } else {
                lone_sin_omega = Some(w);
            }
        }
        PositionSimilarity {
            full_pair_omegas,
            lone_sin_omega,
        }
    }

    /// The part of `dot(PE[p], PE[q])` that depends on `p − q` only, for offsets
    /// `0, step, …, (count−1)·step`.
    pub fn relative_series(&self, step: usize, count: usize) -> Vec<f64> {
        cos_sum_series(&self.full_pair_omegas, step, count)
    }

    /// Terms in one evaluation of the relative series (one per complete pair).
    pub fn pair_terms(&self) -> usize {
        self.full_pair_omegas.len().max(1)
    }

    /// The lone sin column's term `sin(pω)·sin(qω)` (zero for even widths).
    pub fn lone_term(&self, p: usize, q: usize) -> f64 {
        self.lone_sin_omega
            .map_or(0.0, |w| (p as f64 * w).sin() * (q as f64 * w).sin())
    }

    /// `dot(PE[p], PE[q])` evaluated directly (one cos per pair).
    pub fn dot(&self, p: usize, q: usize) -> f64 {
        let k = p.abs_diff(q) as f64;
        self.full_pair_omegas
            .iter()
            .map(|w| (k * w).cos())
            .sum::<f64>()
            + self.lone_term(p, q)
    }

    /// `dot(PE[p], PE[p])`: the largest value any dot product with `p` can take when the width
    /// is even (`d_model / 2`).
    pub fn self_dot_bound(&self) -> f64 {
        self.full_pair_omegas.len() as f64 + f64::from(u8::from(self.has_lone_column()))
    }

    /// Whether the width is odd: a last sin column without its cos.
    pub fn has_lone_column(&self) -> bool {
        self.lone_sin_omega.is_some()
    }
}

/// The offset map `M(k)` of the relative-offset property, acting pair by pair.
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetMap<'a> {
    pe: &'a Sinusoid,
    /// `(cos kω_i, sin kω_i)` per pair.
    rotation: Vec<(f64, f64)>,
}

impl<'a> OffsetMap<'a> {
    pub fn new(pe: &'a Sinusoid, k: usize) -> OffsetMap<'a> {
        let rotation = pe
            .omegas
            .iter()
            .map(|w| {
                let (s, c) = (k as f64 * w).sin_cos();
                (c, s)
            })
            .collect();
        OffsetMap { pe, rotation }
    }

    /// Entry `M(k)[row][col]`: a 2×2 rotation block per complete pair, `cos kω` on the diagonal
    /// of an odd width's lone sin column (which no linear map can advance exactly).
    pub fn entry(&self, row: usize, col: usize) -> f64 {
        let (i, row_kind) = self.pe.role(row);
        let (j, col_kind) = self.pe.role(col);
        if i != j {
            return 0.0;
        }
        let (c, s) = self.rotation[i];
        let paired = column_of(i, ColumnKind::Cos, self.pe.d_model, self.pe.layout).is_some();
        match (row_kind, col_kind) {
            (ColumnKind::Sin, ColumnKind::Sin) | (ColumnKind::Cos, ColumnKind::Cos) => c,
            (ColumnKind::Sin, ColumnKind::Cos) if paired => s,
            (ColumnKind::Cos, ColumnKind::Sin) if paired => -s,
            _ => 0.0,
        }
    }

    /// `out = M(k)·row`, in O(d_model).
    pub fn apply(&self, row: &[f64], out: &mut [f64]) {
        let d = self.pe.d_model;
        for (col, cell) in out.iter_mut().enumerate() {
            let (i, kind) = self.pe.role(col);
            let (c, s) = self.rotation[i];
            let partner = match kind {
                ColumnKind::Sin => column_of(i, ColumnKind::Cos, d, self.pe.layout),
                ColumnKind::Cos => column_of(i, ColumnKind::Sin, d, self.pe.layout),
            };
            *cell = match (kind, partner) {
                (ColumnKind::Sin, Some(p)) => c * row[col] + s * row[p],
                (ColumnKind::Cos, Some(p)) => c * row[col] - s * row[p],
                (_, None) => c * row[col],
            };
        }
    }

    /// `max |PE[pos+k] − M(k)·PE[pos]|` over the given positions.
    pub fn residual(&self, k: usize, positions: impl IntoIterator<Item = usize>) -> f64 {
        let d = self.pe.d_model;
        let mut here = vec![0.0; d];
        let mut there = vec![0.0; d];
        let mut mapped = vec![0.0; d];
        let mut worst: f64 = 0.0;
        for pos in positions {
            self.pe.fill_row(pos, &mut here);
            self.pe.fill_row(pos + k, &mut there);
            self.apply(&here, &mut mapped);
            for (a, b) in there.iter().zip(&mapped) {
                worst = worst.max((a - b).abs());
            }
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::Layout;

    #[test]
    fn series_matches_direct_cosines() {
        let pe = Sinusoid::new(256, 10000.0, Layout::Interleaved);
        let sim = PositionSimilarity::new(&pe);
        let series = sim.relative_series(3, 1000);
        for (n, g) in series.iter().enumerate() {
            let direct = sim.dot(0, 3 * n);
            assert!((g - direct).abs() < 1e-9, "k={} {g} vs {direct}", 3 * n);
        }
    }

    #[test]
    fn dot_equals_the_table_product() {
        for (d, layout) in [
            (8, Layout::Interleaved),
            (7, Layout::Interleaved),
            (9, Layout::Concat),
        ] {
            let pe = Sinusoid::new(d, 100.0, layout);
            let sim = PositionSimilarity::new(&pe);
            let m = pe.matrix(40);
            for p in 0..40 {
                for q in 0..40 {
                    let direct: f64 = (0..d).map(|c| m[p * d + c] * m[q * d + c]).sum();
                    assert!((sim.dot(p, q) - direct).abs() < 1e-12, "d={d} p={p} q={q}");
                }
            }
        }
    }

    #[test]
    fn offset_map_entry_agrees_with_apply() {
        let pe = Sinusoid::new(6, 10.0, Layout::Concat);
        let map = OffsetMap::new(&pe, 5);
        let mut row = vec![0.0; 6];
        pe.fill_row(3, &mut row);
        let mut applied = vec![0.0; 6];
        map.apply(&row, &mut applied);
        for (r, want) in applied.iter().enumerate() {
            let by_entries: f64 = (0..6).map(|c| map.entry(r, c) * row[c]).sum();
            assert!((by_entries - want).abs() < 1e-15);
        }
    }
}
