//! What the Sinusoidal panels share, those below the fold included: the view's memos (handed to
//! the panels below the fold by context), their export buttons and column names.


use leptos::prelude::*;

use crate::encoding::Sinusoid;
use super::state::SinusoidalState;
use crate::ui::context::Computed;
use crate::ui::widgets::ChartRef;
use crate::views::common::ExportButtons;


/// The name of a column in CSV headers, where code reads it: `col4_sin_i2`.
pub(super) fn column_name(pe: &Sinusoid, col: usize) -> String {
    let (i, kind) = pe.role(col);
    format!("col{col}_{}_i{i}", kind.name())
}

/// The name of a column where a student reads it (legends, read-outs, data tables):
/// `column 4: sin, pair 2`.
pub(super) fn column_label(pe: &Sinusoid, col: usize) -> String {
    let (i, kind) = pe.role(col);
    format!("column {col}: {}, pair {i}", kind.name())
}

/// What the view's panels share, handed to the panels below the fold by context (a split
/// point takes no arguments).
#[derive(Clone, Copy)]
pub(super) struct Shared {
    pub(super) pe: Computed<Sinusoid>,
    pub(super) seq_len: Memo<usize>,
    pub(super) sinusoidal_state: Memo<SinusoidalState>,
    /// The column under the pointer, shared by the heatmap and the column loop of `pe-index`.
    pub(super) focus_col: RwSignal<Option<usize>>,
}

/// The export buttons of a Sinusoidal panel.
#[component]
pub(super) fn PanelExports(
    panel: &'static str,
    canvas: ChartRef,
    sinusoidal_state: Memo<SinusoidalState>,
    csv: Callback<()>,
    #[prop(default = None)] npy: Option<(Signal<bool>, Callback<()>)>,
) -> impl IntoView {
    let stem = Signal::derive(move || {
        sinusoidal_state.with(|s| format!("{panel}_seq{}_d{}_base{}", s.seq_len, s.d_model, s.base))
    });
    // The Python is fetched with the exports' code the first time (the first page does not
    // carry it), then copied.
    let snippet = Callback::new(move |_| {
        crate::ui::lazy::run(crate::ui::lazy::Job::Snippet(sinusoidal_state.get_untracked(), panel));
    });
    view! { <ExportButtons chart=canvas stem=stem csv=csv npy=npy snippet=snippet/> }
}
