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

/// "Copy as NumPy" of a RoPE panel (`crate::snippets::rope_panel`).
pub(super) fn snippet(rope_state: &RopeState, panel: &str) -> String {
    crate::snippets::rope_panel(rope_state, panel)
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
