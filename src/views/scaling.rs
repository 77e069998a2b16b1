//! The context-extension view (`view=scaling`).

use leptos::prelude::*;

/// The context-extension view.
#[component]
pub fn ScalingView() -> impl IntoView {
    view! { <div class="view view-scaling"></div> }
}
