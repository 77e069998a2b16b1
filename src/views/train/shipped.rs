//! The shipped run: the view's default experiment, trained once by this code and saved as
//! `lessons/train-run.npz`, so that a class sees its result at once (the `train` lesson shows
//! it; `shipped=1` in the URL).
//!
//! The file is an NPZ (`numpy.load` reads it):
//!
//! - `settings.txt`: the run's settings as URL values (`task=order&enc=…`);
//! - `lens`: the test lengths;
//! - `<enc>/history`: per training step, the batch's loss, accuracy and number of targets;
//! - `<enc>/length`: per test length, the test set's loss, accuracy and targets (NaN where the
//!   encoding has no positions for that length);
//! - `<enc>/<tensor>`: the trained weights, as the view's weights export names them.
//!
//! It is written by `tests/train.rs` (`cargo test --test train -- --ignored
//! write_the_shipped_run`), which also checks, every run, that the file is what this code
//! computes for the default settings, bit for bit (training is the same on every platform:
//! `pe-train` uses `libm`).

use pe_train::model::{Params, Score};
use pe_train::run::{Session, Trainer};

use super::settings::{Enc, TrainState};
use crate::export::{npy, npz};
use crate::state::params::Notices;

/// Where the app fetches it (relative to the page), and where it is in the repository.
pub const FILE: &str = "lessons/train-run.npz";

/// The trained tensors of one encoding, as the view's weights export names them
/// (`<enc>/<tensor>`: `rope/blocks.0.wq`), with their shapes; tensors the encoding does not
/// have (a learned table, T5 biases) left out.
pub fn tensors(enc: Enc, t: &Trainer) -> Vec<(String, Vec<usize>, &[f64])> {
    t.params
        .names()
        .into_iter()
        .zip(t.params.shapes(&t.cfg))
        .zip(t.params.tensors())
        .filter(|(_, values)| !values.is_empty())
        .map(|((name, shape), values)| (format!("{}/{name}", enc.name()), shape, values.as_slice()))
        .collect()
}

fn score_row(s: &Score) -> [f64; 3] {
    [s.loss, s.accuracy, s.targets as f64]
}

/// The file of a finished run of `state`.
pub fn save(state: &TrainState, session: &Session) -> Vec<u8> {
    let query: Vec<String> = state
        .run_key()
        .to_query()
        .values
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let query = query.join("&");
    let lens: Vec<f64> = session.lens.iter().map(|&l| l as f64).collect();
    let mut owned: Vec<(String, Vec<usize>, Vec<f64>)> = vec![("lens".into(), vec![lens.len()], lens)];
    for (enc, (t, scores)) in state
        .encs
        .iter()
        .zip(session.trainers.iter().zip(&session.length_scores))
    {
        let e = enc.name();
        let history: Vec<f64> = t.history.iter().flat_map(score_row).collect();
        owned.push((format!("{e}/history"), vec![t.history.len(), 3], history));
        let length: Vec<f64> = scores
            .iter()
            .flat_map(|s| s.as_ref().map_or([f64::NAN; 3], score_row))
            .collect();
        owned.push((format!("{e}/length"), vec![scores.len(), 3], length));
        for (name, shape, values) in tensors(*enc, t) {
            owned.push((name, shape, values.to_vec()));
        }
    }
    let arrays: Vec<npz::Array> = owned
        .iter()
        .map(|(name, shape, values)| npz::Array {
            name,
            shape: shape.clone(),
            values,
        })
        .collect();
    npz::write_with(&arrays, &[("settings.txt", query.as_bytes())])
}

fn score_of(row: &[f64]) -> Option<Score> {
    (!row[0].is_nan()).then(|| Score {
        loss: row[0],
        accuracy: row[1],
        targets: row[2] as usize,
    })
}

/// The settings and the finished session of a file [`save`] wrote; an error, said in words,
/// for anything else.
pub fn load(bytes: &[u8]) -> Result<(TrainState, Session), String> {
    let members = npz::members(bytes)?;
    let file = |name: &str| {
        members
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| *d)
            .ok_or_else(|| format!("the saved run has no {name}"))
    };
    let array = |name: &str, shape: &[usize]| -> Result<Vec<f64>, String> {
        let (got, values) = npy::read_f64(file(&format!("{name}.npy"))?)?;
        if got != shape {
            return Err(format!("{name} is {got:?}, not {shape:?}"));
        }
        Ok(values)
    };
    let query = std::str::from_utf8(file("settings.txt")?)
        .map_err(|_| "the saved run's settings are not text".to_string())?;
    let pairs: Vec<(&str, &str)> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    let mut notices = Notices::default();
    let state = TrainState::read(
        &|k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string()),
        &mut notices,
    );
    if !notices.is_empty() {
        return Err("the saved run's settings are not settings this version reads".into());
    }
    let lens = state.test_lens();
    let saved: Vec<usize> = array("lens", &[lens.len()])?
        .iter()
        .map(|&l| l as usize)
        .collect();
    if saved != lens {
        return Err("the saved run's test lengths are not its settings'".into());
    }
    let mut trainers = Vec::new();
    let mut length_scores = Vec::new();
    for &enc in &state.encs {
        let e = enc.name();
        let cfg = state.config(enc);
        let mut params = Params::init(&cfg, state.seed);
        let names = params.names();
        let shapes = params.shapes(&cfg);
        for ((name, shape), t) in names.iter().zip(shapes).zip(params.tensors_mut()) {
            if !t.is_empty() {
                *t = array(&format!("{e}/{name}"), &shape)?;
            }
        }
        let history = array(&format!("{e}/history"), &[state.steps, 3])?;
        let history: Vec<Score> = history.chunks(3).filter_map(score_of).collect();
        if history.len() != state.steps {
            return Err(format!("{e}'s training history has gaps"));
        }
        let scores = array(&format!("{e}/length"), &[lens.len(), 3])?;
        length_scores.push(scores.chunks(3).map(score_of).collect());
        trainers.push(Trainer::restored(state.plan(), cfg, params, history));
    }
    let session = Session::restored(trainers, lens, length_scores, state.attention_lens());
    Ok((state, session))
}
