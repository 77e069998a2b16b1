//! The Relative biases view (`view=bias`): ALiBi slopes and biases, T5 buckets.
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only).

pub mod state;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
