//! The shipped MiniLM position table (assets/) against its reference check values: row norms,
//! cosine similarities and the mean cosine by offset.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::encoding::learned::{CosineMatrix, OffsetCurve, Table};
use serde_json::Value;

fn table() -> Table {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/minilm_l6_v2_position_embeddings.f16"
    ))
    .unwrap();
    Table::from_f16_le(&bytes, 512, 384).unwrap()
}

fn sidecar() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/minilm_l6_v2_position_embeddings.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn norms_and_cosines_match_the_check_values() {
    let t = table();
    let doc = sidecar();
    let from_f16 = &doc["check_values_float32_from_float16_file"];
    let original = &doc["check_values_float32_from_original_weights"];
    for (row, want) in from_f16["row_norms"].as_object().unwrap() {
        let want = want.as_f64().unwrap();
        let ours = t.norm(row.parse().unwrap());
        assert!(
            (ours - want).abs() <= 1e-5 * want,
            "norm {row}: {ours} vs {want}"
        );
        let orig = original["row_norms"][row].as_f64().unwrap();
        assert!((ours - orig).abs() <= 1e-4 * orig, "norm {row} vs original");
    }
    // The matrix the similarity panel draws holds every position of this table.
    let matrix = CosineMatrix::new(&t);
    assert!(matrix.exact());
    for (pair, want) in from_f16["cosine_similarity"].as_object().unwrap() {
        let (a, b) = pair.split_once(',').unwrap();
        let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
        let ours = t.cosine(a, b);
        let want = want.as_f64().unwrap();
        assert!(
            (ours - want).abs() <= 1e-5 * want.abs(),
            "cosine {a},{b}: {ours} vs {want}"
        );
        for cell in [matrix.values[a * 512 + b], matrix.values[b * 512 + a]] {
            assert!(
                (cell - want).abs() <= 1e-5 * want.abs(),
                "matrix {a},{b}: {cell} vs {want}"
            );
        }
    }
}

#[test]
fn mean_cosine_by_offset_matches_the_structure_summary() {
    let t = table();
    let doc = sidecar();
    let want: Vec<f64> = doc["structure"]["mean_cosine_by_offset_all"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let curve = OffsetCurve::new(&t);
    assert_eq!(curve.stride, 1);
    let ours = curve.mean;
    assert_eq!(ours.len(), 512);
    for k in [0, 1, 2, 6, 12, 64, 128, 300] {
        // The summary is rounded to 6 decimals and computed from the float32 originals.
        assert!(
            (ours[k] - want[k]).abs() < 2e-4,
            "offset {k}: {} vs {}",
            ours[k],
            want[k]
        );
    }
}
