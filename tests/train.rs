//! The tiny transformer of the Train it yourself view: gradients against finite differences,
//! determinism, and what the default run must show (bidirectional NoPE held at the
//! order-blind optimum on the order task; every other encoding above it).

use pe_lab::views::train::state::{Enc, TrainState};
use pe_train::model::{evaluate, loss_and_grad, Params};
use pe_train::rng::Rng;
use pe_train::run::{test_set, Trainer};
use pe_train::task::Task;

fn small(task: Task, causal: bool) -> TrainState {
    TrainState {
        task,
        causal,
        train_len: 6,
        test_len: 12,
        layers: 2,
        width: 8,
        heads: 2,
        ..TrainState::default()
    }
}

/// Moves every parameter off its initial value (layer-norm gains off 1, T5 biases off 0), so
/// that the check covers a general point.
fn jitter(params: &mut Params, seed: u64) {
    let mut rng = Rng::new(seed);
    for t in params.tensors_mut() {
        t.iter_mut().for_each(|x| *x += 0.3 * rng.normal());
    }
}

#[test]
fn every_gradient_matches_finite_differences() {
    for task in Task::ALL {
        for causal in [false, true] {
            let state = small(task, causal);
            for enc in Enc::ALL {
                let cfg = state.config(enc);
                let mut params = Params::init(&cfg, 5);
                jitter(&mut params, 11);
                let mut rng = Rng::new(3);
                let mut batch = task.batch(6, 2, &mut rng);
                batch.extend(task.batch(4, 2, &mut rng));
                let (_, grad) = loss_and_grad(&cfg, &params, &batch);
                let names = params.names();
                let h = 1e-5;
                let mut worst = (0.0f64, String::new());
                for (ti, name) in names.iter().enumerate() {
                    for i in 0..params.tensors()[ti].len() {
                        let mut plus = params.clone();
                        plus.tensors_mut()[ti][i] += h;
                        let mut minus = params.clone();
                        minus.tensors_mut()[ti][i] -= h;
                        let fd = (evaluate(&cfg, &plus, &batch).loss
                            - evaluate(&cfg, &minus, &batch).loss)
                            / (2.0 * h);
                        let g = grad.tensors()[ti][i];
                        let err = (fd - g).abs() / (fd.abs().max(g.abs()).max(1e-4));
                        if err > worst.0 {
                            worst = (err, format!("{name}[{i}]: analytic {g}, numeric {fd}"));
                        }
                    }
                }
                assert!(
                    worst.0 < 1e-5,
                    "{task:?} causal={causal} {enc:?}: {}",
                    worst.1
                );
            }
        }
    }
}

#[test]
fn the_learned_table_and_t5_biases_get_gradients() {
    let state = small(Task::Offset, true);
    for enc in [Enc::Learned, Enc::T5] {
        let cfg = state.config(enc);
        let mut params = Params::init(&cfg, 1);
        jitter(&mut params, 2);
        let batch = Task::Offset.batch(6, 2, &mut Rng::new(9));
        let (_, grad) = loss_and_grad(&cfg, &params, &batch);
        let own = if enc == Enc::Learned {
            &grad.pos
        } else {
            &grad.t5
        };
        assert!(
            !own.is_empty() && own.iter().any(|g| g.abs() > 1e-6),
            "{enc:?}"
        );
    }
}

#[test]
fn the_same_settings_give_the_same_run_bit_for_bit() {
    let state = TrainState {
        steps: 30,
        ..small(Task::Offset, true)
    };
    for enc in Enc::ALL {
        let run = || {
            let mut t = Trainer::new(state.plan(), state.config(enc));
            while !t.done() {
                t.train_step();
            }
            t
        };
        let (a, b) = (run(), run());
        assert_eq!(a.params, b.params, "{enc:?}");
        assert_eq!(a.history, b.history);
        let lens = state.test_lens();
        assert_eq!(a.length_scores(&lens), b.length_scores(&lens));
    }
    // Another seed is another run.
    let other = TrainState {
        seed: 2,
        ..state.clone()
    };
    let first = |s: &TrainState| {
        let mut t = Trainer::new(s.plan(), s.config(Enc::Rope));
        t.train_step();
        t.params
    };
    assert_ne!(first(&state), first(&other));
}

#[test]
fn bidirectional_nope_stays_at_the_order_blind_optimum() {
    let (acc, loss) = Task::Order.order_blind_optimum().unwrap();
    for seed in [1, 2, 3] {
        let state = TrainState {
            steps: 150,
            seed,
            ..small(Task::Order, false)
        };
        let mut t = Trainer::new(state.plan(), state.config(Enc::Nope));
        while !t.done() {
            let s = t.train_step();
            assert!(
                s.accuracy <= acc + 1e-12,
                "seed {seed} step {}: {s:?}",
                t.step
            );
            assert!(s.loss >= loss - 1e-9, "seed {seed} step {}: {s:?}", t.step);
        }
        for s in t.length_scores(&state.test_lens()).into_iter().flatten() {
            assert!(s.accuracy <= acc + 1e-12 && s.loss >= loss - 1e-9, "{s:?}");
        }
    }
}

#[test]
fn at_the_default_setup_every_other_encoding_beats_nope() {
    let state = TrainState::default();
    assert_eq!((state.task, state.causal), (Task::Order, false));
    let inside: Vec<usize> = state
        .test_lens()
        .into_iter()
        .filter(|&l| l <= state.train_len)
        .collect();
    for enc in Enc::ALL {
        let mut t = Trainer::new(state.plan(), state.config(enc));
        while !t.done() {
            t.train_step();
        }
        let scores: Vec<f64> = t
            .length_scores(&inside)
            .into_iter()
            .map(|s| s.unwrap().accuracy)
            .collect();
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        if enc == Enc::Nope {
            assert!(mean <= 0.5 + 1e-12, "{mean}");
        } else {
            assert!(mean > 0.9, "{enc:?}: {scores:?}");
        }
    }
}

#[test]
fn a_learned_table_has_no_vectors_past_its_last_row() {
    let state = small(Task::Offset, true);
    let t = Trainer::new(state.plan(), state.config(Enc::Learned));
    let lens = state.test_lens();
    for (len, s) in lens.iter().zip(t.length_scores(&lens)) {
        assert_eq!(s.is_some(), *len <= state.train_len, "{len}");
    }
    // Every test length has its test set, and the set is the same for every encoding.
    assert_eq!(test_set(Task::Copy, 9, 4), test_set(Task::Copy, 9, 4));
}
