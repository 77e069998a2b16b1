//! The application state and its home, the URL query string: parsing with clamping and
//! notices, and writing back. Plain Rust, tested natively. Each view's own state is in its
//! folder (`views::<name>::state`); the registry lists the views.
//!
//! Layers, each using only those after it: `lesson` → `url` → `registry` → `app` → the
//! views' states (`views::<name>::state`) → `about`, `params`, `query`; `view_list` (the list
//! of views and the `View` enum) under `registry` and `app`.

pub mod about;
pub mod app;
pub mod builder;
pub mod figures;
pub mod lesson;
pub mod lesson_link;
pub mod notation;
pub mod params;
pub mod query;
pub mod registry;
pub mod url;
pub mod view_list;

pub use app::{AppState, Highlight, LessonLocation, ThemeChoice};
pub use params::{Notice, Notices};
pub use registry::{PanelSpec, View, ViewSpec, VIEWS};
