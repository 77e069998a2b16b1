//! The state of the Relative biases view (`view=bias`): ALiBi and T5.

use crate::encoding::bias::{t5_bucket, t5_bucket_spans};
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

    /// The line under the T5 chart: how many distances each bucket holds at this state,
    /// counted by [`t5_bucket_spans`].
    pub fn t5_counts(&self) -> String {
        // Distances below max_exact get a bucket each; the log buckets need max_distance
        // above it (at or below it the log ratio is infinite, NaN or negative).
        let half = if self.bidirectional {
            self.buckets / 2
        } else {
            self.buckets
        };
        let max_exact = half / 2;
        if max_exact == 0 {
            return format!(
                "With one bucket per side, T5's rule divides by its number of exactly bucketed distances, 0 (transformers raises an error); this chart puts every key at or before the query in bucket 0 and every key after it in bucket {half}."
            );
        }
        if self.max_distance <= max_exact {
            return format!(
                "Here max_distance ({}) is not above {max_exact}, the number of distances bucketed one by one (0 to {}): T5's logarithmic buckets are undefined (transformers would compute invalid bucket numbers, an index error), and this chart clamps them into each side's buckets. Choose a max_distance above {max_exact}.",
                self.max_distance,
                max_exact - 1,
            );
        }
        let s = t5_bucket_spans(self.bidirectional, self.buckets, self.max_distance);
        let exact = s.sizes.iter().take_while(|&&n| n == 1).count();
        let mut parts = Vec::new();
        match exact {
            0 => {}
            1 => parts.push("distance 0 gets bucket 0".to_string()),
            n => parts.push(format!("distances 0 to {} get a bucket each", n - 1)),
        }
        let rest = &s.sizes[exact..];
        const SHOWN: usize = 10;
        let mut list: Vec<String> = rest.iter().take(SHOWN).map(u64::to_string).collect();
        if rest.len() > SHOWN {
            list.push("…".into());
        }
        let empty = if rest.contains(&0) {
            " (a 0 is a bucket no whole distance falls in)"
        } else {
            ""
        };
        match rest.len() {
            0 => {}
            1 => parts.push(format!("bucket {exact} holds {} distances", rest[0])),
            n => parts.push(format!(
                "buckets {exact} to {} hold {} distances{empty}",
                exact + n - 1,
                list.join(", ")
            )),
        }
        parts.push(format!(
            "bucket {} holds every distance from {} on",
            s.last, s.last_from
        ));
        let after = if self.bidirectional {
            // A key after the query is at distance 1 or more: bucket `half + bucket(1)` is the
            // first it can get (`half` itself, distance 0, never is).
            let bucket = |d: i64| t5_bucket(d, true, self.buckets, self.max_distance);
            let (first, last) = (bucket(1), bucket(2 * i64::from(self.max_distance) + 2));
            if first == last {
                format!(" Keys after the query all get bucket {first}.")
            } else {
                format!(
                    " Keys after the query get buckets {first} to {last} by the same rule, from distance 1."
                )
            }
        } else {
            String::new()
        };
        format!(
            "Here, for keys at or before the query (distance m − n ≥ 0, the left half of the chart): {}.{after}",
            parts.join("; ")
        )
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_t5_line_counts_the_buckets_shown() {
        let s = BiasState::default();
        assert_eq!(
            s.t5_counts(),
            "Here, for keys at or before the query (distance m − n ≥ 0, the left half of the chart): distances 0 to 7 get a bucket each; buckets 8 to 14 hold 4, 4, 7, 9, 14, 18, 27 distances; bucket 15 holds every distance from 91 on. Keys after the query get buckets 17 to 31 by the same rule, from distance 1."
        );
        let causal = BiasState {
            bidirectional: false,
            ..BiasState::default()
        };
        assert!(causal.t5_counts().ends_with("bucket 31 holds every distance from 113 on."));
        let small = BiasState {
            max_distance: 8,
            ..BiasState::default()
        };
        assert!(small
            .t5_counts()
            .contains("is not above 8, the number of distances bucketed one by one (0 to 7)"));
        let tiny = BiasState {
            buckets: 3,
            ..BiasState::default()
        };
        assert!(tiny.t5_counts().starts_with("With one bucket per side"));
        let edge = BiasState {
            max_distance: 9,
            ..BiasState::default()
        };
        assert!(edge.t5_counts().contains("bucket 15 holds every distance from 9 on"));
        for (buckets, max_distance) in [(2, 1), (3, 1), (256, 1), (256, 4096), (2, 4096)] {
            for bidirectional in [true, false] {
                let line = BiasState {
                    buckets,
                    max_distance,
                    bidirectional,
                    ..BiasState::default()
                }
                .t5_counts();
                assert!(line.len() < 400, "{line}");
            }
        }
    }
}
