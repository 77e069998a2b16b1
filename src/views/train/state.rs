//! The settings of a run (`view=train`), read from and written to the URL, and what each
//! encoding is in the model ([`TrainState::config`]).

use pe_train::model::{Config, Position};
use pe_train::run::Plan;
use pe_train::task::Task;

use crate::encoding::bias::{alibi_slopes, t5_bucket};
use crate::encoding::rope::{base_inv_freq, PairLayout};
use crate::encoding::sinusoidal::{Layout, Sinusoid};
use crate::state::about::{panel, About};
use crate::state::params::{read_choice, shorten, FloatSpec, IntSpec, Notices};

/// This view in the registry: its title, panels and controls.
pub const ABOUT: About = About {
    title: "Train it yourself",
    panels: &[
        panel("train-setup", "Setup and run"),
        panel("train-loss", "Learning curves"),
        panel("train-length", "Length generalization"),
        panel("train-attention", "What the model attends to"),
    ],
    controls: "task enc mask train_len test_len layers width heads steps lr seed",
};

/// An encoding the model can be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Enc {
    Nope,
    Sinusoidal,
    Learned,
    Rope,
    Alibi,
    T5,
}

impl Enc {
    pub const ALL: [Enc; 6] = [
        Enc::Nope,
        Enc::Sinusoidal,
        Enc::Learned,
        Enc::Rope,
        Enc::Alibi,
        Enc::T5,
    ];

    /// The URL name, also the CSV columns' prefix.
    pub fn name(self) -> &'static str {
        match self {
            Enc::Nope => "nope",
            Enc::Sinusoidal => "sinusoidal",
            Enc::Learned => "learned",
            Enc::Rope => "rope",
            Enc::Alibi => "alibi",
            Enc::T5 => "t5",
        }
    }

    /// The name a student reads.
    pub fn label(self) -> &'static str {
        match self {
            Enc::Nope => "NoPE",
            Enc::Sinusoidal => "sinusoidal",
            Enc::Learned => "learned",
            Enc::Rope => "RoPE",
            Enc::Alibi => "ALiBi",
            Enc::T5 => "T5 bias",
        }
    }

    pub fn from_name(name: &str) -> Option<Enc> {
        Enc::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// A task's name as the setup lists it.
pub fn task_label(task: Task) -> &'static str {
    match task {
        Task::Order => "Which came first? (order only)",
        Task::Offset => "Repeat the token 2 back (relative)",
        Task::Copy => "Copy after a separator (Kazemnejad et al.)",
    }
}

pub const TRAIN_LEN: IntSpec = IntSpec {
    name: "train_len",
    label: "Training length",
    min: 4,
    max: 32,
    default: 16,
    unit: "tokens",
};
/// Its bounds follow the training length: `train_len..=4·train_len`.
pub const TEST_LEN: IntSpec = IntSpec {
    name: "test_len",
    label: "Longest test length",
    min: 4,
    max: 128,
    default: 64,
    unit: "tokens",
};
pub const LAYERS: IntSpec = IntSpec {
    name: "layers",
    label: "Layers",
    min: 1,
    max: 3,
    default: 2,
    unit: "layers",
};
/// A multiple of 8, so every head count divides it into an even head size (RoPE's pairs).
pub const WIDTH: IntSpec = IntSpec {
    name: "width",
    label: "Width",
    min: 8,
    max: 64,
    default: 32,
    unit: "dims",
};
pub const HEADS: IntSpec = IntSpec {
    name: "heads",
    label: "Heads",
    min: 1,
    max: 4,
    default: 2,
    unit: "heads",
};
pub const STEPS: IntSpec = IntSpec {
    name: "steps",
    label: "Training steps",
    min: 20,
    max: 2000,
    default: 400,
    unit: "steps",
};
pub const LR: FloatSpec = FloatSpec {
    name: "lr",
    label: "Learning rate",
    min: 1e-4,
    max: 0.1,
    default: 3e-3,
    log: true,
    unit: "",
};
pub const SEED: IntSpec = IntSpec {
    name: "seed",
    label: "Seed",
    min: 0,
    max: 999_999,
    default: 1,
    unit: "",
};

/// Sequences per training batch.
pub const BATCH: usize = 32;
/// The MLP's hidden size, per unit of width.
pub const MLP_RATIO: usize = 2;
/// RoPE's base, and the sinusoid's.
pub const BASE: f64 = 10_000.0;
/// T5's defaults (transformers' `T5Config`): 32 buckets, max_distance 128.
pub const T5_BUCKETS: u32 = 32;
pub const T5_MAX_DISTANCE: u32 = 128;

/// The settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    pub task: Task,
    /// The encodings compared, in [`Enc::ALL`]'s order, at least one.
    pub encs: Vec<Enc>,
    pub causal: bool,
    pub train_len: usize,
    pub test_len: usize,
    pub layers: usize,
    pub width: usize,
    pub heads: usize,
    pub steps: usize,
    pub lr: f64,
    pub seed: u64,
}

impl Default for TrainState {
    fn default() -> Self {
        TrainState {
            task: Task::Order,
            encs: Enc::ALL.to_vec(),
            causal: false,
            train_len: TRAIN_LEN.default as usize,
            test_len: TEST_LEN.default as usize,
            layers: LAYERS.default as usize,
            width: WIDTH.default as usize,
            heads: HEADS.default as usize,
            steps: STEPS.default as usize,
            lr: LR.default,
            seed: SEED.default as u64,
        }
    }
}

/// Reads `enc=` (comma list): unknown names dropped with a notice, none left gives all six.
fn read_encs(raw: Option<&str>, notices: &mut Notices) -> Vec<Enc> {
    let Some(raw) = raw else {
        return Enc::ALL.to_vec();
    };
    let mut out = Vec::new();
    let mut dropped = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()).take(64) {
        match Enc::from_name(&part.to_ascii_lowercase()) {
            Some(e) if !out.contains(&e) => out.push(e),
            Some(_) => {}
            None => dropped.push(shorten(part, 16)),
        }
    }
    out.sort();
    let names = Enc::ALL.map(Enc::name).join(", ");
    if out.is_empty() {
        notices.push(
            "enc",
            format!("no encoding named there (the names are {names}); comparing all six."),
        );
        return Enc::ALL.to_vec();
    }
    if !dropped.is_empty() {
        notices.push(
            "enc",
            format!("dropped {} (the names are {names}).", dropped.join(", ")),
        );
    }
    out
}

impl TrainState {
    pub fn read(get: &dyn Fn(&str) -> Option<String>, notices: &mut Notices) -> TrainState {
        let task = read_choice(
            "task",
            get("task").as_deref(),
            &Task::ALL.map(|t| (t.name(), t)),
            Task::Order,
            notices,
        );
        let causal = read_choice(
            "mask",
            get("mask").as_deref(),
            &[("causal", true), ("bidirectional", false)],
            false,
            notices,
        );
        let train_len = TRAIN_LEN.read(get("train_len").as_deref(), notices) as usize;
        let test_len = IntSpec {
            min: train_len as i64,
            max: 4 * train_len as i64,
            default: 4 * train_len as i64,
            ..TEST_LEN
        }
        .read(get("test_len").as_deref(), notices) as usize;
        let width = WIDTH.read(get("width").as_deref(), notices) as usize;
        let snapped = (width.div_ceil(8) * 8).min(WIDTH.max as usize);
        if snapped != width {
            notices.push(
                "width",
                format!("Width must be a multiple of 8 (each head's size must be even for RoPE); {width} became {snapped}."),
            );
        }
        let heads = HEADS.read(get("heads").as_deref(), notices) as usize;
        // 1, 2 or 4 heads divide every multiple of 8; 3 does not.
        let heads_ok = if heads == 3 { 2 } else { heads };
        if heads_ok != heads {
            notices.push(
                "heads",
                "Heads must divide the width into even head sizes: 1, 2 or 4; 3 became 2.".into(),
            );
        }
        TrainState {
            task,
            encs: read_encs(get("enc").as_deref(), notices),
            causal,
            train_len,
            test_len,
            layers: LAYERS.read(get("layers").as_deref(), notices) as usize,
            width: snapped,
            heads: heads_ok,
            steps: STEPS.read(get("steps").as_deref(), notices) as usize,
            lr: LR.read(get("lr").as_deref(), notices),
            seed: SEED.read(get("seed").as_deref(), notices) as u64,
        }
    }

    pub fn write(&self, out: &mut Vec<(&'static str, String)>) {
        out.push(("task", self.task.name().into()));
        let encs: Vec<&str> = self.encs.iter().map(|e| e.name()).collect();
        out.push(("enc", encs.join(",")));
        out.push((
            "mask",
            if self.causal { "causal" } else { "bidirectional" }.into(),
        ));
        out.push(("train_len", self.train_len.to_string()));
        out.push(("test_len", self.test_len.to_string()));
        out.push(("layers", self.layers.to_string()));
        out.push(("width", self.width.to_string()));
        out.push(("heads", self.heads.to_string()));
        out.push(("steps", self.steps.to_string()));
        out.push(("lr", self.lr.to_string()));
        out.push(("seed", self.seed.to_string()));
    }

    /// What every encoding's training shares.
    pub fn plan(&self) -> Plan {
        Plan {
            task: self.task,
            train_len: self.train_len,
            steps: self.steps,
            batch: BATCH,
            lr: self.lr,
            seed: self.seed,
        }
    }

    /// The model for `enc`: same shape and mask for every encoding, only the encoding differs.
    ///
    /// - sinusoidal: the sinusoid (`sin` on even columns, `cos` on odd, base 10,000) added to
    ///   the token embeddings, rows for every test length;
    /// - learned: a table of `train_len` rows, trained with the rest;
    /// - RoPE: base 10,000, `rotate_half` pairs, every dim of each head rotated;
    /// - ALiBi: the slopes of BLOOM for the head count, `−m·|i − j|` (with a bidirectional
    ///   mask, the same bias on both sides);
    /// - T5: 32 buckets, max_distance 128, bidirectional buckets with a bidirectional mask, a
    ///   learned bias per head and bucket shared by the layers, as T5 shares it.
    pub fn config(&self, enc: Enc) -> Config {
        let (d, heads) = (self.width, self.heads);
        let rows = self.test_len.max(self.train_len);
        let position = match enc {
            Enc::Nope => Position::None,
            Enc::Sinusoidal => {
                let s = Sinusoid::new(d, BASE, Layout::Interleaved);
                let mut table = vec![0.0; rows * d];
                for (pos, row) in table.chunks_mut(d).enumerate() {
                    s.fill_row(pos, row);
                }
                Position::Fixed { table }
            }
            Enc::Learned => Position::Learned {
                rows: self.train_len,
            },
            Enc::Rope => {
                let hd = d / heads;
                let pairs = base_inv_freq(BASE, hd)
                    .into_iter()
                    .enumerate()
                    .map(|(j, f)| {
                        let (a, b) = PairLayout::Half.dims(j, hd);
                        (a, b, f)
                    })
                    .collect();
                Position::Rope { pairs }
            }
            Enc::Alibi => Position::Alibi {
                slopes: alibi_slopes(heads),
            },
            Enc::T5 => {
                let span = rows - 1;
                let bucket_of = (0..=2 * span)
                    .map(|r| {
                        t5_bucket(
                            r as i64 - span as i64,
                            !self.causal,
                            T5_BUCKETS,
                            T5_MAX_DISTANCE,
                        )
                    })
                    .collect();
                Position::T5 {
                    buckets: T5_BUCKETS as usize,
                    bucket_of,
                    span,
                }
            }
        };
        Config {
            vocab: self.task.vocab(),
            width: d,
            heads,
            layers: self.layers,
            hidden: MLP_RATIO * d,
            causal: self.causal,
            position,
        }
    }

    /// The lengths every encoding is tested at: sixteen steps up to the longest test length,
    /// and the training length itself.
    pub fn test_lens(&self) -> Vec<usize> {
        let mut lens: Vec<usize> = (1..=16)
            .map(|i| (i * self.test_len).div_ceil(16))
            .chain([self.train_len])
            .filter(|&l| l >= self.task.min_len())
            .collect();
        lens.sort();
        lens.dedup();
        lens
    }
}
