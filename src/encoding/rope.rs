//! Rotary position embedding (RoPE, Su et al. 2021) and its context-extension methods, with
//! the exact semantics of Hugging Face transformers 5.x (`modeling_rope_utils`).
//!
//! Words: `head_dim` h; `partial` ρ, the rotary fraction; rotary width `D = int(h·ρ)` rounded
//! down to an even number; pair `j` in `0..D/2` with inverse frequency `θ_j = theta^(−2j/D)`;
//! `α` the attention factor, which multiplies cos and sin (so scores scale by `α²`).
//! Pairing layouts: interleaved (dims `2j, 2j+1`: RoFormer, GPT-J) and half-split
//! (`rotate_half`, dims `j, j + D/2`: HF LLaMA, GPT-NeoX). Dims at or past `D` pass through.
//!
//! About 600 lines with its tests: the scaling methods share the frequency code here, and
//! each follows its transformers function line by line.

use std::f64::consts::TAU;

pub use super::series::weighted_series;

/// Which dims form the rotated pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PairLayout {
    /// Dims `2j, 2j+1` (RoFormer, GPT-J, Meta's original LLaMA).
    Interleaved,
    /// Dims `j, j + D/2` (`rotate_half`: HF LLaMA, GPT-NeoX).
    #[default]
    Half,
}

impl PairLayout {
    pub const ALL: [PairLayout; 2] = [PairLayout::Interleaved, PairLayout::Half];

    pub fn name(self) -> &'static str {
        match self {
            PairLayout::Interleaved => "interleaved",
            PairLayout::Half => "half",
        }
    }

    /// The two dims of pair `j` for rotary width `d`.
    pub fn dims(self, j: usize, d: usize) -> (usize, usize) {
        match self {
            PairLayout::Interleaved => (2 * j, 2 * j + 1),
            PairLayout::Half => (j, j + d / 2),
        }
    }
}

/// The rotary width for a head: `int(head_dim · partial)`, made even (a lone dim cannot rotate).
pub fn rotary_dim(head_dim: usize, partial: f64) -> usize {
    let d = (head_dim as f64 * partial).floor() as usize;
    d.min(head_dim) & !1
}

/// `θ_j = theta^(−2j/D)` for `j` in `0..D/2`.
pub fn base_inv_freq(theta: f64, d: usize) -> Vec<f64> {
    base_inv_freq_by(theta, d, f64::powf)
}

/// [`base_inv_freq`], with the power taken by `pow` (the Train it yourself view takes
/// `libm`'s, the same on every platform).
pub fn base_inv_freq_by(theta: f64, d: usize, pow: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    (0..d / 2)
        .map(|j| pow(theta, -((2 * j) as f64) / d as f64))
        .collect()
}

/// A RoPE context-extension method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, PartialOrd, Ord)]
pub enum Method {
    #[default]
    None,
    Linear,
    Ntk,
    Dynamic,
    Yarn,
    LongRope,
    Llama3,
}

impl Method {
    pub const ALL: [Method; 7] = [
        Method::None,
        Method::Linear,
        Method::Ntk,
        Method::Dynamic,
        Method::Yarn,
        Method::LongRope,
        Method::Llama3,
    ];

    /// The name in URLs, CSV headers and `rope_type`.
    pub fn name(self) -> &'static str {
        match self {
            Method::None => "none",
            Method::Linear => "linear",
            Method::Ntk => "ntk",
            Method::Dynamic => "dynamic",
            Method::Yarn => "yarn",
            Method::LongRope => "longrope",
            Method::Llama3 => "llama3",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Method::None => "none (original RoPE)",
            Method::Linear => "linear (position interpolation)",
            Method::Ntk => "NTK-aware (static base change)",
            Method::Dynamic => "dynamic NTK",
            Method::Yarn => "YaRN",
            Method::LongRope => "LongRoPE",
            Method::Llama3 => "Llama 3",
        }
    }

    /// The short name a student reads in legends and read-outs.
    pub fn label(self) -> &'static str {
        match self {
            Method::None => "original",
            Method::Linear => "linear (PI)",
            Method::Ntk => "NTK-aware",
            Method::Dynamic => "dynamic NTK",
            Method::Yarn => "YaRN",
            Method::LongRope => "LongRoPE",
            Method::Llama3 => "Llama 3",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        let name = name.trim().to_ascii_lowercase();
        let name = match name.as_str() {
            "default" => "none",
            "pi" => "linear",
            other => other,
        };
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Every parameter of every method. Unused ones are ignored by the others.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingParams {
    /// `factor` s.
    pub factor: f64,
    /// `original_max_position_embeddings` L0: the trained context (for dynamic, the config's
    /// `max_position_embeddings` L, which transformers uses there).
    pub orig_ctx: usize,
    /// The current sequence length n (dynamic and longrope depend on it); `None` = at init.
    pub seq_len: Option<usize>,
    pub beta_fast: f64,
    pub beta_slow: f64,
    /// `attention_factor`, when given explicitly (YaRN, LongRoPE).
    pub attn_factor: Option<f64>,
    pub mscale: Option<f64>,
    pub mscale_all_dim: Option<f64>,
    /// YaRN's rounding of its correction range.
    pub truncate: bool,
    pub low_freq_factor: f64,
    pub high_freq_factor: f64,
    pub short_factor: Vec<f64>,
    pub long_factor: Vec<f64>,
}

impl Default for ScalingParams {
    fn default() -> Self {
        ScalingParams {
            factor: 4.0,
            orig_ctx: 4096,
            seq_len: None,
            beta_fast: 32.0,
            beta_slow: 1.0,
            attn_factor: None,
            mscale: None,
            mscale_all_dim: None,
            truncate: true,
            low_freq_factor: 1.0,
            high_freq_factor: 4.0,
            short_factor: Vec::new(),
            long_factor: Vec::new(),
        }
    }
}

/// Frequencies after a method, with what else the method decided.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled {
    pub method: Method,
    pub inv_freq: Vec<f64>,
    /// `α`, multiplying cos and sin.
    pub attention: f64,
    /// YaRN's correction range `(lo, hi)` in pair indices.
    pub correction: Option<(f64, f64)>,
    /// The base the frequencies follow, for methods that change it (NTK, dynamic).
    pub theta: Option<f64>,
    /// LongRoPE: whether the long factors were used.
    pub long: Option<bool>,
}

/// `m(x, k)` of YaRN: `0.1·k·ln(x) + 1` above 1.
pub fn yarn_mscale(x: f64, k: f64) -> f64 {
    if x <= 1.0 {
        1.0
    } else {
        0.1 * k * x.ln() + 1.0
    }
}

/// Pair index at which `θ_j` makes `turns` turns over `orig_ctx` positions.
pub fn yarn_correction_dim(turns: f64, d: usize, theta: f64, orig_ctx: usize) -> f64 {
    d as f64 * (orig_ctx as f64 / (turns * TAU)).ln() / (2.0 * theta.ln())
}

/// Why a method cannot be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalingError(pub String);

impl std::fmt::Display for ScalingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The inverse frequencies and attention factor of `method` for rotary width `d`.
pub fn scale(
    method: Method,
    theta: f64,
    d: usize,
    p: &ScalingParams,
) -> Result<Scaled, ScalingError> {
    let base = base_inv_freq(theta, d);
    let s = p.factor;
    let half = d / 2;
    let plain = |inv_freq: Vec<f64>| Scaled {
        method,
        inv_freq,
        attention: 1.0,
        correction: None,
        theta: None,
        long: None,
    };
    if matches!(method, Method::Ntk | Method::Dynamic) && d <= 2 {
        // transformers divides by zero here.
        return Err(ScalingError(format!(
            "its base's exponent D/(D − 2) needs a rotary width D above 2 (here {d})."
        )));
    }
    Ok(match method {
        Method::None => plain(base),
        Method::Linear => plain(base.iter().map(|w| w / s).collect()),
        Method::Ntk => {
            let new_theta = theta * s.powf(d as f64 / (d as f64 - 2.0));
            Scaled {
                theta: Some(new_theta),
                ..plain(base_inv_freq(new_theta, d))
            }
        }
        Method::Dynamic => {
            let l = p.orig_ctx as f64;
            let n = p.seq_len.map_or(l, |n| (n as f64).max(l));
            let new_theta = theta * (s * n / l - (s - 1.0)).powf(d as f64 / (d as f64 - 2.0));
            Scaled {
                theta: Some(new_theta),
                ..plain(base_inv_freq(new_theta, d))
            }
        }
        Method::Yarn => {
            let attention = match (p.attn_factor, p.mscale, p.mscale_all_dim) {
                (Some(a), _, _) => a,
                (None, Some(m), Some(ma)) if m != 0.0 && ma != 0.0 => {
                    yarn_mscale(s, m) / yarn_mscale(s, ma)
                }
                _ => yarn_mscale(s, 1.0),
            };
            let beta_fast = if p.beta_fast == 0.0 {
                32.0
            } else {
                p.beta_fast
            };
            let beta_slow = if p.beta_slow == 0.0 { 1.0 } else { p.beta_slow };
            let mut lo = yarn_correction_dim(beta_fast, d, theta, p.orig_ctx);
            let mut hi = yarn_correction_dim(beta_slow, d, theta, p.orig_ctx);
            if p.truncate {
                lo = lo.floor();
                hi = hi.ceil();
            }
            lo = lo.max(0.0);
            hi = hi.min(d as f64 - 1.0);
            if lo == hi {
                hi += 0.001;
            }
            let inv_freq = base
                .iter()
                .enumerate()
                .map(|(j, w)| {
                    let ramp = ((j as f64 - lo) / (hi - lo)).clamp(0.0, 1.0);
                    w * (1.0 - ramp) + (w / s) * ramp
                })
                .collect();
            Scaled {
                attention,
                correction: Some((lo, hi)),
                ..plain(inv_freq)
            }
        }
        Method::LongRope => {
            for (name, list) in [
                ("short_factor", &p.short_factor),
                ("long_factor", &p.long_factor),
            ] {
                if list.len() != half {
                    return Err(ScalingError(format!(
                        "{name} must have {half} numbers (one per pair of the rotary width {d}); it has {}.",
                        list.len()
                    )));
                }
                if list.iter().any(|v| !(v.is_finite() && *v > 0.0)) {
                    return Err(ScalingError(format!(
                        "every {name} entry must be a positive number."
                    )));
                }
            }
            let long = p.seq_len.is_some_and(|n| n > p.orig_ctx);
            let factors = if long {
                &p.long_factor
            } else {
                &p.short_factor
            };
            let attention = match p.attn_factor {
                Some(a) => a,
                None if s <= 1.0 => 1.0,
                None => (1.0 + s.ln() / (p.orig_ctx as f64).ln()).sqrt(),
            };
            Scaled {
                attention,
                long: Some(long),
                ..plain(base.iter().zip(factors).map(|(w, l)| w / l).collect())
            }
        }
        Method::Llama3 => {
            let (a, b) = (p.low_freq_factor, p.high_freq_factor);
            let l0 = p.orig_ctx as f64;
            let (w_low, w_high) = (l0 / a, l0 / b);
            plain(
                base.iter()
                    .map(|&w| {
                        let wavelength = TAU / w;
                        // In transformers' order: past L0/a is divided first, so with
                        // high_freq_factor < low_freq_factor (no band between) every pair past
                        // L0/a is divided and every other one kept.
                        if wavelength > w_low {
                            w / s
                        } else if wavelength < w_high {
                            w
                        } else if b <= a {
                            // No band between (equal factors): only a wavelength of exactly
                            // L0/a lands here, where transformers divides 0 by 0.
                            w
                        } else {
                            let smooth = (l0 / wavelength - a) / (b - a);
                            (1.0 - smooth) * w / s + smooth * w
                        }
                    })
                    .collect(),
            )
        }
    })
}

/// A concrete RoPE: frequencies, layout and attention factor for one head.
#[derive(Clone, Debug, PartialEq)]
pub struct Rope {
    pub head_dim: usize,
    /// The rotary width D (even, ≤ head_dim).
    pub rotary_dim: usize,
    pub layout: PairLayout,
    /// `θ_j` (after any scaling), `D/2` entries.
    pub inv_freq: Vec<f64>,
    /// `α`.
    pub attention: f64,
}

/// The parts of a score that depend on the vectors only: per pair
/// `a_j = q_x k_x + q_y k_y`, `b_j = q_x k_y − q_y k_x`, and the pass-through dot.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ScoreWeights {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub pass_through: f64,
}

impl Rope {
    pub fn new(
        head_dim: usize,
        rotary_dim: usize,
        layout: PairLayout,
        inv_freq: Vec<f64>,
        attention: f64,
    ) -> Rope {
        Rope {
            head_dim,
            rotary_dim,
            layout,
            inv_freq,
            attention,
        }
    }

    /// Unscaled RoPE with base `theta`.
    pub fn plain(head_dim: usize, partial: f64, theta: f64, layout: PairLayout) -> Rope {
        let d = rotary_dim(head_dim, partial);
        Rope::new(head_dim, d, layout, base_inv_freq(theta, d), 1.0)
    }

    /// `R(pos)·x`: each pair rotated by `pos·θ_j` and scaled by `α`; the rest passes through.
    pub fn rotate(&self, x: &[f64], pos: f64, out: &mut [f64]) {
        out.copy_from_slice(x);
        for (j, w) in self.inv_freq.iter().enumerate() {
            let (a, b) = self.layout.dims(j, self.rotary_dim);
            let (s, c) = (pos * w).sin_cos();
            let (s, c) = (s * self.attention, c * self.attention);
            out[a] = x[a] * c - x[b] * s;
            out[b] = x[b] * c + x[a] * s;
        }
    }

    /// `dot(R(m)·q, R(n)·k)`, by rotating both vectors.
    pub fn score(&self, q: &[f64], k: &[f64], m: f64, n: f64) -> f64 {
        let mut qr = vec![0.0; q.len()];
        let mut kr = vec![0.0; k.len()];
        self.rotate(q, m, &mut qr);
        self.rotate(k, n, &mut kr);
        qr.iter().zip(&kr).map(|(x, y)| x * y).sum()
    }

    /// The weights of [`Rope::relative_score`].
    pub fn weights(&self, q: &[f64], k: &[f64]) -> ScoreWeights {
        let mut w = ScoreWeights::default();
        let mut rotated = vec![false; self.head_dim];
        for j in 0..self.inv_freq.len() {
            let (x, y) = self.layout.dims(j, self.rotary_dim);
            rotated[x] = true;
            rotated[y] = true;
            w.a.push(q[x] * k[x] + q[y] * k[y]);
            w.b.push(q[x] * k[y] - q[y] * k[x]);
        }
        w.pass_through = (0..self.head_dim)
            .filter(|&i| !rotated[i])
            .map(|i| q[i] * k[i])
            .sum();
        w
    }

    /// The score at relative distance `r = m − n`, from the weights alone:
    /// `α²·Σ_j (a_j cos(rθ_j) + b_j sin(rθ_j)) + pass-through`.
    pub fn relative_score(&self, w: &ScoreWeights, r: f64) -> f64 {
        let a2 = self.attention * self.attention;
        let rotary: f64 = self
            .inv_freq
            .iter()
            .zip(w.a.iter().zip(&w.b))
            .map(|(t, (a, b))| {
                let (s, c) = (r * t).sin_cos();
                a * c + b * s
            })
            .sum();
        a2 * rotary + w.pass_through
    }

    /// [`Rope::relative_score`] at `r = 0, step, …, (count−1)·step`, by rotation recurrence.
    pub fn score_series(&self, w: &ScoreWeights, step: f64, count: usize) -> Vec<f64> {
        self.score_series_from(w, step, 0, count)
    }

    /// [`Rope::score_series`] at `r = start·step, …`: a series extended from a multiple of
    /// [`RESEED_EVERY`] is the one computed whole, bit for bit.
    pub fn score_series_from(
        &self,
        w: &ScoreWeights,
        step: f64,
        start: usize,
        count: usize,
    ) -> Vec<f64> {
        let a2 = self.attention * self.attention;
        super::series::weighted_series_from(&self.inv_freq, &w.a, &w.b, step, start, count)
            .into_iter()
            .map(|v| a2 * v + w.pass_through)
            .collect()
    }

    /// Wavelength of pair `j` in positions.
    pub fn wavelength(&self, j: usize) -> f64 {
        TAU / self.inv_freq[j]
    }
}

use super::series::RESEED_EVERY;

/// Su's long-term decay bound (RoFormer §3.4.3): `(1/(D/2))·Σ_{j=1}^{D/2} |S_j|` with
/// `S_j = Σ_{i<j} e^{i·r·θ_i}`, for `r = 0, step, …`.
pub fn su_bound_series(inv_freq: &[f64], step: f64, count: usize) -> Vec<f64> {
    su_bound_series_from(inv_freq, step, 0, count)
}

/// [`su_bound_series`] for `r = start·step, …` (bit for bit the whole series' values when
/// `start` is a multiple of [`RESEED_EVERY`]).
pub fn su_bound_series_from(inv_freq: &[f64], step: f64, start: usize, count: usize) -> Vec<f64> {
    let n = inv_freq.len();
    let mut out = vec![0.0; count];
    if n == 0 {
        return out;
    }
    let delta: Vec<(f64, f64)> = inv_freq.iter().map(|w| (step * w).sin_cos()).collect();
    let mut c = vec![0.0; n];
    let mut s = vec![0.0; n];
    for (chunk_index, chunk) in out.chunks_mut(RESEED_EVERY).enumerate() {
        let k0 = (start + chunk_index * RESEED_EVERY) as f64 * step;
        for (j, w) in inv_freq.iter().enumerate() {
            let (sv, cv) = (k0 * w).sin_cos();
            c[j] = cv;
            s[j] = sv;
        }
        for cell in chunk.iter_mut() {
            let (mut re, mut im, mut total) = (0.0, 0.0, 0.0);
            for ((ci, si), &(sd, cd)) in c.iter_mut().zip(s.iter_mut()).zip(&delta) {
                re += *ci;
                im += *si;
                total += (re * re + im * im).sqrt();
                let cn = *ci * cd - *si * sd;
                *si = *si * cd + *ci * sd;
                *ci = cn;
            }
            *cell = total / n as f64;
        }
    }
    out
}

/// A small deterministic generator (SplitMix64) for seeded Gaussian vectors.
#[derive(Clone, Debug)]
pub struct SeededNormal {
    rng: pe_kernels::normal::SplitMix,
    /// The second value of the last Box–Muller pair.
    spare: Option<f64>,
}

impl SeededNormal {
    pub fn new(seed: u64) -> SeededNormal {
        SeededNormal {
            rng: pe_kernels::normal::SplitMix::new(seed),
            spare: None,
        }
    }

    /// Uniform in (0, 1).
    pub(crate) fn uniform(&mut self) -> f64 {
        self.rng.uniform()
    }

    /// A standard normal sample (Box–Muller, both values of each pair used).
    pub fn sample(&mut self) -> f64 {
        if let Some(v) = self.spare.take() {
            return v;
        }
        let (u, v) = (self.uniform(), self.uniform());
        let r = (-2.0 * u.ln()).sqrt();
        let (s, c) = (TAU * v).sin_cos();
        self.spare = Some(r * s);
        r * c
    }

    pub fn vector(&mut self, len: usize) -> Vec<f64> {
        (0..len).map(|_| self.sample()).collect()
    }
}

/// Number of random (q, k) draws averaged in [`mean_random_weights`].
pub const RANDOM_DRAWS: usize = 64;

/// Score weights averaged over [`RANDOM_DRAWS`] independent standard Gaussian (q, k) pairs:
/// their expectation is zero, so the resulting score hovers around 0 at every distance.
pub fn mean_random_weights(rope: &Rope, seed: u64) -> ScoreWeights {
    let mut rng = SeededNormal::new(seed ^ 0x5eed_0fde_ca11);
    let mut sum = ScoreWeights {
        a: vec![0.0; rope.inv_freq.len()],
        b: vec![0.0; rope.inv_freq.len()],
        pass_through: 0.0,
    };
    for _ in 0..RANDOM_DRAWS {
        let q = rng.vector(rope.head_dim);
        let k = rng.vector(rope.head_dim);
        let w = rope.weights(&q, &k);
        for (acc, v) in sum.a.iter_mut().zip(&w.a) {
            *acc += v / RANDOM_DRAWS as f64;
        }
        for (acc, v) in sum.b.iter_mut().zip(&w.b) {
            *acc += v / RANDOM_DRAWS as f64;
        }
        sum.pass_through += w.pass_through / RANDOM_DRAWS as f64;
    }
    sum
}

/// The RoPE view's decay curves at every distance 0, 1, … computed so far, for one RoPE and
/// seed: a move of the max distance reads a prefix, or extends it from the last whole block of
/// [`RESEED_EVERY`] (bit for bit the values computed whole), and never computes one twice.
pub struct DecayCurves {
    rope: Rope,
    seed: u64,
    ones: ScoreWeights,
    random: ScoreWeights,
    /// Su's bound, the score of q = k = 1, the mean score of random pairs.
    pub ys: [Vec<f64>; 3],
}

impl DecayCurves {
    pub fn new(rope: Rope, seed: u64) -> DecayCurves {
        let h = rope.head_dim;
        DecayCurves {
            ones: rope.weights(&vec![1.0; h], &vec![1.0; h]),
            random: mean_random_weights(&rope, seed),
            rope,
            seed,
            ys: Default::default(),
        }
    }

    pub fn is_for(&self, rope: &Rope, seed: u64) -> bool {
        self.seed == seed && self.rope == *rope
    }

    /// The distances of `0..n` not computed yet.
    pub fn lacking(&self, n: usize) -> usize {
        n.saturating_sub(self.ys[0].len())
    }

    /// Computes the distances up to `n` (rounded up to a whole block) not computed yet.
    pub fn extend_to(&mut self, n: usize) {
        let start = self.ys[0].len();
        if n <= start {
            return;
        }
        let count = n.div_ceil(RESEED_EVERY) * RESEED_EVERY - start;
        let r = &self.rope;
        self.ys[0].extend(su_bound_series_from(&r.inv_freq, 1.0, start, count));
        self.ys[1].extend(r.score_series_from(&self.ones, 1.0, start, count));
        self.ys[2].extend(r.score_series_from(&self.random, 1.0, start, count));
    }

    /// The curves at `0, stride, …` below `n`, computed apart (not kept).
    pub fn strided(&self, stride: usize, n: usize) -> [Vec<f64>; 3] {
        let (step, count) = (stride as f64, n.div_ceil(stride));
        let r = &self.rope;
        [
            su_bound_series_from(&r.inv_freq, step, 0, count),
            r.score_series_from(&self.ones, step, 0, count),
            r.score_series_from(&self.random, step, 0, count),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_and_interleaved_pair_dims() {
        assert_eq!(PairLayout::Half.dims(3, 16), (3, 11));
        assert_eq!(PairLayout::Interleaved.dims(3, 16), (6, 7));
        assert_eq!(rotary_dim(80, 0.25), 20);
        assert_eq!(rotary_dim(64, 0.3), 18);
        assert_eq!(rotary_dim(7, 1.0), 6);
    }

    /// What the Context extension table says of a backwards ramp (β_fast ≤ β_slow): the
    /// fast pairs are divided by s and the slow ones kept, as transformers computes it.
    #[test]
    fn a_backwards_yarn_ramp_divides_the_fast_pairs_and_keeps_the_slow_ones() {
        let p = ScalingParams {
            factor: 4.0,
            beta_fast: 0.1,
            beta_slow: 64.0,
            ..ScalingParams::default()
        };
        let y = scale(Method::Yarn, 10000.0, 128, &p).unwrap();
        let base = base_inv_freq(10000.0, 128);
        let (lo, hi) = y.correction.unwrap();
        assert!(lo > hi, "{lo} {hi}");
        assert_eq!((lo, hi), (61.0, 17.0));
        for (j, (w, b)) in y.inv_freq.iter().zip(&base).enumerate() {
            if j <= 17 {
                assert!((w - b / 4.0).abs() <= 1e-15 * b, "pair {j}");
            } else if j >= 61 {
                assert!((w - b).abs() <= 1e-15 * b, "pair {j}");
            }
        }
    }

    #[test]
    fn series_matches_direct_scores() {
        let mut rng = SeededNormal::new(3);
        let rope = Rope::plain(32, 0.75, 10000.0, PairLayout::Half);
        let (q, k) = (rng.vector(32), rng.vector(32));
        let w = rope.weights(&q, &k);
        let series = rope.score_series(&w, 7.0, 600);
        for (n, v) in series.iter().enumerate() {
            let r = 7.0 * n as f64;
            let direct = rope.score(&q, &k, r + 5.0, 5.0);
            assert!(
                (v - direct).abs() < 1e-9 * (1.0 + direct.abs()),
                "r={r}: {v} vs {direct}"
            );
        }
    }

    #[test]
    fn su_bound_starts_at_the_mean_pair_count() {
        let inv = base_inv_freq(10000.0, 8);
        let b = su_bound_series(&inv, 1.0, 3);
        // At r = 0, |S_j| = j for j = 1..4: mean 2.5.
        assert!((b[0] - 2.5).abs() < 1e-12);
        assert!(b[1] < b[0]);
    }

    #[test]
    fn gaussian_samples_look_standard() {
        let mut rng = SeededNormal::new(42);
        let xs = rng.vector(20000);
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        assert!(
            mean.abs() < 0.03 && (var - 1.0).abs() < 0.05,
            "{mean} {var}"
        );
    }

    #[test]
    fn decay_curves_extended_in_pieces_are_the_whole_curves() {
        let rope = Rope::plain(64, 1.0, 10_000.0, PairLayout::Half);
        let mut curves = DecayCurves::new(rope.clone(), 7);
        assert_eq!(curves.lacking(300), 300);
        curves.extend_to(300);
        // Whole blocks: 300 distances computed as 512.
        assert_eq!(curves.lacking(512), 0);
        assert_eq!(curves.lacking(513), 1);
        curves.extend_to(1_000);
        curves.extend_to(600);
        let whole = DecayCurves::new(rope.clone(), 7).strided(1, 1_024);
        assert_eq!(curves.ys, whole);
        // A stride draws every stride-th distance of the same curves.
        let strided = curves.strided(3, 1_000);
        for (k, ys) in strided.iter().enumerate() {
            for (j, v) in ys.iter().enumerate() {
                assert!((v - whole[k][3 * j]).abs() < 1e-9, "curve {k} at {}", 3 * j);
            }
        }
        // Another seed or RoPE is other curves.
        assert!(curves.is_for(&rope, 7));
        assert!(!curves.is_for(&rope, 8));
        assert!(!curves.is_for(&Rope::plain(64, 1.0, 500_000.0, PairLayout::Half), 7));
    }
}
