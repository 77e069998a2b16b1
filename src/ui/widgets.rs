//! Shared widgets: the panel frame and export bar here; range controls and choices
//! (`controls`), chart canvases (`chart`) and the painting context (`painter`) re-exported.
//! Every view builds from these; none copies them.

use leptos::prelude::*;

use super::schedule::{self};

pub use super::chart::{paint_export, ChartCanvas, ChartRef, Mark, MarkStyle, PaintFn};
pub use super::context::{panel_visible, ChartPresentation, LessonPanels};
pub use super::controls::{
    control_class, Choice, RangeControl, RangeSpec, StateChoice, StateRange, CONTROL,
};
pub use super::painter::Painter;

/// A panel: a `<section data-panel=ID>` with heading, chart(s), explanation and exports.
#[component]
pub fn Panel(
    /// The stable panel ID; its heading comes from the view registry.
    id: &'static str,
    children: Children,
) -> impl IntoView {
    let title = crate::state::registry::panel_title(id).unwrap_or(id);
    let heading = format!("{id}-title");
    let labelled_by = heading.clone();
    let section = NodeRef::<leptos::html::Section>::new();
    section.on_load(|el| schedule::observe_panel(&el));
    view! {
        <section class="panel" data-panel=id aria-labelledby=labelled_by node_ref=section>
            <h2 id=heading>{title}</h2>
            {children()}
        </section>
    }
}

/// A row of export buttons.
#[component]
pub fn ExportBar(children: Children) -> impl IntoView {
    view! { <div class="exports" role="group" aria-label="Export">{children()}</div> }
}
