//! The state of the Context extension view (`view=scaling`): methods, their parameters, and released models' configs.

use crate::views::rope::state::{format_vector, read_even, HEAD_DIM, PARTIAL, THETA};
use crate::encoding::rope::{rotary_dim, Method, ScalingParams};
use crate::encoding::rope_config::RopeConfig;
use crate::state::params::{read_choice, shorten, FloatSpec, IntSpec, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Context extension",
    panels: &[
        panel("scaling-frequencies", "Frequencies after scaling"),
        panel(
            "scaling-score-distance",
            "Score against distance, past the trained context",
        ),
    ],
    controls: "method preset head_dim theta partial factor orig_ctx seq_len beta_fast beta_slow mscale mscale_all_dim truncate attn_factor short_factor long_factor low_freq_factor high_freq_factor config",
};

pub const FACTOR: FloatSpec = FloatSpec {
    name: "factor",
    label: "Factor s",
    min: 1.0,
    max: 64.0,
    default: 4.0,
    log: true,
    unit: "×",
};
pub const ORIG_CTX: IntSpec = IntSpec {
    name: "orig_ctx",
    label: "Original context L₀",
    min: 16,
    max: 131_072,
    default: 4096,
    unit: "positions",
};
pub const CUR_LEN: IntSpec = IntSpec {
    name: "seq_len",
    label: "Current length seq_len (dynamic NTK, LongRoPE)",
    min: 1,
    max: 1_048_576,
    default: 16384,
    unit: "positions",
};
pub const BETA_FAST: FloatSpec = FloatSpec {
    name: "beta_fast",
    label: "YaRN β_fast",
    min: 0.1,
    max: 256.0,
    default: 32.0,
    log: true,
    unit: "turns",
};
pub const BETA_SLOW: FloatSpec = FloatSpec {
    name: "beta_slow",
    label: "YaRN β_slow",
    min: 0.01,
    max: 64.0,
    default: 1.0,
    log: true,
    unit: "turns",
};
pub const ATTN_FACTOR: FloatSpec = FloatSpec {
    name: "attn_factor",
    label: "Attention factor α (blank: automatic)",
    min: 0.1,
    max: 10.0,
    default: 1.0,
    log: false,
    unit: "",
};
pub const MSCALE: FloatSpec = FloatSpec {
    name: "mscale",
    label: "YaRN mscale",
    min: 0.0,
    max: 10.0,
    default: 1.0,
    log: false,
    unit: "",
};
pub const MSCALE_ALL_DIM: FloatSpec = FloatSpec {
    name: "mscale_all_dim",
    label: "YaRN mscale_all_dim",
    min: 0.0,
    max: 10.0,
    default: 1.0,
    log: false,
    unit: "",
};
pub const LOW_FREQ: FloatSpec = FloatSpec {
    name: "low_freq_factor",
    label: "Llama 3 low_freq_factor",
    min: 0.1,
    max: 64.0,
    default: 1.0,
    log: true,
    unit: "",
};
pub const HIGH_FREQ: FloatSpec = FloatSpec {
    name: "high_freq_factor",
    label: "Llama 3 high_freq_factor",
    min: 0.1,
    max: 256.0,
    default: 4.0,
    log: true,
    unit: "",
};
/// The longest distance drawn in `scaling-score-distance`.
pub const MAX_SCORE_DISTANCE: usize = 131_072;

/// Controls of the context-extension view.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingState {
    pub methods: Vec<Method>,
    pub head_dim: usize,
    pub theta: f64,
    pub partial: f64,
    pub factor: f64,
    pub orig_ctx: usize,
    pub seq_len: usize,
    pub beta_fast: f64,
    pub beta_slow: f64,
    pub attn_factor: Option<f64>,
    pub mscale: Option<f64>,
    pub mscale_all_dim: Option<f64>,
    pub truncate: bool,
    pub low_freq_factor: f64,
    pub high_freq_factor: f64,
    /// LongRoPE lists; `None` means the illustrative lists of [`illustrative_longrope`].
    pub short_factor: Option<Vec<f64>>,
    pub long_factor: Option<Vec<f64>>,
}

impl Default for ScalingState {
    fn default() -> Self {
        ScalingState {
            methods: vec![Method::None, Method::Linear, Method::Ntk, Method::Yarn],
            head_dim: 128,
            theta: THETA.default,
            partial: 1.0,
            factor: FACTOR.default,
            orig_ctx: ORIG_CTX.default as usize,
            seq_len: CUR_LEN.default as usize,
            beta_fast: BETA_FAST.default,
            beta_slow: BETA_SLOW.default,
            attn_factor: None,
            mscale: None,
            mscale_all_dim: None,
            truncate: true,
            low_freq_factor: LOW_FREQ.default,
            high_freq_factor: HIGH_FREQ.default,
            short_factor: None,
            long_factor: None,
        }
    }
}

/// LongRoPE lists for when none are given: short all 1 (no change inside the trained
/// context), long rising geometrically from 1 to `factor` over the pairs. Illustrative only —
/// real models ship searched lists (paste a config.json to use them).
pub fn illustrative_longrope(pairs: usize, factor: f64) -> (Vec<f64>, Vec<f64>) {
    let short = vec![1.0; pairs];
    let long = (0..pairs)
        .map(|j| factor.powf(j as f64 / (pairs.max(2) - 1) as f64))
        .collect();
    (short, long)
}

fn read_optional(spec: FloatSpec, raw: Option<String>, notices: &mut Notices) -> Option<f64> {
    let raw = raw?;
    if raw.trim().is_empty() {
        return None;
    }
    Some(spec.read(Some(&raw), notices))
}

fn read_list(name: &str, raw: Option<String>, notices: &mut Notices) -> Option<Vec<f64>> {
    let raw = raw?;
    let mut out = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match crate::format::parse_decimal(part) {
            Some(v) if v > 0.0 && out.len() < 256 => out.push(v),
            _ => {
                notices.push(
                    name,
                    "must be up to 256 positive numbers separated by commas; ignored.".into(),
                );
                return None;
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The model presets: rows of the Real models gallery (`crate::gallery`), whose configs are
/// quoted once, there, with their sources.
pub const MODEL_PRESETS: [&str; 6] = [
    "llama-2-7b",
    "llama-3.1-8b",
    "mistral-7b-v0.3",
    "qwen2.5-7b",
    "gpt-neox-20b",
    "gpt-j-6b",
];

/// The gallery rows of [`MODEL_PRESETS`].
pub fn model_presets() -> impl Iterator<Item = &'static crate::gallery::ModelRow> {
    MODEL_PRESETS
        .iter()
        .filter_map(|id| crate::gallery::ModelRow::find(id))
}

impl ScalingState {
    /// Sets the controls from a parsed config: model shape, base, and its method (shown beside
    /// the original RoPE). Values outside the controls' ranges are clamped, and said so.
    pub fn apply_config(&mut self, c: &RopeConfig) -> Vec<String> {
        let mut notes = Vec::new();
        let mut clamp_note = |what: &str, from: f64, to: f64| {
            if from != to {
                notes.push(format!(
                    "{what} {from} is outside this view's range; using {to}."
                ));
            }
        };
        let inside = (c.head_dim as i64).clamp(HEAD_DIM.min, HEAD_DIM.max) as usize;
        clamp_note("head_dim", c.head_dim as f64, inside as f64);
        let head = inside & !1;
        let odd = (head != inside)
            .then(|| format!("head_dim {inside} is odd (RoPE rotates pairs); using {head}."));
        self.head_dim = head;
        self.theta = THETA.clamp(c.theta);
        clamp_note("rope_theta", c.theta, self.theta);
        self.partial = PARTIAL.clamp(c.partial);
        self.methods = if c.method == Method::None {
            vec![Method::None]
        } else {
            vec![Method::None, c.method]
        };
        let p = &c.params;
        self.factor = FACTOR.clamp(p.factor);
        if c.method != Method::None {
            clamp_note("factor", p.factor, self.factor);
        }
        let orig = if c.method == Method::None {
            c.max_positions
        } else {
            p.orig_ctx
        };
        self.orig_ctx = ORIG_CTX.clamp(orig as i64) as usize;
        clamp_note(
            if c.method == Method::None {
                "original context L₀ (max_position_embeddings)"
            } else {
                "original context L₀ (original_max_position_embeddings)"
            },
            orig as f64,
            self.orig_ctx as f64,
        );
        self.beta_fast = BETA_FAST.clamp(p.beta_fast);
        self.beta_slow = BETA_SLOW.clamp(p.beta_slow);
        self.attn_factor = p.attn_factor.map(|v| ATTN_FACTOR.clamp(v));
        self.mscale = p.mscale.map(|v| MSCALE.clamp(v));
        self.mscale_all_dim = p.mscale_all_dim.map(|v| MSCALE_ALL_DIM.clamp(v));
        self.truncate = p.truncate;
        if c.method == Method::Llama3 {
            self.low_freq_factor = LOW_FREQ.clamp(p.low_freq_factor);
            self.high_freq_factor = HIGH_FREQ.clamp(p.high_freq_factor);
        }
        let given = |v: &Vec<f64>| (!v.is_empty()).then(|| v.clone());
        self.short_factor = given(&p.short_factor);
        self.long_factor = given(&p.long_factor);
        self.seq_len = CUR_LEN.clamp((self.factor * self.orig_ctx as f64).round() as i64) as usize;
        notes.extend(odd);
        notes
    }

    pub fn rotary_dim(&self) -> usize {
        rotary_dim(self.head_dim, self.partial)
    }

    /// The method parameters, LongRoPE lists resolved.
    pub fn params(&self) -> ScalingParams {
        let pairs = self.rotary_dim() / 2;
        let (short, long) = illustrative_longrope(pairs, self.factor);
        ScalingParams {
            factor: self.factor,
            orig_ctx: self.orig_ctx,
            seq_len: Some(self.seq_len),
            beta_fast: self.beta_fast,
            beta_slow: self.beta_slow,
            attn_factor: self.attn_factor,
            mscale: self.mscale,
            mscale_all_dim: self.mscale_all_dim,
            truncate: self.truncate,
            low_freq_factor: self.low_freq_factor,
            high_freq_factor: self.high_freq_factor,
            short_factor: self.short_factor.clone().unwrap_or(short),
            long_factor: self.long_factor.clone().unwrap_or(long),
        }
    }

    /// The longest distance the score chart draws: `factor × orig_ctx`, capped.
    pub fn score_distance(&self) -> usize {
        ((self.factor * self.orig_ctx as f64).round() as usize).clamp(1, MAX_SCORE_DISTANCE)
    }

    pub(crate) fn read(
        get: &dyn Fn(&str) -> Option<String>,
        notices: &mut Notices,
    ) -> ScalingState {
        let d = ScalingState::default();
        let methods = match get("method") {
            None => d.methods.clone(),
            Some(raw) => {
                let mut out: Vec<Method> = Vec::new();
                let mut bad = Vec::new();
                for part in raw
                    .split(',')
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .take(64)
                {
                    match Method::from_name(part) {
                        Some(m) if !out.contains(&m) => out.push(m),
                        Some(_) => {}
                        None => bad.push(shorten(part, 16)),
                    }
                }
                if !bad.is_empty() {
                    notices.push(
                        "method",
                        format!("unknown method(s) {} ignored.", bad.join(", ")),
                    );
                }
                if out.is_empty() {
                    notices.push(
                        "method",
                        "no method left; showing none (original RoPE).".into(),
                    );
                    out.push(Method::None);
                }
                // The canonical order, duplicates dropped.
                Method::ALL
                    .into_iter()
                    .filter(|m| out.contains(m))
                    .collect()
            }
        };
        let head_dim = read_even(
            IntSpec {
                default: 128,
                ..HEAD_DIM
            },
            get("head_dim").as_deref(),
            notices,
        );
        ScalingState {
            methods,
            head_dim,
            theta: THETA.read(get("theta").as_deref(), notices),
            partial: PARTIAL.read(get("partial").as_deref(), notices),
            factor: FACTOR.read(get("factor").as_deref(), notices),
            orig_ctx: ORIG_CTX.read(get("orig_ctx").as_deref(), notices) as usize,
            seq_len: CUR_LEN.read(get("seq_len").as_deref(), notices) as usize,
            beta_fast: BETA_FAST.read(get("beta_fast").as_deref(), notices),
            beta_slow: BETA_SLOW.read(get("beta_slow").as_deref(), notices),
            attn_factor: read_optional(ATTN_FACTOR, get("attn_factor"), notices),
            mscale: read_optional(MSCALE, get("mscale"), notices),
            mscale_all_dim: read_optional(MSCALE_ALL_DIM, get("mscale_all_dim"), notices),
            truncate: read_choice(
                "truncate",
                get("truncate").as_deref(),
                &[("true", true), ("false", false), ("1", true), ("0", false)],
                true,
                notices,
            ),
            low_freq_factor: LOW_FREQ.read(get("low_freq_factor").as_deref(), notices),
            high_freq_factor: HIGH_FREQ.read(get("high_freq_factor").as_deref(), notices),
            short_factor: read_list("short_factor", get("short_factor"), notices),
            long_factor: read_list("long_factor", get("long_factor"), notices),
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        let methods: Vec<&str> = self.methods.iter().map(|m| m.name()).collect();
        out.push(("method", methods.join(",")));
        out.push(("head_dim", self.head_dim.to_string()));
        out.push(("theta", format!("{}", self.theta)));
        out.push(("partial", format!("{}", self.partial)));
        out.push(("factor", format!("{}", self.factor)));
        out.push(("orig_ctx", self.orig_ctx.to_string()));
        out.push(("seq_len", self.seq_len.to_string()));
        out.push(("beta_fast", format!("{}", self.beta_fast)));
        out.push(("beta_slow", format!("{}", self.beta_slow)));
        for (name, v) in [
            ("attn_factor", self.attn_factor),
            ("mscale", self.mscale),
            ("mscale_all_dim", self.mscale_all_dim),
        ] {
            if let Some(v) = v {
                out.push((name, format!("{v}")));
            }
        }
        out.push(("truncate", self.truncate.to_string()));
        out.push(("low_freq_factor", format!("{}", self.low_freq_factor)));
        out.push(("high_freq_factor", format!("{}", self.high_freq_factor)));
        for (name, v) in [
            ("short_factor", &self.short_factor),
            ("long_factor", &self.long_factor),
        ] {
            if let Some(v) = v {
                out.push((name, format_vector(v)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_preset_parses_and_applies() {
        assert_eq!(model_presets().count(), MODEL_PRESETS.len());
        for row in model_presets() {
            let c = row
                .rope()
                .unwrap_or_else(|| panic!("{}: not a RoPE row", row.id));
            let mut s = ScalingState::default();
            let notes = s.apply_config(&c);
            assert!(notes.is_empty(), "{}: {notes:?}", row.id);
            assert_eq!(s.head_dim, c.head_dim, "{}", row.id);
            assert_eq!(s.orig_ctx, row.original_ctx, "{}", row.id);
        }
        let neox = crate::gallery::ModelRow::find("gpt-neox-20b").unwrap().rope().unwrap();
        let mut s = ScalingState::default();
        s.apply_config(&neox);
        assert_eq!(s.rotary_dim(), 24);
        let llama3 = crate::gallery::ModelRow::find("llama-3.1-8b").unwrap().rope().unwrap();
        s.apply_config(&llama3);
        assert_eq!(s.methods, vec![Method::None, Method::Llama3]);
        assert_eq!((s.factor, s.orig_ctx, s.theta), (8.0, 8192, 500000.0));
    }

    #[test]
    fn a_config_s_odd_or_too_long_values_are_named_for_what_they_are() {
        let c = crate::encoding::rope_config::parse_config(
            r#"{"head_dim": 65, "num_attention_heads": 1, "max_position_embeddings": 9999999}"#,
        )
        .unwrap();
        let notes = ScalingState::default().apply_config(&c);
        assert!(notes.contains(&"head_dim 65 is odd (RoPE rotates pairs); using 64.".to_string()), "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("original context L₀ (max_position_embeddings) 9999999 is outside")), "{notes:?}");
        assert!(!notes.iter().any(|n| n.starts_with("head_dim 65 is outside")), "{notes:?}");
    }

    #[test]
    fn illustrative_lists_span_one_to_factor() {
        let (s, l) = illustrative_longrope(4, 8.0);
        assert_eq!(s, vec![1.0; 4]);
        assert_eq!(l[0], 1.0);
        assert!((l[3] - 8.0).abs() < 1e-12);
    }
}
