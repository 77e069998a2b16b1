//! One module per view, over the shared widgets; and [`load`], which gives the shell the
//! component of a view. In release builds every view but the default one is its own
//! WebAssembly chunk, fetched the first time the view opens (see `ui::lazy`), and so are the
//! default view's panels below the fold.

pub mod attention;
pub mod bias;
pub mod common;
pub mod compare;
pub mod learned;
pub mod models;
pub mod precision;
pub mod rope;
pub mod scaling;
pub mod sinusoidal;

use leptos::prelude::*;

use crate::state::View;
use crate::ui::lazy::{loading, on_demand, LoadFailed};

on_demand!(attention_view, attention::AttentionView);
on_demand!(learned_view, learned::LearnedView);
on_demand!(rope_view, rope::RopeView);
on_demand!(scaling_view, scaling::ScalingView);
on_demand!(bias_view, bias::BiasView);
on_demand!(compare_view, compare::CompareView);
on_demand!(precision_view, precision::PrecisionView);
on_demand!(models_view, models::ModelsView);

/// The component of `view`. The default view comes with the initial download; the others are
/// fetched on first use. One arm per registered view (the match is exhaustive).
pub async fn load(view: View) -> Result<AnyView, LoadFailed> {
    let loading = match view {
        View::Sinusoidal => return Ok(sinusoidal::SinusoidalView().into_any()),
        View::Attention => loading!(attention_view),
        View::Learned => loading!(learned_view),
        View::Rope => loading!(rope_view),
        View::Scaling => loading!(scaling_view),
        View::Bias => loading!(bias_view),
        View::Compare => loading!(compare_view),
        View::Precision => loading!(precision_view),
        View::Models => loading!(models_view),
    };
    loading.await
}
