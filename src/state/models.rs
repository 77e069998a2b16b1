//! The state of the Real models view (`view=models`): the gallery rows drawn together, and the
//! rotary width and base of the base-bound panels.

use super::params::{FloatSpec, IntSpec, Notices};
use crate::gallery::{ModelRow, Scheme, MODELS};

pub const BB_HEAD_DIM: IntSpec = IntSpec {
    name: "head_dim",
    label: "Rotary width D",
    min: 2,
    max: 256,
    default: 128,
    unit: "dims",
};
pub const BB_THETA: FloatSpec = FloatSpec {
    name: "theta",
    label: "Base",
    min: 2.0,
    max: 1e8,
    default: 10000.0,
    log: true,
    unit: "",
};

/// The rows drawn when `models=` is absent: one model before context extension, two after it
/// (llama3 and YaRN), and LongRoPE.
pub const DEFAULT_MODELS: [&str; 4] = ["llama-2-7b", "llama-3.1-8b", "qwen2.5-7b", "phi-3.5-mini"];

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
    /// The selected rows, in the order chosen.
    pub fn rows(&self) -> Vec<&'static ModelRow> {
        self.models
            .iter()
            .filter_map(|id| ModelRow::find(id))
            .collect()
    }

    /// The selected rows that have RoPE (the ones the charts draw).
    pub fn rope_rows(&self) -> Vec<&'static ModelRow> {
        self.rows()
            .into_iter()
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
        let head_dim = super::rope::read_even(BB_HEAD_DIM, get("head_dim").as_deref(), notices);
        let theta = BB_THETA.read(get("theta").as_deref(), notices);
        let models = match get("models") {
            None => DEFAULT_MODELS.to_vec(),
            Some(raw) => {
                let mut models: Vec<&'static str> = Vec::new();
                let mut unknown = Vec::new();
                for name in raw
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .take(64)
                {
                    match MODELS.iter().find(|m| m.id.eq_ignore_ascii_case(name)) {
                        Some(m) if m.scheme != Scheme::Rope => notices.push(
                            "models",
                            format!(
                                "{} has no rotary pairs to draw; it stays in the table.",
                                m.name
                            ),
                        ),
                        Some(m) if !models.contains(&m.id) && models.len() < MAX_MODELS => {
                            models.push(m.id)
                        }
                        Some(_) => {}
                        None => unknown.push(super::params::shorten(name, 24)),
                    }
                }
                if !unknown.is_empty() {
                    notices.push(
                        "models",
                        format!(
                            "no model named “{}” in the gallery; ignored. The names are in the table.",
                            unknown.join("”, “")
                        ),
                    );
                }
                models
            }
        };
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
            read("models=gpt-j-6b,llama-4-scout,GPT-J-6B,nonsense,gpt2&head_dim=97&theta=1e9");
        assert_eq!(s.models, vec!["gpt-j-6b", "llama-4-scout"]);
        assert_eq!(s.head_dim, 96);
        assert_eq!(s.theta, 1e8);
        assert_eq!(
            n.items.len(),
            4,
            "no RoPE, unknown name, odd head_dim, theta clamped"
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
    fn a_selection_is_capped() {
        let mut s = ModelsState {
            models: vec![],
            ..ModelsState::default()
        };
        for m in MODELS.iter().filter(|m| m.scheme == Scheme::Rope) {
            s.toggle(m.id);
        }
        assert_eq!(s.models.len(), MAX_MODELS);
        s.toggle("llama-2-7b");
        assert!(!s.models.contains(&"llama-2-7b"));
    }
}
