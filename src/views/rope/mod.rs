//! The RoPE view (`view=rope`).
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only): the view, clocks and angles in `ui.rs`, the score panels in `scores.rs`.

pub mod state;
#[cfg(target_arch = "wasm32")]
mod scores;
#[cfg(target_arch = "wasm32")]
mod shared;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
