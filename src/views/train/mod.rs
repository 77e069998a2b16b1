//! The Train it yourself view (`view=train`): a tiny transformer trained in the page, once
//! per encoding, on a task that needs word order.
//!
//! `state`: its settings and URL form, and the model each encoding gets (plain Rust, tested
//! natively; the model itself is the `pe-train` crate); `ui`: its panels (browser only).

pub mod state;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
