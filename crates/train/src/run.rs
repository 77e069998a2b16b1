//! Training runs, one sequence at a time, so that the page can train in slices between frames
//! and stay alive; the test sets every encoding is scored on; a [`Session`] that trains and
//! tests several encodings in a fixed order (so the result does not depend on where slices
//! end: the same settings give the same run, bit for bit).

use crate::model::{accumulate, finish, forward, step_cost, tally, Config, Params, Score, Trace};
use crate::optim::AdamW;
use crate::rng::Rng;
use crate::task::{Example, Task};

/// What every encoding of a run shares.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub task: Task,
    /// Training sequences are `task.min_len()..=train_len` tokens long, one length per batch.
    pub train_len: usize,
    pub steps: usize,
    pub batch: usize,
    pub lr: f64,
    pub seed: u64,
}

/// Sequences per length in a test set.
pub const TEST_COUNT: usize = 64;

/// The test set at `len`: the same for every encoding of a seed.
pub fn test_set(task: Task, len: usize, seed: u64) -> Vec<Example> {
    let mut rng = Rng::stream(seed, 1_000 + len as u64);
    task.batch(len, TEST_COUNT, &mut rng)
}

/// Multiply-adds a session of `plan` with models `cfgs` takes, tested at `lens` (an
/// estimate, for the time it will take).
pub fn cost_of(plan: &Plan, cfgs: &[&Config], lens: &[usize]) -> f64 {
    let lo = plan.task.min_len();
    let mean_len = (lo + plan.train_len.max(lo)) / 2;
    let mut total = 0.0;
    for cfg in cfgs {
        total += step_cost(cfg, plan.batch * mean_len, mean_len) * plan.steps as f64;
        for &len in lens {
            if cfg.max_len().is_none_or(|max| len <= max) {
                total += step_cost(cfg, TEST_COUNT * len, len) / 3.0;
            }
        }
    }
    total
}

/// A step under way: its batch, and the sums so far.
#[derive(Clone, Debug)]
struct Pending {
    batch: Vec<Example>,
    next: usize,
    targets: usize,
    grad: Params,
    loss: f64,
    right: usize,
}

/// The training of one encoding.
#[derive(Clone, Debug)]
pub struct Trainer {
    pub cfg: Config,
    pub params: Params,
    opt: AdamW,
    data: Rng,
    pub plan: Plan,
    /// Steps taken.
    pub step: usize,
    /// Each step's training batch, scored before its update.
    pub history: Vec<Score>,
    pending: Option<Pending>,
}

impl Trainer {
    /// Weights from `plan.seed`; batches from `plan.seed` too, the same for every encoding.
    pub fn new(plan: Plan, cfg: Config) -> Trainer {
        let params = Params::init(&cfg, plan.seed);
        let opt = AdamW::new(&params, plan.lr);
        Trainer {
            cfg,
            params,
            opt,
            data: Rng::stream(plan.seed, 3),
            step: 0,
            history: Vec::with_capacity(plan.steps),
            plan,
            pending: None,
        }
    }

    /// A trainer that has finished: its trained `params` and each step's score (`history`,
    /// one per step of `plan`), as a run saved earlier left them. It trains no further.
    pub fn restored(plan: Plan, cfg: Config, params: Params, history: Vec<Score>) -> Trainer {
        let mut t = Trainer::new(plan, cfg);
        t.params = params;
        t.step = t.plan.steps;
        t.history = history;
        t
    }

    pub fn done(&self) -> bool {
        self.step >= self.plan.steps
    }

    /// The next training batch.
    fn next_batch(&mut self) -> Vec<Example> {
        let task = self.plan.task;
        let lo = task.min_len();
        let hi = self.plan.train_len.max(lo);
        let len = lo + self.data.below(hi - lo + 1);
        task.batch(len, self.plan.batch, &mut self.data)
    }

    /// One sequence of the current step (forward and backward); after the batch's last, the
    /// AdamW update. Returns the step's score when this call finished a step.
    pub fn work_one(&mut self) -> Option<Score> {
        if self.done() {
            return None;
        }
        let mut p = match self.pending.take() {
            Some(p) => p,
            None => {
                let batch = self.next_batch();
                let targets = batch
                    .iter()
                    .map(|e| e.targets.iter().flatten().count())
                    .sum();
                Pending {
                    batch,
                    next: 0,
                    targets,
                    grad: self.params.zeros_like(),
                    loss: 0.0,
                    right: 0,
                }
            }
        };
        let weight = 1.0 / p.targets.max(1) as f64;
        let ex = &p.batch[p.next];
        accumulate(
            &self.cfg,
            &self.params,
            ex,
            weight,
            &mut p.grad,
            &mut p.loss,
            &mut p.right,
        );
        p.next += 1;
        if p.next < p.batch.len() {
            self.pending = Some(p);
            return None;
        }
        self.opt.step(&mut self.params, &p.grad);
        self.step += 1;
        let score = finish(p.loss, p.right, p.targets);
        self.history.push(score);
        Some(score)
    }

    /// One whole step of AdamW on the next batch; returns the batch's score before the update.
    pub fn train_step(&mut self) -> Score {
        loop {
            if let Some(s) = self.work_one() {
                return s;
            }
            if self.done() {
                return Score::default();
            }
        }
    }

    /// Whether the encoding has positions for `len` tokens.
    pub fn fits(&self, len: usize) -> bool {
        self.cfg.max_len().is_none_or(|max| len <= max)
    }

    /// Accuracy on the test set of each length; `None` where the encoding has no positions
    /// for that length (a learned table past its last row).
    pub fn length_scores(&self, lens: &[usize]) -> Vec<Option<Score>> {
        lens.iter()
            .map(|&len| {
                self.fits(len).then(|| {
                    let set = test_set(self.plan.task, len, self.plan.seed);
                    crate::model::evaluate(&self.cfg, &self.params, &set)
                })
            })
            .collect()
    }
}

/// Where a session stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Training,
    Testing,
    Done,
}

/// Several encodings trained on the same batches, a step each in turn, then each tested at
/// every length, then each traced on one test input inside and one outside training.
#[derive(Clone, Debug)]
pub struct Session {
    pub trainers: Vec<Trainer>,
    pub lens: Vec<usize>,
    /// Per trainer, per length: the test score (`None`: no positions at that length).
    pub length_scores: Vec<Vec<Option<Score>>>,
    /// Per trainer: forward traces of the first test sequence at `attention_lens`
    /// (`None` where the encoding has no positions).
    pub traces: Vec<[Option<Trace>; 2]>,
    /// A length inside training and one outside it, for the attention maps.
    pub attention_lens: [usize; 2],
    turn: usize,
    test: (usize, usize, usize, f64, usize),
    test_set: Vec<Example>,
    units_done: f64,
    units_total: f64,
}

impl Session {
    /// `attention_lens`: the lengths whose first test sequence is traced after training.
    pub fn new(trainers: Vec<Trainer>, lens: Vec<usize>, attention_lens: [usize; 2]) -> Session {
        let n = trainers.len();
        let cfgs: Vec<&Config> = trainers.iter().map(|t| &t.cfg).collect();
        let units_total = trainers
            .first()
            .map_or(0.0, |t| cost_of(&t.plan, &cfgs, &lens));
        Session {
            length_scores: vec![Vec::new(); n],
            traces: vec![[None, None]; n],
            trainers,
            lens,
            attention_lens,
            turn: 0,
            test: (0, 0, 0, 0.0, 0),
            test_set: Vec::new(),
            units_done: 0.0,
            units_total,
        }
    }

    /// A finished session, as a run saved earlier left it: finished trainers, and their test
    /// scores at `lens`. The attention traces are made again from the trained weights.
    pub fn restored(
        trainers: Vec<Trainer>,
        lens: Vec<usize>,
        length_scores: Vec<Vec<Option<Score>>>,
        attention_lens: [usize; 2],
    ) -> Session {
        let mut s = Session::new(trainers, lens, attention_lens);
        s.length_scores = length_scores;
        for ti in 0..s.trainers.len() {
            s.test = (ti, s.lens.len().saturating_sub(1), 0, 0.0, 0);
            s.advance_length();
        }
        s.test = (s.trainers.len(), 0, 0, 0.0, 0);
        s.units_done = s.units_total;
        s
    }

    /// Multiply-adds the whole session takes (an estimate, for the time it will take).
    pub fn cost(&self) -> f64 {
        self.units_total
    }

    /// The share of the work done, 0 to 1.
    pub fn progress(&self) -> f64 {
        match self.phase() {
            Phase::Done => 1.0,
            _ => (self.units_done / self.units_total.max(1.0)).min(0.999),
        }
    }

    pub fn phase(&self) -> Phase {
        if self.trainers.iter().any(|t| !t.done()) {
            Phase::Training
        } else if self.test.0 < self.trainers.len() {
            Phase::Testing
        } else {
            Phase::Done
        }
    }

    /// The trainer the next unit of work trains, while training.
    pub fn training_turn(&self) -> Option<usize> {
        (self.phase() == Phase::Training).then_some(self.turn)
    }

    /// Does one unit of work (one training or test sequence). Returns false once done.
    pub fn work_one(&mut self) -> bool {
        match self.phase() {
            Phase::Training => {
                let n = self.trainers.len();
                let t = &mut self.trainers[self.turn];
                let len = t.pending_len();
                let cfg_cost = step_cost(&t.cfg, len, len);
                if t.work_one().is_some() || t.done() {
                    self.turn = (self.turn + 1) % n;
                }
                self.units_done += cfg_cost;
                true
            }
            Phase::Testing => {
                self.test_one();
                true
            }
            Phase::Done => false,
        }
    }

    fn test_one(&mut self) {
        let (ti, li, si, loss, right) = self.test;
        let tr = &self.trainers[ti];
        let len = self.lens[li];
        if !tr.fits(len) {
            self.length_scores[ti].push(None);
            self.advance_length();
            return;
        }
        if si == 0 {
            self.test_set = test_set(tr.plan.task, len, tr.plan.seed);
        }
        let (mut loss, mut right) = (loss, right);
        tally(
            &tr.cfg,
            &tr.params,
            &self.test_set[si],
            &mut loss,
            &mut right,
        );
        self.units_done += step_cost(&tr.cfg, len, len) / 3.0;
        if si + 1 < self.test_set.len() {
            self.test = (ti, li, si + 1, loss, right);
            return;
        }
        let n = self
            .test_set
            .iter()
            .map(|e| e.targets.iter().flatten().count())
            .sum();
        self.length_scores[ti].push(Some(finish(loss, right, n)));
        self.advance_length();
    }

    fn advance_length(&mut self) {
        let (ti, li, ..) = self.test;
        if li + 1 < self.lens.len() {
            self.test = (ti, li + 1, 0, 0.0, 0);
            return;
        }
        // This encoding is tested: trace its attention on one input inside and one outside.
        let tr = &self.trainers[ti];
        for (k, &len) in self.attention_lens.iter().enumerate() {
            if tr.fits(len) {
                let ex = &test_set(tr.plan.task, len, tr.plan.seed)[0];
                self.traces[ti][k] = Some(forward(&tr.cfg, &tr.params, &ex.tokens));
            }
        }
        self.test = (ti + 1, 0, 0, 0.0, 0);
    }

    /// Runs to the end (native tests, the shipped run).
    pub fn run(&mut self) {
        while self.work_one() {}
    }
}

impl Trainer {
    /// Tokens of the sequence the next unit of work trains on (for the progress estimate).
    fn pending_len(&self) -> usize {
        self.pending
            .as_ref()
            .map_or(self.plan.train_len, |p| p.batch[p.next].tokens.len())
    }
}
