//! A CSV column's name in words, for the “Show data as table” headers a student reads. The
//! CSV keeps its identifiers (`col4_sin_i2`, `freq_ntk`, `seen_bf16_cache`): code reads them.
//! The table shows what they mean, in the symbols of the Notation table.

use crate::encoding::precision::Path;
use crate::encoding::rope::Method;

/// `name` in words, or `None` when it has no other wording than itself.
pub fn header_words(name: &str) -> Option<String> {
    let fixed = match name {
        "pos" | "position" => "position pos",
        "col" => "column col",
        "pair" => "pair i",
        "omega" | "omega_i" => "ω_i (rad per position)",
        "wavelength" => "wavelength (positions)",
        "distance" => "distance Δ",
        "offset" => "offset Δ",
        "head" => "head h",
        "slope" => "slope_h",
        "relative_position" => "relative position n − m",
        "angle_rad" => "angle pos·ω_i (rad)",
        "q_x_rotated" => "rotated q, first dimension",
        "q_y_rotated" => "rotated q, second dimension",
        "su_bound" => "RoFormer's relative upper bound (mean of |S_i|)",
        "ones_score" => "score, q = k = 1",
        "random_mean_score" => "mean score, random q and k",
        "mean_cosine" => "mean cosine similarity",
        "pc1" => "principal component 1",
        "pc2" => "principal component 2",
        "B" => "B(Δ)",
        "context_length" => "context length L",
        "min_base" => "smallest base",
        "score_over_score0" => "score / score at Δ = 0",
        "inv_freq" => "ω′_i",
        "inv_freq_unscaled" => "ω_i",
        "token_index" => "token",
        _ => "",
    };
    if !fixed.is_empty() {
        return Some(fixed.to_string());
    }
    if let Some(words) = column(name) {
        return Some(words);
    }
    if let Some(m) = Method::ALL.into_iter().find(|m| m.name() == name) {
        return Some(m.label().to_string());
    }
    for (prefix, what) in [("freq_", "ω′_i"), ("wavelength_", "λ′_i"), ("attn_", "α")] {
        if let Some(m) = name
            .strip_prefix(prefix)
            .and_then(|rest| Method::ALL.into_iter().find(|m| m.name() == rest))
        {
            // Unscaled, a frequency is ω_i, not ω′_i.
            let what = match (m, what) {
                (Method::None, "ω′_i") => "ω_i",
                (Method::None, "λ′_i") => "λ_i",
                _ => what,
            };
            return Some(format!("{what}, {}", m.label()));
        }
    }
    for (prefix, what) in [
        ("seen_", "stored position"),
        ("inv_freq_", "ω_i"),
        ("angle_", "angle"),
        ("cos_", "cos"),
        ("sin_", "sin"),
        ("score_", "score"),
        ("max_angle_error_", "largest angle error (rad)"),
    ] {
        if let Some(p) = name
            .strip_prefix(prefix)
            .and_then(|rest| Path::ALL.into_iter().find(|p| p.name() == rest))
        {
            return Some(format!("{what}, {}", p.label()));
        }
    }
    if let Some(m) = name.strip_prefix("m=") {
        return Some(format!("query at m = {m}"));
    }
    if let Some(p0) = name.strip_prefix("dot_p0_") {
        return Some(format!("PE[{p0}]·PE[pos]"));
    }
    if let Some((delta, p0)) = name
        .strip_prefix("M_delta")
        .and_then(|r| r.split_once("_times_pe_"))
    {
        return Some(format!("M({delta})·PE[{p0}]"));
    }
    if let Some(rest) = name.strip_prefix("out_") {
        let (enc, k) = rest.rsplit_once('_')?;
        let enc = match enc {
            "none" => "without positions",
            "sinusoidal" => "sinusoidal",
            "rope" => "RoPE",
            _ => return None,
        };
        return Some(format!("output dimension {k}, {enc}"));
    }
    indexed(name)
}

/// `col4_sin_i2` → “column 4: sin, pair 2”.
fn column(name: &str) -> Option<String> {
    let rest = name.strip_prefix("col")?;
    let (col, rest) = rest.split_once('_')?;
    let (kind, i) = rest.split_once("_i")?;
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (number(col) && number(i) && (kind == "sin" || kind == "cos"))
        .then(|| format!("column {col}: {kind}, pair {i}"))
}

/// A matrix's column by its index: `pos12`, `q3`, `n7`, `key2`, `dim5`, `in4`, `pair9`, `pe_14`.
fn indexed(name: &str) -> Option<String> {
    for (prefix, what) in [
        ("pos", "position pos ="),
        ("q", "position pos′ ="),
        ("n", "key at n ="),
        ("key", "key at n ="),
        ("dim", "dimension"),
        ("in", "input column"),
        ("pair", "pair i ="),
        ("pe_", "PE at position pos ="),
    ] {
        if let Some(k) = name.strip_prefix(prefix) {
            if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) {
                return Some(format!("{what} {k}"));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_read_as_words() {
        let w = |n: &str| header_words(n).unwrap_or_else(|| panic!("{n}"));
        assert_eq!(w("col4_sin_i2"), "column 4: sin, pair 2");
        assert_eq!(w("col11_cos_i5"), "column 11: cos, pair 5");
        assert_eq!(w("ntk"), "NTK-aware");
        assert_eq!(w("llama3"), "Llama 3");
        assert_eq!(w("none"), "original");
        assert_eq!(w("freq_longrope"), "ω′_i, LongRoPE");
        assert_eq!(w("attn_yarn"), "α, YaRN");
        assert_eq!(
            w("seen_bf16_cache"),
            "stored position, GPT-NeoX bfloat16 cache"
        );
        assert_eq!(
            w("max_angle_error_hf_f32"),
            "largest angle error (rad), transformers, float32"
        );
        assert_eq!(w("m=1000"), "query at m = 1000");
        assert_eq!(w("M_delta4_times_pe_10"), "M(4)·PE[10]");
        assert_eq!(w("out_rope_3"), "output dimension 3, RoPE");
        assert_eq!(w("freq_none"), "ω_i, original");
        assert_eq!(w("q17"), "position pos′ = 17");
        assert_eq!(w("pos"), "position pos");
        assert_eq!(header_words("a<b"), None);
        assert_eq!(header_words("colx_sin_i2"), None);
        assert_eq!(header_words("model"), None);
    }
}
