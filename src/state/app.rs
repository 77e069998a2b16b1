//! The whole shareable state of PE Lab (PRODUCT.md §3): the view, how it is shown, and each
//! view's own state (one field per view, from the registry's list of views). Its URL form is
//! in [`super::url`].

use super::params::{read_index_list, shorten, Notices};
use super::view_list::{for_each_view, View};

/// Light, dark, or whatever the system prefers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ThemeChoice {
    #[default]
    Auto,
    Light,
    Dark,
}

impl ThemeChoice {
    pub const OPTIONS: [(&'static str, ThemeChoice); 3] = [
        ("auto", ThemeChoice::Auto),
        ("light", ThemeChoice::Light),
        ("dark", ThemeChoice::Dark),
    ];

    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }
}

/// What a panel is told to outline (`hl_cols`, `hl_pos`): used by lessons and course pages to
/// point at a part of a chart. Columns are matrix columns (embedding dimensions; pairs where a
/// chart's axis is the pair index), positions are matrix rows. Empty lists outline nothing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Highlight {
    pub cols: Vec<usize>,
    pub positions: Vec<usize>,
}

/// At most this many highlighted columns or positions.
pub const MAX_HIGHLIGHTS: usize = 64;
/// The largest column or position a highlight may name (the largest axis of any view).
pub const MAX_HIGHLIGHT_INDEX: usize = 1 << 26;

impl Highlight {
    pub(crate) fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> Highlight {
        let list = |name: &str, notices: &mut Notices| {
            get(name)
                .map(|raw| {
                    read_index_list(name, &raw, MAX_HIGHLIGHT_INDEX, MAX_HIGHLIGHTS, notices)
                })
                .unwrap_or_default()
        };
        Highlight {
            cols: list("hl_cols", notices),
            positions: list("hl_pos", notices),
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        let join = |v: &[usize]| {
            v.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        if !self.cols.is_empty() {
            out.push(("hl_cols", join(&self.cols)));
        }
        if !self.positions.is_empty() {
            out.push(("hl_pos", join(&self.positions)));
        }
    }
}

/// A lesson being followed (`lesson=…&step=N`, `present=1`).
#[derive(Clone, Debug, PartialEq)]
pub struct LessonLocation {
    /// A built-in lesson's name or a relative path to a `.json` file.
    pub source: String,
    /// The step, 1-based (brought within the lesson once it is loaded).
    pub step: usize,
    /// Presenter mode: the step alone, fitted to the screen, large text.
    pub present: bool,
    /// `revealed=1`: the step's question is answered (or shown), its reveal state applied.
    pub revealed: bool,
}

/// At most this many steps.
pub const MAX_STEPS: usize = 100;
/// The lessons that ship with PE Lab (`lesson=NAME`), each at `lessons/NAME.json`.
pub const BUILT_IN: [&str; 4] = ["seed", "precision", "models", "train"];

/// `lesson=link`: the lesson is in the URL's fragment (`state::lesson_link`).
pub const LINKED: &str = "link";
/// `lesson=draft`: the lesson builder's draft, previewed (kept in the browser).
pub const DRAFT: &str = "draft";

/// Where a lesson comes from: a built-in name, or a `.json` path relative to the page (same
/// origin only); empty for the list of built-in lessons. The reason for anything else.
pub fn lesson_source(raw: &str) -> Result<String, String> {
    let raw = raw.trim();
    if raw.is_empty() || BUILT_IN.contains(&raw) || raw == LINKED || raw == DRAFT {
        return Ok(raw.to_string());
    }
    let path_ok = raw.len() <= 200
        && raw.ends_with(".json")
        && !raw.contains(':')
        && !raw.contains('\\')
        && !raw.starts_with("//")
        && !raw.starts_with('/')
        && !raw.chars().any(|c| c.is_control() || c.is_whitespace());
    if path_ok {
        Ok(raw.to_string())
    } else {
        Err(format!(
            "“{}” is neither a lesson of PE Lab ({}) nor a relative path to a .json file on this site.",
            shorten(raw, 40),
            BUILT_IN.join(", ")
        ))
    }
}

/// The URL the lesson file is fetched from, relative to the page.
pub fn lesson_url(source: &str) -> String {
    if BUILT_IN.contains(&source) {
        format!("./lessons/{source}.json")
    } else {
        source.to_string()
    }
}

/// Declares [`AppState`]: the fields every page has, and one per view (named as its module,
/// of its state type), from the registry's list of views.
macro_rules! app_state {
    ($($variant:ident $module:ident $state:ident $component:ident $chunk:ident,)*) => {
        /// Everything a URL holds.
        #[derive(Clone, Debug, PartialEq)]
        pub struct AppState {
            pub view: View,
            pub theme: ThemeChoice,
            /// `embed=1`: no site chrome.
            pub embed: bool,
            /// `panel=ID`: show only this panel.
            pub panel: Option<String>,
            /// `controls=0` hides the controls.
            pub show_controls: bool,
            /// `hide=name,name`: controls of the view a page's author hid (names as in the registry).
            pub hidden: Vec<&'static str>,
            /// `lock=name,name`: controls shown but disabled.
            pub locked: Vec<&'static str>,
            /// `hl_cols`, `hl_pos`: what the panels outline.
            pub highlight: Highlight,
            /// `lesson=`: the guided path being followed, if any. Its URL holds only the lesson and
            /// the step; the step gives the view and its state.
            pub lesson: Option<LessonLocation>,
            /// `author=1`: the lesson builder is open beside the page.
            pub author: bool,
        $(
            #[doc = concat!("The state of `view=", stringify!($module), "`.")]
            pub $module: crate::views::$module::state::$state,
        )*
        }

        impl Default for AppState {
            fn default() -> Self {
                AppState {
                    view: View::default(),
                    theme: ThemeChoice::default(),
                    embed: false,
                    panel: None,
                    show_controls: true,
                    hidden: Vec::new(),
                    locked: Vec::new(),
                    highlight: Highlight::default(),
                    lesson: None,
                    author: false,
                $($module: Default::default(),)*
                }
            }
        }
    };
}

for_each_view!(app_state);
