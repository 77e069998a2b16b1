//! The Sinusoidal view (`view=sinusoidal`), the default one, in the first download.
//!
//! `state`: its state and URL form (plain Rust, tested natively); `ui`: its panels (browser
//! only): the view and its first panels in `ui.rs`, those below the fold in `below.rs` and
//! `offset.rs`.

pub mod state;
#[cfg(target_arch = "wasm32")]
mod below;
#[cfg(target_arch = "wasm32")]
mod offset;
#[cfg(target_arch = "wasm32")]
mod shared;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
