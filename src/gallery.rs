//! The model gallery (`view=models`): how released models place positions, one row per model,
//! every value with its source. The rows are data; [`ModelRow::rope`] reads a row's RoPE
//! through the same `config.json` reader as the Context extension view's config box, so a row
//! is checked against its config by the tests below, and opens that view with its settings.
//!
//! Sources were read from public repositories (repository, path and commit in each row's
//! `source`): copies of the published `config.json` files (the RoPE-relevant keys are kept
//! verbatim in `config`), the models' reference code, and transformers' conversion scripts.
//! A value that could not be sourced is left out, and says so.

use crate::encoding::rope::{rotary_dim, scale, PairLayout, Scaled};
use crate::encoding::rope_config::{parse_config, RopeConfig};

/// How a model places positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// A learned table of absolute position vectors, added to the token embeddings.
    Learned,
    /// ALiBi: a per-head linear bias on the attention scores.
    Alibi,
    /// RoPE (in some models not in every layer: see [`ModelRow::nope`]).
    Rope,
}

impl Scheme {
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Learned => "learned absolute",
            Scheme::Alibi => "ALiBi",
            Scheme::Rope => "RoPE",
        }
    }
}

/// One released model.
#[derive(Debug)]
pub struct ModelRow {
    /// Its key in `models=`.
    pub id: &'static str,
    pub name: &'static str,
    pub scheme: Scheme,
    /// Attention heads and the width of one head's query and key.
    pub heads: usize,
    pub head_dim: usize,
    /// Dimensions of a head that rotate (RoPE rows), and how they pair.
    pub rotary: usize,
    pub layout: Option<PairLayout>,
    /// `rope_theta` of the layers the charts draw (0 without RoPE).
    pub theta: f64,
    /// The scaling, as the config names it ("" for none).
    pub scaling: &'static str,
    /// L₀, the context its scaling starts from (its config's `original_max_position_embeddings`,
    /// or for an unscaled model its `max_position_embeddings`), and the context it is
    /// published for.
    pub original_ctx: usize,
    pub context: usize,
    /// Where L₀ comes from when the config does not name it (empty: from the config).
    pub original_ctx_source: &'static str,
    /// Layers without positional encoding, if any.
    pub nope: &'static str,
    /// What else a reader needs (other layers' settings, what was not sourced).
    pub note: &'static str,
    /// The source's keys, verbatim (JSON); for a model without a published config, the
    /// values of its training script, written as JSON.
    pub config: &'static str,
    /// Where every value comes from.
    pub source: &'static str,
}

/// The rows, oldest first.
pub const MODELS: [ModelRow; 14] = [
    ModelRow {
        id: "gpt2",
        name: "GPT-2 (124M)",
        scheme: Scheme::Learned,
        heads: 12,
        head_dim: 64,
        rotary: 0,
        layout: None,
        theta: 0.0,
        scaling: "",
        original_ctx: 1024,
        context: 1024,
        original_ctx_source: "",
        nope: "",
        note: "A table of 1,024 learned vectors: no position past 1,023 has one.",
        config: r#"{"model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12, "n_layer": 12, "n_positions": 1024}"#,
        source: "openai-community/gpt2 config.json, as copied in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @79d603f0 (\"gpt2\"); learned table: openai/gpt-2 src/model.py @9b63575e (wpe, [n_ctx, n_embd]).",
    },
    ModelRow {
        id: "minilm",
        name: "all-MiniLM-L6-v2",
        scheme: Scheme::Learned,
        heads: 12,
        head_dim: 32,
        rotary: 0,
        layout: None,
        theta: 0.0,
        scaling: "",
        original_ctx: 512,
        context: 512,
        original_ctx_source: "",
        nope: "",
        note: "The table the Learned view shows: 512 rows. Its model card says inputs are cut at 256 word pieces by default and that it was fine-tuned on sequences of at most 128.",
        config: r#"{"model_type": "bert", "hidden_size": 384, "num_attention_heads": 12, "max_position_embeddings": 512, "position_embedding_type": "absolute"}"#,
        source: "sentence-transformers/all-MiniLM-L6-v2 config.json, as copied in aryn-ai/sycamore (a script registering the model); the table itself ships with PE Lab (assets/, see its provenance note).",
    },
    ModelRow {
        id: "bloom",
        name: "BLOOM (176B)",
        scheme: Scheme::Alibi,
        heads: 112,
        head_dim: 128,
        rotary: 0,
        layout: None,
        theta: 0.0,
        scaling: "",
        original_ctx: 2048,
        context: 2048,
        original_ctx_source: "",
        nope: "",
        note: "No position vectors at all: each head adds −slope·distance to its scores.",
        config: r#"{"hidden_size": 14336, "n_head": 112, "n_layer": 70, "seq_length": 2048, "position_embedding_type": "alibi"}"#,
        source: "The training script's values (no config.json copy was found): bigscience-workshop/bigscience train/tr11-176B-ml/tr11-176B-ml.slurm @9e64edec (NHIDDEN=14336, NLAYERS=70, NHEADS=112, SEQ_LEN=2048, --position-embedding-type alibi).",
    },
    ModelRow {
        id: "gpt-j-6b",
        name: "GPT-J-6B",
        scheme: Scheme::Rope,
        heads: 16,
        head_dim: 256,
        rotary: 64,
        layout: Some(PairLayout::Interleaved),
        theta: 10000.0,
        scaling: "",
        original_ctx: 2048,
        context: 2048,
        original_ctx_source: "",
        nope: "",
        note: "Only the first 64 of each head's 256 dimensions rotate; the other 192 carry no position.",
        config: r#"{"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_positions": 2048}"#,
        source: "EleutherAI/gpt-j-6b config.json, as copied in mlc-ai/mlc-llm model_preset.py @79d603f0 (\"gpt_j\"); base 10000 and interleaved pairs (rotate_every_two): kingoflolz/mesh-transformer-jax mesh_transformer/layers.py @f8315e30.",
    },
    ModelRow {
        id: "gpt-neox-20b",
        name: "GPT-NeoX-20B",
        scheme: Scheme::Rope,
        heads: 64,
        head_dim: 96,
        rotary: 24,
        layout: Some(PairLayout::Half),
        theta: 10000.0,
        scaling: "",
        original_ctx: 2048,
        context: 2048,
        original_ctx_source: "",
        nope: "",
        note: "rotary_pct 0.25: 24 of each head's 96 dimensions rotate.",
        config: r#"{"model_type": "gpt_neox", "hidden_size": 6144, "num_attention_heads": 64, "rotary_pct": 0.25, "rotary_emb_base": 10000, "max_position_embeddings": 2048}"#,
        source: "EleutherAI/gpt-neox configs/20B.yml @ea7aefd8 (rotary_pct 0.25, hidden 6144, 64 heads, 2048); base 10000 and rotate_half: megatron/model/positional_embeddings.py there; transformers configuration_gpt_neox.py (checkpoint EleutherAI/gpt-neox-20b).",
    },
    ModelRow {
        id: "llama-2-7b",
        name: "Llama 2 7B",
        scheme: Scheme::Rope,
        heads: 32,
        head_dim: 128,
        rotary: 128,
        layout: Some(PairLayout::Half),
        theta: 10000.0,
        scaling: "",
        original_ctx: 4096,
        context: 4096,
        original_ctx_source: "",
        nope: "",
        note: "Meta's code pairs neighbours (interleaved); the Hugging Face checkpoint permutes q and k at conversion and pairs halves, with the same scores.",
        config: r#"{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096, "rope_scaling": null}"#,
        source: "meta-llama/Llama-2-7b-hf config.json, as copied in scaleapi/llm-engine model-engine/tests/unit/conftest.py @005cb393; base 10000 (no rope_theta key): meta-llama/llama llama/model.py @689c7f26; context 4k: meta-llama/llama-models models/llama2/MODEL_CARD.md.",
    },
    ModelRow {
        id: "mistral-7b-v0.3",
        name: "Mistral 7B v0.3",
        scheme: Scheme::Rope,
        heads: 32,
        head_dim: 128,
        rotary: 128,
        layout: Some(PairLayout::Half),
        theta: 1e6,
        scaling: "",
        original_ctx: 32768,
        context: 32768,
        original_ctx_source: "",
        nope: "",
        note: "v0.1 had base 10,000 and a 4,096-token sliding window; v0.3 has base 1e6 and none. No scaling: L₀ is its max_position_embeddings; the sources read do not state the length it was trained at.",
        config: r#"{"model_type": "mistral", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "sliding_window": null}"#,
        source: "mistralai/Mistral-7B-v0.3 config.json, as copied in mlc-ai/mlc-llm model_preset.py @79d603f0 (\"mistral_7b_v03\").",
    },
    ModelRow {
        id: "llama-3.1-8b",
        name: "Llama 3.1 8B",
        scheme: Scheme::Rope,
        heads: 32,
        head_dim: 128,
        rotary: 128,
        layout: Some(PairLayout::Half),
        theta: 500000.0,
        scaling: "llama3: factor 8, low_freq_factor 1, high_freq_factor 4",
        original_ctx: 8192,
        context: 131072,
        original_ctx_source: "",
        nope: "",
        note: "Pairs slower than 8,192 positions per turn are divided by 8, faster than 2,048 are kept, and those between blend.",
        config: r#"{"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}}"#,
        source: "meta-llama/Llama-3.1-8B-Instruct config.json, as copied in mlc-ai/mlc-llm model_preset.py @79d603f0 (\"llama3_1_8b\"); the same constants in meta-llama/llama-models models/llama3/model.py apply_scaling @a9c89c47; 128k: models/llama3_1/MODEL_CARD.md.",
    },
    ModelRow {
        id: "qwen2.5-7b",
        name: "Qwen2.5 7B Instruct",
        scheme: Scheme::Rope,
        heads: 28,
        head_dim: 128,
        rotary: 128,
        layout: Some(PairLayout::Half),
        theta: 1e6,
        scaling: "yarn: factor 4 (added only for long inputs)",
        original_ctx: 32768,
        context: 131072,
        original_ctx_source: "",
        nope: "",
        note: "The published config has no rope_scaling; Qwen's documentation says to add this YaRN entry for longer inputs.",
        config: r#"{"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 32768, "rope_theta": 1000000.0, "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768, "type": "yarn"}}"#,
        source: "Qwen/Qwen2.5-7B-Instruct config.json, as copied in kevinstephano/thunder_model_blocks hf_qwen2/qwen2_rope.py @d84dd5cc; rope_scaling and \"up to 128K tokens\": QwenLM/Qwen2.5 docs/source/deployment/vllm.md and README.md @a9370f32.",
    },
    ModelRow {
        id: "phi-3.5-mini",
        name: "Phi-3.5-mini-instruct",
        scheme: Scheme::Rope,
        heads: 32,
        head_dim: 96,
        rotary: 96,
        layout: Some(PairLayout::Half),
        theta: 10000.0,
        scaling: "longrope: one searched factor per pair, a short and a long list of 48",
        original_ctx: 4096,
        context: 131072,
        original_ctx_source: "",
        nope: "",
        note: "LongRoPE divides each pair's frequency by its own factor: the short list up to 4,096 tokens, the long one beyond (drawn here).",
        config: r#"{"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 131072, "original_max_position_embeddings": 4096, "rope_theta": 10000.0, "rope_scaling": {"long_factor": [1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601, 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661, 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432, 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945, 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523, 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992, 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305, 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203, 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094, 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688, 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938, 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062], "short_factor": [1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252, 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378, 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083, 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903, 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713, 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533], "type": "longrope"}}"#,
        source: "microsoft/Phi-3.5-mini-instruct config.json, in two copies whose lists agree: kevinstephano/thunder_model_blocks hf_phi3/phi3_rope.py @d84dd5cc and mlc-ai/mlc-llm model_preset.py @79d603f0 (\"phi-3_5\"). (Phi-3-mini-128k's own lists were not found, so that model is not listed.)",
    },
    ModelRow {
        id: "gemma-3-4b",
        name: "Gemma 3 4B",
        scheme: Scheme::Rope,
        heads: 8,
        head_dim: 256,
        rotary: 256,
        layout: Some(PairLayout::Half),
        theta: 1e6,
        scaling: "linear: factor 8 (global layers only)",
        original_ctx: 32768,
        context: 131072,
        original_ctx_source: "Gemma Team, Gemma 3 Technical Report (2025), §5.3: “we pre-train our models with 32K sequences and then scale the 4B, 12B, and 27B models up to 128K tokens at the end of pre-training while rescaling RoPE … a scaling factor of 8”; the same in huggingface/blog gemma3.md @0130f12a.",
        nope: "",
        note: "Two RoPEs: 1 layer in 6 is global (base 1e6, frequencies divided by 8, drawn here); the other 5 attend within 1,024 tokens with base 10,000 and no scaling. Pre-trained on 32K-token sequences, then its global layers were rescaled ×8 for 128K at the end of pre-training; its config names no original context, so L₀ is from the technical report. 8 × 32K = 256K: the factor reaches past the published context.",
        config: r#"{"model_type": "gemma3_text", "hidden_size": 2560, "num_attention_heads": 8, "head_dim": 256, "max_position_embeddings": 131072, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024, "sliding_window_pattern": 6}"#,
        source: "Not a config.json copy: the values of transformers models/gemma3/convert_gemma3_weights.py _VARIANTS (gemma3_4b: full_attention linear factor 8, sliding_window 1024) @0d7e95d9 and Gemma3TextConfig's defaults (131072, sliding_window_pattern 6), matching google/gemma_pytorch gemma/config.py get_config_for_4b (rope_wave_length 10_000 local, 1_000_000 global, rope_scaling_factor 8) @014acb7a.",
    },
    ModelRow {
        id: "deepseek-v3",
        name: "DeepSeek-V3",
        scheme: Scheme::Rope,
        heads: 128,
        head_dim: 192,
        rotary: 64,
        layout: Some(PairLayout::Interleaved),
        theta: 10000.0,
        scaling: "yarn: factor 40, β_fast 32, β_slow 1, mscale 1, mscale_all_dim 1",
        original_ctx: 4096,
        context: 131072,
        original_ctx_source: "",
        nope: "",
        note: "Decoupled RoPE: each head's query and key are 128 dimensions without position plus 64 that rotate (one rotating key shared by all heads); the YaRN frequencies apply to those 64. Its temperature is not on cos and sin (α = 1, as mscale = mscale_all_dim): DeepSeek's attention multiplies the whole softmax scale by (0.1·ln 40 + 1)² ≈ 1.87 instead.",
        config: r#"{"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "max_position_embeddings": 163840, "rope_theta": 10000, "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}}"#,
        source: "deepseek-ai/DeepSeek-V3 config.json, as copied in NVIDIA-NeMo/Megatron-Bridge tests/unit_tests/models/deepseek/test_deepseek_bridges.py @0e15d4d3; interleaved pairs (view_as_complex) and the softmax scale multiplied by mscale² (MLA.__init__): deepseek-ai/DeepSeek-V3 inference/model.py @9b4e9788; 128K: its README.md.",
    },
    ModelRow {
        id: "llama-4-scout",
        name: "Llama 4 Scout (17B×16E) Instruct",
        scheme: Scheme::Rope,
        heads: 40,
        head_dim: 128,
        rotary: 128,
        layout: Some(PairLayout::Interleaved),
        theta: 500000.0,
        scaling: "llama3: factor 16, low_freq_factor 1, high_freq_factor 1",
        original_ctx: 8192,
        context: 10485760,
        original_ctx_source: "",
        nope: "every 4th layer (the 4th, 8th, …): no RoPE (NoPE), full attention, queries scaled up with position past 8,192",
        note: "The RoPE layers attend within chunks of 8,192 tokens; only the layers without positions see the whole context. L₀ = 8,192 is the original context of the scaling formula, kept from Llama 3 (old_context_len in Meta's code), not Scout's training length: Meta says Scout was pre-trained and post-trained with a 256K context. Some Hugging Face config revisions show factor 8 and high_freq_factor 4 instead; Meta's code, which names Scout, gives these.",
        config: r#"{"model_type": "llama4_text", "hidden_size": 5120, "num_attention_heads": 40, "head_dim": 128, "max_position_embeddings": 10485760, "rope_theta": 500000.0, "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}, "no_rope_layer_interval": 4, "attention_chunk_size": 8192}"#,
        source: "meta-llama/llama-models models/llama4/args.py and model.py @a9c89c47 (Scout's scaled RoPE: factor 16, high_freq_factor 1, low_freq_factor 1, old_context_len 8192; nope_layer_interval; view_as_complex; the NoPE layers' query scale 1 + 0.1·ln(⌊(pos + 1)/8192⌋ + 1), attn_temperature_tuning); 10M context: transformers models/llama4/convert_llama4_weights_to_hf.py @07497505 and models/llama4/MODEL_CARD.md; 256K pre-training: Meta AI blog, “The Llama 4 herd” (April 2025); 5120 and 40 heads: transformers Llama4TextConfig defaults (checkpoint Llama-4-Scout-17B-16E).",
    },
    ModelRow {
        id: "gemma-3-1b",
        name: "Gemma 3 1B",
        scheme: Scheme::Rope,
        heads: 4,
        head_dim: 256,
        rotary: 256,
        layout: Some(PairLayout::Half),
        theta: 1e6,
        scaling: "",
        original_ctx: 32768,
        context: 32768,
        original_ctx_source: "",
        nope: "",
        note: "As the 4B but without scaling: global layers base 1e6, the 5 local layers in 6 base 10,000 within 512 tokens.",
        config: r#"{"model_type": "gemma3_text", "hidden_size": 1152, "num_attention_heads": 4, "head_dim": 256, "max_position_embeddings": 32768, "rope_theta": 1000000, "rope_local_base_freq": 10000, "rope_scaling": null, "sliding_window": 512, "sliding_window_pattern": 6}"#,
        source: "google/gemma-3-1b-it config.json, as copied in mlc-ai/mlc-llm model_preset.py @79d603f0 (\"gemma3_1b_it\").",
    },
];

impl ModelRow {
    /// The row named `id` in `models=`.
    pub fn find(id: &str) -> Option<&'static ModelRow> {
        MODELS.iter().find(|m| m.id == id)
    }

    /// Where every value comes from, L₀ included.
    pub fn full_source(&self) -> String {
        if self.original_ctx_source.is_empty() {
            self.source.to_string()
        } else {
            format!("{} L₀: {}", self.source, self.original_ctx_source)
        }
    }

    /// The row's RoPE, read from its config (RoPE rows only), with L₀ from its source where
    /// the config does not name it.
    pub fn rope(&self) -> Option<RopeConfig> {
        if self.scheme != Scheme::Rope {
            return None;
        }
        let mut c = parse_config(self.config).ok()?;
        if !self.original_ctx_source.is_empty() {
            c.params.orig_ctx = self.original_ctx;
        }
        Some(c)
    }

    /// Its frequencies after its scaling, at its published context (LongRoPE: the long
    /// factors), for the layers the charts draw.
    pub fn scaled(&self) -> Option<Scaled> {
        let c = self.rope()?;
        let d = rotary_dim(c.head_dim, c.partial);
        let mut params = c.params.clone();
        params.seq_len = Some(self.context);
        scale(c.method, c.theta, d, &params).ok()
    }

    /// Its frequencies without scaling.
    pub fn unscaled(&self) -> Option<Vec<f64>> {
        let c = self.rope()?;
        Some(crate::encoding::rope::base_inv_freq(
            c.theta,
            rotary_dim(c.head_dim, c.partial),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::json::Json;
    use crate::encoding::rope::Method;

    fn num(config: &Json, key: &str) -> Option<f64> {
        config.get(key).and_then(Json::as_f64)
    }

    #[test]
    fn ids_are_unique_and_url_safe() {
        for (k, m) in MODELS.iter().enumerate() {
            assert!(m
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-.".contains(c)));
            assert!(MODELS[..k].iter().all(|o| o.id != m.id), "{}", m.id);
            assert!(
                !m.source.is_empty() && m.context >= m.original_ctx,
                "{}",
                m.id
            );
        }
    }

    /// Every row's numbers are its config's.
    #[test]
    fn every_row_matches_its_config() {
        for m in &MODELS {
            let json = Json::parse(m.config).unwrap_or_else(|e| panic!("{}: {e}", m.id));
            let hidden = ["hidden_size", "n_embd"].iter().find_map(|k| num(&json, k));
            let heads = ["num_attention_heads", "n_head"]
                .iter()
                .find_map(|k| num(&json, k));
            assert_eq!(heads, Some(m.heads as f64), "{}", m.id);
            match m.scheme {
                Scheme::Learned | Scheme::Alibi => {
                    assert_eq!(
                        hidden.unwrap() / m.heads as f64,
                        m.head_dim as f64,
                        "{}",
                        m.id
                    );
                    let ctx = ["n_positions", "max_position_embeddings", "seq_length"]
                        .iter()
                        .find_map(|k| num(&json, k));
                    assert_eq!(ctx, Some(m.context as f64), "{}", m.id);
                    assert!(m.rope().is_none() && m.rotary == 0 && m.theta == 0.0);
                    let kind = json.get("position_embedding_type").and_then(Json::as_str);
                    if m.scheme == Scheme::Alibi {
                        assert_eq!(kind, Some("alibi"));
                    }
                }
                Scheme::Rope => {
                    let c = m.rope().unwrap_or_else(|| panic!("{}: config", m.id));
                    assert_eq!(rotary_dim(c.head_dim, c.partial), m.rotary, "{}", m.id);
                    assert_eq!(c.theta, m.theta, "{}", m.id);
                    assert_eq!(c.layout, m.layout, "{}", m.id);
                    let read = parse_config(m.config).unwrap();
                    let orig = if c.method == Method::None {
                        read.max_positions
                    } else {
                        read.params.orig_ctx
                    };
                    let named = json.get("original_max_position_embeddings").is_some()
                        || json
                            .get("rope_scaling")
                            .and_then(|r| r.get("original_max_position_embeddings"))
                            .is_some();
                    if m.original_ctx_source.is_empty() {
                        assert_eq!(orig, m.original_ctx, "{}", m.id);
                    } else {
                        // Sourced elsewhere only where the config names no original context.
                        assert!(!named && c.method != Method::None, "{}", m.id);
                        assert_eq!(c.params.orig_ctx, m.original_ctx, "{}", m.id);
                    }
                    assert_eq!(m.scaling.is_empty(), c.method == Method::None, "{}", m.id);
                    if !m.scaling.is_empty() {
                        assert!(m.scaling.starts_with(c.method.name()), "{}", m.id);
                    }
                    let s = m.scaled().unwrap();
                    assert_eq!(s.inv_freq.len(), m.rotary / 2, "{}", m.id);
                    let d = json.get("head_dim").and_then(Json::as_f64);
                    if let Some(d) = d {
                        assert_eq!(d, m.head_dim as f64, "{}", m.id);
                    }
                }
            }
        }
    }

    /// The sentences that relate a row's fields hold for every row they can describe: the
    /// scaling divides the slowest pairs (llama3, YaRN) or every pair (linear) by the config's
    /// factor s, and s·L₀ need not equal the published context (some rows have it equal, some
    /// not: MODEL_GALLERY and MODEL_WAVELENGTHS say so, and the Notation table's s).
    #[test]
    fn sentences_relating_the_fields_hold_for_every_row() {
        let (mut equal, mut differ) = (Vec::new(), Vec::new());
        for m in MODELS.iter().filter(|m| !m.scaling.is_empty()) {
            let c = m.rope().unwrap();
            let s = m.scaled().unwrap();
            let base = m.unscaled().unwrap();
            let factor = c.params.factor;
            let last = base.len() - 1;
            match c.method {
                Method::Llama3 | Method::Yarn => {
                    assert!(
                        (s.inv_freq[last] - base[last] / factor).abs() <= 1e-12 * base[last],
                        "{}: the slowest pair is divided by s",
                        m.id
                    );
                    assert_eq!(s.inv_freq[0], base[0], "{}: the fastest pair is kept", m.id);
                    assert!(m.scaling.contains(&format!("factor {factor}")), "{}", m.id);
                }
                Method::Linear => {
                    for (w, b) in s.inv_freq.iter().zip(&base) {
                        assert!((w - b / factor).abs() <= 1e-12 * b, "{}", m.id);
                    }
                    assert!(m.scaling.contains(&format!("factor {factor}")), "{}", m.id);
                }
                Method::LongRope => {
                    for ((w, b), f) in s.inv_freq.iter().zip(&base).zip(&c.params.long_factor) {
                        assert!((w - b / f).abs() <= 1e-12 * b, "{}", m.id);
                    }
                }
                other => panic!("{}: no sentence describes {other:?}", m.id),
            }
            let reach = factor * m.original_ctx as f64;
            if reach == m.context as f64 {
                equal.push(m.id);
            } else {
                differ.push(m.id);
            }
        }
        assert!(
            !equal.is_empty() && !differ.is_empty(),
            "{equal:?} {differ:?}"
        );
        assert!(differ.contains(&"llama-3.1-8b") && differ.contains(&"gemma-3-4b"));
        // Gemma 3 4B's note: 8 × 32K = 256K, past its published 128K.
        let g = ModelRow::find("gemma-3-4b").unwrap();
        assert_eq!(
            g.rope().unwrap().params.factor * g.original_ctx as f64,
            262144.0
        );
        assert!(g.note.contains("8 × 32K = 256K") && g.context == 131072);
        // Llama 3.1: factor 8, published 131,072 = 16 × 8,192.
        let l = ModelRow::find("llama-3.1-8b").unwrap();
        assert_eq!(
            (l.rope().unwrap().params.factor, l.context / l.original_ctx),
            (8.0, 16)
        );
    }

    #[test]
    fn scaled_frequencies_follow_each_method() {
        let theta = |m: &ModelRow, j: usize| m.theta.powf(-2.0 * j as f64 / m.rotary as f64);
        // Llama 3.1: wavelengths under 8192/4 = 2048 kept, over 8192/1 divided by 8.
        let l = ModelRow::find("llama-3.1-8b").unwrap();
        let s = l.scaled().unwrap();
        for (j, w) in s.inv_freq.iter().enumerate() {
            let lambda = std::f64::consts::TAU / theta(l, j);
            if lambda < 2048.0 {
                assert_eq!(*w, theta(l, j));
            } else if lambda > 8192.0 {
                assert!((w - theta(l, j) / 8.0).abs() < 1e-18);
            }
        }
        // Llama 4 Scout: low = high = 1, no blend band: every pair kept or divided by 16.
        let scout = ModelRow::find("llama-4-scout").unwrap();
        for (j, w) in scout.scaled().unwrap().inv_freq.iter().enumerate() {
            let t = theta(scout, j);
            assert!(*w == t || (w - t / 16.0).abs() < 1e-18, "pair {j}");
        }
        // Gemma 3 4B: every pair divided by 8.
        let g = ModelRow::find("gemma-3-4b").unwrap();
        for (j, w) in g.scaled().unwrap().inv_freq.iter().enumerate() {
            assert!((w - theta(g, j) / 8.0).abs() <= 1e-15 * theta(g, j));
        }
        // Phi-3.5: at its published context, each pair divided by its long factor.
        let p = ModelRow::find("phi-3.5-mini").unwrap();
        let c = p.rope().unwrap();
        assert_eq!(c.params.long_factor.len(), 48);
        let s = p.scaled().unwrap();
        assert_eq!(s.long, Some(true));
        assert!((s.inv_freq[0] - 1.0 / 1.0800000429153442).abs() < 1e-15);
        // DeepSeek-V3: YaRN on the 64 rotary dimensions, factor 40 from 4096.
        let ds = ModelRow::find("deepseek-v3").unwrap();
        let s = ds.scaled().unwrap();
        assert_eq!(s.inv_freq.len(), 32);
        assert_eq!(s.inv_freq[0], 1.0, "the fastest pair is kept");
        let last = theta(ds, 31);
        assert!(
            (s.inv_freq[31] - last / 40.0).abs() < 1e-18,
            "the slowest divided by 40"
        );
        assert_eq!(s.attention, 1.0, "mscale = mscale_all_dim: α = 1");
    }
}
