//! Export actions: PNG from a canvas, CSV and NPY streamed in chunks into a Blob, so that a
//! large matrix never sits whole in wasm memory.

use leptos::prelude::*;
use wasm_bindgen::JsValue;

use super::dom;
use super::widgets::ChartRef;
use crate::export::{csv, npy};

/// Chunks handed from Rust to the Blob: large enough to be cheap, small enough to stay bounded.
const CHUNK_BYTES: usize = 1 << 20;

/// Downloads the chart as a PNG at its device-pixel resolution (by code fetched on first use:
/// see `ui::svg`).
pub fn png(chart: ChartRef, filename: &str) {
    super::lazy::run(super::lazy::Job::Png(chart, filename.to_string()));
}

/// Downloads the chart as SVG, drawn by its own paint function on a recording context (see
/// `ui::svg`, fetched on the first export).
pub fn svg(chart: ChartRef, filename: String) {
    super::lazy::run(super::lazy::Job::Svg(chart, filename));
}

/// Rows and columns that the "show data as table" view of a chart shows.
pub const PREVIEW_ROWS: usize = 50;
pub const PREVIEW_COLS: usize = 12;

thread_local! {
    /// Set while [`preview`] runs a panel's CSV action: the CSV is kept here, not downloaded.
    static CAPTURE: std::cell::RefCell<Option<csv::Preview>> = const { std::cell::RefCell::new(None) };
    static CAPTURING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The first rows and columns of exactly the CSV that a panel's CSV button downloads. Runs
/// the same action with downloads captured: one code path for the file and the table. A
/// matrix is only evaluated for the rows shown.
pub fn preview(csv_action: Callback<()>) -> Option<csv::Preview> {
    CAPTURING.with(|c| c.set(true));
    CAPTURE.with(|c| c.borrow_mut().take());
    csv_action.run(());
    CAPTURING.with(|c| c.set(false));
    CAPTURE.with(|c| c.borrow_mut().take())
}

fn capturing() -> bool {
    CAPTURING.with(|c| c.get())
}

fn capture(p: csv::Preview) {
    CAPTURE.with(|c| *c.borrow_mut() = Some(p));
}

/// Downloads a CSV held in one string.
pub fn csv_text(text: String, filename: &str) {
    if capturing() {
        return capture(csv::Preview::from_text(&text, PREVIEW_ROWS, PREVIEW_COLS));
    }
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
    if capturing() {
        let mut text = String::new();
        csv::stream_matrix(
            names,
            rows.min(PREVIEW_ROWS),
            fill_row,
            usize::MAX,
            |chunk| text.push_str(&chunk),
        );
        let mut p = csv::Preview::from_text(&text, PREVIEW_ROWS, PREVIEW_COLS);
        p.total_rows = rows;
        return capture(p);
    }
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
