//! Learned absolute position tables (BERT-style `position_embeddings`): reading them from
//! float16 assets, NPY or CSV files, and the statistics the learned view shows (cosine
//! similarity, principal components, mean similarity by offset).
//!
//! Rows are positions, columns embedding dimensions, as everywhere in this crate.
//!
//! Over 600 lines with its tests (about 150): the table's readers and statistics share its
//! layout and its bounds on size, which the tests check together.

use super::rope::SeededNormal;
use pe_kernels::dot::{axpy_f64, dot4_f32, dot_f32, dot_f64};
use pe_kernels::fft::summed_autocorrelation;

/// The largest table read from a file: 4096 positions × 4096 dims.
pub const MAX_CELLS: usize = 4096 * 4096;
/// The largest file read, in bytes.
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// A position table, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f32>,
}

/// IEEE 754 half precision to single.
pub fn f16_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let frac = (h & 0x3ff) as u32;
    let bits = match (exp, frac) {
        (0, 0) => sign,
        (0, _) => {
            // Subnormal: normalise.
            let mut e = 127 - 15 + 1;
            let mut f = frac;
            while f & 0x400 == 0 {
                f <<= 1;
                e -= 1;
            }
            sign | (e << 23) | ((f & 0x3ff) << 13)
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, _) => sign | 0x7fc0_0000,
        _ => sign | ((exp + 127 - 15) << 23) | (frac << 13),
    };
    f32::from_bits(bits)
}

/// One CSV cell as f32 (`Err` for anything that is not a number). `inf` and `nan`, which
/// NumPy writes, read as NaN so that the table check names the cell as not finite.
fn parse_cell(cell: &str) -> Result<f32, ()> {
    let cell = cell.trim();
    if let Some(v) = crate::format::parse_decimal(cell) {
        return Ok(v as f32);
    }
    let word = cell.trim_start_matches(['+', '-']).to_ascii_lowercase();
    if matches!(word.as_str(), "inf" | "infinity" | "nan") {
        Ok(f32::NAN)
    } else {
        Err(())
    }
}

impl Table {
    pub fn row(&self, pos: usize) -> &[f32] {
        &self.data[pos * self.cols..(pos + 1) * self.cols]
    }

    pub fn get(&self, pos: usize, col: usize) -> f32 {
        self.data[pos * self.cols + col]
    }

    /// A table from raw little-endian float16 bytes.
    pub fn from_f16_le(bytes: &[u8], rows: usize, cols: usize) -> Result<Table, String> {
        if bytes.len() != rows * cols * 2 {
            return Err(format!(
                "expected {} bytes for {rows} × {cols} float16 values, got {}.",
                rows * cols * 2,
                bytes.len()
            ));
        }
        let data = bytes
            .chunks_exact(2)
            .map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
            .collect();
        Ok(Table { rows, cols, data })
    }

    /// A seeded random initialisation, N(0, 0.02²) as BERT initialises its tables.
    pub fn random(rows: usize, cols: usize, seed: u64) -> Table {
        Table::random_rows(rows, cols, seed, 1)
    }

    /// Rows `0, stride, 2·stride, …` below `rows` of [`Table::random`]`(rows, cols, seed)`,
    /// drawn without the others (each row has a random stream of its own).
    pub fn random_rows(rows: usize, cols: usize, seed: u64, stride: usize) -> Table {
        let stride = stride.max(1);
        let count = rows.div_ceil(stride);
        let mut data = vec![0.0f32; count * cols];
        pe_kernels::normal::fill_normal_rows(
            &mut data,
            cols,
            0,
            stride,
            seed ^ 0x7ab1_e5ee_d000,
            0.02,
        );
        Table {
            rows: count,
            cols,
            data,
        }
    }

    fn checked(rows: usize, cols: usize, data: Vec<f32>) -> Result<Table, String> {
        if rows == 0 || cols == 0 {
            return Err("the table is empty.".into());
        }
        if rows * cols > MAX_CELLS {
            return Err(format!(
                "{rows} × {cols} is larger than the {MAX_CELLS} cells this page reads."
            ));
        }
        if let Some(at) = data.iter().position(|v| !v.is_finite()) {
            return Err(format!(
                "the value at position {}, dimension {} (both counted from 0) is not a finite number.",
                at / cols,
                at % cols
            ));
        }
        Ok(Table { rows, cols, data })
    }

    /// Reads a 2-D NPY file of float32 or float16 (little-endian, C order).
    pub fn from_npy(bytes: &[u8]) -> Result<Table, String> {
        if bytes.len() > MAX_FILE_BYTES {
            return Err(format!("the file is over {} MB.", MAX_FILE_BYTES >> 20));
        }
        if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
            return Err("this is not an NPY file (no \\x93NUMPY signature).".into());
        }
        let (header_len, start) = match bytes[6] {
            1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
            2 | 3 if bytes.len() >= 12 => (
                u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
                12,
            ),
            v => return Err(format!("NPY version {v} is not supported.")),
        };
        let header = bytes
            .get(start..start + header_len)
            .ok_or("the NPY header is cut short.")?;
        let header = std::str::from_utf8(header).map_err(|_| "the NPY header is not text.")?;
        let field = |key: &str| -> Option<&str> {
            let at = header.find(&format!("'{key}'"))? + key.len() + 2;
            let rest = header[at..].trim_start().strip_prefix(':')?.trim_start();
            Some(rest)
        };
        let descr = field("descr").ok_or("the NPY header has no 'descr'.")?;
        let width = if descr.starts_with("'<f4'") || descr.starts_with("'=f4'") {
            4
        } else if descr.starts_with("'<f2'") || descr.starts_with("'=f2'") {
            2
        } else {
            let shown: String = descr.chars().take(8).collect();
            return Err(format!(
                "dtype {shown} is not supported: use float32 or float16 (little-endian)."
            ));
        };
        if field("fortran_order").is_some_and(|f| f.starts_with("True")) {
            return Err(
                "Fortran-ordered arrays are not supported: save with np.ascontiguousarray.".into(),
            );
        }
        let shape = field("shape").ok_or("the NPY header has no 'shape'.")?;
        let inner = shape
            .strip_prefix('(')
            .and_then(|s| s.split(')').next())
            .ok_or("the NPY shape is malformed.")?;
        let dims: Vec<usize> = inner
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<usize>()
                    .map_err(|_| "the NPY shape is malformed.")
            })
            .collect::<Result<_, _>>()?;
        let [rows, cols] = dims[..] else {
            return Err(format!(
                "the array has {} dimensions; a position table has 2 (positions × dims).",
                dims.len()
            ));
        };
        if rows.saturating_mul(cols) > MAX_CELLS {
            return Err(format!(
                "{rows} × {cols} is larger than the {MAX_CELLS} cells this page reads."
            ));
        }
        let body = &bytes[start + header_len..];
        if body.len() != rows * cols * width {
            return Err(format!(
                "the data holds {} bytes, but {rows} × {cols} values need {}.",
                body.len(),
                rows * cols * width
            ));
        }
        let data: Vec<f32> = if width == 4 {
            body.chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        } else {
            body.chunks_exact(2)
                .map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
                .collect()
        };
        Table::checked(rows, cols, data)
    }

    /// Reads CSV text: one line per position, comma-separated numbers; a first line that is not
    /// numeric is taken as a header.
    pub fn from_csv(text: &str) -> Result<Table, String> {
        if text.len() > MAX_FILE_BYTES {
            return Err(format!("the file is over {} MB.", MAX_FILE_BYTES >> 20));
        }
        let mut data = Vec::new();
        let mut cols = 0;
        let mut rows = 0;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let parsed: Result<Vec<f32>, _> = line.split(',').map(parse_cell).collect();
            match parsed {
                Ok(values) => {
                    if rows == 0 {
                        cols = values.len();
                    } else if values.len() != cols {
                        return Err(format!(
                            "line {} has {} values; the first row has {cols}.",
                            n + 1,
                            values.len()
                        ));
                    }
                    rows += 1;
                    if rows * cols > MAX_CELLS {
                        return Err(format!(
                            "more than {MAX_CELLS} values: too large for this page."
                        ));
                    }
                    data.extend(values);
                }
                Err(_) if rows == 0 && n == 0 => continue,
                Err(_) => {
                    return Err(format!(
                        "line {} holds something that is not a number.",
                        n + 1
                    ))
                }
            }
        }
        Table::checked(rows, cols, data)
    }

    /// Euclidean norm of a row.
    pub fn norm(&self, pos: usize) -> f64 {
        self.row(pos)
            .iter()
            .map(|&v| (v as f64) * (v as f64))
            .sum::<f64>()
            .sqrt()
    }

    /// Cosine similarity of two rows.
    pub fn cosine(&self, a: usize, b: usize) -> f64 {
        let dot: f64 = self
            .row(a)
            .iter()
            .zip(self.row(b))
            .map(|(&x, &y)| x as f64 * y as f64)
            .sum();
        dot / (self.norm(a) * self.norm(b)).max(f64::MIN_POSITIVE)
    }
}

/// Cosine similarity between sampled positions (`positions × positions`, row-major).
#[derive(Clone, Debug, PartialEq)]
pub struct CosineMatrix {
    pub positions: Vec<usize>,
    pub values: Vec<f64>,
}

/// At most this many positions enter the cosine matrix (more are sampled at a stride).
pub const COSINE_SAMPLES: usize = 512;
/// Multiply-adds the cosine matrix may cost; wide tables get fewer samples.
const COSINE_BUDGET: usize = 60_000_000;

/// Positions in the quick matrix drawn while a slider moves (refined once it rests).
pub const QUICK_COSINE_SAMPLES: usize = 96;

impl CosineMatrix {
    pub fn new(table: &Table) -> CosineMatrix {
        Self::sampled(table, COSINE_SAMPLES)
    }

    /// A coarser matrix (at most [`QUICK_COSINE_SAMPLES`] positions, a few milliseconds at
    /// any table size) for the paints made while a control moves.
    pub fn quick(table: &Table) -> CosineMatrix {
        Self::sampled(table, QUICK_COSINE_SAMPLES)
    }

    /// [`CosineMatrix::quick`] of a table's rows `0, stride, 2·stride, …` (`rows`, drawn
    /// alone), its positions those of the whole table.
    pub fn quick_from_rows(rows: &Table, stride: usize) -> CosineMatrix {
        let mut m = Self::quick(rows);
        for p in &mut m.positions {
            *p *= stride.max(1);
        }
        m
    }

    /// The multiply-adds [`CosineMatrix::new`] does for a `rows × cols` table (its upper
    /// triangle): what its cost grows in proportion to.
    pub fn work(rows: usize, cols: usize) -> f64 {
        let n = rows.div_ceil(Self::stride(rows, cols, COSINE_SAMPLES)) as f64;
        n * (n + 1.0) / 2.0 * cols as f64
    }

    /// The stride between the positions sampled from a `rows × cols` table, at most `most`.
    fn stride(rows: usize, cols: usize, most: usize) -> usize {
        let affordable = ((2 * COSINE_BUDGET / cols.max(1)) as f64).sqrt() as usize;
        let samples = affordable.clamp(128, COSINE_SAMPLES).min(most);
        rows.div_ceil(samples).max(1)
    }

    fn sampled(table: &Table, most: usize) -> CosineMatrix {
        let stride = Self::stride(table.rows, table.cols, most);
        let positions: Vec<usize> = (0..table.rows).step_by(stride).collect();
        let c = table.cols;
        let n = positions.len();
        // The sampled rows scaled to unit length, contiguous.
        let mut rows: Vec<f32> = Vec::with_capacity(n * c);
        for &p in &positions {
            let norm = table.norm(p).max(f64::MIN_POSITIVE) as f32;
            rows.extend(table.row(p).iter().map(|v| v / norm));
        }
        let row = |i: usize| &rows[i * c..(i + 1) * c];
        let mut values = vec![0.0; n * n];
        // Upper triangle, row by row (sequential writes), four columns per pass over row a.
        for a in 0..n {
            let ra = row(a);
            let out = &mut values[a * n..(a + 1) * n];
            let mut b = a;
            while b + 4 <= n {
                let d = dot4_f32(ra, [row(b), row(b + 1), row(b + 2), row(b + 3)]);
                for (l, v) in d.iter().enumerate() {
                    out[b + l] = *v as f64;
                }
                b += 4;
            }
            for (b, v) in out.iter_mut().enumerate().skip(b) {
                *v = dot_f32(ra, row(b)) as f64;
            }
        }
        // Mirror into the lower triangle in tiles, so that both sides stay in cache.
        const TILE: usize = 32;
        for ta in (0..n).step_by(TILE) {
            for tb in (ta..n).step_by(TILE) {
                for a in ta..(ta + TILE).min(n) {
                    for b in tb.max(a + 1)..(tb + TILE).min(n) {
                        values[b * n + a] = values[a * n + b];
                    }
                }
            }
        }
        CosineMatrix { positions, values }
    }

    /// Whether every position is present (no sampling).
    pub fn exact(&self) -> bool {
        self.positions.len() < 2 || self.positions[1] == 1
    }
}

/// Mean cosine similarity of positions `p` and `p + k`, against the offset `k`.
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetCurve {
    /// Offsets are `0, stride, 2·stride, …` (1 unless the table is very large).
    pub stride: usize,
    /// `mean[i]` is the mean over every sampled pair at offset `i · stride`.
    pub mean: Vec<f64>,
}

/// Butterflies the offset curve may cost: `⌈cols/2⌉ · m · log2 m` for FFTs of length `m`.
const OFFSET_BUDGET: usize = 6_000_000;

impl OffsetCurve {
    /// Every offset at once through the Wiener–Khinchin identity: the sum over columns of
    /// each column's autocorrelation is the inverse FFT of the summed power spectra. That is
    /// `O(d · n log n)` instead of the `O(n² · d)` of all pairwise dot products; two real
    /// columns share one complex FFT. Computed in f64 from the unit-normalised rows.
    pub fn new(table: &Table) -> OffsetCurve {
        let c = table.cols;
        let cost = |n: usize| {
            let m = (2 * n).next_power_of_two();
            c.div_ceil(2) * m * m.trailing_zeros() as usize
        };
        let mut stride = 1;
        while table.rows.div_ceil(stride) > 2 && cost(table.rows.div_ceil(stride)) > OFFSET_BUDGET {
            stride *= 2;
        }
        let positions: Vec<usize> = (0..table.rows).step_by(stride).collect();
        let n = positions.len();
        // Unit-normalised sampled rows, stored column after column.
        let mut series = vec![0.0f32; n * c];
        for (i, &p) in positions.iter().enumerate() {
            let inv = 1.0 / table.norm(p).max(f64::MIN_POSITIVE);
            for (j, v) in table.row(p).iter().enumerate() {
                series[j * n + i] = (*v as f64 * inv) as f32;
            }
        }
        let sums = summed_autocorrelation(&series, n, c);
        let mean = (0..n).map(|k| sums[k] / (n - k) as f64).collect();
        OffsetCurve { stride, mean }
    }
}

/// Rows used to fit the principal components.
pub const PCA_FIT_ROWS: usize = 256;
/// Most power iterations (they stop earlier once converged).
const PCA_ITERATIONS: usize = 60;

/// Projection of every position on the table's top two principal components.
#[derive(Clone, Debug, PartialEq)]
pub struct Pca {
    /// `(pc1, pc2)` per position.
    pub points: Vec<(f64, f64)>,
    /// Fraction of the total variance each component explains.
    pub explained: (f64, f64),
    /// The components (unit vectors of length `cols`).
    pub components: [Vec<f64>; 2],
}

impl Pca {
    /// Top-two PCA of the centred rows by subspace (block power) iteration. The components
    /// are fitted on at most [`PCA_FIT_ROWS`] rows (evenly spread); every row is projected.
    pub fn new(table: &Table) -> Pca {
        let (n, c) = (table.rows, table.cols);
        let mut mean = vec![0.0; c];
        for i in 0..n {
            mean.iter_mut()
                .zip(table.row(i))
                .for_each(|(m, v)| *m += *v as f64);
        }
        mean.iter_mut().for_each(|m| *m /= n as f64);
        let x: Vec<f64> = (0..n * c)
            .map(|k| table.data[k] as f64 - mean[k % c])
            .collect();
        let total: f64 = x.iter().map(|v| v * v).sum();
        let fit: Vec<usize> = (0..n).step_by(n.div_ceil(PCA_FIT_ROWS).max(1)).collect();
        // X^T (X u) and X^T (X w) over the fitted rows, in one pass, without forming the
        // covariance.
        let apply = |u: &[f64], w: &[f64]| -> (Vec<f64>, Vec<f64>) {
            let (mut xu, mut xw) = (vec![0.0; c], vec![0.0; c]);
            for &i in &fit {
                let row = &x[i * c..(i + 1) * c];
                axpy_f64(&mut xu, dot_f64(row, u), row);
                axpy_f64(&mut xw, dot_f64(row, w), row);
            }
            (xu, xw)
        };
        let normalise = |v: &mut Vec<f64>| {
            let norm = v
                .iter()
                .map(|a| a * a)
                .sum::<f64>()
                .sqrt()
                .max(f64::MIN_POSITIVE);
            v.iter_mut().for_each(|a| *a /= norm);
        };
        let mut rng = SeededNormal::new(7);
        let mut u = rng.vector(c);
        let mut w = rng.vector(c);
        let moved = |a: &[f64], b: &[f64]| {
            a.iter()
                .zip(b)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f64::max)
        };
        for _ in 0..PCA_ITERATIONS {
            let (old_u, old_w) = (u.clone(), w.clone());
            (u, w) = apply(&u, &w);
            normalise(&mut u);
            let along: f64 = w.iter().zip(&u).map(|(a, b)| a * b).sum();
            w.iter_mut().zip(&u).for_each(|(a, b)| *a -= along * b);
            normalise(&mut w);
            if moved(&u, &old_u) < 1e-10 && moved(&w, &old_w) < 1e-10 {
                break;
            }
        }
        // A deterministic sign: the first position has a non-negative coordinate.
        let project = |v: &[f64], i: usize| -> f64 { dot_f64(&x[i * c..(i + 1) * c], v) };
        if project(&u, 0) < 0.0 {
            u.iter_mut().for_each(|a| *a = -*a);
        }
        if project(&w, 0) < 0.0 {
            w.iter_mut().for_each(|a| *a = -*a);
        }
        let points: Vec<(f64, f64)> = (0..n).map(|i| (project(&u, i), project(&w, i))).collect();
        let total = total.max(f64::MIN_POSITIVE);
        let (var_u, var_w) = points
            .iter()
            .fold((0.0, 0.0), |(a, b), (p, q)| (a + p * p, b + q * q));
        Pca {
            points,
            explained: (var_u / total, var_w / total),
            components: [u, w],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_precision_values() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert!(f16_to_f32(0x7e00).is_nan());
        assert_eq!(f16_to_f32(0xfc00), f32::NEG_INFINITY);
    }

    #[test]
    fn npy_round_trip_and_errors() {
        let mut bytes = crate::export::npy::header_f32(&[2, 3]);
        crate::export::npy::push_f32(&mut bytes, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.5]);
        let t = Table::from_npy(&bytes).unwrap();
        assert_eq!((t.rows, t.cols), (2, 3));
        assert_eq!(t.get(1, 2), 6.5);
        assert!(Table::from_npy(b"hello")
            .unwrap_err()
            .contains("not an NPY"));
        let mut short = bytes.clone();
        short.pop();
        assert!(Table::from_npy(&short).unwrap_err().contains("bytes"));
        let three_d = crate::export::npy::header_f32(&[1, 1, 1]);
        assert!(Table::from_npy(&[three_d, vec![0; 4]].concat())
            .unwrap_err()
            .contains("dimensions"));
        let mut nan = crate::export::npy::header_f32(&[2, 3]);
        crate::export::npy::push_f32(&mut nan, &[1.0, 2.0, 3.0, 4.0, f64::NAN, 6.0]);
        assert_eq!(
            Table::from_npy(&nan).unwrap_err(),
            "the value at position 1, dimension 1 (both counted from 0) is not a finite number."
        );
    }

    #[test]
    fn cosine_matrices_hold_the_cosines_of_their_positions() {
        let t = Table::random(2048, 96, 5);
        let full = CosineMatrix::new(&t);
        let quick = CosineMatrix::quick(&t);
        assert_eq!(full.positions.len(), COSINE_SAMPLES);
        assert!((QUICK_COSINE_SAMPLES / 2..=QUICK_COSINE_SAMPLES).contains(&quick.positions.len()));
        for m in [&full, &quick] {
            let n = m.positions.len();
            assert_eq!(m.values.len(), n * n);
            for (a, &p) in m.positions.iter().enumerate().step_by(7) {
                for (b, &q) in m.positions.iter().enumerate().step_by(5) {
                    assert!(
                        (m.values[a * n + b] - t.cosine(p, q)).abs() < 1e-5,
                        "{p} {q}"
                    );
                }
            }
        }
        // A small table is exact at either size.
        let small = Table::random(40, 8, 1);
        assert!(CosineMatrix::quick(&small).exact());
        // The work told for a shape is that of the matrix built for it: its upper triangle.
        for (rows, cols) in [(2048, 96), (40, 8), (2048, 768), (512, 384)] {
            let n = CosineMatrix::new(&Table::random(rows, cols, 2))
                .positions
                .len() as f64;
            assert_eq!(
                CosineMatrix::work(rows, cols),
                n * (n + 1.0) / 2.0 * cols as f64
            );
        }
        // A wide table samples fewer positions: about the same budget.
        let (narrow, wide) = (CosineMatrix::work(2048, 96), CosineMatrix::work(2048, 768));
        assert!(wide > narrow && wide < 2.0 * COSINE_BUDGET as f64);
    }

    #[test]
    fn offset_curve_equals_the_direct_sums() {
        for (rows, cols) in [(1, 3), (2, 1), (37, 5), (64, 8), (100, 17)] {
            let t = Table::random(rows, cols, 3);
            let curve = OffsetCurve::new(&t);
            assert_eq!((curve.stride, curve.mean.len()), (1, rows));
            let cosine = |p: usize, q: usize| {
                let dot: f64 = (0..cols)
                    .map(|j| t.get(p, j) as f64 * t.get(q, j) as f64)
                    .sum();
                dot / (t.norm(p) * t.norm(q))
            };
            for k in 0..rows {
                let direct =
                    (0..rows - k).map(|p| cosine(p, p + k)).sum::<f64>() / (rows - k) as f64;
                // f32 FFTs of unit vectors: a few ulps of f32.
                assert!((curve.mean[k] - direct).abs() < 2e-6, "{rows}×{cols} k={k}");
            }
        }
        // Large tables are sampled at a power-of-two stride within the budget.
        let big = OffsetCurve::new(&Table::random(4096, 1024, 1));
        assert!(big.stride > 1 && big.stride.is_power_of_two());
        assert_eq!(big.mean.len(), 4096usize.div_ceil(big.stride));
        assert!((big.mean[0] - 1.0).abs() < 1e-6);
    }

    #[test]
    fn csv_reading_with_header_and_errors() {
        let t = Table::from_csv("a,b\n1,2\n3,4\n").unwrap();
        assert_eq!((t.rows, t.cols, t.get(1, 0)), (2, 2, 3.0));
        assert!(Table::from_csv("1,2\n3\n").unwrap_err().contains("line 2"));
        assert!(Table::from_csv("1,2\nx,4\n")
            .unwrap_err()
            .contains("not a number"));
        assert!(Table::from_csv("").unwrap_err().contains("empty"));
        assert!(Table::from_csv("1,inf\n").unwrap_err().contains("finite"));
    }

    #[test]
    fn pca_finds_known_components() {
        // Points spread 3:1 along two orthogonal directions in 4-D, plus a constant offset.
        let e1 = [0.6, 0.8, 0.0, 0.0];
        let e2 = [0.0, 0.0, 0.0, 1.0];
        let mut data = Vec::new();
        for i in 0..200 {
            let t = i as f64 / 199.0 * 2.0 - 1.0;
            let s = ((i * 37) % 200) as f64 / 199.0 * 2.0 - 1.0;
            for j in 0..4 {
                data.push((5.0 + 3.0 * t * e1[j] + 1.0 * s * e2[j]) as f32);
            }
        }
        let pca = Pca::new(&Table {
            rows: 200,
            cols: 4,
            data,
        });
        let dot = |a: &[f64], b: &[f64; 4]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>().abs();
        assert!(
            dot(&pca.components[0], &e1) > 0.999,
            "{:?}",
            pca.components[0]
        );
        assert!(
            dot(&pca.components[1], &e2) > 0.999,
            "{:?}",
            pca.components[1]
        );
        assert!((pca.explained.0 + pca.explained.1 - 1.0).abs() < 1e-6);
        assert!((pca.explained.0 / pca.explained.1 - 9.0).abs() < 0.5);
    }

    #[test]
    fn random_tables_have_the_init_scale() {
        let t = Table::random(100, 50, 3);
        let var = t.data.iter().map(|v| (*v as f64).powi(2)).sum::<f64>() / t.data.len() as f64;
        assert!((var.sqrt() - 0.02).abs() < 0.002);
        assert_eq!(t, Table::random(100, 50, 3));
        // Every fourth row alone: the same rows.
        let some = Table::random_rows(100, 50, 3, 4);
        assert_eq!(some.rows, 25);
        for k in 0..25 {
            assert_eq!(some.row(k), t.row(4 * k));
        }
    }
}
