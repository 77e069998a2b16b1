//! "Copy as NumPy": Python that regenerates a panel's data with NumPy alone.

use crate::encoding::rope::{scale, Method, PairLayout};
use crate::encoding::Layout;
use crate::views::rope::state::{QkSource, RopeState};
use crate::views::scaling::state::ScalingState;
use crate::views::sinusoidal::state::SinusoidalState;

/// The lines that build `pe`, the `(seq_len, d_model)` sinusoidal table of the state.
pub fn sinusoidal_table(s: &SinusoidalState) -> String {
    let assemble = match s.layout {
        Layout::Interleaved => {
            "pe = np.zeros((seq_len, d_model))\npe[:, 0::2] = np.sin(angle)\npe[:, 1::2] = np.cos(angle[:, : d_model // 2])"
        }
        Layout::Concat => {
            "pe = np.concatenate([np.sin(angle), np.cos(angle[:, : d_model // 2])], axis=1)"
        }
    };
    format!(
        "import numpy as np\n\nseq_len, d_model, base = {}, {}, {:?}\npos = np.arange(seq_len)[:, None]\ni = np.arange((d_model + 1) // 2)[None, :]\nangle = pos / base ** (2 * i / d_model)\n{assemble}\n",
        s.seq_len, s.d_model, s.base
    )
}

/// Snippet for one panel of the Sinusoidal view.
pub fn sinusoidal_panel(s: &SinusoidalState, panel: &str) -> String {
    let table = sinusoidal_table(s);
    // `pair` and `omega`, shared by three panels (one copy of the text in the binary).
    const OMEGA: &str =
        "pair = np.arange((d_model + 1) // 2)\nomega = base ** (-2 * pair / d_model)\n";
    let tail = match panel {
        "pe-curves" => format!("curves = pe[:, {:?}]  # one column per curve\n", s.curve_columns()),
        "pe-spectrum" | "pe-index" => format!("{OMEGA}wavelength = 2 * np.pi / omega\n"),
        "pe-similarity" => format!("similarity = pe @ pe.T\ncurve = similarity[{}]\n", s.p0_in_range()),
        "pe-offset" => format!(
            "delta, p0 = {}, {}\n{OMEGA}# for an even d_model, PE[p0 + delta] = M(delta) @ PE[p0]: each (sin, cos) pair turned by delta * omega_i\n",
            s.offset,
            s.p0_in_range()
        ),
        _ => String::new(),
    };
    format!("{table}{tail}")
}

/// The lines that rebuild θ and the rotation for the RoPE view's controls.
pub fn rope_table(s: &RopeState) -> String {
    let d = s.rotary_dim();
    let pairing = match s.layout {
        PairLayout::Half => "u, v = vec[:D // 2], vec[D // 2 : D]  # half-split (rotate_half)",
        PairLayout::Interleaved => "u, v = vec[0:D:2], vec[1:D:2]  # interleaved",
    };
    format!(
        "import numpy as np\n\nhead_dim, D, theta = {}, {d}, {:?}\ninv_freq = theta ** (-np.arange(0, D, 2) / D)\n\ndef rotate(vec, pos):\n    {pairing}\n    c, sn = np.cos(pos * inv_freq), np.sin(pos * inv_freq)\n    return u * c - v * sn, v * c + u * sn\n\ndistances = np.arange({})\n",
        s.head_dim, s.theta, s.max_dist + 1
    )
}

/// Snippet for one panel of the RoPE view, with the q and k the panels use
/// ([`RopeState::vectors`]) written out.
pub fn rope_panel(s: &RopeState, panel: &str) -> String {
    let (q, k) = s.vectors();
    let source = if s.qk == QkSource::Random {
        format!(
            "seeded random (seed {}): PE Lab's own generator, which NumPy cannot reproduce, so the values are copied",
            s.seed
        )
    } else if q.iter().chain(&k).all(|v| *v == 1.0) {
        "all ones".to_string()
    } else {
        "custom".to_string()
    };
    let score = || {
        format!(
        "# q and k: {source}\nq = np.array({q:?})\nk = np.array({k:?})\n\ndef score(m, n):  # R(m)q . R(n)k: the D rotated dims, plus the head_dim - D that pass through\n    (qx, qy), (kx, ky) = rotate(q, m), rotate(k, n)\n    return qx @ kx + qy @ ky + q[D:] @ k[D:]\n\n"
    )
    };
    let tail = match panel {
        "rope-rotation" => format!(
            "# q: {source}\nq = np.array({q:?})\npos = {}\nP = D // 2\npair = np.arange(P) if P <= 16 else np.arange(16) * (P - 1) // 15  # the clocks drawn\nqx, qy = rotate(q, pos)\nomega_i, angle_rad = inv_freq[pair], pos * inv_freq[pair]\nq_x_rotated, q_y_rotated = qx[pair], qy[pair]\n",
            s.pos
        ),
        "rope-angles" => "cos_angles = np.cos(np.outer(distances, inv_freq))  # a row per position\n".to_string(),
        "rope-score-distance" => format!(
            "{}ms = {:?}  # query positions m\nscores = np.array([[score(m, m - d) for m in ms] for d in distances])\n",
            score(),
            s.m
        ),
        "rope-score-matrix" => format!(
            "{}matrix = np.array([[score(m, n) for n in distances] for m in distances])  # query m, key n\n",
            score()
        ),
        "rope-decay" => "S = np.cumsum(np.exp(1j * np.outer(distances, inv_freq)), axis=1)\nsu_bound = np.abs(S).mean(axis=1) if D else np.zeros(len(distances))  # no pair: 0\nones_score = 2 * np.cos(np.outer(distances, inv_freq)).sum(axis=1) + (head_dim - D)  # q = k = 1\n# random_mean_score (the mean over 64 seeded random q, k) uses PE Lab's own seeded generator: it is in the CSV export, not here\n".to_string(),
        "rope-wavelength" => "wavelength = 2 * np.pi / inv_freq\n".to_string(),
        _ => String::new(),
    };
    format!("{}{tail}", rope_table(s))
}

/// Snippet for a panel of the Context extension view: each drawn method's frequencies `inv`
/// and attention factor `alpha` (cos and sin are multiplied by it), as `scale` computes them.
pub fn scaling_panel(s: &ScalingState, panel: &str) -> String {
    let d = s.rotary_dim();
    let p = s.params();
    let mut out = format!(
        "import numpy as np\n\nhead_dim, D, theta = {}, {d}, {:?}\ns, L0, seq_len = {:?}, {}, {}  # factor, original context, current length\ninv_freq = theta ** (-np.arange(0, D, 2) / D)\ninv, alpha = {{}}, {{}}  # per method: frequencies, attention factor\n",
        s.head_dim, s.theta, s.factor, s.orig_ctx, s.seq_len
    );
    if s.methods
        .iter()
        .any(|m| matches!(m, Method::Ntk | Method::Dynamic))
    {
        // At D = 2, D / (D − 2) is infinite (the one pair's ω stays 1 whatever the base).
        out += if d == 2 {
            "e = np.inf  # D / (D - 2) at D = 2: the one pair keeps omega = 1\n"
        } else {
            "e = D / (D - 2)  # NTK-aware base: theta * s ** e\n"
        };
    }
    let given = |a: Option<f64>, auto: &str| match a {
        Some(a) => format!("{a:?}  # attention_factor\n"),
        None => format!("{auto}\n"),
    };
    for &m in &s.methods {
        if let Err(e) = scale(m, s.theta, d, &p) {
            out += &format!("# {}: not drawn: {e}\n", m.name());
            continue;
        }
        out += &match m {
            Method::None => "inv['none'], alpha['none'] = inv_freq, 1.0\n".to_string(),
            Method::Linear => "inv['linear'], alpha['linear'] = inv_freq / s, 1.0\n".to_string(),
            Method::Ntk => "inv['ntk'], alpha['ntk'] = (theta * s ** e) ** (-np.arange(0, D, 2) / D), 1.0  # static NTK-aware base (bloc97; not a transformers rope type)\n".to_string(),
            Method::Dynamic => "length = max(seq_len, L0)\ninv['dynamic'], alpha['dynamic'] = (theta * (s * length / L0 - (s - 1)) ** e) ** (-np.arange(0, D, 2) / D), 1.0  # dynamic NTK: the NTK base at seq_len\n".to_string(),
            Method::Yarn => {
                let or = |v: f64, d: f64| if v == 0.0 { d } else { v };
                let range = if p.truncate {
                    "max(np.floor(corr(beta_fast)), 0), min(np.ceil(corr(beta_slow)), D - 1)  # truncate: rounded"
                } else {
                    "max(corr(beta_fast), 0), min(corr(beta_slow), D - 1)  # truncate = False: exact"
                };
                let auto = match (p.mscale, p.mscale_all_dim) {
                    (Some(m), Some(ma)) if m != 0.0 && ma != 0.0 => format!("(0.1 * {m:?} * np.log(s) + 1) / (0.1 * {ma:?} * np.log(s) + 1) if s > 1 else 1.0  # mscale / mscale_all_dim"),
                    _ => "0.1 * np.log(s) + 1 if s > 1 else 1.0".to_string(),
                };
                format!(
                    "beta_fast, beta_slow = {:?}, {:?}\n\ndef corr(turns):  # the pair that makes `turns` turns over L0 positions\n    return D * np.log(L0 / (turns * 2 * np.pi)) / (2 * np.log(theta))\n\nlo, hi = {range}\nif lo == hi:\n    hi += 0.001\nramp = np.clip((np.arange(D // 2) - lo) / (hi - lo), 0, 1)\ninv['yarn'] = inv_freq * (1 - ramp) + inv_freq / s * ramp\nalpha['yarn'] = {}",
                    or(p.beta_fast, 32.0),
                    or(p.beta_slow, 1.0),
                    given(p.attn_factor, &auto)
                )
            }
            Method::LongRope => {
                let list = |v: &Option<Vec<f64>>, auto: &str| match v {
                    Some(v) => format!("np.array({v:?})"),
                    None => format!("{auto}  # PE Lab's illustrative list"),
                };
                format!(
                    "short_factor = {}\nlong_factor = {}\ninv['longrope'] = inv_freq / (long_factor if seq_len > L0 else short_factor)\nalpha['longrope'] = {}",
                    list(&s.short_factor, "np.ones(D // 2)"),
                    list(&s.long_factor, "s ** (np.arange(D // 2) / max(D // 2 - 1, 1))"),
                    given(p.attn_factor, "np.sqrt(1 + np.log(s) / np.log(L0)) if s > 1 else 1.0")
                )
            }
            Method::Llama3 => {
                let (a, b) = (p.low_freq_factor, p.high_freq_factor);
                let between = if b > a {
                    "(1 - smooth) * inv_freq / s + smooth * inv_freq"
                } else {
                    "inv_freq"
                };
                format!(
                    "low, high = {a:?}, {b:?}  # low_freq_factor, high_freq_factor\nwl = 2 * np.pi / inv_freq  # wavelengths\n{}inv['llama3'] = np.where(wl < L0 / high, inv_freq, np.where(wl > L0 / low, inv_freq / s, {between}))\nalpha['llama3'] = 1.0\n",
                    if b > a { "smooth = (L0 / wl - low) / (high - low)\n" } else { "" }
                )
            }
        };
    }
    out += &match panel {
        "scaling-score-distance" => format!(
            "distances = np.arange({})\nscores = {{method: alpha[method] ** 2 * 2 * np.cos(np.outer(distances, inv[method])).sum(axis=1) + (head_dim - D) for method in inv}}  # q = k = 1\n",
            s.score_distance() + 1
        ),
        _ => "wavelength = {method: 2 * np.pi / inv[method] for method in inv}\n".to_string(),
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_carry_the_parameters() {
        let s = SinusoidalState {
            seq_len: 50,
            d_model: 7,
            base: 100.0,
            layout: Layout::Concat,
            ..SinusoidalState::default()
        };
        let text = sinusoidal_panel(&s, "pe-similarity");
        assert!(text.contains("seq_len, d_model, base = 50, 7, 100.0"));
        assert!(text.contains("np.concatenate"));
        assert!(text.contains("pe @ pe.T"));
        let index = sinusoidal_panel(&s, "pe-index");
        assert!(index.contains("pair = np.arange") && index.contains("wavelength = "));
        assert!(sinusoidal_panel(&s, "pe-offset").contains("for an even d_model"));
    }

    #[test]
    fn rope_snippets_compute_what_the_csv_holds() {
        let s = RopeState {
            head_dim: 8,
            qk: QkSource::Custom,
            q: Some(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.5]),
            k: Some(vec![0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]),
            m: vec![3, 40],
            ..RopeState::default()
        };
        let text = rope_panel(&s, "rope-score-distance");
        assert!(text.contains("q = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.5])"));
        assert!(text.contains("def score(m, n)") && text.contains("q[D:] @ k[D:]"));
        assert!(text.contains("ms = [3, 40]") && text.contains("scores = "));
        assert!(rope_panel(&s, "rope-score-matrix").contains("matrix = "));
        let decay = rope_panel(&s, "rope-decay");
        assert!(decay.contains("ones_score = ") && decay.contains("if D else"));
        let clocks = rope_panel(&s, "rope-rotation");
        assert!(clocks.contains("pos = 10") && clocks.contains("rotate(q, pos)"));
        assert!(rope_panel(&s, "rope-angles").contains("cos_angles = "));
        // Seeded random vectors are written out: NumPy cannot draw them.
        let random = RopeState {
            qk: QkSource::Random,
            ..s
        };
        let (q, _) = random.vectors();
        assert!(rope_panel(&random, "rope-score-matrix").contains(&format!("{:?}", q[0])));
    }

    #[test]
    fn scaling_snippets_follow_the_drawn_methods() {
        let s = ScalingState::default();
        let text = scaling_panel(&s, "scaling-frequencies");
        for name in ["'none'", "'linear'", "'ntk'", "'yarn'"] {
            assert!(text.contains(&format!("inv[{name}]")), "{name}");
        }
        assert!(
            !text.contains("llama3") && !text.contains("longrope") && !text.contains("dynamic")
        );
        let s = ScalingState {
            methods: vec![Method::Llama3, Method::LongRope],
            long_factor: Some(vec![1.0, 2.0]),
            ..s
        };
        let text = scaling_panel(&s, "scaling-score-distance");
        assert!(text.contains("inv['llama3']") && text.contains("# longrope: not drawn"));
        assert!(!text.contains("ntk") && !text.contains("yarn"));
        assert!(text.contains("distances = np.arange(16385)") && text.contains("scores = "));
    }
}
