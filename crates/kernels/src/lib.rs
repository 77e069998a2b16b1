//! The few numeric loops that PE Lab runs millions of times per slider move.
//!
//! They live in their own crate so that the release profile can build them at `opt-level = 3`
//! (loop and SLP vectorisation, wasm simd128) while the rest of the app is built for size at
//! `opt-level = "z"`, where LLVM does not vectorise. Plain Rust, no dependencies.

pub mod bands;
pub mod cos_sum;
pub mod dot;
pub mod fft;
pub mod image;
pub mod normal;
pub mod series;
pub mod spans;
pub mod trig;
