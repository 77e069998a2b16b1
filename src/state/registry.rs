//! The registry of views: the table [`VIEWS`], from the one list of views
//! (`view_list::for_each_view!`), which the [`View`] enum, [`AppState`]'s fields and, in the
//! browser, the `views` modules and their loading (`views::load`) follow too. Each view lives in one folder, `views/<name>/`:
//! its state type with its URL reading and writing and its [`About`] (`state.rs`), and its
//! panels (`ui.rs`). The shell, the navigation, URL parsing, the Share dialog, the embed
//! `panel=` lookup, the tests and the benchmark (from `window.__peLab.views`) derive from
//! [`VIEWS`].

pub use super::about::{panel, About, PanelSpec};
use super::app::AppState;
use super::params::Notices;
use super::view_list::for_each_view;
pub use super::view_list::View;

/// Reads one query parameter (decoded), if present.
pub type Getter<'a> = &'a dyn Fn(&str) -> Option<String>;

/// One view of PE Lab.
pub struct ViewSpec {
    pub view: View,
    /// `view=` in the URL.
    pub name: &'static str,
    /// The navigation label and page heading.
    pub title: &'static str,
    /// Its panels, in page order.
    pub panels: &'static [PanelSpec],
    /// Its controls' names, space-separated (see [`About::controls`]).
    pub controls: &'static str,
    /// Reads the view's parameters into the state (clamping, with notices).
    pub read: fn(Getter, &mut Notices, &mut AppState),
    /// Writes the view's parameters, in a fixed order.
    pub write: fn(&AppState, &mut Vec<(&'static str, String)>),
}

/// Declares [`VIEWS`] from [`for_each_view!`].
macro_rules! registry {
    ($($variant:ident $module:ident $state:ident $component:ident $chunk:ident,)*) => {
        /// Every view, in navigation order (the order of [`View`]).
        pub const VIEWS: [ViewSpec; View::ALL.len()] = [$(
            ViewSpec {
                view: View::$variant,
                name: stringify!($module),
                title: crate::views::$module::state::ABOUT.title,
                panels: crate::views::$module::state::ABOUT.panels,
                controls: crate::views::$module::state::ABOUT.controls,
                read: |get, n, s| s.$module = crate::views::$module::state::$state::read(get, n),
                write: |s, out| s.$module.write(out),
            },
        )*];
    };
}

for_each_view!(registry);

/// The registered view named `name` (`view=` in the URL).
pub fn view_named(name: &str) -> Option<&'static ViewSpec> {
    VIEWS.iter().find(|v| v.name == name)
}

/// The view that owns panel `id` (panel IDs are unique across views).
pub fn view_of_panel(id: &str) -> Option<&'static ViewSpec> {
    VIEWS.iter().find(|v| v.panels.iter().any(|p| p.id == id))
}

/// The heading of panel `id`.
pub fn panel_title(id: &str) -> Option<&'static str> {
    VIEWS
        .iter()
        .flat_map(|v| v.panels.iter())
        .find(|p| p.id == id)
        .map(|p| p.title)
}

impl View {
    /// This view's registry entry.
    pub fn spec(self) -> &'static ViewSpec {
        &VIEWS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn title(self) -> &'static str {
        self.spec().title
    }

    /// This view's control named `name`, if it has one.
    pub fn control(self, name: &str) -> Option<&'static str> {
        self.spec().controls.split(' ').find(|c| *c == name)
    }

    /// Whether `id` is one of this view's panels.
    pub fn has_panel(self, id: &str) -> bool {
        self.spec().panels.iter().any(|p| p.id == id)
    }
}
