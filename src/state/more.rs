//! Controls of the learned (`view=learned`), relative-bias (`view=bias`), "why position?"
//! (`view=attention`) and comparison (`view=compare`) views.

use super::params::{read_choice, read_index_list, IntSpec, Notices};

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

/// Where the learned table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TableSource {
    /// all-MiniLM-L6-v2's trained position table (shipped asset).
    #[default]
    MiniLm,
    /// Seeded N(0, 0.02²): what a table looks like before training.
    Random,
    /// A local file chosen by the user (never sent anywhere).
    File,
}

impl TableSource {
    pub const OPTIONS: [(&'static str, TableSource); 3] = [
        ("minilm", TableSource::MiniLm),
        ("random", TableSource::Random),
        ("file", TableSource::File),
    ];

    pub fn name(self) -> &'static str {
        match self {
            TableSource::MiniLm => "minilm",
            TableSource::Random => "random",
            TableSource::File => "file",
        }
    }
}

pub const LEARNED_LEN: IntSpec = IntSpec {
    name: "seq_len",
    label: "Sequence length",
    min: 1,
    max: 4096,
    // Past the 512 rows of the MiniLM table: the wall is the first thing seen.
    default: 640,
    unit: "positions",
};
pub const TABLE_ROWS: IntSpec = IntSpec {
    name: "rows",
    label: "Random table: positions",
    min: 1,
    max: 2048,
    default: 512,
    unit: "positions",
};
pub const TABLE_COLS: IntSpec = IntSpec {
    name: "cols",
    label: "Random table: width",
    min: 2,
    max: 768,
    default: 384,
    unit: "dimensions",
};
pub const LEARNED_SEED: IntSpec = IntSpec {
    name: "seed",
    label: "Seed",
    min: 0,
    max: 999_999,
    default: 0,
    unit: "",
};

/// Controls of the learned view.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedState {
    pub table: TableSource,
    pub seq_len: usize,
    pub seed: u64,
    pub rows: usize,
    pub cols: usize,
}

impl Default for LearnedState {
    fn default() -> Self {
        LearnedState {
            table: TableSource::MiniLm,
            seq_len: LEARNED_LEN.default as usize,
            seed: 0,
            rows: TABLE_ROWS.default as usize,
            cols: TABLE_COLS.default as usize,
        }
    }
}

impl LearnedState {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> LearnedState {
        LearnedState {
            table: read_choice(
                "table",
                get("table").as_deref(),
                &TableSource::OPTIONS,
                TableSource::MiniLm,
                notices,
            ),
            seq_len: LEARNED_LEN.read(get("seq_len").as_deref(), notices) as usize,
            seed: LEARNED_SEED.read(get("seed").as_deref(), notices) as u64,
            rows: TABLE_ROWS.read(get("rows").as_deref(), notices) as usize,
            cols: TABLE_COLS.read(get("cols").as_deref(), notices) as usize,
        }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("table", self.table.name().to_string()));
        out.push(("seq_len", self.seq_len.to_string()));
        if self.table == TableSource::Random {
            out.push(("seed", self.seed.to_string()));
            out.push(("rows", self.rows.to_string()));
            out.push(("cols", self.cols.to_string()));
        }
    }
}

/// The positional encoding compared against none in the permutation demo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DemoEncoding {
    #[default]
    Sinusoidal,
    Rope,
}

impl DemoEncoding {
    pub const OPTIONS: [(&'static str, DemoEncoding); 2] = [
        ("sinusoidal", DemoEncoding::Sinusoidal),
        ("rope", DemoEncoding::Rope),
    ];

    pub fn name(self) -> &'static str {
        match self {
            DemoEncoding::Sinusoidal => "sinusoidal",
            DemoEncoding::Rope => "rope",
        }
    }
}

/// Controls of the "why position?" view.
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionState {
    pub pe: DemoEncoding,
    /// `causal=1`: each token attends only to itself and the tokens before it.
    pub causal: bool,
    /// The token order: a permutation of `0..tokens`.
    pub order: Vec<usize>,
}

/// Number of tokens in the demo sentence.
pub const DEMO_TOKENS: usize = 5;

/// "the man bit the dog": the original sentence with its nouns swapped.
pub const DEMO_DEFAULT_ORDER: [usize; DEMO_TOKENS] = [0, 4, 2, 3, 1];

impl Default for AttentionState {
    fn default() -> Self {
        AttentionState {
            pe: DemoEncoding::Sinusoidal,
            causal: false,
            order: DEMO_DEFAULT_ORDER.to_vec(),
        }
    }
}

impl AttentionState {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> AttentionState {
        let pe = read_choice(
            "pe",
            get("pe").as_deref(),
            &DemoEncoding::OPTIONS,
            DemoEncoding::Sinusoidal,
            notices,
        );
        let order = match get("order") {
            None => DEMO_DEFAULT_ORDER.to_vec(),
            Some(raw) => {
                let list = read_index_list("order", &raw, DEMO_TOKENS - 1, DEMO_TOKENS, notices);
                if list.len() == DEMO_TOKENS {
                    list
                } else {
                    notices.push(
                        "order",
                        format!(
                            "must list each of 0…{} once; using the original order.",
                            DEMO_TOKENS - 1
                        ),
                    );
                    (0..DEMO_TOKENS).collect()
                }
            }
        };
        let causal = read_choice(
            "causal",
            get("causal").as_deref(),
            &[("0", false), ("1", true)],
            false,
            notices,
        );
        AttentionState { pe, causal, order }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("pe", self.pe.name().to_string()));
        if self.causal {
            out.push(("causal", "1".to_string()));
        }
        let order: Vec<String> = self.order.iter().map(|v| v.to_string()).collect();
        out.push(("order", order.join(",")));
    }
}

pub const K_MAX: IntSpec = IntSpec {
    name: "k_max",
    label: "Largest offset Δ",
    min: 1,
    max: 511,
    default: 128,
    unit: "positions",
};

/// The width (d_model, and D for RoPE) of the fixed schemes in the Compare view's similarity
/// chart (its caption says it).
pub const COMPARE_WIDTH: usize = 128;

/// Controls of the comparison view.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareState {
    pub k_max: usize,
}

impl Default for CompareState {
    fn default() -> Self {
        CompareState {
            k_max: K_MAX.default as usize,
        }
    }
}

impl CompareState {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> CompareState {
        CompareState {
            k_max: K_MAX.read(get("k_max").as_deref(), notices) as usize,
        }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("k_max", self.k_max.to_string()));
    }
}
