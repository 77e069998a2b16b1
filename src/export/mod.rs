//! File formats for exports: CSV (shortest round-trip decimals), NPY (float32, C order) and
//! NPZ (several float64 arrays, as `numpy.savez` writes them).
//! Large exports are produced in chunks so that no full-size copy ever sits in wasm memory.

pub mod csv;
pub mod npy;
pub mod npz;
pub mod words;
