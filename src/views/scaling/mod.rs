//! The Context extension view (`view=scaling`): RoPE scaling methods past the trained context.
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only).

pub mod state;
#[cfg(target_arch = "wasm32")]
mod controls;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
