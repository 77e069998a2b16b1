//! One module per view, over the shared widgets; and [`load`], which gives the shell the
//! component of a view. In release builds (cargo feature `split`) every view but the default
//! one is its own WebAssembly chunk, fetched the first time the view opens (Leptos `#[lazy]`,
//! split by `wasm-split-cli` in `scripts/split-wasm.mjs`).

pub mod attention;
pub mod bias;
pub mod common;
pub mod compare;
pub mod learned;
pub mod rope;
pub mod scaling;
pub mod sinusoidal;

use leptos::prelude::*;

use crate::state::View;

/// The component of `view`. The default view comes with the initial download; the others are
/// fetched on first use. One arm per registered view (the match is exhaustive).
pub async fn load(view: View) -> AnyView {
    match view {
        View::Sinusoidal => sinusoidal::SinusoidalView().into_any(),
        View::Attention => attention_view().await,
        View::Learned => learned_view().await,
        View::Rope => rope_view().await,
        View::Scaling => scaling_view().await,
        View::Bias => bias_view().await,
        View::Compare => compare_view().await,
    }
}

#[cfg_attr(feature = "split", leptos::lazy)]
async fn attention_view() -> AnyView {
    attention::AttentionView().into_any()
}

#[cfg_attr(feature = "split", leptos::lazy)]
async fn learned_view() -> AnyView {
    learned::LearnedView().into_any()
}

#[cfg_attr(feature = "split", leptos::lazy)]
async fn rope_view() -> AnyView {
    rope::RopeView().into_any()
}

#[cfg_attr(feature = "split", leptos::lazy)]
async fn scaling_view() -> AnyView {
    scaling::ScalingView().into_any()
}

#[cfg_attr(feature = "split", leptos::lazy)]
async fn bias_view() -> AnyView {
    bias::BiasView().into_any()
}

#[cfg_attr(feature = "split", leptos::lazy)]
async fn compare_view() -> AnyView {
    compare::CompareView().into_any()
}
