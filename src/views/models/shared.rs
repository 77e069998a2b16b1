//! What the Real models panels share: the gallery's RoPE rows and the chosen models'\nfrequencies.

use leptos::prelude::*;

use crate::gallery::{ModelRow, Scheme, MODELS};
use crate::render::charts::LineChart;
use super::state::ModelsState;
use crate::ui::context::{select_state, Computed};
use crate::ui::widgets::Painter;
use crate::views::common::paint_lines;


/// The gallery's RoPE rows.
pub(super) fn rope_models() -> impl Iterator<Item = &'static ModelRow> {
    MODELS.iter().filter(|m| m.scheme == Scheme::Rope)
}

pub(super) fn selected_freqs(state: RwSignal<crate::state::AppState>) -> Computed<Freqs> {
    let models = select_state(state, |s| s.models.models.clone());
    Computed::fresh(move || {
        let s = ModelsState {
            models: models.get(),
            ..ModelsState::default()
        };
        s.rope_rows()
            .into_iter()
            .filter_map(|m| Some((m, m.scaled()?.inv_freq, m.unscaled()?)))
            .collect()
    })
}

pub(super) fn nothing_selected(p: &Painter) -> Option<crate::render::charts::PlotRect> {
    let chart = LineChart {
        x_label: "choose models with “Draw together” above".into(),
        y_label: String::new(),
        x_range: (0.0, 1.0),
        y_range: (0.0, 1.0),
        y_log: false,
        x_log: false,
        series: vec![],
        bands: vec![],
    };
    paint_lines(p, &chart)
}

/// The selected models' frequencies: (row, after scaling, without).
pub(super) type Freqs = Vec<(&'static ModelRow, Vec<f64>, Vec<f64>)>;
