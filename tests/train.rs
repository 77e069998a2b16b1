//! The tiny transformer of the Train it yourself view: gradients against finite differences,
//! determinism, and what the default run must show (bidirectional NoPE held at the
//! order-blind optimum on the order task; every other encoding above it).

use pe_lab::views::train::settings::{Enc, TrainState};
use pe_lab::views::train::shipped;
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

/// One run of the default experiment: it is checked against the shipped file, and the
/// claims made of it are checked on it.
#[test]
fn at_the_default_setup_every_other_encoding_beats_nope_and_the_shipped_run_is_this_run() {
    let (state, session) = default_run();
    assert_eq!((state.task, state.causal), (Task::Order, false));
    let inside: Vec<usize> = (0..session.lens.len())
        .filter(|&li| session.lens[li] <= state.train_len)
        .collect();
    for (i, &enc) in state.encs.iter().enumerate() {
        let scores: Vec<f64> = inside
            .iter()
            .map(|&li| session.length_scores[i][li].unwrap().accuracy)
            .collect();
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        if enc == Enc::Nope {
            assert!(mean <= 0.5 + 1e-12, "{mean}");
        } else {
            assert!(mean > 0.9, "{enc:?}: {scores:?}");
        }
    }
    // The shipped file is this run, bit for bit (its settings, every step's score, every
    // test score and every weight).
    let file = std::fs::read(SHIPPED).expect("lessons/train-run.npz");
    let saved = shipped::save(&state, &session);
    assert!(
        file == saved,
        "lessons/train-run.npz is not this code's default run: regenerate it (see shipped.rs)"
    );
    // Read back, it is the same run: the same scores, and the same attention maps made again
    // from its weights.
    let (read, restored) = shipped::load(&file).unwrap();
    assert_eq!(read, state);
    assert_eq!(shipped::save(&read, &restored), file);
    assert_eq!(restored.phase(), pe_train::run::Phase::Done);
    for (a, b) in session.traces.iter().zip(&restored.traces) {
        for k in 0..2 {
            assert_eq!(a[k].is_some(), b[k].is_some());
            if let (Some(a), Some(b)) = (&a[k], &b[k]) {
                for l in 0..state.layers {
                    for h in 0..state.heads {
                        assert_eq!(a.attention(l, h), b.attention(l, h));
                    }
                }
            }
        }
    }
    // And a file that is not one is said so, not read.
    let mut bad = file.clone();
    let n = bad.len();
    bad[n / 2] ^= 0x40;
    assert!(shipped::load(&bad).is_err());
    assert!(shipped::load(&file[..n / 2]).is_err());
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

#[test]
fn the_url_values_are_read_clamped_and_written_back_whole() {
    use pe_lab::state::params::Notices;
    use pe_lab::views::train::state::TrainQuery;
    let query = |q: &str| {
        let pairs: Vec<(String, String)> = q
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        TrainQuery::read(
            &|k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()),
            &mut Notices::default(),
        )
    };
    let mut notices = Notices::default();
    let s = TrainState::from_query(&query(""), &mut notices);
    assert_eq!(s, TrainState::default());
    assert!(notices.is_empty());
    // Written back whole, and read back the same.
    let round = TrainState::from_query(&s.to_query(), &mut notices);
    assert_eq!(round, s);
    assert!(notices.is_empty());

    let mut notices = Notices::default();
    let s = TrainState::from_query(
        &query("task=copy&enc=rope,bogus,NOPE,rope&mask=causal&train_len=99&test_len=7&width=20&heads=3&steps=1e9&lr=-1&seed=x&att_enc=t5&att_layer=9&att_head=3"),
        &mut notices,
    );
    assert_eq!(s.task, Task::Copy);
    assert_eq!(s.encs, vec![Enc::Nope, Enc::Rope]);
    assert!(s.causal);
    assert_eq!((s.train_len, s.test_len), (32, 32));
    assert_eq!((s.width, s.heads), (24, 2));
    assert_eq!(s.steps, 2000);
    assert_eq!(s.lr, 1e-4);
    assert_eq!(s.seed, 1);
    assert_eq!((s.att_enc, s.att_layer, s.att_head), (Enc::T5, 1, 1));
    let said: Vec<&str> = notices.items.iter().map(|n| n.param.as_str()).collect();
    for key in [
        "enc",
        "train_len",
        "test_len",
        "width",
        "heads",
        "steps",
        "lr",
        "seed",
        "att_layer",
        "att_head",
    ] {
        assert!(said.contains(&key), "{key}: {said:?}");
    }
    // No encoding named: all six, with a notice.
    let mut notices = Notices::default();
    let s = TrainState::from_query(&query("enc=,,x"), &mut notices);
    assert_eq!(s.encs, Enc::ALL.to_vec());
    assert_eq!(notices.items.len(), 1);
    // A huge value is cut before it is kept.
    let long = "9".repeat(100_000);
    let q = query(&format!("seed={long}"));
    assert!(q.values[0].1.len() <= 200);
}

#[test]
fn a_session_in_any_slices_is_the_trainers_run_one_by_one() {
    let state = TrainState {
        steps: 12,
        encs: vec![Enc::Nope, Enc::Learned, Enc::Rope, Enc::T5],
        ..small(Task::Copy, false)
    };
    let mut session = state.session();
    let mut n = 0usize;
    while session.work_one() {
        n += 1;
        assert!(session.progress() <= 1.0);
    }
    assert_eq!(session.progress(), 1.0);
    assert!(n > 12 * 4 * 32);
    for (i, &enc) in state.encs.iter().enumerate() {
        let mut alone = Trainer::new(state.plan(), state.config(enc));
        while !alone.done() {
            alone.train_step();
        }
        assert_eq!(session.trainers[i].params, alone.params, "{enc:?}");
        assert_eq!(session.trainers[i].history, alone.history);
        let scores: Vec<_> = alone.length_scores(&session.lens);
        assert_eq!(session.length_scores[i], scores);
        // Traced inside training; past it only where the encoding has positions there.
        assert!(session.traces[i][0].is_some());
        assert_eq!(session.traces[i][1].is_some(), enc != Enc::Learned);
    }
}

#[test]
fn the_csvs_and_sentences_are_the_run_s_numbers() {
    let state = TrainState {
        steps: 30,
        encs: vec![Enc::Nope, Enc::Learned, Enc::Rope],
        ..small(Task::Order, false)
    };
    let mut session = state.session();
    session.run();
    let loss = pe_lab::views::train::settings::loss_csv(&state.encs, &session);
    let lines: Vec<&str> = loss.lines().collect();
    assert_eq!(
        lines[0],
        "step,nope_loss,nope_acc,learned_loss,learned_acc,rope_loss,rope_acc"
    );
    assert_eq!(lines.len(), 31);
    let first: Vec<f64> = lines[1].split(',').map(|v| v.parse().unwrap()).collect();
    assert_eq!(first[0], 1.0);
    assert_eq!(first[1], session.trainers[0].history[0].loss);
    assert_eq!(first[6], session.trainers[2].history[0].accuracy);

    let length = pe_lab::views::train::settings::length_csv(&state.encs, &session);
    let rows: Vec<Vec<&str>> = length
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(length.lines().next(), Some("length,nope,learned,rope"));
    for r in &rows {
        let len: usize = r[0].parse().unwrap();
        assert_eq!(r[2].is_empty(), len > state.train_len, "{r:?}");
        assert!(!r[1].is_empty() && !r[3].is_empty());
    }

    let lines = pe_lab::views::train::settings::run_summary(&state, &session);
    let acc = |i: usize, len: usize| {
        let li = session.lens.iter().position(|&l| l == len).unwrap();
        session.length_scores[i][li].unwrap().accuracy
    };
    let pct = pe_lab::views::train::settings::percent;
    assert!(
        lines[0].starts_with(&format!(
            "NoPE: {} at length 6, {} at 12. With a bidirectional mask and no positions",
            pct(acc(0, 6)),
            pct(acc(0, 12))
        )),
        "{}",
        lines[0]
    );
    assert_eq!(acc(0, 6), 0.5);
    assert!(
        lines[1].starts_with(&format!(
            "learned: {} at length 6; no vectors past position 5",
            pct(acc(1, 6))
        )),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        format!(
            "RoPE: {} at length 6, {} at 12.",
            pct(acc(2, 6)),
            pct(acc(2, 12))
        )
    );
    let nope_params = pe_train::model::Params::init(&state.config(Enc::Nope), 0).count();
    let nope_params = pe_lab::format::grouped(nope_params as u64);
    assert!(lines[3].starts_with("Accuracy is over 64 test sequences per length (on the order task one answer is 1.56 % of"), "{}", lines[3]);
    assert!(lines[4].starts_with(&format!("A toy: {nope_params} learned numbers per model (NoPE's count; the learned table adds 48, T5 64), 30 steps of 32 sequences of 3 to 6 tokens.")), "{}", lines[4]);
    assert!(
        lines[4].contains("with a causal mask (this run: bidirectional)"),
        "{}",
        lines[4]
    );
    assert_eq!(pct(1.0), "100 %");
    assert_eq!(pct(0.984375), "98.4 %");
    assert_eq!(pct(0.5), "50 %");

    // The causal sentence, with a causal mask.
    let causal = TrainState {
        causal: true,
        encs: vec![Enc::Nope],
        ..state.clone()
    };
    let mut s2 = causal.session();
    s2.run();
    assert!(run_summary_first(&causal, &s2)
        .contains("With a causal mask and two layers or more, no positions are needed"));

    // The settings JSON names every setting and what is fixed.
    let json = state.settings_json();
    for key in [
        "\"task\": \"order\"",
        "\"enc\": [",
        "\"steps\": 30",
        "\"batch\": 32",
        "\"adamw_weight_decay\": 0.01",
    ] {
        assert!(json.contains(key), "{key} in {json}");
    }
}

fn run_summary_first(state: &TrainState, session: &pe_train::run::Session) -> String {
    pe_lab::views::train::settings::run_summary(state, session)[0].clone()
}

/// The PyTorch fixture (`scripts/train_fixture.py`, an independent implementation with
/// autograd and `torch.optim.AdamW`): for each encoding and mask, the same weights and batch
/// give the same loss and gradients (1e-5 relative), and 20 AdamW steps the same weights (1e-4).
#[test]
fn the_model_matches_pytorch() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/train_pytorch.json"
    ))
    .unwrap();
    let fixture: serde_json::Value = serde_json::from_str(&text).unwrap();
    let floats = |v: &serde_json::Value| -> Vec<f64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol * b.abs().max(1e-6);
    let cases = fixture["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 12);
    for c in cases {
        let enc = Enc::from_name(c["enc"].as_str().unwrap()).unwrap();
        let causal = c["mask"] == "causal";
        let state = TrainState {
            task: Task::Offset,
            causal,
            width: c["width"].as_u64().unwrap() as usize,
            heads: c["heads"].as_u64().unwrap() as usize,
            layers: c["layers"].as_u64().unwrap() as usize,
            train_len: c["train_len"].as_u64().unwrap() as usize,
            test_len: c["test_len"].as_u64().unwrap() as usize,
            ..TrainState::default()
        };
        let cfg = state.config(enc);
        assert_eq!((cfg.vocab, cfg.hidden), (8, 16));
        let mut params = Params::init(&cfg, 0);
        let names = params.names();
        for (t, name) in params.tensors_mut().into_iter().zip(&names) {
            let v = floats(&c["params"][name]);
            assert_eq!(v.len(), t.len(), "{enc:?} {name}");
            *t = v;
        }
        let batch: Vec<pe_train::task::Example> = c["batch"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| pe_train::task::Example {
                tokens: e["tokens"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().unwrap() as usize)
                    .collect(),
                targets: e["targets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_u64().map(|y| y as usize))
                    .collect(),
            })
            .collect();
        let what = format!("{enc:?} {}", c["mask"]);
        let (score, grad) = loss_and_grad(&cfg, &params, &batch);
        assert!(
            close(score.loss, c["loss"].as_f64().unwrap(), 1e-5),
            "{what}: loss {}",
            score.loss
        );
        for (g, name) in grad.tensors().into_iter().zip(&names) {
            for (i, (a, b)) in g.iter().zip(floats(&c["grads"][name])).enumerate() {
                assert!(
                    close(*a, b, 1e-5),
                    "{what}: {name}[{i}] {a} against PyTorch's {b}"
                );
            }
        }
        let mut opt = pe_train::optim::AdamW::new(&params, c["adamw_lr"].as_f64().unwrap());
        for (step, want) in floats(&c["adamw_losses"]).into_iter().enumerate() {
            let (score, grad) = loss_and_grad(&cfg, &params, &batch);
            assert!(close(score.loss, want, 1e-4), "{what}: loss at step {step}");
            opt.step(&mut params, &grad);
        }
        for (t, name) in params.tensors().into_iter().zip(&names) {
            for (i, (a, b)) in t.iter().zip(floats(&c["after_adamw"][name])).enumerate() {
                assert!(
                    close(*a, b, 1e-4),
                    "{what}: {name}[{i}] after 20 steps {a} against {b}"
                );
            }
        }
    }
}

/// The shipped run (`lessons/train-run.npz`) is what this code computes for the default
/// settings, bit for bit: every step's loss, accuracy and targets, every test score, every
/// trained weight. Regenerate it with `cargo test --test train -- --ignored
/// write_the_shipped_run` when the model or the defaults change.
fn default_run() -> (TrainState, pe_train::run::Session) {
    let state = TrainState::default().run_key();
    let mut session = state.session();
    session.run();
    (state, session)
}

const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons/train-run.npz");

#[test]
#[ignore = "writes lessons/train-run.npz"]
fn write_the_shipped_run() {
    let (state, session) = default_run();
    std::fs::write(SHIPPED, shipped::save(&state, &session)).unwrap();
}
