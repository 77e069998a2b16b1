//! The Train it yourself view (`view=train`): a tiny transformer trained in the page, once
//! per encoding, on a task that needs word order.
//!
//! `state`: its entry in the registry and its URL values as given (in the first download);
//! `settings`: those values read and checked, the model each encoding gets, the run's CSVs and
//! sentences (plain Rust, tested natively; the model itself is the `pe-train` crate); `ui`:
//! its panels (browser only).

pub mod settings;
pub mod shipped;
pub mod state;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub use ui::*;
