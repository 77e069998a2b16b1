//! The state of the Real models view (`view=models`): the gallery rows drawn together, and the
//! rotary width and base of the base-bound panels.

use crate::state::params::{FloatSpec, IntSpec, Notices};
use crate::gallery::{ModelRow, Scheme};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Real models",
    panels: &[
        panel("model-gallery", "How released models place positions"),
        panel("model-wavelengths", "Wavelengths against the context"),
        panel("model-scores", "Score against distance, to the context"),
        panel("base-bound", "B(Δ): how far do similar tokens still score higher?"),
        panel("base-bound-min", "The smallest base for a context length"),
    ],
    controls: "models head_dim theta",
};

pub const BB_HEAD_DIM: IntSpec = IntSpec {
    name: "head_dim",
    label: "head_dim = D (every dimension rotates)",
    min: 2,
    max: 256,
    default: 128,
    unit: "dims",
};
/// The base: the RoPE view's control.
pub const BB_THETA: FloatSpec = crate::views::rope::state::THETA;

/// The rows drawn when `models=` is absent: one model before context extension, two after it
/// (llama3 and YaRN), and LongRoPE.
pub const DEFAULT_MODELS: [&str; 4] = ["llama-2-7b", "llama-3.1-8b", "qwen2.5-7b", "phi-3.5-mini"];

/// The gallery's RoPE rows, by id: reading `models=` needs only these (the first page does
/// not carry the gallery's data; a test keeps them equal to it).
pub const ROPE_IDS: [&str; 11] = [
    "gpt-j-6b",
    "gpt-neox-20b",
    "llama-2-7b",
    "mistral-7b-v0.3",
    "llama-3.1-8b",
    "qwen2.5-7b",
    "phi-3.5-mini",
    "gemma-3-4b",
    "deepseek-v3",
    "llama-4-scout",
    "gemma-3-1b",
];

/// At most this many rows are drawn together (the charts' palette).
pub const MAX_MODELS: usize = 8;

/// Controls of the Real models view.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelsState {
    /// Selected gallery rows (ids), in the order chosen.
    pub models: Vec<&'static str>,
    /// `D` and the base of `base-bound`.
    pub head_dim: usize,
    pub theta: f64,
}

impl Default for ModelsState {
    fn default() -> Self {
        ModelsState {
            models: DEFAULT_MODELS.to_vec(),
            head_dim: BB_HEAD_DIM.default as usize,
            theta: BB_THETA.default,
        }
    }
}

impl ModelsState {
    /// The selected rows (all RoPE: the ones the charts draw), in the order chosen.
    pub fn rope_rows(&self) -> Vec<&'static ModelRow> {
        self.models
            .iter()
            .filter_map(|id| ModelRow::find(id))
            .filter(|m| m.scheme == Scheme::Rope)
            .collect()
    }

    /// Selects or deselects `id` (a selection is capped at [`MAX_MODELS`]).
    pub fn toggle(&mut self, id: &'static str) {
        if let Some(k) = self.models.iter().position(|m| *m == id) {
            self.models.remove(k);
        } else if self.models.len() < MAX_MODELS {
            self.models.push(id);
        }
    }

    pub(crate) fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> ModelsState {
        let head_dim = crate::views::rope::state::read_even(BB_HEAD_DIM, get("head_dim").as_deref(), notices);
        let theta = BB_THETA.read(get("theta").as_deref(), notices);
        // Each name is one of the gallery's RoPE rows; another is ignored, and said so (the
        // notices keep the first few).
        let models = get("models").map_or(DEFAULT_MODELS.to_vec(), |raw| {
            let mut models: Vec<&'static str> = Vec::new();
            for name in raw.split(',').filter(|s| !s.is_empty()).take(64) {
                match ROPE_IDS.iter().find(|id| **id == name) {
                    Some(id) if !models.contains(id) && models.len() < MAX_MODELS => {
                        models.push(id)
                    }
                    Some(_) => {}
                    None => notices.push(
                        "models",
                        format!(
                            "“{}” is not a RoPE model of the gallery; ignored.",
                            crate::state::params::shorten(name, 24)
                        ),
                    ),
                }
            }
            models
        });
        ModelsState {
            models,
            head_dim,
            theta,
        }
    }

    pub(crate) fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("models", self.models.join(",")));
        out.push(("head_dim", self.head_dim.to_string()));
        out.push(("theta", format!("{}", self.theta)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(query: &str) -> (ModelsState, Notices) {
        let pairs: Vec<(String, String)> = query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.clone())
        };
        let mut notices = Notices::default();
        let s = ModelsState::read(&get, &mut notices);
        (s, notices)
    }

    #[test]
    fn reads_and_writes_the_selection() {
        let (s, n) =
            read("models=gpt-j-6b,llama-4-scout,gpt-j-6b,nonsense,gpt2&head_dim=97&theta=1e9");
        assert_eq!(s.models, vec!["gpt-j-6b", "llama-4-scout"]);
        assert_eq!(s.head_dim, 96);
        assert_eq!(s.theta, 1e8);
        assert_eq!(
            n.items.len(),
            4,
            "unknown name, no RoPE, odd head_dim, theta clamped (a repeat is dropped quietly)"
        );
        let mut out = Vec::new();
        s.write(&mut out);
        assert_eq!(out[0], ("models", "gpt-j-6b,llama-4-scout".to_string()));
        assert_eq!(read("models=").0.models, Vec::<&str>::new());
        assert_eq!(read("").0, ModelsState::default());
        for id in DEFAULT_MODELS {
            assert!(ModelRow::find(id).is_some());
        }
    }

    #[test]
    fn the_id_lists_are_the_gallery_rows() {
        use crate::gallery::MODELS;
        let rope: Vec<&str> = MODELS
            .iter()
            .filter(|m| m.scheme == Scheme::Rope)
            .map(|m| m.id)
            .collect();
        assert_eq!(rope, ROPE_IDS);
    }

    #[test]
    fn a_selection_is_capped() {
        let mut s = ModelsState {
            models: vec![],
            ..ModelsState::default()
        };
        for id in ROPE_IDS {
            s.toggle(id);
        }
        assert_eq!(s.models.len(), MAX_MODELS);
        s.toggle("llama-2-7b");
        assert!(!s.models.contains(&"llama-2-7b"));
        s.toggle("gemma-3-1b");
        assert!(s.models.contains(&"gemma-3-1b"), "room for one again");
        s.toggle("deepseek-v3");
        assert!(!s.models.contains(&"deepseek-v3"), "the ninth is refused");
    }
}
