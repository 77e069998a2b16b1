//! What the RoPE panels share: the memos derived from the controls, file names and the Python\nthat rebuilds θ.

use leptos::prelude::*;

use crate::encoding::rope::{Rope, ScoreWeights};
use super::state::RopeState;
use crate::ui::context::Computed;

pub(super) fn stem(rope_state: &RopeState, panel: &str) -> String {
    format!(
        "{panel}_h{}_theta{}_{}",
        rope_state.head_dim,
        rope_state.theta,
        rope_state.layout.name()
    )
}

/// Python that rebuilds θ and the rotation for the current controls.
pub(super) fn snippet(rope_state: &RopeState) -> String {
    let d = rope_state.rotary_dim();
    let pairing = match rope_state.layout {
        crate::encoding::rope::PairLayout::Half => {
            "x, y = v[:D // 2], v[D // 2 : D]  # half-split (rotate_half)"
        }
        crate::encoding::rope::PairLayout::Interleaved => {
            "x, y = v[0:D:2], v[1:D:2]  # interleaved"
        }
    };
    format!(
        "import numpy as np\n\nhead_dim, D, theta = {}, {d}, {:?}\ninv_freq = theta ** (-np.arange(0, D, 2) / D)\n\ndef rotate(v, pos):\n    {pairing}\n    c, s = np.cos(pos * inv_freq), np.sin(pos * inv_freq)\n    return x * c - y * s, y * c + x * s\n\ndistances = np.arange({})\n",
        rope_state.head_dim, rope_state.theta, rope_state.max_dist + 1
    )
}

/// Everything the panels derive from the controls.
#[derive(Clone, Copy)]
pub(super) struct RopeShared {
    pub(super) rope_state: Memo<RopeState>,
    pub(super) rope: Computed<Rope>,
    /// `(q, k)`.
    pub(super) vectors: Computed<(Vec<f64>, Vec<f64>)>,
    pub(super) weights: Computed<ScoreWeights>,
    pub(super) max_dist: Memo<usize>,
}
