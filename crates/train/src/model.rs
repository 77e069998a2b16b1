//! The transformer, its forward pass, loss and gradients (written out by hand).
//!
//! Shapes: `T` tokens, width `d`, `H` heads of `d_h = d / H` dims, MLP hidden size `m`,
//! vocabulary `V`. A weight `W` of a linear map `in → out` is stored row-major as `in × out`
//! and applied as `y = x W`. Per block (pre-LN, as GPT-2):
//!
//! ```text
//! a = LN₁(h);  q, k, v = a W_q, a W_k, a W_v        (q, k rotated by RoPE if chosen)
//! s_ij = q_i·k_j / √d_h + bias_ij                   (ALiBi or T5 bias if chosen; −∞ masked)
//! h = h + softmax(s) v W_o
//! h = h + GELU(LN₂(h) W₁ + b₁) W₂ + b₂
//! ```
//! then `logits = LN_f(h) W_out + b_out`, and the loss is the mean cross-entropy over the
//! positions that carry a target. GELU is the tanh form (PyTorch's `approximate="tanh"`).

use crate::rng::Rng;
use crate::task::Example;

/// How the model learns where a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Position {
    /// No positional information at all (NoPE).
    None,
    /// A fixed table added to the token embeddings (the sinusoid): `rows × d`, row-major.
    Fixed { table: Vec<f64> },
    /// A learned table added to the token embeddings, `rows` rows; no vector past the last.
    Learned { rows: usize },
    /// RoPE: each head's query and key rotated, dims `(a, b)` of a pair by `pos · freq`.
    Rope { pairs: Vec<(usize, usize, f64)> },
    /// ALiBi: `−slope_h · |i − j|` added to head `h`'s scores (fixed).
    Alibi { slopes: Vec<f64> },
    /// T5: a learned bias per head and bucket, shared by all layers;
    /// `bucket_of[(j − i) + span]` is the bucket of key `j` for query `i`.
    T5 {
        buckets: usize,
        bucket_of: Vec<u32>,
        span: usize,
    },
}

/// The model's shape, mask and encoding.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub vocab: usize,
    pub width: usize,
    pub heads: usize,
    pub layers: usize,
    pub hidden: usize,
    /// Each position attends to itself and earlier ones only.
    pub causal: bool,
    pub position: Position,
}

impl Config {
    pub fn head_dim(&self) -> usize {
        self.width / self.heads
    }

    /// The longest sequence this encoding has positions for (`None`: any length).
    pub fn max_len(&self) -> Option<usize> {
        match &self.position {
            Position::Fixed { table } => Some(table.len() / self.width),
            Position::Learned { rows } => Some(*rows),
            Position::T5 { span, .. } => Some(span + 1),
            _ => None,
        }
    }
}

/// One block's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub ln1_g: Vec<f64>,
    pub ln1_b: Vec<f64>,
    pub wq: Vec<f64>,
    pub wk: Vec<f64>,
    pub wv: Vec<f64>,
    pub wo: Vec<f64>,
    pub ln2_g: Vec<f64>,
    pub ln2_b: Vec<f64>,
    pub w1: Vec<f64>,
    pub b1: Vec<f64>,
    pub w2: Vec<f64>,
    pub b2: Vec<f64>,
}

/// Every parameter (also the shape of a gradient and of AdamW's moments).
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Token embedding, `V × d`.
    pub tok: Vec<f64>,
    /// Learned position table, `rows × d` (empty for other encodings).
    pub pos: Vec<f64>,
    /// T5 bias, `H × buckets` (empty for other encodings).
    pub t5: Vec<f64>,
    pub blocks: Vec<Block>,
    pub lnf_g: Vec<f64>,
    pub lnf_b: Vec<f64>,
    /// Read-out, `d × V`.
    pub out_w: Vec<f64>,
    pub out_b: Vec<f64>,
}

const BLOCK_NAMES: [&str; 12] = [
    "ln1_g", "ln1_b", "wq", "wk", "wv", "wo", "ln2_g", "ln2_b", "w1", "b1", "w2", "b2",
];

impl Block {
    fn tensors(&self) -> [&Vec<f64>; 12] {
        [
            &self.ln1_g,
            &self.ln1_b,
            &self.wq,
            &self.wk,
            &self.wv,
            &self.wo,
            &self.ln2_g,
            &self.ln2_b,
            &self.w1,
            &self.b1,
            &self.w2,
            &self.b2,
        ]
    }
    fn tensors_mut(&mut self) -> [&mut Vec<f64>; 12] {
        [
            &mut self.ln1_g,
            &mut self.ln1_b,
            &mut self.wq,
            &mut self.wk,
            &mut self.wv,
            &mut self.wo,
            &mut self.ln2_g,
            &mut self.ln2_b,
            &mut self.w1,
            &mut self.b1,
            &mut self.w2,
            &mut self.b2,
        ]
    }
}

impl Params {
    /// Seeded initialisation. Every encoding starts from the same weights (the learned table
    /// and the T5 bias draw from streams of their own; the T5 bias starts at zero).
    ///
    /// Token embedding `N(0, 1)`; learned positions `N(0, ½)` (the sinusoid's mean square);
    /// linear maps `N(0, 1/fan_in)`, the two that write into the residual stream divided by
    /// `√(2·layers)` as GPT-2 does; biases 0, layer-norm gains 1.
    pub fn init(cfg: &Config, seed: u64) -> Params {
        let (d, m, v) = (cfg.width, cfg.hidden, cfg.vocab);
        let mut rng = Rng::stream(seed, 1);
        let mut normal =
            |n: usize, std: f64| -> Vec<f64> { (0..n).map(|_| rng.normal() * std).collect() };
        let tok = normal(v * d, 1.0);
        let resid = 1.0 / (2.0 * cfg.layers as f64).sqrt();
        let fan = |n: usize| 1.0 / (n as f64).sqrt();
        let blocks = (0..cfg.layers)
            .map(|_| Block {
                ln1_g: vec![1.0; d],
                ln1_b: vec![0.0; d],
                wq: normal(d * d, fan(d)),
                wk: normal(d * d, fan(d)),
                wv: normal(d * d, fan(d)),
                wo: normal(d * d, fan(d) * resid),
                ln2_g: vec![1.0; d],
                ln2_b: vec![0.0; d],
                w1: normal(d * m, fan(d)),
                b1: vec![0.0; m],
                w2: normal(m * d, fan(m) * resid),
                b2: vec![0.0; d],
            })
            .collect();
        let out_w = normal(d * v, fan(d));
        let pos = match &cfg.position {
            Position::Learned { rows } => {
                let mut r = Rng::stream(seed, 2);
                (0..rows * d)
                    .map(|_| r.normal() * std::f64::consts::FRAC_1_SQRT_2)
                    .collect()
            }
            _ => Vec::new(),
        };
        let t5 = match &cfg.position {
            Position::T5 { buckets, .. } => vec![0.0; cfg.heads * buckets],
            _ => Vec::new(),
        };
        Params {
            tok,
            pos,
            t5,
            blocks,
            lnf_g: vec![1.0; d],
            lnf_b: vec![0.0; d],
            out_w,
            out_b: vec![0.0; v],
        }
    }

    /// Zeros of the same shapes.
    pub fn zeros_like(&self) -> Params {
        let mut z = self.clone();
        for t in z.tensors_mut() {
            t.iter_mut().for_each(|x| *x = 0.0);
        }
        z
    }

    /// Every tensor, in a fixed order (that of [`Params::names`]).
    pub fn tensors(&self) -> Vec<&Vec<f64>> {
        let mut out = vec![&self.tok, &self.pos, &self.t5];
        for b in &self.blocks {
            out.extend(b.tensors());
        }
        out.extend([&self.lnf_g, &self.lnf_b, &self.out_w, &self.out_b]);
        out
    }

    pub fn tensors_mut(&mut self) -> Vec<&mut Vec<f64>> {
        let mut out = vec![&mut self.tok, &mut self.pos, &mut self.t5];
        for b in &mut self.blocks {
            out.extend(b.tensors_mut());
        }
        out.extend([
            &mut self.lnf_g,
            &mut self.lnf_b,
            &mut self.out_w,
            &mut self.out_b,
        ]);
        out
    }

    /// The tensors' names, as PyTorch's script names them (`blocks.0.wq`, …).
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = vec!["tok".into(), "pos".into(), "t5".into()];
        for l in 0..self.blocks.len() {
            out.extend(BLOCK_NAMES.iter().map(|n| format!("blocks.{l}.{n}")));
        }
        out.extend(["lnf_g", "lnf_b", "out_w", "out_b"].map(String::from));
        out
    }

    /// Each tensor's shape, in the order of [`Params::tensors`].
    pub fn shapes(&self, cfg: &Config) -> Vec<Vec<usize>> {
        let (d, m, v) = (cfg.width, cfg.hidden, cfg.vocab);
        let mut out = vec![
            vec![v, d],
            vec![self.pos.len() / d, d],
            vec![cfg.heads, self.t5.len() / cfg.heads],
        ];
        for _ in &self.blocks {
            out.extend([
                vec![d],
                vec![d],
                vec![d, d],
                vec![d, d],
                vec![d, d],
                vec![d, d],
                vec![d],
                vec![d],
                vec![d, m],
                vec![m],
                vec![m, d],
                vec![d],
            ]);
        }
        out.extend([vec![d], vec![d], vec![d, v], vec![v]]);
        out
    }

    /// How many numbers the model learns.
    pub fn count(&self) -> usize {
        self.tensors().iter().map(|t| t.len()).sum()
    }
}

/// A layer norm's saved values: the normalised input and `1/σ` per row.
#[derive(Clone, Debug, Default)]
struct Norm {
    xhat: Vec<f64>,
    rstd: Vec<f64>,
}

const LN_EPS: f64 = 1e-5;

fn layer_norm(x: &[f64], g: &[f64], b: &[f64], d: usize) -> (Vec<f64>, Norm) {
    let rows = x.len() / d;
    let mut y = vec![0.0; x.len()];
    let mut norm = Norm {
        xhat: vec![0.0; x.len()],
        rstd: vec![0.0; rows],
    };
    for r in 0..rows {
        let row = &x[r * d..(r + 1) * d];
        let mean = row.iter().sum::<f64>() / d as f64;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / d as f64;
        let rstd = 1.0 / (var + LN_EPS).sqrt();
        norm.rstd[r] = rstd;
        for c in 0..d {
            let xh = (row[c] - mean) * rstd;
            norm.xhat[r * d + c] = xh;
            y[r * d + c] = xh * g[c] + b[c];
        }
    }
    (y, norm)
}

/// Adds the layer norm's gradients to `dg`, `db`, and returns the input's.
fn layer_norm_back(dy: &[f64], norm: &Norm, g: &[f64], dg: &mut [f64], db: &mut [f64]) -> Vec<f64> {
    let d = g.len();
    let mut dx = vec![0.0; dy.len()];
    let mut dxhat = vec![0.0; d];
    for r in 0..norm.rstd.len() {
        let (dyr, xh) = (&dy[r * d..(r + 1) * d], &norm.xhat[r * d..(r + 1) * d]);
        let (mut mean_dxh, mut mean_dxh_xh) = (0.0, 0.0);
        for c in 0..d {
            dg[c] += dyr[c] * xh[c];
            db[c] += dyr[c];
            dxhat[c] = dyr[c] * g[c];
            mean_dxh += dxhat[c];
            mean_dxh_xh += dxhat[c] * xh[c];
        }
        mean_dxh /= d as f64;
        mean_dxh_xh /= d as f64;
        for c in 0..d {
            dx[r * d + c] = norm.rstd[r] * (dxhat[c] - mean_dxh - xh[c] * mean_dxh_xh);
        }
    }
    dx
}

/// `x (n × k) · w (k × m)`.
fn matmul(x: &[f64], w: &[f64], k: usize, m: usize) -> Vec<f64> {
    let n = x.len() / k;
    let mut y = vec![0.0; n * m];
    for r in 0..n {
        let yr = &mut y[r * m..(r + 1) * m];
        for i in 0..k {
            let xi = x[r * k + i];
            for (yj, wj) in yr.iter_mut().zip(&w[i * m..(i + 1) * m]) {
                *yj += xi * wj;
            }
        }
    }
    y
}

/// `dw (k × m) += xᵀ (k × n) · dy (n × m)`.
fn matmul_tn_acc(x: &[f64], dy: &[f64], k: usize, m: usize, dw: &mut [f64]) {
    let n = x.len() / k;
    for r in 0..n {
        let dyr = &dy[r * m..(r + 1) * m];
        for i in 0..k {
            let xi = x[r * k + i];
            for (dwj, dyj) in dw[i * m..(i + 1) * m].iter_mut().zip(dyr) {
                *dwj += xi * dyj;
            }
        }
    }
}

/// `dy (n × m) · wᵀ (m × k)`.
fn matmul_nt(dy: &[f64], w: &[f64], k: usize, m: usize) -> Vec<f64> {
    let n = dy.len() / m;
    let mut dx = vec![0.0; n * k];
    for r in 0..n {
        let dyr = &dy[r * m..(r + 1) * m];
        for i in 0..k {
            dx[r * k + i] = dyr
                .iter()
                .zip(&w[i * m..(i + 1) * m])
                .map(|(a, b)| a * b)
                .sum();
        }
    }
    dx
}

fn add_bias(y: &mut [f64], b: &[f64]) {
    for row in y.chunks_mut(b.len()) {
        row.iter_mut().zip(b).for_each(|(y, b)| *y += b);
    }
}

fn sum_rows_acc(dy: &[f64], db: &mut [f64]) {
    for row in dy.chunks(db.len()) {
        db.iter_mut().zip(row).for_each(|(d, r)| *d += r);
    }
}

const GELU_C: f64 = 0.797_884_560_802_865_4; // √(2/π)

fn gelu(u: f64) -> f64 {
    0.5 * u * (1.0 + libm::tanh(GELU_C * (u + 0.044715 * u * u * u)))
}

fn gelu_grad(u: f64) -> f64 {
    let t = libm::tanh(GELU_C * (u + 0.044715 * u * u * u));
    0.5 * (1.0 + t) + 0.5 * u * (1.0 - t * t) * GELU_C * (1.0 + 3.0 * 0.044715 * u * u)
}

/// What one block's forward pass keeps for the backward pass.
#[derive(Clone, Debug, Default)]
struct LayerTrace {
    n1: Norm,
    a: Vec<f64>,
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
    /// Attention weights, `H × T × T` (row: query, column: key).
    p: Vec<f64>,
    o: Vec<f64>,
    n2: Norm,
    b: Vec<f64>,
    u: Vec<f64>,
    g: Vec<f64>,
}

/// One sequence's forward pass: every intermediate, for the backward pass and the charts.
#[derive(Clone, Debug)]
pub struct Trace {
    tokens: Vec<usize>,
    layers: Vec<LayerTrace>,
    nf: Norm,
    f: Vec<f64>,
    /// Softmax of the logits, `T × V`.
    pub probs: Vec<f64>,
    /// RoPE's cos and sin per position and pair.
    rot: Vec<(f64, f64)>,
}

impl Trace {
    /// Attention weights of `layer`, `head`: row `i` (query), column `j` (key), `T × T`.
    pub fn attention(&self, layer: usize, head: usize) -> &[f64] {
        let t = self.tokens.len();
        &self.layers[layer].p[head * t * t..(head + 1) * t * t]
    }

    /// The predicted token at each position.
    pub fn argmax(&self) -> Vec<usize> {
        let v = self.probs.len() / self.tokens.len();
        self.probs
            .chunks(v)
            .map(|row| {
                let mut best = 0;
                for (i, &p) in row.iter().enumerate() {
                    if p > row[best] {
                        best = i;
                    }
                }
                best
            })
            .collect()
    }
}

/// The score bias of head `h` for query `i`, key `j`.
fn bias(cfg: &Config, params: &Params, h: usize, i: usize, j: usize) -> f64 {
    match &cfg.position {
        Position::Alibi { slopes } => -slopes[h] * i.abs_diff(j) as f64,
        Position::T5 {
            buckets,
            bucket_of,
            span,
        } => params.t5[h * buckets + bucket_of[span + j - i] as usize],
        _ => 0.0,
    }
}

fn rotate(
    x: &mut [f64],
    pairs: &[(usize, usize, f64)],
    rot: &[(f64, f64)],
    heads: usize,
    hd: usize,
    inverse: bool,
) {
    let t = x.len() / (heads * hd);
    let np = pairs.len();
    for pos in 0..t {
        for h in 0..heads {
            let base = pos * heads * hd + h * hd;
            for (pi, &(a, b, _)) in pairs.iter().enumerate() {
                let (c, s) = rot[pos * np + pi];
                let s = if inverse { -s } else { s };
                let (xa, xb) = (x[base + a], x[base + b]);
                x[base + a] = xa * c - xb * s;
                x[base + b] = xa * s + xb * c;
            }
        }
    }
}

/// The forward pass of one sequence. The caller keeps `tokens.len()` within
/// [`Config::max_len`].
pub fn forward(cfg: &Config, params: &Params, tokens: &[usize]) -> Trace {
    let (d, t, heads) = (cfg.width, tokens.len(), cfg.heads);
    let hd = cfg.head_dim();
    let mut h = vec![0.0; t * d];
    for (pos, &tok) in tokens.iter().enumerate() {
        let row = &mut h[pos * d..(pos + 1) * d];
        row.copy_from_slice(&params.tok[tok * d..(tok + 1) * d]);
        let added = match &cfg.position {
            Position::Fixed { table } => Some(&table[pos * d..(pos + 1) * d]),
            Position::Learned { .. } => Some(&params.pos[pos * d..(pos + 1) * d]),
            _ => None,
        };
        if let Some(p) = added {
            row.iter_mut().zip(p).for_each(|(x, p)| *x += p);
        }
    }
    let rot: Vec<(f64, f64)> = match &cfg.position {
        Position::Rope { pairs } => (0..t)
            .flat_map(|pos| {
                pairs.iter().map(move |&(_, _, f)| {
                    let angle = pos as f64 * f;
                    (libm::cos(angle), libm::sin(angle))
                })
            })
            .collect(),
        _ => Vec::new(),
    };
    let scale = 1.0 / (hd as f64).sqrt();
    let mut layers = Vec::with_capacity(cfg.layers);
    for blk in &params.blocks {
        let (a, n1) = layer_norm(&h, &blk.ln1_g, &blk.ln1_b, d);
        let mut q = matmul(&a, &blk.wq, d, d);
        let mut k = matmul(&a, &blk.wk, d, d);
        let v = matmul(&a, &blk.wv, d, d);
        if let Position::Rope { pairs } = &cfg.position {
            rotate(&mut q, pairs, &rot, heads, hd, false);
            rotate(&mut k, pairs, &rot, heads, hd, false);
        }
        let mut p = vec![0.0; heads * t * t];
        let mut o = vec![0.0; t * d];
        for hh in 0..heads {
            for i in 0..t {
                let row = &mut p[(hh * t + i) * t..(hh * t + i + 1) * t];
                let qi = &q[i * d + hh * hd..i * d + (hh + 1) * hd];
                let last = if cfg.causal { i } else { t - 1 };
                let mut max = f64::NEG_INFINITY;
                for j in 0..=last {
                    let kj = &k[j * d + hh * hd..j * d + (hh + 1) * hd];
                    let s = qi.iter().zip(kj).map(|(a, b)| a * b).sum::<f64>() * scale
                        + bias(cfg, params, hh, i, j);
                    row[j] = s;
                    max = max.max(s);
                }
                let mut sum = 0.0;
                for x in &mut row[..=last] {
                    *x = libm::exp(*x - max);
                    sum += *x;
                }
                for x in &mut row[..=last] {
                    *x /= sum;
                }
                let oi = &mut o[i * d + hh * hd..i * d + (hh + 1) * hd];
                for j in 0..=last {
                    let w = row[j];
                    let vj = &v[j * d + hh * hd..j * d + (hh + 1) * hd];
                    oi.iter_mut().zip(vj).for_each(|(o, v)| *o += w * v);
                }
            }
        }
        let attn = matmul(&o, &blk.wo, d, d);
        h.iter_mut().zip(&attn).for_each(|(h, a)| *h += a);
        let (b, n2) = layer_norm(&h, &blk.ln2_g, &blk.ln2_b, d);
        let mut u = matmul(&b, &blk.w1, d, cfg.hidden);
        add_bias(&mut u, &blk.b1);
        let g: Vec<f64> = u.iter().map(|&x| gelu(x)).collect();
        let mut mlp = matmul(&g, &blk.w2, cfg.hidden, d);
        add_bias(&mut mlp, &blk.b2);
        h.iter_mut().zip(&mlp).for_each(|(h, m)| *h += m);
        layers.push(LayerTrace {
            n1,
            a,
            q,
            k,
            v,
            p,
            o,
            n2,
            b,
            u,
            g,
        });
    }
    let (f, nf) = layer_norm(&h, &params.lnf_g, &params.lnf_b, d);
    let mut probs = matmul(&f, &params.out_w, d, cfg.vocab);
    add_bias(&mut probs, &params.out_b);
    for row in probs.chunks_mut(cfg.vocab) {
        let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let mut sum = 0.0;
        for x in row.iter_mut() {
            *x = libm::exp(*x - max);
            sum += *x;
        }
        row.iter_mut().for_each(|x| *x /= sum);
    }
    Trace {
        tokens: tokens.to_vec(),
        layers,
        nf,
        f,
        probs,
        rot,
    }
}

/// Adds to `grad` the gradient of `Σ_targets −log p(target) · weight` for one sequence.
fn backward(
    cfg: &Config,
    params: &Params,
    tr: &Trace,
    targets: &[Option<usize>],
    weight: f64,
    grad: &mut Params,
) {
    let (d, t, heads, vcb) = (cfg.width, tr.tokens.len(), cfg.heads, cfg.vocab);
    let hd = cfg.head_dim();
    let scale = 1.0 / (hd as f64).sqrt();
    let mut dlogits = vec![0.0; t * vcb];
    for (i, target) in targets.iter().enumerate() {
        if let Some(y) = *target {
            for c in 0..vcb {
                dlogits[i * vcb + c] = weight * tr.probs[i * vcb + c];
            }
            dlogits[i * vcb + y] -= weight;
        }
    }
    matmul_tn_acc(&tr.f, &dlogits, d, vcb, &mut grad.out_w);
    sum_rows_acc(&dlogits, &mut grad.out_b);
    let df = matmul_nt(&dlogits, &params.out_w, d, vcb);
    let mut dh = layer_norm_back(&df, &tr.nf, &params.lnf_g, &mut grad.lnf_g, &mut grad.lnf_b);
    for (l, blk) in params.blocks.iter().enumerate().rev() {
        let lt = &tr.layers[l];
        let gb = &mut grad.blocks[l];
        // MLP.
        matmul_tn_acc(&lt.g, &dh, cfg.hidden, d, &mut gb.w2);
        sum_rows_acc(&dh, &mut gb.b2);
        let mut du = matmul_nt(&dh, &blk.w2, cfg.hidden, d);
        du.iter_mut()
            .zip(&lt.u)
            .for_each(|(g, &u)| *g *= gelu_grad(u));
        matmul_tn_acc(&lt.b, &du, d, cfg.hidden, &mut gb.w1);
        sum_rows_acc(&du, &mut gb.b1);
        let db = matmul_nt(&du, &blk.w1, d, cfg.hidden);
        let dx = layer_norm_back(&db, &lt.n2, &blk.ln2_g, &mut gb.ln2_g, &mut gb.ln2_b);
        dh.iter_mut().zip(&dx).for_each(|(a, b)| *a += b);
        // Attention.
        matmul_tn_acc(&lt.o, &dh, d, d, &mut gb.wo);
        let dout = matmul_nt(&dh, &blk.wo, d, d);
        let (mut dq, mut dk, mut dv) = (vec![0.0; t * d], vec![0.0; t * d], vec![0.0; t * d]);
        let mut dp = vec![0.0; t];
        for hh in 0..heads {
            let cols = hh * hd..(hh + 1) * hd;
            for i in 0..t {
                let last = if cfg.causal { i } else { t - 1 };
                let prow = &lt.p[(hh * t + i) * t..(hh * t + i + 1) * t];
                let doi = &dout[i * d + cols.start..i * d + cols.end];
                let mut dot = 0.0;
                for j in 0..=last {
                    let vj = &lt.v[j * d + cols.start..j * d + cols.end];
                    dp[j] = doi.iter().zip(vj).map(|(a, b)| a * b).sum();
                    dot += prow[j] * dp[j];
                    let dvj = &mut dv[j * d + cols.start..j * d + cols.end];
                    dvj.iter_mut().zip(doi).for_each(|(g, o)| *g += prow[j] * o);
                }
                for j in 0..=last {
                    let ds = prow[j] * (dp[j] - dot);
                    if let Position::T5 {
                        buckets,
                        bucket_of,
                        span,
                    } = &cfg.position
                    {
                        grad.t5[hh * buckets + bucket_of[span + j - i] as usize] += ds;
                    }
                    let s = ds * scale;
                    for c in cols.clone() {
                        dq[i * d + c] += s * lt.k[j * d + c];
                        dk[j * d + c] += s * lt.q[i * d + c];
                    }
                }
            }
        }
        if let Position::Rope { pairs } = &cfg.position {
            rotate(&mut dq, pairs, &tr.rot, heads, hd, true);
            rotate(&mut dk, pairs, &tr.rot, heads, hd, true);
        }
        matmul_tn_acc(&lt.a, &dq, d, d, &mut gb.wq);
        matmul_tn_acc(&lt.a, &dk, d, d, &mut gb.wk);
        matmul_tn_acc(&lt.a, &dv, d, d, &mut gb.wv);
        let mut da = matmul_nt(&dq, &blk.wq, d, d);
        for (w, g) in [(&blk.wk, &dk), (&blk.wv, &dv)] {
            let x = matmul_nt(g, w, d, d);
            da.iter_mut().zip(&x).for_each(|(a, b)| *a += b);
        }
        let dx = layer_norm_back(&da, &lt.n1, &blk.ln1_g, &mut gb.ln1_g, &mut gb.ln1_b);
        dh.iter_mut().zip(&dx).for_each(|(a, b)| *a += b);
    }
    for (pos, &tok) in tr.tokens.iter().enumerate() {
        let row = &dh[pos * d..(pos + 1) * d];
        grad.tok[tok * d..(tok + 1) * d]
            .iter_mut()
            .zip(row)
            .for_each(|(g, r)| *g += r);
        if let Position::Learned { .. } = cfg.position {
            grad.pos[pos * d..(pos + 1) * d]
                .iter_mut()
                .zip(row)
                .for_each(|(g, r)| *g += r);
        }
    }
}

/// Loss and accuracy of a batch: the mean cross-entropy over every target, and the share of
/// targets predicted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    pub loss: f64,
    pub accuracy: f64,
    pub targets: usize,
}

fn score_of(
    trace: &Trace,
    targets: &[Option<usize>],
    vocab: usize,
    loss: &mut f64,
    right: &mut usize,
) {
    let pred = trace.argmax();
    for (i, target) in targets.iter().enumerate() {
        if let Some(y) = *target {
            *loss -= libm::log(trace.probs[i * vocab + y].max(f64::MIN_POSITIVE));
            *right += (pred[i] == y) as usize;
        }
    }
}

/// The batch's score, without gradients.
pub fn evaluate(cfg: &Config, params: &Params, batch: &[Example]) -> Score {
    let (mut loss, mut right, mut n) = (0.0, 0, 0);
    for ex in batch {
        let tr = forward(cfg, params, &ex.tokens);
        score_of(&tr, &ex.targets, cfg.vocab, &mut loss, &mut right);
        n += ex.targets.iter().flatten().count();
    }
    finish(loss, right, n)
}

/// The score of a loss sum and right answers over `n` targets.
pub fn finish(loss: f64, right: usize, n: usize) -> Score {
    let n1 = n.max(1) as f64;
    Score {
        loss: loss / n1,
        accuracy: right as f64 / n1,
        targets: n,
    }
}

/// Adds one sequence's share of a batch's loss gradient to `grad` (`weight`: 1 / the batch's
/// targets), and its loss sum and right answers to `loss` and `right`.
pub fn accumulate(
    cfg: &Config,
    params: &Params,
    ex: &Example,
    weight: f64,
    grad: &mut Params,
    loss: &mut f64,
    right: &mut usize,
) {
    let tr = forward(cfg, params, &ex.tokens);
    score_of(&tr, &ex.targets, cfg.vocab, loss, right);
    backward(cfg, params, &tr, &ex.targets, weight, grad);
}

/// Adds one sequence's loss sum and right answers, without gradients.
pub fn tally(cfg: &Config, params: &Params, ex: &Example, loss: &mut f64, right: &mut usize) {
    let tr = forward(cfg, params, &ex.tokens);
    score_of(&tr, &ex.targets, cfg.vocab, loss, right);
}

/// The batch's score and the gradient of its loss (the mean over every target of the batch).
pub fn loss_and_grad(cfg: &Config, params: &Params, batch: &[Example]) -> (Score, Params) {
    let n: usize = batch
        .iter()
        .map(|ex| ex.targets.iter().flatten().count())
        .sum();
    let weight = 1.0 / n.max(1) as f64;
    let mut grad = params.zeros_like();
    let (mut loss, mut right) = (0.0, 0);
    for ex in batch {
        let tr = forward(cfg, params, &ex.tokens);
        score_of(&tr, &ex.targets, cfg.vocab, &mut loss, &mut right);
        backward(cfg, params, &tr, &ex.targets, weight, &mut grad);
    }
    (finish(loss, right, n), grad)
}

/// Multiply-adds of one training step on `tokens` tokens of sequences `len` long (forward
/// and backward, about three forward passes), for the view's time estimate.
pub fn step_cost(cfg: &Config, tokens: usize, len: usize) -> f64 {
    let (d, m) = (cfg.width as f64, cfg.hidden as f64);
    let per_token = cfg.layers as f64 * (4.0 * d * d + 2.0 * d * m + 2.0 * len as f64 * d)
        + d * cfg.vocab as f64;
    3.0 * per_token * tokens as f64
}
