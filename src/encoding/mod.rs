//! The mathematics of positional encodings: plain Rust, no UI, no browser.
//!
//! Words used everywhere in this crate:
//! - `pos`: a position (a token index), `0 ≤ pos < seq_len`. **Rows are positions.**
//! - `col`: a column of the encoding matrix, `0 ≤ col < d_model`.
//! - `i`: the pair index. Columns of one pair share one frequency `ω_i = base^(-2i/d_model)`.
//! - `d_model`: the embedding width; `base`: the wavelength base (10000 in Vaswani et al.).
//! - A matrix is stored row-major, shape `(seq_len, d_model)`.
//! - RoPE has its own words (`head_dim`, rotary width `D`, pair `j`, `θ_j`): see [`rope`].

pub mod attention;
pub mod base_bound;
pub mod bias;
pub mod json;
pub mod learned;
pub mod precision;
pub mod rope;
pub mod rope_config;
pub use pe_kernels::series;
pub mod similarity;
pub mod sinusoidal;

pub use sinusoidal::{ColumnKind, Layout, Sinusoid};
