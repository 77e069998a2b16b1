//! The settings of a run (`view=train`), read from the URL's values (kept as they came by
//! [`super::state::TrainQuery`]) and written back, and what each encoding is in the model
//! ([`TrainState::config`]); the run's CSVs and sentences. Used by the view's chunk and the
//! native tests, not by the first download.

use pe_train::model::{Config, Position};
use pe_train::run::{Plan, Session, Trainer, TEST_COUNT};
use pe_train::task::Task;

use crate::encoding::bias::{alibi_slopes, t5_bucket};
use crate::encoding::rope::{base_inv_freq_by, PairLayout};
use crate::encoding::sinusoidal::{column_role, omega_by, pair_count, ColumnKind, Layout};
use crate::encoding::json::Json;
use crate::export::csv;
use crate::format::sig;
use super::state::TrainQuery;
use crate::state::params::{read_choice, shorten, FloatSpec, IntSpec, Notices};


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
        Task::Order => "Which came first? (the answer depends only on the order)",
        Task::Offset => "Repeat the token 2 back (a relative rule)",
        Task::Copy => "Copy after a separator (after Kazemnejad et al.)",
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
pub const ATT_LAYER: IntSpec = IntSpec {
    name: "att_layer",
    label: "Layer shown",
    min: 0,
    max: 2,
    default: 1,
    unit: "",
};
pub const ATT_HEAD: IntSpec = IntSpec {
    name: "att_head",
    label: "Head shown",
    min: 0,
    max: 3,
    default: 0,
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
    /// The attention map shown: encoding, layer and head (display only: not part of a run).
    pub att_enc: Enc,
    pub att_layer: usize,
    pub att_head: usize,
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
            att_enc: Enc::Rope,
            att_layer: LAYERS.default as usize - 1,
            att_head: 0,
        }
    }
}

/// Reads `enc=` (comma list): unknown names dropped with a notice, none left gives all six.
fn read_encs(raw: Option<&str>, notices: &mut Notices) -> Vec<Enc> {
    let Some(raw) = raw else {
        return Enc::ALL.to_vec();
    };
    let mut chosen = [false; 6];
    let mut dropped = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()).take(64) {
        match Enc::ALL.iter().position(|e| e.name() == part.to_ascii_lowercase()) {
            Some(i) => chosen[i] = true,
            None => dropped.push(shorten(part, 16)),
        }
    }
    // In the order of `Enc::ALL`, whatever the URL's order.
    let out: Vec<Enc> = Enc::ALL
        .into_iter()
        .zip(chosen)
        .filter_map(|(e, on)| on.then_some(e))
        .collect();
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
        let layers = LAYERS.read(get("layers").as_deref(), notices) as usize;
        let att_enc = read_choice(
            "att_enc",
            get("att_enc").as_deref(),
            &Enc::ALL.map(|e| (e.name(), e)),
            Enc::Rope,
            notices,
        );
        let att_layer = IntSpec {
            max: layers as i64 - 1,
            default: layers as i64 - 1,
            ..ATT_LAYER
        }
        .read(get("att_layer").as_deref(), notices) as usize;
        let att_head = IntSpec {
            max: heads_ok as i64 - 1,
            ..ATT_HEAD
        }
        .read(get("att_head").as_deref(), notices) as usize;
        TrainState {
            task,
            encs: read_encs(get("enc").as_deref(), notices),
            causal,
            train_len,
            test_len,
            layers,
            width: snapped,
            heads: heads_ok,
            steps: STEPS.read(get("steps").as_deref(), notices) as usize,
            lr: LR.read(get("lr").as_deref(), notices),
            seed: SEED.read(get("seed").as_deref(), notices) as u64,
            att_enc,
            att_layer,
            att_head,
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
        out.push(("att_enc", self.att_enc.name().into()));
        out.push(("att_layer", self.att_layer.to_string()));
        out.push(("att_head", self.att_head.to_string()));
    }

    /// The settings the URL's values give, clamped (what was adjusted goes to `notices`).
    pub fn from_query(query: &TrainQuery, notices: &mut Notices) -> TrainState {
        TrainState::read(&|k| query.get(k), notices)
    }

    /// These settings as URL values, every key written.
    pub fn to_query(&self) -> TrainQuery {
        let mut values = Vec::new();
        self.write(&mut values);
        TrainQuery { values }
    }

    /// The settings that make a run (without what only chooses the map shown).
    pub fn run_key(&self) -> TrainState {
        TrainState {
            att_enc: Enc::Rope,
            att_layer: 0,
            att_head: 0,
            ..self.clone()
        }
    }

    /// The layer and head shown, within the model's.
    pub fn shown_layer_head(&self) -> (usize, usize) {
        (
            self.att_layer.min(self.layers - 1),
            self.att_head.min(self.heads - 1),
        )
    }

    /// The two lengths of the attention maps: the training length, and twice it (within the
    /// longest test length).
    pub fn attention_lens(&self) -> [usize; 2] {
        [self.train_len, (2 * self.train_len).min(self.test_len)]
    }

    /// The run of these settings: every chosen encoding, trained and tested.
    pub fn session(&self) -> Session {
        let trainers = self
            .encs
            .iter()
            .map(|&e| Trainer::new(self.plan(), self.config(e)))
            .collect();
        Session::new(trainers, self.test_lens(), self.attention_lens())
    }

    /// Multiply-adds the run of these settings takes (for the time it will take; without
    /// making its models).
    pub fn cost(&self) -> f64 {
        let cfgs: Vec<Config> = self.encs.iter().map(|&e| self.config(e)).collect();
        let refs: Vec<&Config> = cfgs.iter().collect();
        pe_train::run::cost_of(&self.plan(), &refs, &self.test_lens())
    }

    /// The settings as JSON (the run's "settings" export): every URL key, and what is fixed.
    pub fn settings_json(&self) -> String {
        let mut fields: Vec<(String, Json)> = Vec::new();
        let mut pairs = Vec::new();
        self.run_key().write(&mut pairs);
        for (k, v) in pairs.into_iter().filter(|(k, _)| !k.starts_with("att_")) {
            let value = match k {
                "task" | "mask" => Json::String(v),
                "enc" => Json::Array(v.split(',').map(|e| Json::String(e.into())).collect()),
                _ => Json::Number(v.parse().unwrap_or(f64::NAN)),
            };
            fields.push((k.to_string(), value));
        }
        let fixed = [
            ("batch", BATCH as f64),
            ("mlp_hidden", (MLP_RATIO * self.width) as f64),
            ("base", BASE),
            ("t5_buckets", f64::from(T5_BUCKETS)),
            ("t5_max_distance", f64::from(T5_MAX_DISTANCE)),
            ("adamw_beta1", 0.9),
            ("adamw_beta2", 0.999),
            ("adamw_eps", 1e-8),
            ("adamw_weight_decay", 0.01),
            ("test_sequences_per_length", TEST_COUNT as f64),
        ];
        fields.extend(fixed.map(|(k, v)| (k.to_string(), Json::Number(v))));
        let lens = self.test_lens().iter().map(|&l| Json::Number(l as f64)).collect();
        fields.push(("test_lengths".into(), Json::Array(lens)));
        Json::Object(fields).to_text(true)
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
                // The app's sinusoid, with its powers, sines and cosines taken by `libm` (as
                // the model's own are): the same table natively and in the browser.
                let omegas: Vec<f64> = (0..pair_count(d))
                    .map(|i| omega_by(i, d, BASE, pe_train::libm::pow))
                    .collect();
                let mut table = vec![0.0; rows * d];
                for (pos, row) in table.chunks_mut(d).enumerate() {
                    for (col, cell) in row.iter_mut().enumerate() {
                        let (i, kind) = column_role(col, d, Layout::Interleaved);
                        let angle = pos as f64 * omegas[i];
                        *cell = match kind {
                            ColumnKind::Sin => pe_train::libm::sin(angle),
                            ColumnKind::Cos => pe_train::libm::cos(angle),
                        };
                    }
                }
                Position::Fixed { table }
            }
            Enc::Learned => Position::Learned {
                rows: self.train_len,
            },
            Enc::Rope => {
                let hd = d / heads;
                let pairs = base_inv_freq_by(BASE, hd, pe_train::libm::pow)
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

/// An accuracy as a student reads it: "100 %", "97.3 %", "50 %".
pub fn percent(accuracy: f64) -> String {
    format!("{} %", sig(100.0 * accuracy, 3))
}

/// The CSV of the learning curves: `step,<enc>_loss,<enc>_acc,…`, one row per step taken
/// (empty where an encoding has not reached that step).
pub fn loss_csv(encs: &[Enc], session: &Session) -> String {
    let mut names = vec!["step".to_string()];
    for e in encs {
        names.push(format!("{}_loss", e.name()));
        names.push(format!("{}_acc", e.name()));
    }
    let mut out = csv::header(&names);
    let rows = session.trainers.iter().map(|t| t.history.len()).max().unwrap_or(0);
    for step in 0..rows {
        out.push_str(&(step + 1).to_string());
        for t in &session.trainers {
            match t.history.get(step) {
                Some(s) => {
                    out.push(',');
                    csv::push_number(&mut out, s.loss);
                    out.push(',');
                    csv::push_number(&mut out, s.accuracy);
                }
                None => out.push_str(",,"),
            }
        }
        out.push('\n');
    }
    out
}

/// The CSV of length generalization: `length,<enc>,…`, accuracy in 0–1, empty where an
/// encoding has no positions (or was not tested).
pub fn length_csv(encs: &[Enc], session: &Session) -> String {
    let mut names = vec!["length".to_string()];
    names.extend(encs.iter().map(|e| e.name().to_string()));
    let mut out = csv::header(&names);
    for (li, len) in session.lens.iter().enumerate() {
        out.push_str(&len.to_string());
        for scores in &session.length_scores {
            out.push(',');
            if let Some(Some(s)) = scores.get(li) {
                csv::push_number(&mut out, s.accuracy);
            }
        }
        out.push('\n');
    }
    out
}

/// The test accuracy of trainer `i` at `len`, once tested.
fn accuracy_at(session: &Session, i: usize, len: usize) -> Option<Option<f64>> {
    let li = session.lens.iter().position(|&l| l == len)?;
    let s = session.length_scores.get(i)?.get(li)?;
    Some(s.map(|s| s.accuracy))
}

/// What a finished run shows, in sentences computed from it: per encoding, the accuracy at
/// the training length and at the longest test length; why bidirectional NoPE cannot learn
/// the order task (or why causal NoPE can); and the run against the paper's setup.
pub fn run_summary(state: &TrainState, session: &Session) -> Vec<String> {
    let (lt, lmax) = (state.train_len, state.test_len);
    let mut lines = Vec::new();
    for (i, &enc) in state.encs.iter().enumerate() {
        let (Some(Some(inside)), Some(outside)) =
            (accuracy_at(session, i, lt), accuracy_at(session, i, lmax))
        else {
            continue;
        };
        let mut line = match outside {
            Some(out) if lmax > lt => format!(
                "{}: {} at length {lt}, {} at {lmax}.",
                enc.label(),
                percent(inside),
                percent(out)
            ),
            Some(_) => format!("{}: {} at length {lt}.", enc.label(), percent(inside)),
            None => format!(
                "{}: {} at length {lt}; no vectors past position {}, so nothing to test at longer lengths.",
                enc.label(),
                percent(inside),
                lt - 1
            ),
        };
        if enc == Enc::Nope && state.task == Task::Order {
            line.push_str(match (state.causal, state.layers) {
                (false, _) => " With a bidirectional mask and no positions, attention sees a bag of tokens: a sequence and its twin with A and B swapped are the same bag with opposite answers, so however it is trained it gets at most one of each twin pair right: at most 50 %, loss at least ln 2 ≈ 0.693.",
                (true, 1) => " With a causal mask but one layer, the answer at ? still comes from a bag of token embeddings: at most 50 %. A second layer can read what the first found (see the Why position? view's causal toggle).",
                (true, _) => " With a causal mask and two layers or more, no positions are needed: the later of A and B can see the other and the earlier cannot, and a second layer lets ? read that (see the Why position? view's causal toggle).",
            });
        }
        lines.push(line);
    }
    let nope = state.config(Enc::Nope);
    let count = pe_train::model::Params::init(&nope, 0).count();
    let lo = state.task.min_len();
    lines.push(format!(
        "Accuracy is over {TEST_COUNT} test sequences per length (on the order task one answer is {} of a length's score): try another seed to see how much a result moves. On the order task, below 50 % means answers that are wrong or not answers at all.",
        percent(1.0 / TEST_COUNT as f64),
    ));
    lines.push(format!(
        "A toy: {} learned numbers per model (NoPE's count; the learned table adds {}, T5 {}), {} steps of {BATCH} sequences of {lo} to {lt} tokens. Kazemnejad et al. (2023) trained decoder-only models of about 107M parameters, with a causal mask (this run: {}), on lengths up to 20, tested up to 40, and counted a sequence right only if every answer was; they found NoPE generalised best. A toy's ranking can differ from theirs: this text describes this run only.",
        crate::format::grouped(count as u64),
        crate::format::grouped((state.train_len * state.width) as u64),
        crate::format::grouped((state.heads * T5_BUCKETS as usize) as u64),
        state.steps,
        if state.causal { "causal" } else { "bidirectional" },
    ));
    lines
}
