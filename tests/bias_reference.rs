//! ALiBi slopes and biases against BLOOM / MPT (transformers 5.24) and Press et al.'s recipe;
//! T5 buckets against `T5Attention._relative_position_bucket`, exactly.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::encoding::bias::{alibi_slopes, t5_bucket};
use serde_json::Value;

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn alibi_slopes_and_biases_match_every_case() {
    let cases = fixture("alibi.json");
    assert_eq!(cases.len(), 6);
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let n = case["n_heads"].as_u64().unwrap() as usize;
        let ours = alibi_slopes(n);
        let paper = floats(&case["slopes_f64_paper_recipe"]);
        let bloom = floats(&case["slopes_bloom_f32"]);
        let mpt = floats(&case["slopes_mpt_f32"]);
        assert_eq!(ours.len(), n, "{id}");
        for k in 0..n {
            assert!(
                (ours[k] - paper[k]).abs() <= 1e-12 * paper[k],
                "{id} paper slope {k}"
            );
            assert!(
                (ours[k] - bloom[k]).abs() <= 1e-6 * bloom[k],
                "{id} bloom slope {k}"
            );
            assert!(
                (ours[k] - mpt[k]).abs() <= 1e-6 * mpt[k],
                "{id} mpt slope {k}"
            );
        }
        let len = case["bloom_alibi_seq_len"].as_u64().unwrap() as usize;
        for (k, row) in case["bloom_alibi_f32"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            let row = floats(row);
            assert_eq!(row.len(), len);
            for (j, v) in row.iter().enumerate() {
                // BLOOM adds slope·j to every query row (softmax-equivalent to −slope·(i − j)).
                assert!(
                    (ours[k] * j as f64 - v).abs() <= 1e-6 * v.abs().max(1e-30),
                    "{id} bloom bias {k},{j}"
                );
            }
        }
        for (k, row) in case["mpt_alibi_f32"].as_array().unwrap().iter().enumerate() {
            for (j, v) in floats(row).iter().enumerate() {
                let want = (j as f64 - (len as f64 - 1.0)) * ours[k];
                assert!(
                    (want - v).abs() <= 1e-6 * v.abs().max(1e-30),
                    "{id} mpt bias {k},{j}"
                );
            }
        }
    }
}

#[test]
fn t5_buckets_match_exactly() {
    let cases = fixture("t5_buckets.json");
    assert_eq!(cases.len(), 3);
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let bi = case["bidirectional"].as_bool().unwrap();
        let nb = case["num_buckets"].as_u64().unwrap() as u32;
        let md = case["max_distance"].as_u64().unwrap() as u32;
        let rel = case["relative_positions"].as_array().unwrap();
        let want = case["buckets"].as_array().unwrap();
        assert_eq!(rel.len(), want.len());
        for (r, b) in rel.iter().zip(want) {
            let r = r.as_i64().unwrap();
            assert_eq!(
                t5_bucket(r, bi, nb, md) as u64,
                b.as_u64().unwrap(),
                "{id} relative {r}"
            );
        }
    }
}
