//! What the Learned panels share: the table and its statistics, keyed on the controls, and file\nnames.

use std::sync::Arc;

use leptos::prelude::*;


use crate::encoding::learned::{CosineMatrix, Table};
use super::state::LearnedState;
use crate::ui::context::{Computed, Keyed};
use crate::ui::tables::Loaded;

/// Everything the panels share.
#[derive(Clone, Copy)]
pub(super) struct LearnedShared {
    pub(super) learned_state: Memo<LearnedState>,
    /// What the table is: what its statistics are computed from.
    pub(super) table_key: Computed<[u64; 4]>,
    pub(super) table: Keyed<Option<Loaded>>,
    /// Rows × columns of the table, known without drawing a random one.
    pub(super) shape: Keyed<(usize, usize)>,
    /// A random table's rows at a stride, the stride and their colour range, drawn without
    /// the others: what the paints made while a slider moves show until the whole table is
    /// drawn.
    pub(super) sample: Keyed<Option<(Arc<Table>, usize, f64)>>,
    pub(super) seq_len: Memo<usize>,
    /// `3·rms` of the table: the colour range of the heatmap.
    pub(super) range: Keyed<f64>,
    /// Cosine similarity between (sampled) positions.
    pub(super) cos: Keyed<Option<CosineMatrix>>,
    /// The same from fewer positions, for the paints made while a slider moves.
    pub(super) cos_quick: Keyed<Option<CosineMatrix>>,
}

pub(super) fn stem(shared: &LearnedShared, panel: &str) -> String {
    format!(
        "{panel}_{}_seq{}",
        shared.learned_state.with_untracked(|l| l.table.name()),
        shared.seq_len.get_untracked()
    )
}
