//! File formats for exports: CSV (shortest round-trip decimals) and NPY (float32, C order).
//! Large exports are produced in chunks so that no full-size copy ever sits in wasm memory.

pub mod csv;
pub mod npy;
pub mod words;
