//! RoPE against every case of the shared reference (transformers 5.24 / PyTorch 2.15):
//! inverse frequencies and attention factors of all six rope types at every evaluated length,
//! cos/sin samples, and rotated q/k with their dot products in both pairing layouts.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::encoding::json::Json;
use pe_lab::encoding::rope::{scale, PairLayout, Rope, SeededNormal};
use pe_lab::encoding::rope_config::config_from_json;
use serde_json::{json, Value};

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

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array().unwrap().iter().map(floats).collect()
}

/// The app's JSON value of a serde_json value (through text, as a pasted config would be).
fn to_json(v: &Value) -> Json {
    Json::parse(&v.to_string()).unwrap()
}

/// The config a case was built from, as a config.json would hold it.
fn config_of(case: &Value) -> Value {
    let mut rope = case["rope_parameters_passed"].clone();
    let mut top = json!({
        "head_dim": case["head_dim"],
        "hidden_size": case["hidden_size"],
        "num_attention_heads": case["num_attention_heads"],
        "max_position_embeddings": case["max_position_embeddings"],
    });
    // Phi-3 configs keep original_max_position_embeddings at the top level.
    if case["config_class"] == "Phi3Config" {
        if let Some(o) = rope
            .as_object_mut()
            .unwrap()
            .remove("original_max_position_embeddings")
        {
            top["original_max_position_embeddings"] = o;
        }
        let std = &case["rope_parameters_standardized"]["original_max_position_embeddings"];
        if top.get("original_max_position_embeddings").is_none() && !std.is_null() {
            top["original_max_position_embeddings"] = std.clone();
        }
    }
    top["rope_parameters"] = rope;
    top
}

#[test]
fn inverse_frequencies_attention_and_cos_sin_match_every_case() {
    let cases = fixture("rope_inv_freq.json");
    assert_eq!(cases.len(), 19);
    let mut evaluations = 0;
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let config =
            config_from_json(&to_json(&config_of(case))).unwrap_or_else(|e| panic!("{id}: {e}"));
        // LLaMA's default ignores partial_rotary_factor; the case records the width it used.
        let d = case["rotary_dim"].as_u64().unwrap() as usize;
        for eval in case["evaluations"].as_array().unwrap() {
            let mut params = config.params.clone();
            params.seq_len = eval["seq_len"].as_u64().map(|n| n as usize);
            let scaled = scale(config.method, config.theta, d, &params)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            let want = floats(&eval["inv_freq"]);
            assert_eq!(scaled.inv_freq.len(), want.len(), "{id}");
            for (j, (ours, theirs)) in scaled.inv_freq.iter().zip(&want).enumerate() {
                assert!(
                    (ours - theirs).abs() <= 2e-6 * theirs.abs(),
                    "{id} n={:?} j={j}: {ours} vs {theirs}",
                    params.seq_len
                );
            }
            let alpha = eval["attention_scaling"].as_f64().unwrap();
            assert!(
                (scaled.attention - alpha).abs() <= 1e-12 * alpha,
                "{id}: α {} vs {alpha}",
                scaled.attention
            );
            let sample = &eval["cos_sin_sample"];
            let (cos, sin) = (matrix(&sample["cos"]), matrix(&sample["sin"]));
            for (n, p) in floats(&sample["positions"]).iter().enumerate() {
                let tol = alpha * (2e-6 + 2.5e-7 * p);
                for (j, w) in scaled.inv_freq.iter().enumerate() {
                    let (s, c) = (p * w).sin_cos();
                    assert!((alpha * c - cos[n][j]).abs() <= tol, "{id} cos p={p} j={j}");
                    assert!((alpha * s - sin[n][j]).abs() <= tol, "{id} sin p={p} j={j}");
                }
            }
            evaluations += 1;
        }
    }
    assert_eq!(evaluations, 30);
}

#[test]
fn rotated_vectors_and_dots_match_both_layouts() {
    let cases = fixture("rope_apply.json");
    assert_eq!(cases.len(), 6);
    let mut layouts = Vec::new();
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let h = case["head_dim"].as_u64().unwrap() as usize;
        let layout = match case["layout"].as_str().unwrap() {
            "neox_half_split" => PairLayout::Half,
            "interleaved" => PairLayout::Interleaved,
            other => panic!("{other}"),
        };
        layouts.push(layout);
        let rope_info = &case["rope"];
        let (method, theta, params) = match rope_info.get("rope_parameters_passed") {
            Some(passed) => {
                let c = config_from_json(&to_json(&json!({
                    "head_dim": h,
                    "max_position_embeddings": rope_info["max_position_embeddings"],
                    "rope_parameters": passed,
                })))
                .unwrap();
                (c.method, c.theta, c.params)
            }
            None => {
                let c = config_from_json(&to_json(
                    &json!({"head_dim": h, "rope_theta": rope_info["rope_theta"]}),
                ))
                .unwrap();
                (c.method, c.theta, c.params)
            }
        };
        let scaled = scale(method, theta, h, &params).unwrap();
        let alpha = case["attention_scaling"].as_f64().unwrap();
        assert!((scaled.attention - alpha).abs() <= 1e-12 * alpha, "{id}");
        let rope = Rope::new(h, h, layout, scaled.inv_freq, scaled.attention);
        let (q, k) = (floats(&case["q"]), floats(&case["k"]));
        let inf = q.iter().chain(&k).fold(0.0f64, |m, x| m.max(x.abs()));
        let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let positions = floats(&case["positions"]);
        let (q_rot, k_rot, dots) = (
            matrix(&case["q_rot"]),
            matrix(&case["k_rot"]),
            matrix(&case["dots"]),
        );
        let e = |p: f64| 2e-6 + 2.5e-7 * p;
        let mut ours_q = vec![0.0; h];
        let mut ours_k = vec![0.0; h];
        for (i, &p) in positions.iter().enumerate() {
            rope.rotate(&q, p, &mut ours_q);
            rope.rotate(&k, p, &mut ours_k);
            let tol = alpha * 2.0 * inf * e(p);
            for c in 0..h {
                assert!((ours_q[c] - q_rot[i][c]).abs() <= tol, "{id} q p={p} c={c}");
                assert!((ours_k[c] - k_rot[i][c]).abs() <= tol, "{id} k p={p} c={c}");
            }
            for (jn, &pn) in positions.iter().enumerate() {
                let tol = alpha * alpha * norm(&q) * norm(&k) * (e(p) + e(pn));
                let ours = rope.score(&q, &k, p, pn);
                assert!(
                    (ours - dots[i][jn]).abs() <= tol,
                    "{id} dot m={p} n={pn}: {ours} vs {}",
                    dots[i][jn]
                );
            }
        }
    }
    assert!(layouts.contains(&PairLayout::Half) && layouts.contains(&PairLayout::Interleaved));
}

#[test]
fn scores_depend_only_on_the_distance() {
    let mut rng = SeededNormal::new(11);
    for layout in PairLayout::ALL {
        let rope = Rope::plain(64, 0.5, 10000.0, layout);
        let (q, k) = (rng.vector(64), rng.vector(64));
        for r in [-50.0, 0.0, 3.0, 1234.0] {
            let base = rope.score(&q, &k, r, 0.0);
            for shift in [1.0, 77.0, 4000.0] {
                let moved = rope.score(&q, &k, r + shift, shift);
                assert!(
                    (moved - base).abs() < 1e-9,
                    "{layout:?} r={r} shift={shift}"
                );
            }
            let w = rope.weights(&q, &k);
            assert!((rope.relative_score(&w, r) - base).abs() < 1e-9);
        }
    }
}

#[test]
fn rotations_keep_norms() {
    let mut rng = SeededNormal::new(5);
    let rope = Rope::plain(128, 1.0, 500000.0, PairLayout::Interleaved);
    let x = rng.vector(128);
    let mut out = vec![0.0; 128];
    for pos in [0.0, 1.0, 9999.0, 131071.0] {
        rope.rotate(&x, pos, &mut out);
        let (a, b): (f64, f64) = (
            x.iter().map(|v| v * v).sum(),
            out.iter().map(|v| v * v).sum(),
        );
        assert!((a - b).abs() < 1e-9 * a, "pos {pos}");
    }
}

#[test]
fn half_split_equals_interleaved_under_the_fixed_permutation() {
    // Interleaved dim 2j ↔ half-split dim j, interleaved 2j+1 ↔ half-split j + D/2.
    let d = 32;
    let perm: Vec<usize> = (0..d)
        .map(|c| if c % 2 == 0 { c / 2 } else { c / 2 + d / 2 })
        .collect();
    let inter = Rope::plain(d, 1.0, 10000.0, PairLayout::Interleaved);
    let half = Rope::plain(d, 1.0, 10000.0, PairLayout::Half);
    let mut rng = SeededNormal::new(9);
    let x = rng.vector(d);
    let mut x_half = vec![0.0; d];
    for c in 0..d {
        x_half[perm[c]] = x[c];
    }
    let (mut a, mut b) = (vec![0.0; d], vec![0.0; d]);
    for pos in [0.0, 3.0, 1000.0] {
        inter.rotate(&x, pos, &mut a);
        half.rotate(&x_half, pos, &mut b);
        for c in 0..d {
            assert!((a[c] - b[perm[c]]).abs() < 1e-12);
        }
    }
}

#[test]
fn llama3_with_high_freq_factor_below_low_divides_every_pair_past_l0_over_low() {
    // transformers' _compute_llama3_parameters: `wavelen > low_freq_wavelen` divides by the
    // factor; its "medium" band is empty when high_freq_factor < low_freq_factor.
    use pe_lab::encoding::rope::{Method, ScalingParams};
    for (low, high) in [(1.0, 0.5), (4.0, 0.1), (1.0, 1.0), (1.0, 4.0)] {
        let params = ScalingParams {
            factor: 4.0,
            orig_ctx: 4096,
            low_freq_factor: low,
            high_freq_factor: high,
            ..ScalingParams::default()
        };
        let scaled = scale(Method::Llama3, 10_000.0, 128, &params).unwrap();
        let (w_low, w_high) = (4096.0 / low, 4096.0 / high);
        for (i, (&got, &w)) in scaled
            .inv_freq
            .iter()
            .zip(
                &scale(Method::None, 10_000.0, 128, &params)
                    .unwrap()
                    .inv_freq,
            )
            .enumerate()
        {
            let wavelength = std::f64::consts::TAU / w;
            let want = if wavelength > w_low {
                w / 4.0
            } else if wavelength < w_high {
                w
            } else {
                let smooth = (4096.0 / wavelength - low) / (high - low);
                (1.0 - smooth) * w / 4.0 + smooth * w
            };
            assert!(
                (got - want).abs() <= 1e-15 * w,
                "low {low}, high {high}, pair {i}: {got} vs {want}"
            );
        }
    }
}

#[test]
fn ntk_and_dynamic_ntk_refuse_a_rotary_width_of_two() {
    // Their base's exponent D/(D − 2) is undefined at D = 2 (transformers divides by zero).
    use pe_lab::encoding::rope::{Method, ScalingParams};
    let params = ScalingParams {
        factor: 4.0,
        seq_len: Some(16_384),
        ..ScalingParams::default()
    };
    for method in [Method::Ntk, Method::Dynamic] {
        let err = scale(method, 10_000.0, 2, &params).unwrap_err();
        assert!(err.to_string().contains("D/(D − 2)"), "{err}");
        let ok = scale(method, 10_000.0, 4, &params).unwrap();
        assert!(ok.inv_freq.iter().all(|w| w.is_finite() && *w > 0.0));
    }
    assert!(scale(Method::Linear, 10_000.0, 2, &params).is_ok());
}
