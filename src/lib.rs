//! PE Lab: an interactive laboratory for positional encodings in transformers.
//!
//! The core (`encoding`, `state`, `render`, `export`) is plain Rust, tested natively; the UI
//! (`shell` over `views` over `ui`) is a thin Leptos layer over it, compiled only for the browser.

/// The fixed explanatory sentences of the views and panels, as data (checked by `tests/claims.rs`).
pub mod captions;
/// The mathematics of positional encodings.
pub mod encoding;
/// File formats for exports (CSV, NPY).
pub mod export;
/// Readable numbers and MathML formulas.
pub mod format;
/// The model gallery: released models' positions, as sourced data.
pub mod gallery;
/// Colour maps, heatmap rasters, line envelopes and chart drawing.
pub mod render;
/// When charts paint: the paint policy as a state machine, driven by `ui::schedule`.
pub mod scheduler;
/// "Copy as NumPy" snippets.
pub mod snippets;
/// The shareable state and its URL form.
pub mod state;

/// The app shell, above the views (browser only).
#[cfg(target_arch = "wasm32")]
pub mod shell;
/// Shared reactive pieces, DOM helpers, exports and widgets, under the views (browser only).
#[cfg(target_arch = "wasm32")]
pub mod ui;
/// One folder per view: its state (plain Rust) and its panels (browser only).
pub mod views;
