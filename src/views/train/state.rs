//! The Train it yourself view in the registry, and its URL values as they came.
//!
//! The first download only keeps the view's values (`task`, `enc`, … as strings, each at most
//! a URL's length): they are read, clamped and explained by the view's own chunk
//! ([`super::settings::TrainState`]), which writes them back whole. So the view costs the first
//! download its name and its keys, not its parser.

use crate::state::about::{panel, About};
use crate::state::params::Notices;

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Train it yourself",
    panels: &[
        panel("train-setup", "Setup and run"),
        panel("train-loss", "Learning curves"),
        panel("train-length", "Length generalization"),
        panel("train-attention", "What the model attends to"),
    ],
    controls: CONTROLS,
};

/// Every URL key of the view, in the order they are written: the controls, then [`SHIPPED`].
pub const KEYS: &str =
    "task enc mask train_len test_len layers width heads steps lr seed att_enc att_layer att_head shipped";

/// A URL value that is not a control: `shipped=1` asks for the shipped run of the default
/// settings (see `super::shipped`).
pub const SHIPPED: &str = "shipped";

/// The view's controls: [`KEYS`] without [`SHIPPED`] (a slice of the same string, so the first
/// download holds it once).
pub const CONTROLS: &str =
    match std::str::from_utf8(KEYS.as_bytes().split_at(KEYS.len() - SHIPPED.len() - 1).0) {
        Ok(s) => s,
        Err(_) => panic!("KEYS ends with a space and SHIPPED"),
    };

/// A value longer than this is not a setting: it is cut (the chunk's reader then explains it).
const MAX_VALUE: usize = 200;

/// The view's URL values, as given (absent keys absent).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TrainQuery {
    pub values: Vec<(&'static str, String)>,
}

impl TrainQuery {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, _notices: &mut Notices) -> TrainQuery {
        TrainQuery {
            values: KEYS
                .split(' ')
                .filter_map(|k| get(k).map(|v| (k, v.chars().take(MAX_VALUE).collect())))
                .collect(),
        }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.extend(self.values.iter().cloned());
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<String> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_keys_are_the_controls_and_shipped() {
        assert_eq!(super::KEYS, format!("{} {}", super::CONTROLS, super::SHIPPED));
    }
}
