//! Reading a model's `config.json` into RoPE settings, the way transformers standardises it:
//! `rope_parameters` (5.x) or `rope_scaling` (4.x), `rope_theta`, `head_dim` or
//! `hidden_size / num_attention_heads`, `partial_rotary_factor`, `max_position_embeddings` and
//! `original_max_position_embeddings`. Also the older GPT-J / GPT-NeoX names (`rotary_dim`,
//! `rotary_pct`, `rotary_emb_base`, `n_embd`, `n_head`, `n_positions`).

use super::json::Json;

use super::rope::{Method, PairLayout, ScalingParams};

/// The largest config text accepted (real configs are a few KB).
pub const MAX_CONFIG_BYTES: usize = 256 * 1024;

/// RoPE settings read from a config.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeConfig {
    pub head_dim: usize,
    /// Rotary fraction ρ.
    pub partial: f64,
    pub theta: f64,
    pub method: Method,
    pub params: ScalingParams,
    /// `max_position_embeddings` L.
    pub max_positions: usize,
    /// The pairing layout the model family uses, when the config says which family.
    pub layout: Option<PairLayout>,
    /// `model_type`, if present.
    pub model_type: Option<String>,
    /// Whether `head_dim` came from DeepSeek's `qk_rope_head_dim`: only that part of each
    /// (wider) head rotates.
    pub decoupled: bool,
}

fn num(obj: &Json, key: &str) -> Result<Option<f64>, String> {
    match obj.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::Number(v)) => Ok(Some(*v)),
        Some(Json::Bool(b)) => Ok(Some(if *b { 1.0 } else { 0.0 })),
        Some(_) => Err(format!("“{key}” must be a number.")),
    }
}

fn first_num(objs: &[&Json], keys: &[&str]) -> Result<Option<f64>, String> {
    for obj in objs {
        for key in keys {
            if let Some(v) = num(obj, key)? {
                return Ok(Some(v));
            }
        }
    }
    Ok(None)
}

fn list(obj: &Json, key: &str) -> Result<Vec<f64>, String> {
    match obj.get(key) {
        None | Some(Json::Null) => Ok(Vec::new()),
        Some(Json::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_f64()
                    .ok_or_else(|| format!("“{key}” must hold only numbers."))
            })
            .collect(),
        Some(_) => Err(format!("“{key}” must be a list of numbers.")),
    }
}

fn positive_int(v: f64, what: &str) -> Result<usize, String> {
    if v >= 1.0 && v.fract() == 0.0 && v <= 1e9 {
        Ok(v as usize)
    } else {
        Err(format!("{what} must be a positive whole number, not {v}."))
    }
}

/// Parses `config.json` text. Every failure is a sentence for the user.
pub fn parse_config(text: &str) -> Result<RopeConfig, String> {
    if text.len() > MAX_CONFIG_BYTES {
        return Err(format!(
            "That text is {} KB; a config.json is a few KB (at most {} KB is read).",
            text.len() / 1024,
            MAX_CONFIG_BYTES / 1024
        ));
    }
    let value = Json::parse(text)
        .map_err(|e| format!("This is not valid JSON ({e}). Paste the whole config.json."))?;
    config_from_json(&value)
}

/// Reads settings from a parsed config.
pub fn config_from_json(value: &Json) -> Result<RopeConfig, String> {
    let top = match value {
        Json::Object(_) => value,
        _ => return Err("A config.json is a JSON object ({ … }).".into()),
    };
    let empty = Json::Object(Vec::new());
    let rope = match top
        .get("rope_parameters")
        .or_else(|| top.get("rope_scaling"))
    {
        None | Some(Json::Null) => &empty,
        Some(m @ Json::Object(_)) => m,
        Some(_) => return Err("“rope_parameters” / “rope_scaling” must be an object.".into()),
    };
    let model_type = top
        .get("model_type")
        .and_then(Json::as_str)
        .map(str::to_string);

    let type_name = rope
        .get("rope_type")
        .or_else(|| rope.get("type"))
        .and_then(Json::as_str)
        .unwrap_or("default");
    let method = Method::from_name(type_name).ok_or_else(|| {
        format!(
            "The rope type “{}” is not supported here (supported: default, linear, dynamic, yarn, longrope, llama3).",
            crate::format::shorten(type_name, 24)
        )
    })?;

    let theta = first_num(&[rope, top], &["rope_theta"])?
        .or(num(top, "rotary_emb_base")?)
        .unwrap_or(10000.0);
    if theta <= 1.0 {
        return Err(format!("rope_theta must be greater than 1, not {theta}."));
    }

    let heads = first_num(&[top], &["num_attention_heads", "n_head"])?;
    let hidden = first_num(&[top], &["hidden_size", "n_embd", "d_model"])?;
    // DeepSeek's decoupled RoPE rotates a part of its own, `qk_rope_head_dim` wide: that part
    // is the rotary head (transformers builds its RoPE on that width).
    let decoupled = num(top, "qk_rope_head_dim")?.is_some();
    let head_dim = match (
        first_num(&[top], &["qk_rope_head_dim", "head_dim"])?,
        hidden,
        heads,
    ) {
        (Some(h), _, _) => positive_int(h, "head_dim")?,
        (None, Some(hid), Some(n)) => {
            let (hid, n) = (
                positive_int(hid, "hidden_size")?,
                positive_int(n, "num_attention_heads")?,
            );
            if hid % n != 0 {
                return Err(format!(
                    "hidden_size {hid} is not divisible by num_attention_heads {n}."
                ));
            }
            hid / n
        }
        _ => {
            return Err("The config needs head_dim, or hidden_size and num_attention_heads.".into())
        }
    };

    let partial = match (
        first_num(&[rope, top], &["partial_rotary_factor"])?,
        num(top, "rotary_pct")?,
        num(top, "rotary_dim")?,
    ) {
        (Some(p), _, _) | (None, Some(p), _) => p,
        (None, None, Some(d)) => positive_int(d, "rotary_dim")? as f64 / head_dim as f64,
        _ => 1.0,
    };
    if !(partial > 0.0 && partial <= 1.0) {
        return Err(format!(
            "The rotary fraction must be in (0, 1], not {partial}."
        ));
    }

    let max_positions = match first_num(&[top], &["max_position_embeddings", "n_positions"])? {
        Some(v) => positive_int(v, "max_position_embeddings")?,
        None => 2048,
    };
    // A top-level original_max_position_embeddings (Phi-3) wins over the dict's.
    let orig = first_num(&[top, rope], &["original_max_position_embeddings"])?
        .map(|v| positive_int(v, "original_max_position_embeddings"))
        .transpose()?;

    let mut params = ScalingParams {
        seq_len: None,
        ..ScalingParams::default()
    };
    let factor = num(rope, "factor")?;
    let need = |key: &str| format!("rope type “{type_name}” needs “{key}”.");
    match method {
        Method::None | Method::Ntk => {
            params.factor = factor.unwrap_or(1.0);
            params.orig_ctx = orig.unwrap_or(max_positions);
        }
        Method::Linear | Method::Dynamic => {
            params.factor = factor.ok_or_else(|| need("factor"))?;
            // transformers' dynamic NTK measures growth against max_position_embeddings.
            params.orig_ctx = max_positions;
        }
        Method::Yarn | Method::LongRope => {
            let l0 = orig.unwrap_or(max_positions);
            params.orig_ctx = l0;
            params.factor = factor.unwrap_or(max_positions as f64 / l0 as f64);
            params.attn_factor = num(rope, "attention_factor")?;
            params.beta_fast = num(rope, "beta_fast")?.unwrap_or(32.0);
            params.beta_slow = num(rope, "beta_slow")?.unwrap_or(1.0);
            params.mscale = num(rope, "mscale")?;
            params.mscale_all_dim = num(rope, "mscale_all_dim")?;
            params.truncate = rope.get("truncate").and_then(Json::as_bool).unwrap_or(true);
            params.short_factor = list(rope, "short_factor")?;
            params.long_factor = list(rope, "long_factor")?;
            if method == Method::LongRope
                && (params.short_factor.is_empty() || params.long_factor.is_empty())
            {
                return Err(need("short_factor and long_factor"));
            }
        }
        Method::Llama3 => {
            params.factor = factor.ok_or_else(|| need("factor"))?;
            params.low_freq_factor =
                num(rope, "low_freq_factor")?.ok_or_else(|| need("low_freq_factor"))?;
            params.high_freq_factor =
                num(rope, "high_freq_factor")?.ok_or_else(|| need("high_freq_factor"))?;
            params.orig_ctx = orig.ok_or_else(|| need("original_max_position_embeddings"))?;
            // Equal factors (Llama 4 Scout) leave no band to blend: every pair is kept or divided.
            if params.high_freq_factor < params.low_freq_factor {
                return Err("high_freq_factor must not be smaller than low_freq_factor.".into());
            }
        }
    }
    if params.factor.is_nan() || params.factor <= 0.0 {
        return Err(format!("factor must be positive, not {}.", params.factor));
    }
    // Families whose checkpoints pair neighbours; `rope_interleave` (DeepSeek-V3) says so itself.
    let layout = match (
        top.get("rope_interleave").and_then(Json::as_bool),
        model_type.as_deref(),
    ) {
        (Some(true), _) => Some(PairLayout::Interleaved),
        (_, Some("gptj" | "roformer" | "codegen" | "deepseek_v3" | "llama4" | "llama4_text")) => {
            Some(PairLayout::Interleaved)
        }
        (Some(false), _) | (_, Some(_)) => Some(PairLayout::Half),
        (None, None) => None,
    };
    Ok(RopeConfig {
        head_dim,
        partial,
        theta,
        method,
        params,
        max_positions,
        layout,
        model_type,
        decoupled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_llama_3_1() {
        let c = parse_config(
            r#"{"model_type":"llama","hidden_size":4096,"num_attention_heads":32,"max_position_embeddings":131072,
                "rope_theta":500000.0,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,
                "original_max_position_embeddings":8192,"rope_type":"llama3"}}"#,
        )
        .unwrap();
        assert_eq!(
            (c.head_dim, c.theta, c.method),
            (128, 500000.0, Method::Llama3)
        );
        assert_eq!((c.params.factor, c.params.orig_ctx), (8.0, 8192));
        assert_eq!(c.layout, Some(PairLayout::Half));
        assert!(!c.decoupled);
    }

    #[test]
    fn deepseek_v3_rotates_its_qk_rope_part_only() {
        let c = parse_config(
            crate::gallery::MODELS
                .iter()
                .find(|m| m.config.contains("deepseek_v3"))
                .unwrap()
                .config,
        )
        .unwrap();
        assert_eq!((c.head_dim, c.decoupled), (64, true));
    }

    #[test]
    fn reads_gpt_neox_and_gpt_j_names() {
        let neox = parse_config(r#"{"model_type":"gpt_neox","hidden_size":6144,"num_attention_heads":64,"rotary_pct":0.25,"rotary_emb_base":10000,"max_position_embeddings":2048}"#).unwrap();
        assert_eq!((neox.head_dim, neox.partial), (96, 0.25));
        let gptj = parse_config(
            r#"{"model_type":"gptj","n_embd":4096,"n_head":16,"rotary_dim":64,"n_positions":2048}"#,
        )
        .unwrap();
        assert_eq!(
            (gptj.head_dim, gptj.partial, gptj.max_positions),
            (256, 0.25, 2048)
        );
        assert_eq!(gptj.layout, Some(PairLayout::Interleaved));
    }

    #[test]
    fn explains_what_is_wrong() {
        for (text, needle) in [
            ("{", "not valid JSON"),
            ("[1,2]", "JSON object"),
            (r#"{"hidden_size":10}"#, "head_dim"),
            (
                r#"{"head_dim":64,"rope_scaling":{"type":"su"}}"#,
                "not supported",
            ),
            (
                r#"{"head_dim":64,"rope_scaling":{"rope_type":"linear"}}"#,
                "needs “factor”",
            ),
            (r#"{"head_dim":64,"rope_theta":"big"}"#, "must be a number"),
            (r#"{"head_dim":64,"partial_rotary_factor":2}"#, "(0, 1]"),
            (
                r#"{"hidden_size":100,"num_attention_heads":3}"#,
                "divisible",
            ),
        ] {
            let err = parse_config(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
        assert!(parse_config(&" ".repeat(MAX_CONFIG_BYTES + 1))
            .unwrap_err()
            .contains("KB"));
    }
}
