//! The state of the Relative biases view (`view=bias`): ALiBi and T5.

use crate::state::params::{read_choice, IntSpec, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Relative biases",
    panels: &[
        panel("alibi-slopes", "ALiBi slope per head"),
        panel("alibi-bias", "ALiBi bias matrix of one head"),
        panel("t5-buckets", "T5 relative-position buckets"),
    ],
    controls: "heads head seq_len buckets max_distance bidirectional",
};

pub const HEADS: IntSpec = IntSpec {
    name: "heads",
    label: "Heads",
    min: 1,
    max: 128,
    default: 8,
    unit: "heads",
};
pub const HEAD: IntSpec = IntSpec {
    name: "head",
    label: "Head shown",
    min: 0,
    max: 127,
    default: 0,
    unit: "",
};
pub const BIAS_LEN: IntSpec = IntSpec {
    name: "seq_len",
    label: "Sequence length",
    min: 1,
    max: 512,
    default: 24,
    unit: "positions",
};
pub const BUCKETS: IntSpec = IntSpec {
    name: "buckets",
    label: "T5 buckets",
    min: 2,
    max: 256,
    default: 32,
    unit: "buckets",
};
pub const MAX_DISTANCE: IntSpec = IntSpec {
    name: "max_distance",
    label: "T5 max_distance",
    min: 1,
    max: 4096,
    default: 128,
    unit: "positions",
};

/// Controls of the relative-bias view.
#[derive(Clone, Debug, PartialEq)]
pub struct BiasState {
    pub heads: usize,
    pub head: usize,
    pub seq_len: usize,
    pub buckets: u32,
    pub max_distance: u32,
    pub bidirectional: bool,
}

impl Default for BiasState {
    fn default() -> Self {
        BiasState {
            heads: HEADS.default as usize,
            head: 0,
            seq_len: BIAS_LEN.default as usize,
            buckets: BUCKETS.default as u32,
            max_distance: MAX_DISTANCE.default as u32,
            bidirectional: true,
        }
    }
}

impl BiasState {
    /// The head shown, within the head count.
    pub fn head_in_range(&self) -> usize {
        self.head.min(self.heads - 1)
    }

    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> BiasState {
        let heads = HEADS.read(get("heads").as_deref(), notices) as usize;
        let head = IntSpec {
            max: heads as i64 - 1,
            ..HEAD
        }
        .read(get("head").as_deref(), notices) as usize;
        BiasState {
            heads,
            head,
            seq_len: BIAS_LEN.read(get("seq_len").as_deref(), notices) as usize,
            buckets: BUCKETS.read(get("buckets").as_deref(), notices) as u32,
            max_distance: MAX_DISTANCE.read(get("max_distance").as_deref(), notices) as u32,
            bidirectional: read_choice(
                "bidirectional",
                get("bidirectional").as_deref(),
                &[("true", true), ("false", false), ("1", true), ("0", false)],
                true,
                notices,
            ),
        }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("heads", self.heads.to_string()));
        out.push(("head", self.head.to_string()));
        out.push(("seq_len", self.seq_len.to_string()));
        out.push(("buckets", self.buckets.to_string()));
        out.push(("max_distance", self.max_distance.to_string()));
        out.push(("bidirectional", self.bidirectional.to_string()));
    }
}
