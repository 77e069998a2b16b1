//! A one-head toy attention over a five-token sentence, to show why position is needed:
//! without a positional encoding, self-attention is permutation-equivariant — shuffle the
//! tokens and the outputs are the same vectors, shuffled.

use super::rope::{PairLayout, Rope, SeededNormal};
use super::sinusoidal::{Layout, Sinusoid};

/// Width of the toy embeddings.
pub const DIM: usize = 8;
/// The demo sentence (the word order is what the model must see).
pub const TOKENS: [&str; 5] = ["the", "dog", "bit", "the", "man"];

/// How positions enter the toy model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    None,
    /// Sinusoidal PE added to the embeddings.
    Sinusoidal,
    /// RoPE applied to queries and keys.
    Rope,
}

fn seed_of(word: &str) -> u64 {
    word.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The fixed toy embedding of a word (the same word always gets the same vector).
pub fn embedding(word: &str) -> Vec<f64> {
    SeededNormal::new(seed_of(word)).vector(DIM)
}

fn matrix(seed: u64) -> Vec<f64> {
    let mut rng = SeededNormal::new(seed);
    rng.vector(DIM * DIM)
        .into_iter()
        .map(|v| v / (DIM as f64).sqrt())
        .collect()
}

fn times(x: &[f64], w: &[f64]) -> Vec<f64> {
    (0..DIM)
        .map(|j| (0..DIM).map(|i| x[i] * w[i * DIM + j]).sum())
        .collect()
}

/// Attention weights and outputs of the sequence `words` (in that order).
#[derive(Clone, Debug, PartialEq)]
pub struct AttentionResult {
    /// `weights[i][j]`: how much token i attends to token j.
    pub weights: Vec<Vec<f64>>,
    /// Output vector of each token.
    pub outputs: Vec<Vec<f64>>,
}

/// One attention head with fixed toy weights: bidirectional, or with a causal mask (`causal`:
/// each token attends only to itself and the tokens before it, as in a decoder).
pub fn attend(words: &[&str], positions: Positions, causal: bool) -> AttentionResult {
    let (wq, wk, wv) = (matrix(11), matrix(22), matrix(33));
    let pe = Sinusoid::new(DIM, 10000.0, Layout::Interleaved);
    let rope = Rope::plain(DIM, 1.0, 10000.0, PairLayout::Half);
    let xs: Vec<Vec<f64>> = words
        .iter()
        .enumerate()
        .map(|(pos, w)| {
            let mut x = embedding(w);
            if positions == Positions::Sinusoidal {
                x.iter_mut()
                    .enumerate()
                    .for_each(|(c, v)| *v += pe.value(pos, c));
            }
            x
        })
        .collect();
    let mut qs: Vec<Vec<f64>> = xs.iter().map(|x| times(x, &wq)).collect();
    let mut ks: Vec<Vec<f64>> = xs.iter().map(|x| times(x, &wk)).collect();
    let vs: Vec<Vec<f64>> = xs.iter().map(|x| times(x, &wv)).collect();
    if positions == Positions::Rope {
        let mut out = vec![0.0; DIM];
        for (pos, (q, k)) in qs.iter_mut().zip(ks.iter_mut()).enumerate() {
            rope.rotate(q, pos as f64, &mut out);
            q.copy_from_slice(&out);
            rope.rotate(k, pos as f64, &mut out);
            k.copy_from_slice(&out);
        }
    }
    let scale = (DIM as f64).sqrt();
    let weights: Vec<Vec<f64>> = qs
        .iter()
        .enumerate()
        .map(|(i, q)| {
            // A masked logit is −∞: its weight is exactly 0 (token i itself is never masked).
            let logits: Vec<f64> = ks
                .iter()
                .enumerate()
                .map(|(j, k)| {
                    if causal && j > i {
                        f64::NEG_INFINITY
                    } else {
                        q.iter().zip(k).map(|(a, b)| a * b).sum::<f64>() / scale
                    }
                })
                .collect();
            let top = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let exps: Vec<f64> = logits.iter().map(|l| (l - top).exp()).collect();
            let total: f64 = exps.iter().sum();
            exps.iter().map(|e| e / total).collect()
        })
        .collect();
    let outputs = weights
        .iter()
        .map(|a| {
            (0..DIM)
                .map(|c| a.iter().zip(&vs).map(|(w, v)| w * v[c]).sum())
                .collect()
        })
        .collect();
    AttentionResult { weights, outputs }
}

/// For each token (by its index in the original sentence), the largest change of its output
/// when the sentence is reordered by `order` (`order[pos]` = original index at `pos`).
pub fn output_changes(order: &[usize], positions: Positions, causal: bool) -> Vec<f64> {
    let original = attend(&TOKENS, positions, causal);
    let shuffled_words: Vec<&str> = order.iter().map(|&i| TOKENS[i]).collect();
    let shuffled = attend(&shuffled_words, positions, causal);
    let mut change = vec![0.0; TOKENS.len()];
    for (pos, &i) in order.iter().enumerate() {
        change[i] = shuffled.outputs[pos]
            .iter()
            .zip(&original.outputs[i])
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
    }
    change
}

/// `order` with repeated words renumbered so that their original indices increase along the
/// sentence: two orders that spell the same words are one sentence (swapping the two "the"
/// changes nothing), and a word's number is the original word it is matched with.
pub fn canonical_order(order: &[usize]) -> Vec<usize> {
    // Each position takes the first original index of its word not yet taken.
    let mut taken = [false; TOKENS.len()];
    order
        .iter()
        .map(|&i| {
            let word = TOKENS.get(i);
            match (0..TOKENS.len()).find(|&j| !taken[j] && TOKENS.get(j) == word) {
                Some(j) => {
                    taken[j] = true;
                    j
                }
                None => i,
            }
        })
        .collect()
}

/// Whether `order` spells another sentence than the original (not merely the same words with
/// equal ones swapped).
pub fn reordered(order: &[usize]) -> bool {
    order
        .iter()
        .enumerate()
        .any(|(pos, &i)| TOKENS.get(i) != TOKENS.get(pos))
}

/// What the demo table says of a token's output after a reordering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TokenStatus {
    /// The sentence is the original one: nothing to compare.
    Original,
    /// With a causal mask, the token and every word before it are where they were: what it
    /// attends to did not move, so its output cannot change, with or without positions.
    NothingMoved,
    /// What it attends to was reordered, yet its output is the same (to float rounding): the
    /// failure the demo names.
    Invisible,
    /// Its output changed by this much (the largest change of a component).
    Visible(f64),
}

/// The status of the token at `pos` of `order`, whose output changed by `change` (see
/// [`output_changes`]).
pub fn token_status(order: &[usize], pos: usize, causal: bool, change: f64) -> TokenStatus {
    let same_before = |upto: usize| {
        order[..=upto]
            .iter()
            .enumerate()
            .all(|(p, &i)| TOKENS.get(i) == TOKENS.get(p))
    };
    if !reordered(order) {
        TokenStatus::Original
    } else if causal && pos < order.len() && same_before(pos) {
        TokenStatus::NothingMoved
    } else if change < 1e-9 {
        // Differences at the level of float rounding are zero.
        TokenStatus::Invisible
    } else {
        TokenStatus::Visible(change)
    }
}

/// The words before each position of `order` (as original indices), as a sorted list: what a
/// causal head without positions sees of a token's context.
pub fn predecessors(order: &[usize], pos: usize) -> Vec<&'static str> {
    let mut words: Vec<&str> = order[..pos].iter().map(|&i| TOKENS[i]).collect();
    words.sort_unstable();
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swapping_equal_words_is_the_original_sentence_and_an_unmoved_prefix_is_said_so() {
        // The two "the" swapped: the same sentence, one order.
        assert_eq!(canonical_order(&[3, 1, 2, 0, 4]), vec![0, 1, 2, 3, 4]);
        assert_eq!(canonical_order(&[4, 3, 2, 1, 0]), vec![4, 0, 2, 1, 3]);
        assert!(!reordered(&[3, 1, 2, 0, 4]));
        for pe in [Positions::None, Positions::Sinusoidal, Positions::Rope] {
            for causal in [false, true] {
                let order = canonical_order(&[3, 1, 2, 0, 4]);
                let change = output_changes(&order, pe, causal);
                assert!(change.iter().all(|c| *c == 0.0), "{pe:?} {causal}");
                for pos in 0..5 {
                    let s = token_status(&order, pos, causal, change[order[pos]]);
                    assert_eq!(s, TokenStatus::Original);
                }
            }
        }
        // "the man bit the dog" under a causal mask: "the" at 0 sees only itself, which did
        // not move; its output is the same with positions too, and is not called invisible.
        let order = [0, 4, 2, 3, 1];
        for pe in [Positions::None, Positions::Sinusoidal, Positions::Rope] {
            let change = output_changes(&order, pe, true);
            assert_eq!(change[0], 0.0);
            assert_eq!(
                token_status(&order, 0, true, change[0]),
                TokenStatus::NothingMoved
            );
            for pos in 1..5 {
                let s = token_status(&order, pos, true, change[order[pos]]);
                assert_ne!(s, TokenStatus::NothingMoved);
                if pe != Positions::None {
                    assert!(matches!(s, TokenStatus::Visible(_)), "{pe:?} {pos}: {s:?}");
                }
            }
            // Without a mask every token sees the whole, reordered sentence.
            let change = output_changes(&order, pe, false);
            for pos in 0..5 {
                let s = token_status(&order, pos, false, change[order[pos]]);
                let expected = if pe == Positions::None {
                    TokenStatus::Invisible
                } else {
                    TokenStatus::Visible(change[order[pos]])
                };
                assert_eq!(s, expected, "{pe:?} {pos}");
            }
        }
    }

    #[test]
    fn a_causal_mask_without_positions_changes_exactly_the_tokens_whose_predecessors_changed() {
        let identity: Vec<usize> = (0..TOKENS.len()).collect();
        for order in [
            [4, 3, 2, 1, 0],
            [1, 0, 2, 4, 3],
            [2, 4, 0, 1, 3],
            [3, 1, 2, 0, 4],
            [0, 4, 2, 3, 1],
        ] {
            let changes = output_changes(&order, Positions::None, true);
            for (pos, &i) in order.iter().enumerate() {
                let same = predecessors(&order, pos) == predecessors(&identity, i);
                assert_eq!(changes[i] < 1e-12, same, "{order:?}: token {i} at {pos}");
                if !same {
                    assert!(changes[i] > 1e-3, "{order:?}: token {i}: {}", changes[i]);
                }
            }
        }
        // The front token attends only to itself.
        let r = attend(&TOKENS, Positions::None, true);
        assert_eq!(r.weights[0], vec![1.0, 0.0, 0.0, 0.0, 0.0]);
        assert!((0..5).all(|i| r.weights[i][i + 1..].iter().all(|w| *w == 0.0)));
        // The two "the" now differ: the second one sees three words before it.
        assert_ne!(r.outputs[0], r.outputs[3]);
    }

    #[test]
    fn without_positions_outputs_permute_exactly() {
        for order in [[4, 3, 2, 1, 0], [1, 0, 2, 4, 3], [2, 4, 0, 1, 3]] {
            let changes = output_changes(&order, Positions::None, false);
            assert!(changes.iter().all(|c| *c < 1e-12), "{order:?}: {changes:?}");
        }
        // The two "the" tokens cannot be told apart.
        let r = attend(&TOKENS, Positions::None, false);
        assert_eq!(r.outputs[0], r.outputs[3]);
    }

    #[test]
    fn with_positions_outputs_change() {
        for pe in [Positions::Sinusoidal, Positions::Rope] {
            let changes = output_changes(&[4, 1, 2, 3, 0], pe, false);
            assert!(changes.iter().any(|c| *c > 1e-3), "{pe:?}: {changes:?}");
            let r = attend(&TOKENS, pe, false);
            assert_ne!(r.outputs[0], r.outputs[3], "{pe:?} separates the two “the”");
            assert!(r
                .weights
                .iter()
                .all(|row| (row.iter().sum::<f64>() - 1.0).abs() < 1e-12));
        }
    }
}
