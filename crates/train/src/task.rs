//! The tasks: each needs word order, and each teaches one thing.
//!
//! A sequence is `len` tokens; some positions carry a target (the token the model should
//! output there). Accuracy is the share of targets predicted (argmax over the vocabulary).

use crate::rng::Rng;

/// How far back the offset task looks.
pub const OFFSET_K: usize = 2;
/// Symbols of the offset and copy tasks.
pub const SYMBOLS: usize = 8;
/// Filler tokens of the order task.
pub const FILLERS: usize = 4;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Task {
    /// Which came first? One `A` and one `B` among fillers, then `?`; the answer at `?` is
    /// "A first" or "B first". The answer depends on the order and on nothing else: a
    /// sequence and its twin with `A` and `B` swapped hold the same tokens and have opposite
    /// answers.
    #[default]
    Order,
    /// Repeat the token [`OFFSET_K`] places back: the target at position `i ≥ k` is the token
    /// at `i − k`. A relation between positions `k` apart, at any length.
    Offset,
    /// Copy (Kazemnejad et al. 2023, as a fill-in task): `n` symbols, a separator `|`, then
    /// `n` blanks `_`; the target at the `j`-th blank is the `j`-th symbol. At an even length
    /// one `^` (start) token comes first.
    Copy,
}

/// One sequence and its targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub tokens: Vec<usize>,
    pub targets: Vec<Option<usize>>,
}

// Token ids of the order task.
const A: usize = FILLERS;
const B: usize = FILLERS + 1;
const QUERY: usize = FILLERS + 2;
const A_FIRST: usize = FILLERS + 3;
const B_FIRST: usize = FILLERS + 4;
// Token ids of the copy task.
const SEP: usize = SYMBOLS;
const BLANK: usize = SYMBOLS + 1;
const START: usize = SYMBOLS + 2;

impl Task {
    pub const ALL: [Task; 3] = [Task::Order, Task::Offset, Task::Copy];

    pub fn name(self) -> &'static str {
        match self {
            Task::Order => "order",
            Task::Offset => "offset",
            Task::Copy => "copy",
        }
    }

    pub fn from_name(name: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Tokens the model reads and writes.
    pub fn vocab(self) -> usize {
        match self {
            Task::Order => FILLERS + 5,
            Task::Offset => SYMBOLS,
            Task::Copy => SYMBOLS + 3,
        }
    }

    /// The shortest sequence the task has.
    pub fn min_len(self) -> usize {
        match self {
            Task::Order => 3,
            Task::Offset => OFFSET_K + 1,
            Task::Copy => 3,
        }
    }

    /// A token as the attention map labels it.
    pub fn token_label(self, token: usize) -> String {
        let symbol = |t: usize| char::from(b'a' + t as u8).to_string();
        match (self, token) {
            (Task::Order, t) if t < FILLERS => "·".into(),
            (Task::Order, A) => "A".into(),
            (Task::Order, B) => "B".into(),
            (Task::Order, QUERY) => "?".into(),
            (Task::Order, A_FIRST) => "A first".into(),
            (Task::Order, B_FIRST) => "B first".into(),
            (Task::Copy, SEP) => "|".into(),
            (Task::Copy, BLANK) => "_".into(),
            (Task::Copy, START) => "^".into(),
            (_, t) if t < SYMBOLS => symbol(t),
            (_, t) => format!("#{t}"),
        }
    }

    /// One random sequence of `len` tokens (`len ≥ min_len`).
    pub fn sample(self, len: usize, rng: &mut Rng) -> Example {
        let len = len.max(self.min_len());
        match self {
            Task::Order => {
                let mut tokens: Vec<usize> = (0..len - 1).map(|_| rng.below(FILLERS)).collect();
                let a = rng.below(len - 1);
                let mut b = rng.below(len - 2);
                if b >= a {
                    b += 1;
                }
                tokens[a] = A;
                tokens[b] = B;
                tokens.push(QUERY);
                let mut targets = vec![None; len];
                targets[len - 1] = Some(if a < b { A_FIRST } else { B_FIRST });
                Example { tokens, targets }
            }
            Task::Offset => {
                let tokens: Vec<usize> = (0..len).map(|_| rng.below(SYMBOLS)).collect();
                let targets = (0..len)
                    .map(|i| i.checked_sub(OFFSET_K).map(|j| tokens[j]))
                    .collect();
                Example { tokens, targets }
            }
            Task::Copy => {
                let n = (len - 1) / 2;
                let mut tokens = vec![START; len - (2 * n + 1)];
                let symbols: Vec<usize> = (0..n).map(|_| rng.below(SYMBOLS)).collect();
                tokens.extend(&symbols);
                tokens.push(SEP);
                let mut targets = vec![None; tokens.len()];
                tokens.extend(std::iter::repeat_n(BLANK, n));
                targets.extend(symbols.iter().map(|&s| Some(s)));
                Example { tokens, targets }
            }
        }
    }

    /// `count` sequences of `len` tokens. The order task's come in twins (the second of each
    /// pair is the first with `A` and `B` swapped), so that in every batch and every test set
    /// each multiset of tokens has both answers equally often.
    pub fn batch(self, len: usize, count: usize, rng: &mut Rng) -> Vec<Example> {
        let mut out = Vec::with_capacity(count);
        while out.len() < count {
            let ex = self.sample(len, rng);
            if self == Task::Order && out.len() + 1 < count {
                out.push(twin(&ex));
            }
            out.push(ex);
        }
        out
    }

    /// The best accuracy and loss without word order, where there is a simple one: the order
    /// task's answer is one of two, and twins hold the same tokens, so a model blind to order
    /// gives both twins the same answer: one right, one wrong (accuracy ½, loss at best ln 2).
    pub fn order_blind_optimum(self) -> Option<(f64, f64)> {
        (self == Task::Order).then_some((0.5, std::f64::consts::LN_2))
    }
}

/// The order task's twin: `A` and `B` swapped.
fn twin(ex: &Example) -> Example {
    let tokens = ex
        .tokens
        .iter()
        .map(|&t| match t {
            A => B,
            B => A,
            t => t,
        })
        .collect();
    let targets = ex
        .targets
        .iter()
        .map(|t| {
            t.map(|t| match t {
                A_FIRST => B_FIRST,
                B_FIRST => A_FIRST,
                t => t,
            })
        })
        .collect();
    Example { tokens, targets }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_has_its_length_and_targets() {
        let mut rng = Rng::new(7);
        for task in Task::ALL {
            for len in task.min_len()..40 {
                let ex = task.sample(len, &mut rng);
                assert_eq!(ex.tokens.len(), len, "{task:?} {len}");
                assert_eq!(ex.targets.len(), len);
                assert!(ex.targets.iter().any(Option::is_some));
                assert!(ex.tokens.iter().all(|&t| t < task.vocab()));
                assert!(ex.targets.iter().flatten().all(|&t| t < task.vocab()));
            }
        }
    }

    #[test]
    fn copy_targets_are_the_symbols_in_order() {
        let ex = Task::Copy.sample(8, &mut Rng::new(3));
        let n = 3;
        assert_eq!(ex.tokens[0], START);
        assert_eq!(ex.tokens[1 + n], SEP);
        let targets: Vec<usize> = ex.targets.iter().flatten().copied().collect();
        assert_eq!(targets, ex.tokens[1..1 + n]);
    }

    #[test]
    fn order_twins_hold_the_same_tokens_with_opposite_answers() {
        let batch = Task::Order.batch(9, 6, &mut Rng::new(1));
        for pair in batch.chunks(2) {
            let (mut x, mut y) = (pair[0].tokens.clone(), pair[1].tokens.clone());
            assert_ne!(x, y);
            x.sort();
            y.sort();
            assert_eq!(x, y);
            assert_ne!(pair[0].targets[8], pair[1].targets[8]);
        }
    }
}
