//! The precision paths of RoPE against transformers / torch / NumPy (`rope_precision.json`),
//! with the tolerances of its README, and the bfloat16 / float16 rounding against an
//! independent oracle built by decoding every 16-bit pattern.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::encoding::precision::{
    angles, distinct_positions, inv_freq, largest_error, rotation, scores, to_bf16, to_f16, Path,
};

/// The largest wrapped angle error over all pairs of `pos` under `path`, against float64.
fn max_angle_error(path: Path, head_dim: usize, theta: f64, pos: u64) -> f64 {
    let exact = angles(Path::Exact, &inv_freq(Path::Exact, head_dim, theta), pos);
    largest_error(&angles(path, &inv_freq(path, head_dim, theta), pos), &exact)
}

fn score(path: Path, inv: &[f64], m: u64, d: u64) -> f64 {
    scores(path, inv, m, &[d])[0]
}
use serde_json::Value;

fn fixture() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/rope_precision.json"
    ))
    .expect("fixture");
    serde_json::from_str(&text).expect("json")
}

/// A number of the file: a JSON number, or "inf", "-inf", "nan".
fn num(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => match s.as_str() {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            other => panic!("unexpected {other}"),
        },
        other => panic!("unexpected {other}"),
    }
}

fn nums(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(num).collect()
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// Equal as the float32 the file's exact decimal stands for (the README's rule: parse as f64,
/// cast to f32); bfloat16 and float16 values are float32 values.
fn same_f32(a: f64, b: f64) -> bool {
    same(a as f32 as f64, b as f32 as f64)
}

/// One unit in the last place of `x` in a format with `bits` significant bits.
fn ulp(x: f64, bits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return 2f64.powi(-24);
    }
    2f64.powi(x.abs().log2().floor() as i32 - (bits - 1))
}

#[test]
fn every_path_matches_its_peer_within_the_readme_tolerances() {
    let data = fixture();
    for case in data["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let d = case["head_dim"].as_u64().unwrap() as usize;
        let theta = case["theta"].as_f64().unwrap();
        let positions: Vec<u64> = case["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        let pairs = d / 2;
        for path in Path::ALL {
            let r = &case["paths"][path.name()];
            let ref_inv = nums(&r["inv_freq"]);
            let inv = inv_freq(path, d, theta);
            for (j, (&a, &b)) in inv.iter().zip(&ref_inv).enumerate() {
                let ok = match path {
                    Path::Exact => (a - b).abs() <= 1e-12 * b.abs(),
                    Path::HfF32 | Path::HfBf16 => (a - b).abs() <= 2.0 * ulp(b, 24),
                    Path::Bf16Cache | Path::Fp16Seq => same_f32(a, b),
                };
                assert!(ok, "{id} {} inv_freq[{j}]: {a} vs {b}", path.name());
            }
            let ref_pos = nums(&r["positions"]);
            let (ref_angle, ref_cos, ref_sin) =
                (nums(&r["angle"]), nums(&r["cos"]), nums(&r["sin"]));
            let (mut cs_total, mut cs_equal) = (0usize, 0usize);
            for (k, &p) in positions.iter().enumerate() {
                let rot = rotation(path, &inv, p);
                assert!(
                    same_f32(rot.position, ref_pos[k]),
                    "{id} {} position {p}: {} vs {}",
                    path.name(),
                    rot.position,
                    ref_pos[k]
                );
                for (j, &inv_j) in ref_inv.iter().enumerate().take(pairs) {
                    let at = k * pairs + j;
                    let (a, c, s) = (rot.angle[j], rot.cos[j], rot.sin[j]);
                    let (ra, rc, rs) = (ref_angle[at], ref_cos[at], ref_sin[at]);
                    let where_ = format!("{id} {} p={p} j={j}", path.name());
                    match path {
                        Path::Exact => {
                            assert!(
                                (a - ra).abs() <= 1e-12 * ra.abs().max(1e-300),
                                "{where_} angle {a} vs {ra}"
                            );
                            assert!(
                                (c - rc).abs() <= 1e-9 && (s - rs).abs() <= 1e-9,
                                "{where_} cos/sin"
                            );
                        }
                        Path::HfF32 | Path::HfBf16 => {
                            let bound = p as f64 * 2.0 * ulp(inv_j, 24) + ulp(ra, 24);
                            assert!((a - ra).abs() <= bound, "{where_} angle {a} vs {ra}");
                            let extra = if path == Path::HfBf16 {
                                ulp(rc.abs().max(rs.abs()), 8)
                            } else {
                                0.0
                            };
                            let cs_bound = bound + 2.4e-7 + extra;
                            assert!(
                                (c - rc).abs() <= cs_bound && (s - rs).abs() <= cs_bound,
                                "{where_} cos/sin {c},{s} vs {rc},{rs}"
                            );
                        }
                        Path::Bf16Cache | Path::Fp16Seq => {
                            assert!(same_f32(a, ra), "{where_} angle {a} vs {ra}");
                            let bits = if path == Path::Bf16Cache { 8 } else { 11 };
                            for (x, rx) in [(c, rc), (s, rs)] {
                                cs_total += 1;
                                if same_f32(x, rx) {
                                    cs_equal += 1;
                                } else {
                                    assert!(
                                        x.is_finite()
                                            && rx.is_finite()
                                            && (x - rx).abs() <= ulp(rx, bits),
                                        "{where_} {x} vs {rx}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
            if cs_total > 0 {
                assert!(
                    cs_equal as f64 >= 0.99 * cs_total as f64,
                    "{id} {}: {cs_equal} of {cs_total} cos/sin equal",
                    path.name()
                );
            }
        }
    }
}

/// Every finite value of a 16-bit format, decoded from its bit pattern by the format's
/// definition (not by the conversion under test), ascending, with the pattern.
fn decoded(exponent_bits: u32, mantissa_bits: u32) -> Vec<(f64, u16)> {
    let bias = (1i32 << (exponent_bits - 1)) - 1;
    let mut out = Vec::new();
    for bits in 0u16..=u16::MAX {
        let sign = if bits >> 15 == 1 { -1.0 } else { 1.0 };
        let e = ((bits >> mantissa_bits) & ((1 << exponent_bits) - 1)) as i32;
        let m = (bits & ((1 << mantissa_bits) - 1)) as f64;
        if e == (1 << exponent_bits) - 1 {
            continue; // inf and NaN
        }
        let value = if e == 0 {
            sign * m * 2f64.powi(1 - bias - mantissa_bits as i32)
        } else {
            sign * (1.0 + m / 2f64.powi(mantissa_bits as i32)) * 2f64.powi(e - bias)
        };
        out.push((value, bits));
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0); // +0 and -0
    out
}

/// The correctly rounded value of `x` (round to nearest, ties to the even pattern), with
/// overflow to ±inf past the largest finite value plus half an ulp.
fn oracle(table: &[(f64, u16)], x: f64, top_ulp: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let max = table.last().unwrap().0;
    if x.abs() >= max + top_ulp / 2.0 {
        return x.signum() * f64::INFINITY;
    }
    let at = table.partition_point(|&(v, _)| v < x);
    let above = table.get(at).copied();
    let below = at.checked_sub(1).map(|i| table[i]);
    match (below, above) {
        (_, Some((v, _))) if v == x => x,
        (Some((lo, lb)), Some((hi, hb))) => {
            let (dl, dh) = (x - lo, hi - x);
            if dl < dh || (dl == dh && lb % 2 == 0) {
                lo
            } else if dl > dh || hb % 2 == 0 {
                hi
            } else {
                lo
            }
        }
        (Some((lo, _)), None) => lo,
        (None, Some((hi, _))) => hi,
        (None, None) => unreachable!(),
    }
}

/// Inputs: a seeded sweep of float32 bit patterns, every halfway point between neighbouring
/// 16-bit values (ties), and the edges (zeros, subnormals, overflow, inf, NaN).
fn inputs(table: &[(f64, u16)]) -> Vec<f32> {
    let mut s = 0x2545_f491_u64;
    let mut out: Vec<f32> = (0..1_000_000)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            f32::from_bits(s as u32)
        })
        .collect();
    for w in table.windows(2) {
        let mid = (w[0].0 + w[1].0) / 2.0;
        if (mid as f32) as f64 == mid {
            out.push(mid as f32);
            out.push(f32::from_bits((mid as f32).to_bits() + 1));
            out.push(f32::from_bits((mid as f32).to_bits().wrapping_sub(1)));
        }
    }
    out.extend([
        0.0,
        -0.0,
        f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        65504.0,
        65519.99,
        65520.0,
        -65520.0,
        f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        3.389e38,
        3.4e38,
    ]);
    out
}

#[test]
fn bfloat16_rounding_is_round_to_nearest_even_everywhere() {
    let table = decoded(8, 7);
    let top_ulp = 2f64.powi(127 - 7);
    for x in inputs(&table) {
        let got = f64::from(to_bf16(x));
        let want = oracle(&table, f64::from(x), top_ulp);
        assert!(
            same(got, want) || (got == 0.0 && want == 0.0),
            "bf16({x:e}) = {got:e}, want {want:e}"
        );
    }
}

#[test]
fn float16_rounding_is_round_to_nearest_even_everywhere() {
    let table = decoded(5, 10);
    let top_ulp = 32.0;
    for x in inputs(&table) {
        let got = f64::from(to_f16(x));
        let want = oracle(&table, f64::from(x), top_ulp);
        assert!(
            same(got, want) || (got == 0.0 && want == 0.0),
            "f16({x:e}) = {got:e}, want {want:e}"
        );
    }
    assert_eq!(to_f16(65519.0), 65504.0);
    assert_eq!(to_f16(65520.0), f32::INFINITY);
}

#[test]
fn distinct_positions_count_what_each_path_can_tell_apart() {
    for path in Path::ALL {
        for last in [
            0u64, 1, 255, 256, 257, 300, 2047, 2048, 2049, 4097, 65503, 65519, 65520, 70_000,
            300_000,
        ] {
            let mut seen: Vec<f64> = (0..=last).map(|p| path.stored_position(p)).collect();
            seen.dedup();
            assert_eq!(
                distinct_positions(path, last),
                seen.len() as u64,
                "{} up to {last}",
                path.name()
            );
        }
    }
    // Up to 2^26 float32 tells 2^24 + 2^23 + 2^23 + 1 positions apart (every integer below
    // 2^24, every other one up to 2^25, every fourth up to 2^26); bfloat16 a few thousand.
    assert_eq!(
        distinct_positions(Path::HfF32, 1 << 26),
        (1 << 24) + (1 << 23) + (1 << 23) + 1
    );
    assert!(distinct_positions(Path::Bf16Cache, 1 << 26) < 5000);
}

#[test]
fn the_relative_property_breaks_in_low_precision_at_large_m() {
    let d = 128;
    let exact_inv = inv_freq(Path::Exact, d, 10000.0);
    let bf_inv = inv_freq(Path::Bf16Cache, d, 10000.0);
    // Exact: the score at distance 7 is the same from m = 7 and m = 1,000,007.
    let near = score(Path::Exact, &exact_inv, 7, 7);
    let far = score(Path::Exact, &exact_inv, 1_000_007, 7);
    assert!((near - far).abs() < 1e-6, "{near} vs {far}");
    // bfloat16 positions: from 1,000,007 the key 7 back is stored at the same position, so
    // the score is the self-score, not the distance-7 score.
    let bf_far = score(Path::Bf16Cache, &bf_inv, 1_000_007, 7);
    let bf_self = score(Path::Bf16Cache, &bf_inv, 1_000_007, 0);
    assert_eq!(bf_far, bf_self);
    assert!((bf_far - near).abs() > 1.0);
    // Scoring many distances at once (the view's path) equals scoring each alone.
    let many = scores(
        Path::HfF32,
        &inv_freq(Path::HfF32, d, 10000.0),
        300,
        &[0, 1, 2, 255, 300],
    );
    for (k, &dist) in [0u64, 1, 2, 255, 300].iter().enumerate() {
        assert_eq!(
            many[k],
            score(Path::HfF32, &inv_freq(Path::HfF32, d, 10000.0), 300, dist)
        );
    }
    // The largest angle error grows with the position and is zero for exact.
    assert_eq!(max_angle_error(Path::Exact, d, 10000.0, 123_456), 0.0);
    assert!(
        max_angle_error(Path::Bf16Cache, d, 10000.0, 100_000)
            > max_angle_error(Path::Bf16Cache, d, 10000.0, 100)
    );
    assert!(max_angle_error(Path::Fp16Seq, d, 10000.0, 70_000).is_nan());
}

#[test]
fn the_precision_view_state_reads_clamps_and_round_trips() {
    use pe_lab::state::AppState;
    let (state, notices) = AppState::from_query("view=precision&head_dim=64&theta=500000&pos=70000&paths=bf16_cache,exact,bogus,exact&m=1000&max_dist=32");
    let s = &state.precision;
    assert_eq!(
        (s.head_dim, s.theta, s.pos, s.m, s.max_dist),
        (64, 500000.0, 70000, 1000, 32)
    );
    assert_eq!(s.paths, vec![Path::Bf16Cache, Path::Exact]);
    assert_eq!(notices.items.len(), 1);
    assert_eq!(notices.items[0].param, "paths");
    let (back, n) = AppState::from_query(&state.to_query());
    assert_eq!(back, state);
    assert!(n.is_empty());
    let (clamped, notices) = AppState::from_query("view=precision&pos=1e12&head_dim=7&paths=nope");
    assert_eq!(clamped.precision.pos, 1 << 26);
    assert_eq!(clamped.precision.head_dim, 6);
    assert_eq!(clamped.precision.paths, Path::ALL.to_vec());
    let named: Vec<&str> = notices.items.iter().map(|n| n.param.as_str()).collect();
    for p in ["pos", "head_dim", "paths"] {
        assert!(named.contains(&p), "{p}: {named:?}");
    }
}
