//! One training run of one encoding, a step at a time (so the page can train in slices), and
//! the test sets every encoding is scored on.

use crate::model::{evaluate, loss_and_grad, Config, Params, Score};
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
        }
    }

    pub fn done(&self) -> bool {
        self.step >= self.plan.steps
    }

    /// The next training batch.
    pub fn next_batch(&mut self) -> Vec<Example> {
        let task = self.plan.task;
        let lo = task.min_len();
        let hi = self.plan.train_len.max(lo);
        let len = lo + self.data.below(hi - lo + 1);
        task.batch(len, self.plan.batch, &mut self.data)
    }

    /// One step of AdamW on the next batch; returns the batch's score before the update.
    pub fn train_step(&mut self) -> Score {
        let batch = self.next_batch();
        let (score, grad) = loss_and_grad(&self.cfg, &self.params, &batch);
        self.opt.step(&mut self.params, &grad);
        self.step += 1;
        self.history.push(score);
        score
    }

    /// Accuracy on the test set of each length; `None` where the encoding has no positions
    /// for that length (a learned table past its last row).
    pub fn length_scores(&self, lens: &[usize]) -> Vec<Option<Score>> {
        lens.iter()
            .map(|&len| {
                let fits = self.cfg.max_len().is_none_or(|max| len <= max);
                fits.then(|| {
                    evaluate(
                        &self.cfg,
                        &self.params,
                        &test_set(self.plan.task, len, self.plan.seed),
                    )
                })
            })
            .collect()
    }
}
