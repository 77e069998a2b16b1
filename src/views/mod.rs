//! One module per view, over the shared widgets; and [`load`], which gives the shell the
//! component of a view. In release builds (cargo feature `split`) every view but the default
//! one is its own WebAssembly chunk, fetched the first time the view opens (a `wasm_split`
//! split point, the mechanism behind Leptos' `#[lazy]`; `scripts/post-build.mjs` splits the
//! binary with `wasm-split-cli`), and so are the default view's panels below the fold.

pub mod attention;
pub mod bias;
pub mod common;
pub mod compare;
pub mod learned;
pub mod lesson;
pub mod models;
pub mod precision;
pub mod rope;
pub mod scaling;
pub mod sinusoidal;

use leptos::prelude::*;

use crate::state::View;

/// A view's code could not be fetched (offline, or the server went away). The load is not
/// cached as failed: asking again retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadFailed;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for LoadFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// Declares the component of a view loaded on demand: under `split` its own chunk, fetched
/// on the first call; a failed fetch is an `Err`, never a panic (`fallible`).
macro_rules! on_demand {
    ($name:ident, $component:path) => {
        #[cfg_attr(feature = "split", wasm_split_helpers::wasm_split($name, fallible))]
        fn $name() -> Result<AnyView, LoadFailed> {
            Ok($component().into_any())
        }
    };
}

/// Calls a function declared by `on_demand!` (async under `split`).
#[cfg(feature = "split")]
macro_rules! call {
    ($name:ident) => {
        $name().await
    };
}
#[cfg(not(feature = "split"))]
macro_rules! call {
    ($name:ident) => {
        $name()
    };
}

/// A view's component on its way: one boxed future per view, so that [`load`] awaits once
/// (a match of awaits would be one state machine holding every view's loader, about a
/// kilobyte of the first download per view).
type Loading =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<AnyView, LoadFailed>> + Send>>;

#[cfg(feature = "split")]
macro_rules! loading {
    ($name:ident) => {
        Box::pin($name()) as Loading
    };
}
#[cfg(not(feature = "split"))]
macro_rules! loading {
    ($name:ident) => {
        Box::pin(std::future::ready($name())) as Loading
    };
}

on_demand!(attention_view, attention::AttentionView);
on_demand!(learned_view, learned::LearnedView);
on_demand!(rope_view, rope::RopeView);
on_demand!(scaling_view, scaling::ScalingView);
on_demand!(bias_view, bias::BiasView);
on_demand!(compare_view, compare::CompareView);
on_demand!(precision_view, precision::PrecisionView);
on_demand!(models_view, models::ModelsView);
on_demand!(lesson_frame, lesson::LessonFrame);
on_demand!(share_dialog, crate::shell::share::ShareDialog);
on_demand!(notation_dialog, crate::shell::notation::NotationDialog);
on_demand!(sinusoidal_below, sinusoidal::BelowPanels);

/// The Sinusoidal view's panels below the fold, fetched when they near the viewport.
pub async fn load_sinusoidal_below() -> Result<AnyView, LoadFailed> {
    call!(sinusoidal_below)
}

/// The Share dialog, fetched the first time Share is pressed.
pub async fn load_share() -> Result<AnyView, LoadFailed> {
    call!(share_dialog)
}

/// The Notation dialog, fetched the first time Notation is pressed.
pub async fn load_notation() -> Result<AnyView, LoadFailed> {
    call!(notation_dialog)
}

/// The lesson frame (`lesson=…`), fetched the first time a lesson opens.
pub async fn load_lesson() -> Result<AnyView, LoadFailed> {
    call!(lesson_frame)
}

/// Work done by code fetched on its first use (the chunk `extras`): the first page carries
/// only this enum and [`run`].
pub enum Job {
    /// Download this chart as SVG (`ui::svg`), with this file name.
    Svg(crate::ui::widgets::ChartRef, String),
    /// Copy "Copy as NumPy" of a Sinusoidal panel (`snippets`).
    Snippet(crate::state::SinusoidalState, &'static str),
    /// Apply figure `index` of the Figures menu to the state, and show its source.
    Figure(
        usize,
        RwSignal<crate::state::AppState>,
        RwSignal<Option<crate::state::figures::Figure>>,
    ),
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(extras, fallible))]
fn extras(job: Job) -> Result<(), LoadFailed> {
    match job {
        Job::Svg(chart, filename) => crate::ui::svg::download(chart, filename),
        Job::Snippet(state, panel) => {
            crate::ui::dom::copy_text(&crate::snippets::sinusoidal_panel(&state, panel))
        }
        Job::Figure(index, state, shown) => crate::shell::apply_figure(index, state, shown),
    }
    Ok(())
}

/// Runs `job` once its code has arrived (a failed fetch does nothing; the next job tries again).
/// Counted in `__peLab.pending` until the frame after it ran, as work the page still owes.
pub fn run(job: Job) {
    crate::ui::schedule::other_pending(1);
    leptos::task::spawn_local(async move {
        #[cfg(feature = "split")]
        let _ = extras(job).await;
        #[cfg(not(feature = "split"))]
        let _ = extras(job);
        request_animation_frame(|| crate::ui::schedule::other_pending(-1));
    });
}

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
