//! Code fetched on first use. In release builds (cargo feature `split`) a function marked as a
//! split point is its own WebAssembly chunk, fetched the first time it is called (a
//! `wasm_split` split point, the mechanism behind Leptos' `#[lazy]`; `scripts/post-build.mjs`
//! splits the binary with `wasm-split-cli`). Each owner declares its own split points with
//! [`on_demand!`]: the views (`views::load`), the Sinusoidal panels below the fold, the
//! shell's dialogs and lesson frame. Work that no first page needs (exports as SVG or PNG,
//! "Copy as NumPy", applying a figure) is one more chunk, [`run`] with a [`Job`]; panels below
//! the fold are fetched as they near the viewport ([`BelowTheFold`]).

use std::sync::atomic::{AtomicBool, Ordering};

use leptos::prelude::*;

use super::widgets::panel_visible;

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

/// Something drawn in place of a component: while it comes, or when its code did not arrive.
pub type Stand = std::sync::Arc<dyn Fn() -> AnyView + Send + Sync>;

/// A component on its way, shown by `waiting` until it comes and by `failed` if its code does
/// not arrive. Every component fetched on demand goes through this one function, so that the
/// `Suspense` machinery is compiled once (each distinct `Suspense` costs the first download
/// about a kilobyte).
pub fn suspended(load: Loading, waiting: Stand, failed: Stand) -> AnyView {
    view! {
        <Suspense fallback=move || waiting()>
            {Suspend::new(async move { load.await.unwrap_or_else(|_| failed()) })}
        </Suspense>
    }
    .into_any()
}

/// Work done by code fetched on its first use (the chunk `extras`): the first page carries
/// only this enum and [`run`].
pub enum Job {
    /// Download this chart as PNG (`ui::svg`), with this file name.
    Png(super::widgets::ChartRef, String),
    /// Download this chart as SVG (`ui::svg`), with this file name.
    Svg(super::widgets::ChartRef, String),
    /// Copy "Copy as NumPy" of a Sinusoidal panel (`snippets`).
    Snippet(
        crate::views::sinusoidal::state::SinusoidalState,
        &'static str,
    ),
    /// Apply figure `index` of the Figures menu to the state, and show its source.
    Figure(
        usize,
        RwSignal<crate::state::AppState>,
        RwSignal<Option<crate::state::figures::Figure>>,
    ),
    /// Write a chart's “Show data as table” (headers in words: `export::words`) into this
    /// signal.
    Table(crate::export::csv::Preview, RwSignal<String>),
}

#[cfg_attr(feature = "split", wasm_split_helpers::wasm_split(extras, fallible))]
fn extras(job: Job) -> Result<(), LoadFailed> {
    match job {
        Job::Png(chart, filename) => super::svg::download_png(chart, filename),
        Job::Svg(chart, filename) => super::svg::download(chart, filename),
        Job::Snippet(state, panel) => {
            super::dom::copy_text(&crate::snippets::sinusoidal_panel(&state, panel))
        }
        Job::Figure(index, state, shown) => super::context::apply_figure(index, state, shown),
        Job::Table(preview, table) => table.set(preview.to_html()),
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

/// Panels below the fold, fetched on demand (their own chunk in release builds): on the full
/// page when they come within 100 px of the viewport, at once when shown alone (an embed or a
/// lesson step) or fetched already. Until then each is a placeholder with its ID and heading,
/// as tall as a panel; `__peLab.pending` counts a fetch under way. A failed fetch says so in
/// each placeholder, with a button to try again.
#[component]
pub fn BelowTheFold(
    /// The panels' IDs, in page order.
    panels: &'static [&'static str],
    /// Whether they have been fetched: their code is here, and they are made at once.
    fetched: &'static AtomicBool,
    /// Fetches them: a [`loading!`] of their split point.
    load: fn() -> Loading,
) -> impl IntoView {
    if !panels.iter().any(|id| panel_visible(id)) {
        return ().into_any();
    }
    let full_page = panels.iter().all(|id| panel_visible(id));
    let wanted = RwSignal::new(!full_page || fetched.load(Ordering::Relaxed));
    let retries = RwSignal::new(0u32);
    // Any placeholder near the viewport fetches them all (a jump to the end of the page shows
    // only the last ones).
    let watch = move |section: NodeRef<leptos::html::Section>| {
        Effect::new(move |_| {
            if let Some(el) = section.get() {
                super::schedule::on_visibility(&el, Some("100px"), move |near| {
                    if near && !wanted.get_untracked() {
                        wanted.set(true);
                    }
                });
            }
        });
    };
    let placeholders = move |failed: Option<RwSignal<u32>>| {
        panels
            .iter()
            .filter(|id| panel_visible(id))
            .map(|&id| {
                let title = crate::state::registry::panel_title(id).unwrap_or(id);
                let status = match failed {
                    Some(retries) => view! {
                        <p class="panel-status" role="alert">
                            "This panel could not be loaded: its code did not arrive. "
                            <button on:click=move |_| retries.update(|n| *n += 1)>"Try again"</button>
                        </p>
                    }
                    .into_any(),
                    None => view! { <p class="panel-status" role="status">"Loading…"</p> }.into_any(),
                };
                let watched = NodeRef::new();
                if full_page && failed.is_none() {
                    watch(watched);
                }
                view! {
                    <section class="panel panel-loading" data-panel=id aria-busy="true" node_ref=watched>
                        <h2>{title}</h2>
                        {status}
                    </section>
                }
            })
            .collect_view()
    };
    view! {
        {move || {
            if !wanted.get() {
                return placeholders(None).into_any();
            }
            retries.track();
            let fetching = Fetching::start();
            let loading: Loading = Box::pin(async move {
                let loaded = load().await;
                drop(fetching);
                if loaded.is_ok() {
                    fetched.store(true, Ordering::Relaxed);
                }
                loaded
            });
            suspended(
                loading,
                std::sync::Arc::new(move || placeholders(None).into_any()),
                std::sync::Arc::new(move || placeholders(Some(retries)).into_any()),
            )
        }}
    }
    .into_any()
}

/// A fetch under way, counted in `__peLab.pending` until it ends or is dropped.
struct Fetching;

impl Fetching {
    fn start() -> Fetching {
        super::schedule::other_pending(1);
        Fetching
    }
}

impl Drop for Fetching {
    fn drop(&mut self) {
        super::schedule::other_pending(-1);
    }
}
