//! The application state and its home, the URL query string: parsing with clamping and
//! notices, and writing back. Plain Rust, tested natively.

pub mod app;
pub mod figures;
pub mod lesson;
pub mod models;
pub mod more;
pub mod notation;
pub mod params;
pub mod precision;
pub mod query;
pub mod registry;
pub mod rope;

pub use app::{AppState, Highlight, LessonLocation, SinusoidalState, ThemeChoice, View};
pub use params::{Notice, Notices};
pub use registry::{PanelSpec, ViewSpec, VIEWS};
pub use rope::{QkSource, RopeState, ScalingState};
