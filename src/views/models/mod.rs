//! The Real models view (`view=models`): released models' positions, and the base bound.
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only): the view and gallery in `ui.rs`, the chosen models' curves in `curves.rs`, the
//! base-bound panels in `bound.rs`.

pub mod state;
#[cfg(target_arch = "wasm32")]
mod bound;
#[cfg(target_arch = "wasm32")]
mod curves;
#[cfg(target_arch = "wasm32")]
mod shared;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
