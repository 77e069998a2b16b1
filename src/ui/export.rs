//! Export actions: PNG from a canvas, CSV and NPY streamed in chunks into a Blob, so that a
//! large matrix never sits whole in wasm memory.

use leptos::html::Canvas;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use super::dom;
use crate::export::{csv, npy};

/// Chunks handed from Rust to the Blob: large enough to be cheap, small enough to stay bounded.
const CHUNK_BYTES: usize = 1 << 20;

/// Downloads the canvas as a PNG at its device-pixel resolution.
pub fn png(canvas: NodeRef<Canvas>, filename: &str) {
    let Some(c) = canvas.get_untracked() else {
        return;
    };
    let filename = filename.to_string();
    let on_blob =
        wasm_bindgen::closure::Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
            if let Some(blob) = blob {
                let _ = dom::download_parts(&js_sys::Array::of1(&blob), "image/png", &filename);
            }
        });
    let _ = c.to_blob(on_blob.unchecked_ref());
}

/// Downloads a CSV held in one string.
pub fn csv_text(text: String, filename: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(&text));
    let _ = dom::download_parts(&parts, "text/csv", filename);
}

/// Downloads a matrix as CSV, row by row.
pub fn csv_matrix(
    names: &[String],
    rows: usize,
    fill_row: impl FnMut(usize, &mut [f64]),
    filename: &str,
) {
    let parts = js_sys::Array::new();
    csv::stream_matrix(names, rows, fill_row, CHUNK_BYTES, |chunk| {
        parts.push(&JsValue::from_str(&chunk));
    });
    let _ = dom::download_parts(&parts, "text/csv", filename);
}

/// Downloads a matrix as NPY (float32), row by row.
pub fn npy_matrix(
    rows: usize,
    cols: usize,
    fill_row: impl FnMut(usize, &mut [f64]),
    filename: &str,
) {
    let parts = js_sys::Array::new();
    npy::stream_matrix(rows, cols, fill_row, CHUNK_BYTES, |chunk| {
        parts.push(&js_sys::Uint8Array::from(chunk.as_slice()));
    });
    let _ = dom::download_parts(&parts, "application/octet-stream", filename);
}

/// Matrices larger than this also offer NPY (PRODUCT.md §4).
pub const NPY_THRESHOLD_CELLS: usize = 1_000_000;
