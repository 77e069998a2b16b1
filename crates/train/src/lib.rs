//! A tiny transformer that trains in the browser, for PE Lab's **Train it yourself** view.
//!
//! Plain Rust in `f64`, with one dependency (`libm`, the same elementary functions on every
//! platform) and explicit backward passes (checked against
//! finite differences and against PyTorch in the main crate's `tests/train.rs`). It lives in
//! its own crate so the release profile can build it at `opt-level = 3` while the app is built
//! for size.
//!
//! - [`model`]: the transformer (token embedding, a positional encoding, pre-LN blocks of
//!   multi-head attention and a GELU MLP, a final layer norm and a linear read-out), its
//!   forward pass, its loss and its gradients.
//! - [`optim`]: AdamW, step for step as PyTorch's `torch.optim.AdamW`.
//! - [`task`]: the tasks (which came first, k back, copy), sampled from a seeded generator.
//! - [`rng`]: that generator (SplitMix64), so the same seed gives the same run, bit for bit.
//!
//! The encodings' own definitions (sinusoid table, RoPE frequencies, ALiBi slopes, T5
//! buckets) are the main crate's (`pe_lab::encoding`): they come in through [`model::Position`]
//! as tables, so each is written once.

pub mod model;
pub mod optim;
pub mod rng;
pub mod run;
pub mod task;

/// The elementary functions every number of a run goes through (`exp`, `log`, `tanh`, `sin`,
/// `cos`, `pow`): the same on every platform, so a run computed natively is the browser's, bit
/// for bit. Tables made outside the crate (the sinusoid) use them too.
pub use libm;
