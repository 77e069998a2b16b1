//! The Learned view (`view=learned`): a real learned table (MiniLM), random or loaded ones.
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only).

pub mod state;
#[cfg(target_arch = "wasm32")]
mod geometry;
#[cfg(target_arch = "wasm32")]
mod shared;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
