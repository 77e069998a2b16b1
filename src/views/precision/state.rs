//! The state of the Precision view (`view=precision`): what float32, bfloat16 and float16 do
//! to RoPE at long context.

use crate::state::params::{FloatSpec, IntSpec, Notices};
use crate::encoding::precision::Path;
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Precision",
    panels: &[
        panel(
            "precision-positions",
            "The positions each path can tell apart",
        ),
        panel("precision-angles", "Angle error per pair at one position"),
        panel(
            "precision-score",
            "Does the score still depend only on m − n?",
        ),
        panel("precision-error", "Where each path breaks"),
    ],
    controls: "preset head_dim theta pos m max_dist paths",
};

pub const PREC_HEAD_DIM: IntSpec = IntSpec {
    name: "head_dim",
    label: "Rotated dimensions D",
    min: 2,
    max: 512,
    default: 128,
    unit: "dims",
};
pub const PREC_THETA: FloatSpec = FloatSpec {
    name: "theta",
    label: "Base",
    min: 2.0,
    max: 1e7,
    default: 10000.0,
    log: true,
    unit: "",
};
/// The largest position: 2^26.
pub const MAX_POS: u64 = 1 << 26;
pub const PREC_POS: FloatSpec = FloatSpec {
    name: "pos",
    label: "Position",
    min: 1.0,
    max: MAX_POS as f64,
    default: 100_000.0,
    log: true,
    unit: "",
};
pub const PREC_M: FloatSpec = FloatSpec {
    name: "m",
    label: "Query position m",
    min: 1.0,
    max: MAX_POS as f64,
    default: 100_000.0,
    log: true,
    unit: "",
};
pub const PREC_MAX_DIST: IntSpec = IntSpec {
    name: "max_dist",
    label: "Max distance",
    min: 1,
    max: 4096,
    default: 64,
    unit: "positions",
};

/// Controls of the Precision view.
#[derive(Clone, Debug, PartialEq)]
pub struct PrecisionState {
    pub head_dim: usize,
    pub theta: f64,
    /// The position the positions and angles panels look at.
    pub pos: u64,
    /// The paths drawn, in the order chosen.
    pub paths: Vec<Path>,
    /// The query position of the score panel.
    pub m: u64,
    pub max_dist: usize,
}

impl Default for PrecisionState {
    fn default() -> Self {
        PrecisionState {
            head_dim: PREC_HEAD_DIM.default as usize,
            theta: PREC_THETA.default,
            pos: PREC_POS.default as u64,
            paths: Path::ALL.to_vec(),
            m: PREC_M.default as u64,
            max_dist: PREC_MAX_DIST.default as usize,
        }
    }
}

/// A preset: a model's RoPE, or a known bug.
pub struct PrecisionPreset {
    pub name: &'static str,
    pub query: &'static str,
}

pub const PRECISION_PRESETS: [PrecisionPreset; 4] = [
    PrecisionPreset {
        name: "Llama 2 (D = 128, base 10,000)",
        query: "head_dim=128&theta=10000",
    },
    PrecisionPreset {
        name: "Llama 3 (D = 128, base 500,000)",
        query: "head_dim=128&theta=500000",
    },
    PrecisionPreset {
        name: "Qwen2 (D = 128, base 1,000,000)",
        query: "head_dim=128&theta=1000000",
    },
    PrecisionPreset {
        name: "GPT-NeoX's bfloat16 cache at 20B's 24 rotating dimensions",
        query: "head_dim=24&theta=10000&paths=exact,bf16_cache&pos=2049&m=2049",
    },
];

impl PrecisionState {
    /// The distances the score panel draws: 0 to `max_dist`, but never past key position 0.
    pub fn score_distances(&self) -> u64 {
        (self.max_dist as u64).min(self.m)
    }

    /// The score chart's name, saying so when the query position cuts the distances short (a
    /// max distance past m changes nothing drawn).
    pub fn score_caption(&self) -> String {
        let shown = self.score_distances();
        let cut = if (self.max_dist as u64) > self.m {
            format!(" (the max distance, {}, reaches past key position 0: the keys stop there)", self.max_dist)
        } else {
            String::new()
        };
        format!("Score of a query at {} with keys 0 to {shown} positions back{cut}, for each path.", self.m)
    }

    pub(crate) fn read(
        get: &dyn Fn(&str) -> Option<String>,
        notices: &mut Notices,
    ) -> PrecisionState {
        let head_dim = crate::views::rope::state::read_even(PREC_HEAD_DIM, get("head_dim").as_deref(), notices);
        let theta = PREC_THETA.read(get("theta").as_deref(), notices);
        let pos = PREC_POS.read(get("pos").as_deref(), notices).round() as u64;
        let m = PREC_M.read(get("m").as_deref(), notices).round() as u64;
        let max_dist = PREC_MAX_DIST.read(get("max_dist").as_deref(), notices) as usize;
        let paths = match get("paths") {
            None => Path::ALL.to_vec(),
            Some(raw) => {
                let mut paths = Vec::new();
                let mut unknown = 0;
                for name in raw
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .take(64)
                {
                    match Path::from_name(name) {
                        Some(p) if !paths.contains(&p) => paths.push(p),
                        Some(_) => {}
                        None => unknown += 1,
                    }
                }
                if unknown > 0 || paths.is_empty() {
                    notices.push(
                        "paths",
                        format!(
                            "ignored {unknown} unknown name{}; the paths are exact, hf_f32, hf_bf16, bf16_cache, fp16_seq{}.",
                            if unknown == 1 { "" } else { "s" },
                            if paths.is_empty() { " (showing all)" } else { "" }
                        ),
                    );
                }
                if paths.is_empty() {
                    Path::ALL.to_vec()
                } else {
                    paths
                }
            }
        };
        PrecisionState {
            head_dim,
            theta,
            pos,
            paths,
            m,
            max_dist,
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("head_dim", self.head_dim.to_string()));
        out.push(("theta", format!("{}", self.theta)));
        out.push(("pos", self.pos.to_string()));
        let names: Vec<&str> = self.paths.iter().map(|p| p.name()).collect();
        out.push(("paths", names.join(",")));
        out.push(("m", self.m.to_string()));
        out.push(("max_dist", self.max_dist.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_caption_says_when_m_cuts_the_distances_short() {
        let mut s = PrecisionState {
            m: 30,
            max_dist: 2000,
            ..PrecisionState::default()
        };
        assert_eq!(s.score_distances(), 30);
        assert_eq!(
            s.score_caption(),
            "Score of a query at 30 with keys 0 to 30 positions back (the max distance, 2000, reaches past key position 0: the keys stop there), for each path."
        );
        s.max_dist = 30;
        assert_eq!(
            s.score_caption(),
            "Score of a query at 30 with keys 0 to 30 positions back, for each path."
        );
        s.max_dist = 64;
        s.m = 100_000;
        assert_eq!(s.score_distances(), 64);
        assert!(!s.score_caption().contains("reaches past"));
    }
}
