//! What a view says of itself to the registry (`views::<name>::state::ABOUT`): its title, its
//! panels and its controls. A leaf: the views' states use it, and the registry reads them.

/// One panel: its stable ID (`data-panel`, `panel=`) and its heading.
#[derive(Debug)]
pub struct PanelSpec {
    pub id: &'static str,
    pub title: &'static str,
}

pub const fn panel(id: &'static str, title: &'static str) -> PanelSpec {
    PanelSpec { id, title }
}

/// What a view says of itself (`views::<module>::state::ABOUT`).
pub struct About {
    /// The navigation label and page heading.
    pub title: &'static str,
    /// Its panels, in page order.
    pub panels: &'static [PanelSpec],
    /// Its controls' names (`data-control`, `hide=`, `lock=`), space-separated: one string
    /// costs the download less than a list.
    pub controls: &'static str,
}
