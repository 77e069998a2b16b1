//! The Precision view (`view=precision`): what float32, bfloat16 and float16 do to RoPE.
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only).

pub mod state;
#[cfg(target_arch = "wasm32")]
mod scores;
#[cfg(target_arch = "wasm32")]
mod shared;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
