//! The state of the Compare view (`view=compare`).

use crate::state::params::{IntSpec, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Compare",
    panels: &[
        panel("compare-table", "The schemes at a glance"),
        panel(
            "compare-similarity",
            "How similar is position pos to pos + Δ?",
        ),
    ],
    controls: "k_max",
};

pub const K_MAX: IntSpec = IntSpec {
    name: "k_max",
    label: "Largest offset Δ",
    min: 1,
    max: 511,
    default: 128,
    unit: "positions",
};

/// The width (d_model, and D for RoPE) of the fixed schemes in the Compare view's similarity
/// chart (its caption says it).
pub const COMPARE_WIDTH: usize = 128;

/// Controls of the comparison view.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareState {
    pub k_max: usize,
}

impl Default for CompareState {
    fn default() -> Self {
        CompareState {
            k_max: K_MAX.default as usize,
        }
    }
}

impl CompareState {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> CompareState {
        CompareState {
            k_max: K_MAX.read(get("k_max").as_deref(), notices) as usize,
        }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("k_max", self.k_max.to_string()));
    }
}
