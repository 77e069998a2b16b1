//! What finite precision does to RoPE at long context, path by path as real code computes it.
//!
//! Five computation paths of the rotary angles `angle[p][j] = p · inv_freq_j` and their cos and
//! sin, each reproducing one real implementation's arithmetic, cast by cast (IEEE
//! round-to-nearest-even at every cast; the product of two bfloat16 or two float16 numbers is
//! exact in float32, so the low-precision paths multiply in float32 and round once):
//!
//! - [`Path::Exact`]: float64 throughout.
//! - [`Path::HfF32`]: transformers' `LlamaRotaryEmbedding` on float32 inputs: inv_freq as torch
//!   computes it (`2j / D` in float32, the power of the Python float `theta` in float64 rounded
//!   to float32, `1 / x` in float32), positions and angles in float32, cos/sin in float32.
//! - [`Path::HfBf16`]: the same module with bfloat16 inputs: as `HfF32`, then cos/sin rounded
//!   to bfloat16 (transformers' PR 29285 keeps the angles in float32).
//! - [`Path::Bf16Cache`]: GPT-NeoX before its PR 1041 (issue 1003) under `model.bfloat16()`: inv_freq,
//!   positions and angles in bfloat16.
//! - [`Path::Fp16Seq`]: Megatron-LM's `seq.type_as(inv_freq)` (its issue 535) in float16:
//!   positions past 65519 become infinite, their angles too, and cos/sin of them NaN.

use half::{bf16, f16};

/// A computation path of the rotary angles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    Exact,
    HfF32,
    HfBf16,
    Bf16Cache,
    Fp16Seq,
}

impl Path {
    pub const ALL: [Path; 5] = [
        Path::Exact,
        Path::HfF32,
        Path::HfBf16,
        Path::Bf16Cache,
        Path::Fp16Seq,
    ];

    /// What the path is, in a few words, where a student reads it (legends, read-outs, labels).
    pub fn label(self) -> &'static str {
        match self {
            Path::Exact => "exact (float64)",
            Path::HfF32 => "transformers, float32",
            Path::HfBf16 => "transformers, bfloat16 cos/sin",
            Path::Bf16Cache => "GPT-NeoX bfloat16 cache",
            Path::Fp16Seq => "Megatron float16 positions",
        }
    }

    /// The name in URLs and CSV headers.
    pub fn name(self) -> &'static str {
        match self {
            Path::Exact => "exact",
            Path::HfF32 => "hf_f32",
            Path::HfBf16 => "hf_bf16",
            Path::Bf16Cache => "bf16_cache",
            Path::Fp16Seq => "fp16_seq",
        }
    }

    pub fn from_name(name: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The position as this path stores it.
    pub fn stored_position(self, pos: u64) -> f64 {
        match self {
            Path::Exact => pos as f64,
            Path::HfF32 | Path::HfBf16 => pos as f32 as f64,
            Path::Bf16Cache => bf16::from_f64(pos as f64).to_f64(),
            Path::Fp16Seq => f16::from_f64(pos as f64).to_f64(),
        }
    }
}

/// Rounds a float32 to the nearest bfloat16 (ties to even), as a float32.
pub fn to_bf16(x: f32) -> f32 {
    bf16::from_f32(x).to_f32()
}

/// Rounds a float32 to the nearest float16 (ties to even; ±inf past 65519.99…), as a float32.
pub fn to_f16(x: f32) -> f32 {
    f16::from_f32(x).to_f32()
}

/// inv_freq as torch computes it for `1.0 / (theta ** (torch.arange(0, D, 2).float() / D))`.
pub fn torch_inv_freq(head_dim: usize, theta: f64) -> Vec<f32> {
    (0..head_dim / 2)
        .map(|j| {
            let exponent = (2 * j) as f32 / head_dim as f32;
            let power = theta.powf(f64::from(exponent)) as f32;
            1.0f32 / power
        })
        .collect()
}

/// The rotation frequencies `inv_freq_j` of a path (as the path stores them).
pub fn inv_freq(path: Path, head_dim: usize, theta: f64) -> Vec<f64> {
    let pairs = head_dim / 2;
    match path {
        Path::Exact => (0..pairs)
            .map(|j| theta.powf(-((2 * j) as f64) / head_dim as f64))
            .collect(),
        Path::HfF32 | Path::HfBf16 => torch_inv_freq(head_dim, theta)
            .into_iter()
            .map(f64::from)
            .collect(),
        Path::Bf16Cache => torch_inv_freq(head_dim, theta)
            .into_iter()
            .map(|w| f64::from(to_bf16(w)))
            .collect(),
        Path::Fp16Seq => torch_inv_freq(head_dim, theta)
            .into_iter()
            .map(|w| f64::from(to_f16(w)))
            .collect(),
    }
}

/// One position under one path: its stored value, and per pair the angle, cos and sin, each
/// as the path's dtype holds it (widened to f64; inf and NaN kept).
#[derive(Clone, Debug, PartialEq)]
pub struct Rotation {
    pub position: f64,
    pub angle: Vec<f64>,
    pub cos: Vec<f64>,
    pub sin: Vec<f64>,
}

/// The angles, cos and sin of `pos` under `path`, given the path's `inv_freq`
/// (from [`inv_freq`]).
pub fn rotation(path: Path, inv_freq: &[f64], pos: u64) -> Rotation {
    let position = path.stored_position(pos);
    let pairs = inv_freq.len();
    let mut angle = Vec::with_capacity(pairs);
    let mut cos = Vec::with_capacity(pairs);
    let mut sin = Vec::with_capacity(pairs);
    for &w in inv_freq {
        let (a, c, s) = match path {
            Path::Exact => {
                let a = position * w;
                (a, a.cos(), a.sin())
            }
            Path::HfF32 | Path::HfBf16 => {
                let a = position as f32 * w as f32;
                let (c, s) = (a.cos(), a.sin());
                if path == Path::HfBf16 {
                    (f64::from(a), f64::from(to_bf16(c)), f64::from(to_bf16(s)))
                } else {
                    (f64::from(a), f64::from(c), f64::from(s))
                }
            }
            Path::Bf16Cache => {
                let a = to_bf16(position as f32 * w as f32);
                (
                    f64::from(a),
                    f64::from(to_bf16(a.cos())),
                    f64::from(to_bf16(a.sin())),
                )
            }
            Path::Fp16Seq => {
                let a = to_f16(position as f32 * w as f32);
                (
                    f64::from(a),
                    f64::from(to_f16(a.cos())),
                    f64::from(to_f16(a.sin())),
                )
            }
        };
        angle.push(a);
        cos.push(c);
        sin.push(s);
    }
    Rotation {
        position,
        angle,
        cos,
        sin,
    }
}

/// The angles of `pos` under `path` (as the path stores them), without their cos and sin.
pub fn angles(path: Path, inv_freq: &[f64], pos: u64) -> Vec<f64> {
    let position = path.stored_position(pos);
    inv_freq
        .iter()
        .map(|&w| path_angle(path, position, w))
        .collect()
}

/// One pair's angle under `path`, for a position as the path stores it.
fn path_angle(path: Path, position: f64, w: f64) -> f64 {
    match path {
        Path::Exact => position * w,
        Path::HfF32 | Path::HfBf16 => f64::from(position as f32 * w as f32),
        Path::Bf16Cache => f64::from(to_bf16(position as f32 * w as f32)),
        Path::Fp16Seq => f64::from(to_f16(position as f32 * w as f32)),
    }
}

/// The largest wrapped error of `path_angles` against `exact_angles` (NaN if any is not
/// finite).
pub fn largest_error(path_angles: &[f64], exact_angles: &[f64]) -> f64 {
    path_angles
        .iter()
        .zip(exact_angles)
        .map(|(&a, &e)| wrapped_difference(a, e).abs())
        .fold(0.0, |m, e| {
            if e.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(e)
            }
        })
}

/// `a − b` wrapped to (−π, π]: how far a path's angle is from the exact one, as a rotation.
/// NaN when either is not finite.
pub fn wrapped_difference(a: f64, b: f64) -> f64 {
    if !a.is_finite() || !b.is_finite() {
        return f64::NAN;
    }
    let tau = std::f64::consts::TAU;
    let d = (a - b).rem_euclid(tau);
    if d > std::f64::consts::PI {
        d - tau
    } else {
        d
    }
}

/// The `q = k = 1` scores of a query at `m` with the keys `d` back, for each `d` in
/// `distances` (all ≤ `m`): each pair rotated with the path's cos/sin, the dot accumulated in
/// f64, `Σ_j 2·(cos_m cos_n + sin_m sin_n)` (two dimensions a pair). The query is rotated once,
/// and consecutive keys the path stores at one position once.
pub fn scores(path: Path, inv_freq: &[f64], m: u64, distances: &[u64]) -> Vec<f64> {
    let q = rotation(path, inv_freq, m);
    let mut last_key: Option<(f64, f64)> = None;
    distances
        .iter()
        .map(|&d| {
            let n = m.saturating_sub(d);
            let stored = path.stored_position(n);
            if let Some((at, value)) = last_key {
                if at == stored {
                    return value;
                }
            }
            let k = rotation(path, inv_freq, n);
            let value = (0..inv_freq.len())
                .map(|j| 2.0 * (q.cos[j] * k.cos[j] + q.sin[j] * k.sin[j]))
                .sum();
            last_key = Some((stored, value));
            value
        })
        .collect()
}

/// How many distinct stored positions a path has among `0..=pos` (in O(log pos) steps: the
/// stored values of integers are every integer below 2^p, then every representable value,
/// binade by binade; an infinite position counts as one value).
pub fn distinct_positions(path: Path, pos: u64) -> u64 {
    let significant_bits = match path {
        Path::Exact => return pos + 1,
        Path::HfF32 | Path::HfBf16 => 24,
        Path::Bf16Cache => 8,
        Path::Fp16Seq => 11,
    };
    let top = path.stored_position(pos);
    if top.is_infinite() {
        // Every finite value up to the largest finite one, and the infinity.
        let largest_finite = match path {
            Path::Fp16Seq => f16::MAX.to_f64(),
            _ => bf16::MAX.to_f64(),
        };
        return distinct_rounded(significant_bits, largest_finite) + 1;
    }
    distinct_rounded(significant_bits, top)
}

/// The number of values a binary float with `significant_bits` takes on the integers `0..=N`,
/// where `top` is the value `N` rounds to.
fn distinct_rounded(significant_bits: u32, top: f64) -> u64 {
    let exact = 1u64 << significant_bits;
    if top < exact as f64 {
        return top as u64 + 1;
    }
    let mut count = exact;
    let mut e = significant_bits;
    while e < 63 && ((1u64 << e) as f64) <= top {
        let low = 1u64 << e;
        let spacing = 1u64 << (e + 1 - significant_bits);
        let high = ((1u64 << (e + 1)) - spacing).min(top as u64);
        count += (high - low) / spacing + 1;
        e += 1;
    }
    count
}

/// Angle errors below this are drawn at it (a log axis has no zero).
pub const ERROR_FLOOR_RAD: f64 = 1e-12;

/// Positions up to this are scanned one by one for [`first_break`]; past it, only samples.
pub const EXACT_BREAK_SCAN: u64 = 1 << 16;

/// The first of `positions` (in order) at which some pair's angle under `path` is off the
/// exact angle by more than `threshold_rad` (or is not finite).
pub fn first_break(
    path: Path,
    head_dim: usize,
    theta: f64,
    threshold_rad: f64,
    positions: impl IntoIterator<Item = u64>,
) -> Option<u64> {
    let exact_inv = inv_freq(Path::Exact, head_dim, theta);
    let path_inv = inv_freq(path, head_dim, theta);
    // Pair by pair, stopping at the first pair over the threshold: no allocation per position
    // (the readout scans up to EXACT_BREAK_SCAN positions when the controls rest).
    positions.into_iter().find(|&pos| {
        let stored = path.stored_position(pos);
        path_inv.iter().zip(&exact_inv).any(|(&w, &exact_w)| {
            let e = wrapped_difference(path_angle(path, stored, w), pos as f64 * exact_w);
            e.is_nan() || e.abs() > threshold_rad
        })
    })
}

#[cfg(test)]
mod break_tests {
    use super::*;

    #[test]
    fn first_break_is_the_first_position_whose_largest_error_passes_the_threshold() {
        for path in [Path::Bf16Cache, Path::Fp16Seq] {
            let (ex, inv) = (inv_freq(Path::Exact, 64, 500.0), inv_freq(path, 64, 500.0));
            let by_vectors = (1..=4096u64).find(|&p| {
                let e = largest_error(&angles(path, &inv, p), &angles(Path::Exact, &ex, p));
                e.is_nan() || e > 0.05
            });
            assert_eq!(first_break(path, 64, 500.0, 0.05, 1..=4096), by_vectors);
            assert!(by_vectors.is_some());
        }
        assert_eq!(first_break(Path::Exact, 64, 500.0, 0.05, 1..=4096), None);
    }
}
