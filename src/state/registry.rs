//! The registry of views. [`for_each_view!`] is the one list of views: the [`View`] enum,
//! [`AppState`]'s fields, the table [`VIEWS`] and, in the browser, the `views` modules and
//! their loading (`views::load`) all follow it. Each view lives in one folder, `views/<name>/`:
//! its state type with its URL reading and writing and its [`About`] (`state.rs`), and its
//! panels (`ui.rs`). The shell, the navigation, URL parsing, the Share dialog, the embed
//! `panel=` lookup, the tests and the benchmark (from `window.__peLab.views`) derive from
//! [`VIEWS`].

use super::app::AppState;
use super::params::Notices;

/// The views of PE Lab, in navigation order (the order of the source material: why, then
/// how). One line per view:
///
/// `Variant module StateType Component chunk,`
///
/// - `Variant`: its [`View`];
/// - `module`: its folder `views/<module>`, its `view=` name and its field of [`AppState`];
/// - `StateType`: its state, in `views::<module>::state` (with `ABOUT`, `read` and `write`);
/// - `Component`: its page, in `views::<module>` (browser only);
/// - `chunk`: `first` for the view that comes with the first download (the default view),
///   otherwise the name of its split point, fetched when the view first opens.
///
/// Adding a view: its folder, and its line here.
macro_rules! for_each_view {
    ($then:ident) => {
        $then! {
            Attention attention AttentionState AttentionView attention_view,
            Sinusoidal sinusoidal SinusoidalState SinusoidalView first,
            Learned learned LearnedState LearnedView learned_view,
            Rope rope RopeState RopeView rope_view,
            Scaling scaling ScalingState ScalingView scaling_view,
            Bias bias BiasState BiasView bias_view,
            Compare compare CompareState CompareView compare_view,
            Precision precision PrecisionState PrecisionView precision_view,
            Models models ModelsState ModelsView models_view,
        }
    };
}
pub(crate) use for_each_view;

/// Whether a view's `chunk` in [`for_each_view!`] is `first`.
macro_rules! is_first {
    (first) => {
        true
    };
    ($chunk:ident) => {
        false
    };
}

/// Reads one query parameter (decoded), if present.
pub type Getter<'a> = &'a dyn Fn(&str) -> Option<String>;

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

/// Declares [`View`] and [`VIEWS`] from [`for_each_view!`].
macro_rules! registry {
    ($($variant:ident $module:ident $state:ident $component:ident $chunk:ident,)*) => {
        /// The views of PE Lab, in navigation order. Everything else about a view (name,
        /// title, panels, state) is in its entry of [`VIEWS`], at the same index.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(u8)]
        pub enum View {
            $($variant,)*
        }

        impl View {
            /// Every view, in navigation order.
            pub const ALL: [View; [$(View::$variant),*].len()] = [$(View::$variant),*];
        }

        impl Default for View {
            /// The view of the first download.
            fn default() -> View {
                $(if is_first!($chunk) {
                    return View::$variant;
                })*
                View::ALL[0]
            }
        }

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
