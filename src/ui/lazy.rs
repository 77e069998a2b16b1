//! Code fetched on first use. In release builds (cargo feature `split`) a function marked as a
//! split point is its own WebAssembly chunk, fetched the first time it is called (a
//! `wasm_split` split point, the mechanism behind Leptos' `#[lazy]`; `scripts/post-build.mjs`
//! splits the binary with `wasm-split-cli`). Each owner declares its own split points with
//! [`on_demand!`]: the views (`views::load`), the Sinusoidal panels below the fold, the
//! shell's dialogs and lesson frame. Work that no first page needs (exports as SVG or PNG,
//! "Copy as NumPy", applying a figure) is one more chunk, [`run`] with a [`Job`].

use leptos::prelude::*;

/// Code could not be fetched (offline, or the server went away). The load is not cached as
/// failed: asking again retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadFailed;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for LoadFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// Declares a component fetched on demand: under `split` its own chunk, fetched on the first
/// call; a failed fetch is an `Err`, never a panic (`fallible`).
macro_rules! on_demand {
    ($name:ident, $component:path) => {
        #[cfg_attr(feature = "split", wasm_split_helpers::wasm_split($name, fallible))]
        fn $name() -> Result<leptos::prelude::AnyView, $crate::ui::lazy::LoadFailed> {
            Ok(leptos::prelude::IntoAny::into_any($component()))
        }
    };
}
pub(crate) use on_demand;

/// Calls a function declared by [`on_demand!`] (async under `split`).
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
pub(crate) use call;

/// A component on its way: one boxed future per split point, so that a loader choosing among
/// several awaits once (a match of awaits would be one state machine holding every loader,
/// about a kilobyte of the first download each).
pub type Loading =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<AnyView, LoadFailed>> + Send>>;

/// A [`Loading`] of a function declared by [`on_demand!`].
#[cfg(feature = "split")]
macro_rules! loading {
    ($name:ident) => {
        Box::pin($name()) as $crate::ui::lazy::Loading
    };
}
#[cfg(not(feature = "split"))]
macro_rules! loading {
    ($name:ident) => {
        Box::pin(std::future::ready($name())) as $crate::ui::lazy::Loading
    };
}
pub(crate) use loading;

/// Work done by code fetched on its first use (the chunk `extras`): the first page carries
/// only this enum and [`run`].
pub enum Job {
    /// Download this chart as PNG (`ui::export`), with this file name.
    Png(super::widgets::ChartRef, String),
    /// Download this chart as SVG (`ui::svg`), with this file name.
    Svg(super::widgets::ChartRef, String),
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
        Job::Png(chart, filename) => super::export::download_png(chart, filename),
        Job::Svg(chart, filename) => super::svg::download(chart, filename),
        Job::Snippet(state, panel) => {
            super::dom::copy_text(&crate::snippets::sinusoidal_panel(&state, panel))
        }
        Job::Figure(index, state, shown) => super::context::apply_figure(index, state, shown),
    }
    Ok(())
}

/// Runs `job` once its code has arrived (a failed fetch does nothing; the next job tries again).
/// Counted in `__peLab.pending` until the frame after it ran, as work the page still owes.
pub fn run(job: Job) {
    super::schedule::other_pending(1);
    leptos::task::spawn_local(async move {
        #[cfg(feature = "split")]
        let _ = extras(job).await;
        #[cfg(not(feature = "split"))]
        let _ = extras(job);
        request_animation_frame(|| super::schedule::other_pending(-1));
    });
}
