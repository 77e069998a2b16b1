//! The state of the RoPE view (`view=rope`), and the RoPE controls other views share.

use crate::encoding::rope::{rotary_dim, PairLayout, Rope, SeededNormal};
use crate::state::params::{read_choice, read_index_list, shorten, FloatSpec, IntSpec, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "RoPE",
    panels: &[
        panel("rope-rotation", "Each pair is a clock"),
        panel("rope-angles", "Cosines of the rotation angles, cos(pos·ω_i)"),
        panel(
            "rope-score-distance",
            "Score against distance: only m − n matters",
        ),
        panel("rope-score-matrix", "The score matrix is Toeplitz"),
        panel("rope-decay", "Long-term decay, and what it depends on"),
        panel(
            "rope-wavelength",
            "Wavelength of each pair against the context",
        ),
    ],
    controls: "head_dim theta partial max_dist layout qk seed q k pos m",
};

pub const HEAD_DIM: IntSpec = IntSpec {
    name: "head_dim",
    label: "head_dim",
    min: 2,
    max: 512,
    default: 64,
    unit: "dimensions",
};
pub const THETA: FloatSpec = FloatSpec {
    name: "theta",
    label: "Base",
    min: 2.0,
    max: 1e8,
    default: 10000.0,
    log: true,
    unit: "",
};
pub const PARTIAL: FloatSpec = FloatSpec {
    name: "partial",
    label: "Rotary fraction",
    min: 0.01,
    max: 1.0,
    default: 1.0,
    log: false,
    unit: "",
};
pub const SEED: IntSpec = IntSpec {
    name: "seed",
    label: "Seed",
    min: 0,
    max: 999_999,
    default: 0,
    unit: "",
};
pub const MAX_DIST: IntSpec = IntSpec {
    name: "max_dist",
    label: "Max distance",
    min: 1,
    max: 131_072,
    default: 256,
    unit: "positions",
};
pub const POS: IntSpec = IntSpec {
    name: "pos",
    label: "Position",
    min: 0,
    max: 131_072,
    default: 10,
    unit: "",
};
/// Query positions overlaid in `rope-score-distance`: at most this many.
pub const MAX_OVERLAYS: usize = 4;

/// Where q and k come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum QkSource {
    /// Every entry 1 (the RoFormer decay setting).
    Ones,
    /// Seeded standard Gaussian.
    #[default]
    Random,
    /// Typed in by the user (`q=` and `k=`).
    Custom,
}

impl QkSource {
    pub const OPTIONS: [(&'static str, QkSource); 3] = [
        ("ones", QkSource::Ones),
        ("random", QkSource::Random),
        ("custom", QkSource::Custom),
    ];

    pub fn name(self) -> &'static str {
        match self {
            QkSource::Ones => "ones",
            QkSource::Random => "random",
            QkSource::Custom => "custom",
        }
    }
}

/// Controls of the RoPE view.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeState {
    pub head_dim: usize,
    pub theta: f64,
    pub layout: PairLayout,
    pub partial: f64,
    pub qk: QkSource,
    pub seed: u64,
    /// Custom vectors (kept even when another source is chosen, so switching back restores them).
    pub q: Option<Vec<f64>>,
    pub k: Option<Vec<f64>>,
    pub max_dist: usize,
    /// Query positions of the overlaid score curves.
    pub m: Vec<usize>,
    /// Position of the rotation clocks.
    pub pos: usize,
}

impl Default for RopeState {
    fn default() -> Self {
        RopeState {
            head_dim: HEAD_DIM.default as usize,
            theta: THETA.default,
            layout: PairLayout::Half,
            partial: PARTIAL.default,
            // q = k = 1: equal clock hands, the relative property without noise.
            qk: QkSource::Ones,
            seed: 0,
            q: None,
            k: None,
            max_dist: MAX_DIST.default as usize,
            // Every key m − d (d < max_dist) sits at a real, non-negative position.
            m: vec![500, 1000, 5000],
            pos: POS.default as usize,
        }
    }
}

/// Reads `head_dim`, rounding an odd value down with a notice (pairs need an even width).
pub(crate) fn read_even(spec: IntSpec, raw: Option<&str>, notices: &mut Notices) -> usize {
    let v = spec.read(raw, notices) as usize;
    if v % 2 == 1 {
        notices.push(
            spec.name,
            format!("{} must be even; {v} became {}.", spec.label, v - 1),
        );
        v - 1
    } else {
        v
    }
}

/// Reads a comma-separated vector of numbers of the given length.
pub fn parse_vector(raw: &str, len: usize) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if out.len() >= 4096 {
            return Err("more than 4096 numbers".into());
        }
        match crate::format::parse_decimal(part) {
            Some(v) => out.push(v),
            _ => return Err(format!("“{}” is not a number", shorten(part, 16))),
        }
    }
    if out.len() != len {
        return Err(format!("it has {} numbers, head_dim is {len}", out.len()));
    }
    Ok(out)
}

pub(crate) fn format_vector(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x}"))
        .collect::<Vec<_>>()
        .join(",")
}

impl RopeState {
    /// The concrete RoPE of these controls (unscaled).
    pub fn rope(&self) -> Rope {
        Rope::plain(self.head_dim, self.partial, self.theta, self.layout)
    }

    pub fn rotary_dim(&self) -> usize {
        rotary_dim(self.head_dim, self.partial)
    }

    /// The query and key vectors the panels use.
    pub fn vectors(&self) -> (Vec<f64>, Vec<f64>) {
        let h = self.head_dim;
        match (self.qk, &self.q, &self.k) {
            (QkSource::Custom, Some(q), Some(k)) if q.len() == h && k.len() == h => {
                (q.clone(), k.clone())
            }
            (QkSource::Random, ..) => self.random_vectors(),
            // All ones; and custom vectors that no longer have head_dim numbers, as a link with
            // them reads (`RopeState::read`), said under the text boxes.
            _ => (vec![1.0; h], vec![1.0; h]),
        }
    }

    fn random_vectors(&self) -> (Vec<f64>, Vec<f64>) {
        let mut rng = SeededNormal::new(self.seed);
        let q = rng.vector(self.head_dim);
        let k = rng.vector(self.head_dim);
        (q, k)
    }

    pub(crate) fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> RopeState {
        let head_dim = read_even(HEAD_DIM, get("head_dim").as_deref(), notices);
        let theta = THETA.read(get("theta").as_deref(), notices);
        let layout = read_choice(
            "layout",
            get("layout").as_deref(),
            &[
                ("interleaved", PairLayout::Interleaved),
                ("half", PairLayout::Half),
            ],
            PairLayout::Half,
            notices,
        );
        let partial = PARTIAL.read(get("partial").as_deref(), notices);
        let mut qk = read_choice(
            "qk",
            get("qk").as_deref(),
            &QkSource::OPTIONS,
            QkSource::Ones,
            notices,
        );
        let seed = SEED.read(get("seed").as_deref(), notices) as u64;
        let mut vector = |name: &str| {
            get(name).and_then(|raw| match parse_vector(&raw, head_dim) {
                Ok(v) => Some(v),
                Err(why) => {
                    notices.push(name, format!("ignored: {why}."));
                    None
                }
            })
        };
        let (q, k) = (vector("q"), vector("k"));
        if qk == QkSource::Custom && (q.is_none() || k.is_none()) {
            notices.push(
                "qk",
                "custom needs valid q and k vectors; using q = k = 1.".into(),
            );
            qk = QkSource::Ones;
        }
        let max_dist = MAX_DIST.read(get("max_dist").as_deref(), notices) as usize;
        let m = get("m")
            .map(|raw| read_index_list("m", &raw, POS.max as usize, MAX_OVERLAYS, notices))
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| RopeState::default().m);
        let pos = POS.read(get("pos").as_deref(), notices) as usize;
        RopeState {
            head_dim,
            theta,
            layout,
            partial,
            qk,
            seed,
            q,
            k,
            max_dist,
            m,
            pos,
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("head_dim", self.head_dim.to_string()));
        out.push(("theta", format!("{}", self.theta)));
        out.push(("layout", self.layout.name().to_string()));
        out.push(("partial", format!("{}", self.partial)));
        out.push(("qk", self.qk.name().to_string()));
        out.push(("seed", self.seed.to_string()));
        if self.qk == QkSource::Custom {
            if let (Some(q), Some(k)) = (&self.q, &self.k) {
                out.push(("q", format_vector(q)));
                out.push(("k", format_vector(k)));
            }
        }
        out.push(("max_dist", self.max_dist.to_string()));
        let m: Vec<String> = self.m.iter().map(|v| v.to_string()).collect();
        out.push(("m", m.join(",")));
        out.push(("pos", self.pos.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vectors_follow_the_source() {
        let mut s = RopeState {
            head_dim: 4,
            ..RopeState::default()
        };
        assert_eq!(s.vectors().0.len(), 4);
        s.qk = QkSource::Ones;
        assert_eq!(s.vectors(), (vec![1.0; 4], vec![1.0; 4]));
        s.qk = QkSource::Custom;
        s.q = Some(vec![1.0, 2.0, 3.0, 4.0]);
        s.k = Some(vec![0.0, 1.0, 0.0, 1.0]);
        assert_eq!(s.vectors().0, vec![1.0, 2.0, 3.0, 4.0]);
        // head_dim changed under custom vectors: q = k = 1, as the same link reads.
        s.head_dim = 6;
        assert_eq!(s.vectors(), (vec![1.0; 6], vec![1.0; 6]));
        let mut notices = Notices::default();
        let mut link = Vec::new();
        s.write(&mut link);
        let read = RopeState::read(
            &|key| link.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()),
            &mut notices,
        );
        assert_eq!(read.vectors(), s.vectors());
    }
}
