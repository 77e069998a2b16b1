//! The state of the Learned view (`view=learned`): which table, and how much of it.

use crate::state::params::{read_choice, IntSpec, Notices};
use crate::state::about::{panel, About};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Learned",
    panels: &[
        panel("learned-heatmap", "The learned table"),
        panel("learned-similarity", "Cosine similarity between positions"),
        panel(
            "learned-pca",
            "Positions on their top two principal components",
        ),
        panel("learned-offset", "Similarity against offset"),
    ],
    controls: "table seq_len seed rows cols file",
};

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
