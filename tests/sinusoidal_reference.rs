//! The sinusoidal core against every case of the shared reference (PyTorch, NumPy,
//! transformers' DistilBERT), at the tolerances the reference README gives.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::encoding::similarity::{OffsetMap, PositionSimilarity};
use pe_lab::encoding::{Layout, Sinusoid};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sinusoidal.json"
    ))
    .expect("fixture");
    let doc: Value = serde_json::from_str(&text).expect("json");
    doc["cases"].as_array().expect("cases").clone()
}

fn matrix(v: &Value) -> Option<Vec<Vec<f64>>> {
    v.as_array().map(|rows| {
        rows.iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect()
            })
            .collect()
    })
}

#[test]
fn every_reference_case_matches() {
    let cases = cases();
    assert_eq!(cases.len(), 7);
    let mut checked = [0usize; 3];
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let d = case["d_model"].as_u64().unwrap() as usize;
        let base = case["base"].as_f64().unwrap();
        let rows: Vec<usize> = case["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap() as usize)
            .collect();
        let pe = Sinusoid::new(d, base, Layout::Interleaved);
        let mut row = vec![0.0; d];
        let numpy = matrix(&case["pe_numpy_f64"]).expect("numpy table");
        let torch = matrix(&case["pe_torch_tutorial_f32"]);
        let distil = matrix(&case["pe_transformers_distilbert_f32"]);
        for (n, &pos) in rows.iter().enumerate() {
            pe.fill_row(pos, &mut row);
            for col in 0..d {
                let ours = row[col];
                let want = numpy[n][col];
                assert!(
                    (ours - want).abs() <= 1e-9,
                    "{id} pos {pos} col {col}: {ours} vs {want}"
                );
                checked[0] += 1;
                if let Some(t) = &torch {
                    let tol = 2e-6 + 1.2e-7 * pos as f64;
                    assert!(
                        (ours - t[n][col]).abs() <= tol,
                        "{id} torch pos {pos} col {col}"
                    );
                    checked[1] += 1;
                }
                if let Some(t) = &distil {
                    let ours_f32 = ours as f32 as f64;
                    assert!(
                        (ours_f32 - t[n][col]).abs() <= 6e-8,
                        "{id} distilbert pos {pos} col {col}"
                    );
                    checked[2] += 1;
                }
            }
        }
    }
    // Every table of every case was compared, the odd and sampled ones included.
    assert!(checked.iter().all(|&c| c > 0), "{checked:?}");
}

#[test]
fn odd_width_case_has_a_lone_sin_column() {
    let case = cases()
        .into_iter()
        .find(|c| c["odd_d_model"] == true)
        .unwrap();
    let d = case["d_model"].as_u64().unwrap() as usize;
    assert_eq!(d % 2, 1);
    let pe = Sinusoid::new(d, case["base"].as_f64().unwrap(), Layout::Interleaved);
    // The last column is sin(pos · ω_last): zero at pos 0.
    assert_eq!(pe.value(0, d - 1), 0.0);
    assert!(pe.value(3, d - 1) > 0.0);
}

#[test]
fn relative_offset_identity_holds_for_even_widths() {
    for (d, base, layout) in [
        (128, 10000.0, Layout::Interleaved),
        (64, 500000.0, Layout::Concat),
        (6, 10.0, Layout::Interleaved),
    ] {
        let pe = Sinusoid::new(d, base, layout);
        for k in [0, 1, 7, 100, 2047] {
            let map = OffsetMap::new(&pe, k);
            let residual = map.residual(k, (0..2048).step_by(37));
            // Angle addition in f64 at positions up to ~4000: rounding only.
            assert!(residual < 1e-11, "d {d} k {k}: {residual}");
        }
    }
}

#[test]
fn relative_offset_identity_fails_for_the_lone_column_of_odd_widths() {
    let pe = Sinusoid::new(7, 10000.0, Layout::Interleaved);
    let map = OffsetMap::new(&pe, 50);
    assert!(map.residual(50, 0..100) > 1e-3);
}

#[test]
fn similarity_depends_on_the_offset_only_for_even_widths() {
    let pe = Sinusoid::new(64, 10000.0, Layout::Interleaved);
    let sim = PositionSimilarity::new(&pe);
    for k in [0usize, 1, 5, 300] {
        let a = sim.dot(10, 10 + k);
        let b = sim.dot(900, 900 + k);
        assert!((a - b).abs() < 1e-12);
    }
    assert!((sim.dot(3, 3) - 32.0).abs() < 1e-12);
}
