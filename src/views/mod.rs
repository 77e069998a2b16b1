//! One folder per view, `views/<name>/`: its state (`state.rs`: plain Rust, tested natively)
//! and, in the browser, its panels (`ui.rs`). Which views there are is the registry's list
//! (`state::view_list::for_each_view!`): the modules here and [`load`] follow it. In release
//! builds every view but the default one is its own WebAssembly chunk, fetched the first time
//! the view opens (see `ui::lazy`).

use crate::state::view_list::for_each_view;

/// Declares each listed view's module.
macro_rules! view_modules {
    ($($variant:ident $module:ident $state:ident $component:ident $chunk:ident,)*) => {
        $(pub mod $module;)*
    };
}
for_each_view!(view_modules);

/// Panel pieces the views share (browser only).
#[cfg(target_arch = "wasm32")]
pub mod common;

#[cfg(target_arch = "wasm32")]
mod load {
    use leptos::prelude::*;

    use crate::state::view_list::for_each_view;
    use crate::state::View;
    use crate::ui::lazy::{loading, on_demand, LoadFailed};

    /// Declares a view's split point, unless it comes with the first download.
    macro_rules! split_point {
        (first, $component:path) => {};
        ($chunk:ident, $component:path) => {
            on_demand!($chunk, $component);
        };
    }

    /// A view's component on its way: at once for the first download's view, otherwise its
    /// chunk's.
    macro_rules! component {
        (first, $component:path) => {
            return Ok($component().into_any())
        };
        ($chunk:ident, $component:path) => {
            loading!($chunk)
        };
    }

    /// Declares every view's split point, and [`load`].
    macro_rules! loaders {
        ($($variant:ident $module:ident $state:ident $component:ident $chunk:ident,)*) => {
            $(split_point!($chunk, super::$module::$component);)*

            /// The component of `view`. The default view comes with the initial download;
            /// the others are fetched on first use.
            pub async fn load(view: View) -> Result<AnyView, LoadFailed> {
                let loading = match view {
                    $(View::$variant => component!($chunk, super::$module::$component),)*
                };
                loading.await
            }
        };
    }
    for_each_view!(loaders);
}
#[cfg(target_arch = "wasm32")]
pub use load::load;
