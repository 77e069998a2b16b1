//! Every number a student reads is a claim, and this file checks them. The texts are the
//! shipped lessons (`lessons/*.json`: every step's title, text and prompt) and the panels' and
//! views' fixed sentences (`pe_lab::captions::ALL`). Each claim names where it is said, the
//! phrase that says it, and a check that computes it from the core. The test fails when:
//! - a check fails (the sentence is wrong);
//! - a claim's phrase is no longer in its text (the sentence changed: check it again);
//! - a text holds a digit that no claim, source or name covers (a new number slipped in);
//! - a lesson step's text is longer than a projector can carry, or uses a tracked symbol
//!   before the step that defines it.
//!
//! Numbers that follow the state (live wavelengths, counts, break positions) are computed in
//! the views from the core at render time; they are not here.
#![cfg(not(target_arch = "wasm32"))]

use std::f64::consts::TAU;

use pe_lab::captions;
use pe_lab::encoding::attention::{output_changes, Positions, DIM, TOKENS};
use pe_lab::encoding::learned::Table;
use pe_lab::encoding::precision::{
    self, distinct_positions, first_break, Path, ERROR_FLOOR_RAD, EXACT_BREAK_SCAN,
};
use pe_lab::encoding::rope::{
    base_inv_freq, scale, yarn_correction_dim, yarn_mscale, Method, PairLayout, Rope, ScalingParams,
};
use pe_lab::encoding::similarity::{OffsetMap, PositionSimilarity};
use pe_lab::encoding::sinusoidal::{column_role, pair_count, ColumnKind, Layout, Sinusoid};
use pe_lab::state::lesson::{parse_lesson, Answer, Question};
use pe_lab::state::params::Notices;
use pe_lab::state::AppState;
use pe_lab::views::train::settings::{percent, Enc, TrainState};
use pe_lab::views::train::shipped;
use pe_train::run::Session;
use pe_train::task::Task;

/// Where a text is shown: `lesson:<lesson>/<step title>` or a caption's place.
type Place = String;

/// A claim: where it is said, the phrase that says it, and the check.
struct Claim {
    place: &'static str,
    phrase: &'static str,
    check: fn(),
}

const fn claim(place: &'static str, phrase: &'static str, check: fn()) -> Claim {
    Claim {
        place,
        phrase,
        check,
    }
}

/// Sources named in the texts: a digit inside one of these is a citation, not a claim. Each
/// is listed with the work it names.
const SOURCES: &[(&str, &str)] = &[
    ("Vaswani et al. (2017)", "Attention Is All You Need"),
    (
        "Kazemnejad et al., 2023",
        "The Impact of Positional Encoding on Length Generalization in Transformers (NeurIPS 2023)",
    ),
    ("Vaswani et al. 2017", "Attention Is All You Need"),
    (
        "Press et al., 2022",
        "Train Short, Test Long: Attention with Linear Biases (ALiBi)",
    ),
    (
        "Press et al. (2022)",
        "Train Short, Test Long: Attention with Linear Biases (ALiBi)",
    ),
    (
        "Su et al., 2021",
        "RoFormer: Enhanced Transformer with Rotary Position Embedding",
    ),
    (
        "Chen et al., 2023",
        "Extending Context Window of Large Language Models via Positional Interpolation",
    ),
    (
        "bloc97, 2023",
        "NTK-Aware Scaled RoPE (Reddit r/LocalLLaMA post)",
    ),
    (
        "bloc97's NTK-aware rule (2023)",
        "NTK-Aware Scaled RoPE (Reddit r/LocalLLaMA post)",
    ),
    (
        "emozilla, 2023",
        "Dynamically Scaled RoPE further increases performance of long context LLaMA with zero fine-tuning (Reddit r/LocalLLaMA post)",
    ),
    (
        "Men et al., 2024",
        "Base of RoPE Bounds Context Length (NeurIPS 2024)",
    ),
    (
        "Men et al. (2024)",
        "Base of RoPE Bounds Context Length (NeurIPS 2024)",
    ),
    (
        "Peng et al., 2023",
        "YaRN: Efficient Context Window Extension of Large Language Models",
    ),
    (
        "Ding et al., 2024",
        "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens",
    ),
    (
        "Raffel et al., 2020",
        "Exploring the Limits of Transfer Learning (T5)",
    ),
    (
        "huggingface/transformers#29285",
        "transformers pull request: RoPE in float32",
    ),
    (
        "EleutherAI/gpt-neox#1041",
        "GPT-NeoX pull request “Pre-compute RoPE embeddings in fp32”, merged 2023-09-25",
    ),
    (
        "issue #1003",
        "GPT-NeoX issue: RotaryEmbedding computation is wrong in reduced precision",
    ),
    (
        "NVIDIA/Megatron-LM#535",
        "Megatron-LM issue: float16 positions in rotary embeddings",
    ),
    ("Figure 2", "RoFormer's Figure 2 (the long-term decay)"),
];

/// Names that contain digits and are not numbers.
const NAMES: &[&str] = &[
    "all-MiniLM-L6-v2",
    "GPT-2",
    "Llama 4 Scout",
    "Gemma 3 4B",
    "Llama 3.1",
    "Llama 2",
    "Qwen2.5 7B",
    "Phi-3.5-mini",
    "Llama 3",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "T5",
    "mT5",
    "llama3",
    "p0",
    "W_q",
    "W_k",
];

const MAX_STEP_WORDS: usize = 35;

fn lesson_file(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/lessons/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("lesson file")
}

/// Every text a student reads, with its place.
fn texts() -> Vec<(Place, String)> {
    let mut out = Vec::new();
    for name in pe_lab::state::lesson::BUILT_IN {
        let lesson = parse_lesson(&lesson_file(name)).expect("valid lesson");
        for step in &lesson.steps {
            let place = format!("lesson:{name}/{}", step.title);
            out.extend(
                step.texts()
                    .into_iter()
                    .map(|t| (place.clone(), t.to_string())),
            );
        }
    }
    for c in captions::ALL {
        out.push((c.place.to_string(), c.text.to_string()));
    }
    let notation = pe_lab::state::notation::parse_notation(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/notation.json"))
            .expect("notation table"),
    )
    .expect("valid notation table");
    for s in notation.symbols {
        out.push((
            "notation".to_string(),
            format!("{}: {}", s.symbol, s.meaning),
        ));
    }
    for row in captions::COMPARE_ROWS {
        for cell in row {
            out.push(("compare-table".to_string(), cell.to_string()));
        }
    }
    out
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

fn step_state(lesson: &str, title: &str) -> AppState {
    let lesson = parse_lesson(&lesson_file(lesson)).expect("valid");
    lesson
        .steps
        .iter()
        .find(|s| s.title == title)
        .unwrap_or_else(|| panic!("no step “{title}”"))
        .app_state()
}

/// A step's question, and the state it reveals.
fn question(lesson: &str, title: &str) -> (Question, AppState) {
    let lesson = parse_lesson(&lesson_file(lesson)).expect("valid");
    let step = lesson
        .steps
        .into_iter()
        .find(|s| s.title == title)
        .unwrap_or_else(|| panic!("no step “{title}”"));
    let revealed = step.revealed_state();
    (step.question.expect("a question"), revealed)
}

/// The right choice of a multiple-choice question.
fn right_choice(q: &Question) -> &str {
    match &q.answer {
        Answer::Choice { choices, right } => &choices[*right],
        Answer::Number { .. } => panic!("not a multiple-choice question"),
    }
}

fn minilm() -> Table {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/minilm_l6_v2_position_embeddings.f16"
    ))
    .expect("MiniLM table");
    Table::from_f16_le(&bytes, 512, 384).expect("512 × 384 table")
}

fn pe(d_model: usize) -> Sinusoid {
    Sinusoid::new(d_model, 10000.0, Layout::Interleaved)
}

fn stored(path: Path, pos: u64) -> f64 {
    path.stored_position(pos)
}

/// The exact first break positions of the precision lesson's state (head_dim 128, base 10000).
fn break_at(path: Path, limit: u64) -> Option<u64> {
    first_break(path, 128, 10000.0, 0.1, 1..=limit)
}

/// Pairs of a 128-dimensional head (base 10000) whose wavelength exceeds 4096.
fn slow_pairs_past_4096() -> usize {
    base_inv_freq(10000.0, 128)
        .iter()
        .filter(|&&w| TAU / w > 4096.0)
        .count()
}

/// RoFormer's bound for any q and k (here random), max_i |h_{i+1} − h_i| · Σ_{i=1}^{D/2} |S_i|
/// with h_{D/2} = 0, divided by that largest change and by D/2, is the blue curve's mean.
fn check_relative_bound() {
    let d = 16;
    let w = base_inv_freq(10000.0, d);
    let mut rng = pe_lab::encoding::rope::SeededNormal::new(7);
    let (q, k) = (rng.vector(d), rng.vector(d));
    // Pair i as a complex number (interleaved): h_i = q_i · conj(k_i); h_{D/2} = 0.
    let mut h: Vec<(f64, f64)> = (0..d / 2)
        .map(|i| {
            let (a, b, c, e) = (q[2 * i], q[2 * i + 1], k[2 * i], k[2 * i + 1]);
            (a * c + b * e, b * c - a * e)
        })
        .collect();
    h.push((0.0, 0.0));
    let change = h
        .windows(2)
        .map(|p| (p[1].0 - p[0].0).hypot(p[1].1 - p[0].1))
        .fold(0.0, f64::max);
    let mean = pe_lab::encoding::rope::su_bound_series(&w, 5.0, 3);
    for (step, m) in mean.iter().enumerate() {
        let delta = 5.0 * step as f64;
        let (mut sum, mut total) = ((0.0f64, 0.0f64), 0.0);
        let mut score = 0.0;
        for (i, wl) in w.iter().enumerate() {
            sum = (sum.0 + (delta * wl).cos(), sum.1 + (delta * wl).sin());
            total += sum.0.hypot(sum.1);
            score += h[i].0 * (delta * wl).cos() - h[i].1 * (delta * wl).sin();
        }
        let bound = change * total;
        assert!(close(bound / (change * (d / 2) as f64), *m, 1e-12));
        assert!(
            score.abs() <= bound + 1e-9,
            "the bound holds at Δ = {delta}"
        );
    }
}

fn yarn(factor: f64) -> pe_lab::encoding::rope::Scaled {
    let p = ScalingParams {
        factor,
        orig_ctx: 4096,
        ..ScalingParams::default()
    };
    scale(Method::Yarn, 10000.0, 128, &p).expect("yarn")
}

const SEED_MATRIX: &str = "lesson:seed/The encoding is a matrix";
const SEED_SIN_COS: &str = "lesson:seed/Sine on even columns, cosine on odd columns";
const SEED_COLUMNS: &str = "lesson:seed/2i and 2i + 1 are column numbers";
const SEED_PAIR: &str = "lesson:seed/The pair index i";
const SEED_SHARE: &str = "lesson:seed/A pair shares one frequency";
const SEED_LOOP: &str = "lesson:seed/The same matrix, column by column";
const SEED_FAST: &str = "lesson:seed/Fast columns and slow columns";
const SEED_SIMILARITY: &str = "lesson:seed/How similar are two positions?";
const SEED_WHY_COS: &str = "lesson:seed/Why sin and cos";
const SEED_ANY_LENGTH: &str = "lesson:seed/Fixed, with no parameters, at any length";
const SEED_WALL: &str = "lesson:seed/Learned positions stop at a wall";
const SEED_ROPE: &str = "lesson:seed/RoPE rotates the query and the key";
const SEED_RELATIVE: &str = "lesson:seed/RoPE: the score depends only on m − n";
const SEED_DECAY: &str = "lesson:seed/RoPE's long-term decay";
const SEED_DECAY_NEEDS: &str = "lesson:seed/Decay needs aligned queries and keys";
const SEED_PAST: &str = "lesson:seed/Past the training length, slow pairs meet new angles";
const SEED_NTK: &str = "lesson:seed/NTK-aware scaling raises the base";
const SEED_YARN: &str = "lesson:seed/YaRN keeps fast pairs, interpolates slow ones";
const SEED_ALPHA: &str = "lesson:seed/YaRN's attention factor";
const P_BF16: &str = "lesson:precision/bfloat16 cannot count past 256";
const P_F16: &str = "lesson:precision/float16 rounds positions from 2049";
const P_INF: &str = "lesson:precision/float16 runs out at 65520";
const P_FLAT: &str = "lesson:precision/Only m − n matters, until it does not";
const P_ANGLES: &str = "lesson:precision/Angles break before positions do";
const P_F32: &str = "lesson:precision/Keep positions and angles in float32";
const SEED_LONGROPE: &str = "lesson:seed/LongRoPE searches a factor for every pair";

fn check_rows_stay() {
    let s = step_state("seed", "The encoding is a matrix").sinusoidal;
    assert_eq!(s.seq_len, 50);
    let pe = Sinusoid::new(s.d_model, s.base, s.layout);
    let short = pe.matrix(50);
    assert_eq!(
        short[..],
        pe.matrix(100)[..short.len()],
        "rows 0–49 do not change"
    );
    let (q, revealed) = question("seed", "The encoding is a matrix");
    assert!(right_choice(&q).starts_with("No"));
    assert_eq!(revealed.sinusoidal.seq_len, 100);
}

fn check_col301() {
    assert_eq!(
        column_role(301, 512, Layout::Interleaved),
        (150, ColumnKind::Cos)
    );
    assert_eq!(
        column_role(300, 512, Layout::Interleaved),
        (150, ColumnKind::Sin)
    );
    let (q, revealed) = question("seed", "2i and 2i + 1 are column numbers");
    assert_eq!(right_choice(&q), "The cosine of pair 150");
    assert_eq!(
        (revealed.sinusoidal.d_model, revealed.highlight.cols.clone()),
        (512, vec![301])
    );
    assert!(
        revealed.sinusoidal.seq_len > 1387,
        "one whole wave of column 301 is shown"
    );
}

fn check_col10() {
    assert_eq!(
        column_role(10, 11, Layout::Interleaved),
        (5, ColumnKind::Sin)
    );
    assert_eq!(pair_count(11), 6);
    assert_ne!(
        column_role(10, 11, Layout::Interleaved),
        (4, ColumnKind::Cos)
    );
    let (q, revealed) = question("seed", "The pair index i");
    assert_eq!(right_choice(&q), "The sine of pair 5, with no cosine");
    assert_eq!(revealed.sinusoidal.d_model, 11);
}

fn check_equal_dots() {
    let p = pe(128);
    let dot = |a: usize, b: usize| {
        let (mut x, mut y) = (vec![0.0; 128], vec![0.0; 128]);
        p.fill_row(a, &mut x);
        p.fill_row(b, &mut y);
        x.iter().zip(&y).map(|(u, v)| u * v).sum::<f64>()
    };
    assert!(close(dot(10, 20), dot(100, 110), 1e-12));
    let pairs = 64;
    let formula: f64 = (0..pairs).map(|i| (10.0 * p.omegas[i]).cos()).sum();
    assert!(close(dot(10, 20), formula, 1e-9));
    let (q, revealed) = question("seed", "How similar are two positions?");
    assert_eq!(right_choice(&q), "They are equal");
    assert_eq!(revealed.sinusoidal.p0, 10);
    const { assert!(pe_lab::views::sinusoidal::state::P0.max >= 110) };
}

fn claims() -> Vec<Claim> {
    vec![
        // ---- The seed lesson ----
        claim(SEED_MATRIX, "The outlined row is PE[10], the vector added to the token at position 10", || {
            assert_eq!(step_state("seed", "The encoding is a matrix").highlight.positions, vec![10]);
        }),
        claim(SEED_MATRIX, "The text grows from 50 to 100 positions. Do rows 0 to 49 of PE change?", check_rows_stay),
        claim(SEED_MATRIX, "Only the last rows before 50 change", check_rows_stay),
        claim(SEED_MATRIX, "row pos depends on pos, d_model and base, not on seq_len, so rows 0 to 49 stay and rows 50 to 99 are added below", check_rows_stay),
        claim(SEED_MATRIX, "Predict whether row 10 changes when d_model goes from 128 to 64", || {
            // The answer to see: it does, every ω_i depends on d_model.
            let s = step_state("seed", "The encoding is a matrix");
            assert_eq!((s.highlight.positions.clone(), s.sinusoidal.d_model), (vec![10], 128));
            let (mut a, mut b) = (vec![0.0; 128], vec![0.0; 64]);
            pe(128).fill_row(10, &mut a);
            pe(64).fill_row(10, &mut b);
            assert!(a[..64].iter().zip(&b).any(|(x, y)| (x - y).abs() > 0.1));
        }),
        claim(SEED_SIN_COS, "Column 2i holds sin(pos / 10000^(2i/d_model)), column 2i + 1 the cosine", check_formula),
        claim(SEED_SIN_COS, "With d_model = 8 the sine columns are 0, 2, 4 and 6", || {
            let sines: Vec<usize> = (0..8).filter(|&c| column_role(c, 8, Layout::Interleaved).1 == ColumnKind::Sin).collect();
            assert_eq!(sines, vec![0, 2, 4, 6]);
            assert_eq!(step_state("seed", "Sine on even columns, cosine on odd columns").highlight.cols, sines);
        }),
        claim(SEED_COLUMNS, "The 2i and 2i + 1 of the formula", check_formula),
        claim(SEED_COLUMNS, "2i and 2i + 1 are column numbers", check_formula),
        claim(SEED_COLUMNS, "In an encoding with d_model = 512, what does column 301 hold?", check_col301),
        claim(SEED_COLUMNS, "The sine of pair 150", check_col301),
        claim(SEED_COLUMNS, "The cosine of pair 150", check_col301),
        claim(SEED_COLUMNS, "The sine of pair 301", check_col301),
        claim(SEED_COLUMNS, "The cosine of pair 300", check_col301),
        claim(SEED_COLUMNS, "Predict the pair and function of column 510, then hover the right edge until the readout says col 510", || {
            assert_eq!(column_role(510, 512, Layout::Interleaved), (255, ColumnKind::Sin));
        }),
        claim(SEED_COLUMNS, "301 is odd, so it is column 2i + 1 with i = (301 − 1)/2 = 150: the cosine of pair 150, whose sine is in column 300", check_col301),
        claim(SEED_PAIR, "pair i fills columns 2i and 2i + 1", check_formula),
        claim(SEED_PAIR, "With d_model = 8 there are 4 pairs, i = 0 to 3", || assert_eq!(pair_count(8), 4)),
        claim(SEED_PAIR, "With d_model = 11, what does the last column, column 10, hold?", check_col10),
        claim(SEED_PAIR, "The sine of pair 5, with no cosine", check_col10),
        claim(SEED_PAIR, "The cosine of pair 4", check_col10),
        claim(SEED_PAIR, "The sine of pair 10", check_col10),
        claim(SEED_PAIR, "Column 10 is even, so it is 2i with i = 5, and its partner 2i + 1 = 11 does not exist: pair 5 has a sine only", check_col10),
        claim(SEED_PAIR, "Set d_model to 12: which column does pair 5's cosine take?", || {
            // The answer to see: column 11.
            assert_eq!(column_role(11, 12, Layout::Interleaved), (5, ColumnKind::Cos));
        }),
        claim(SEED_SHARE, "Columns 4 and 5 are pair 2: the sine and cosine of one angle, pos·ω_2", || {
            assert_eq!(column_role(4, 20, Layout::Interleaved), (2, ColumnKind::Sin));
            assert_eq!(column_role(5, 20, Layout::Interleaved), (2, ColumnKind::Cos));
        }),
        claim(SEED_SHARE, "ω_i = base^(−2i/d_model), with base = 10000", || {
            let p = pe(20);
            assert!(close(p.omegas[2], 10000f64.powf(-4.0 / 20.0), 1e-15));
        }),
        claim(SEED_LOOP, "an even col uses col / d_model in the exponent and an odd col (col − 1) / d_model, so columns 4 and 5 share pair 2", || {
            let p = pe(8);
            for pos in [1usize, 7, 30] {
                assert!(close(p.value(pos, 4), (pos as f64 / 10000f64.powf(4.0 / 8.0)).sin(), 1e-12));
                assert!(close(p.value(pos, 5), (pos as f64 / 10000f64.powf((5.0 - 1.0) / 8.0)).cos(), 1e-12));
            }
        }),
        claim(SEED_LOOP, "for column 7, then click pair 3's row", || {
            assert_eq!(column_role(7, 8, Layout::Interleaved), (3, ColumnKind::Cos));
        }),
        claim(SEED_FAST, "column 16 completes one wave in 100 positions", || {
            let s = step_state("seed", "Fast columns and slow columns").sinusoidal;
            assert_eq!((s.seq_len, s.d_model), (100, 20));
            let p = pe(20);
            let (i, _) = column_role(16, 20, Layout::Interleaved);
            assert!(p.wavelength(i) > 100.0, "it does not: λ = {}", p.wavelength(i));
        }),
        claim(SEED_FAST, "λ_i = 2π/ω_i", check_wavelength),
        claim(SEED_SIMILARITY, "d_model/2 = 64", || {
            let s = step_state("seed", "How similar are two positions?").sinusoidal;
            assert_eq!(s.d_model, 128);
            let sim = PositionSimilarity::new(&pe(128));
            assert!(close(sim.dot(64, 64), 64.0, 1e-12));
        }),
        claim(SEED_SIMILARITY, "With d_model = 128, so that every sine column has its cosine", || {
            let (_, state) = question("seed", "How similar are two positions?");
            assert_eq!(state.sinusoidal.d_model, 128);
            assert!(!PositionSimilarity::new(&pe(128)).has_lone_column());
        }),
        claim(SEED_SIMILARITY, "PE[10]·PE[20]", check_equal_dots),
        claim(SEED_SIMILARITY, "PE[100]·PE[110]", check_equal_dots),
        claim(SEED_SIMILARITY, "Σ_i cos((pos − p0)·ω_i) depends only on the offset pos − p0, which is 10 for both", check_equal_dots),
        claim(SEED_SIMILARITY, "move p0 to 64 and compare pos = 54 with pos = 74", || {
            // The answer to see: symmetric, cos is even.
            let sim = PositionSimilarity::new(&pe(128));
            assert!(close(sim.dot(64, 54), sim.dot(64, 74), 1e-12));
        }),
        claim(SEED_WHY_COS, "then set d_model to 15", || {
            // As the panel measures it: 24 positions spread over the 128 shown.
            let s = step_state("seed", "Why sin and cos").sinusoidal;
            assert_eq!((s.seq_len, s.d_model, s.offset), (128, 16, 1000));
            let residual = |d: usize| OffsetMap::new(&pe(d), 1000).residual(1000, (0..128).step_by(6));
            assert!(residual(15) > 0.1, "the lone sine must break the map: {}", residual(15));
            assert!(residual(16) < 1e-9);
        }),
        claim(SEED_WALL, "all-MiniLM-L6-v2 has one 384-dimensional vector for each of 512 positions. Past position 511", || {
            let t = minilm();
            assert_eq!((t.rows, t.cols), (512, 384));
        }),
        claim(SEED_WALL, "for position 600, then move Sequence length below 512", || {
            let s = step_state("seed", "Learned positions stop at a wall").learned;
            assert!(s.seq_len > 600 && minilm().rows == 512);
        }),
        claim(SEED_ROPE, "ω_i = base^(−2i/D), here base = 10000, D = head_dim = 64", || {
            let s = step_state("seed", "RoPE rotates the query and the key").rope;
            assert_eq!((s.head_dim, s.theta, s.rotary_dim()), (64, 10000.0, 64));
            let w = base_inv_freq(10000.0, 64);
            assert!(close(w[5], 10000f64.powf(-10.0 / 64.0), 1e-15));
        }),
        claim(SEED_ROPE, "barely move between position 10 and 20", || {
            let w = base_inv_freq(10000.0, 64);
            assert!(10.0 * w[31] < 0.01, "the slowest clock turns {} rad", 10.0 * w[31]);
            assert!(10.0 * w[0] > 1.0);
        }),
        claim(SEED_RELATIVE, "queries at 500, 1000 and 5000 draw one curve", || {
            let s = step_state("seed", "RoPE: the score depends only on m − n").rope;
            assert_eq!(s.m, vec![500, 1000, 5000]);
            let r = Rope::plain(64, 1.0, 10000.0, PairLayout::Interleaved);
            let ones = vec![1.0; 64];
            for delta in [0.0, 3.0, 100.0, 256.0] {
                let at = |m: f64| r.score(&ones, &ones, m, m - delta);
                assert!(close(at(500.0), at(1000.0), 1e-9) && close(at(500.0), at(5000.0), 1e-9));
            }
        }),
        claim(SEED_PAST, "L₀ = 4096", || {
            assert_eq!(step_state("seed", "Past the training length, slow pairs meet new angles").scaling.orig_ctx, 4096);
        }),
        claim(SEED_PAST, "how many of the 64 pairs", || {
            assert_eq!(base_inv_freq(10000.0, 128).len(), 64);
            assert_eq!(slow_pairs_past_4096(), 18);
        }),
        claim(SEED_NTK, "D = head_dim = 128", || {
            let s = step_state("seed", "NTK-aware scaling raises the base").scaling;
            assert_eq!((s.head_dim, s.rotary_dim()), (128, 128));
        }),
        claim(SEED_NTK, "pair 0 keeps its frequency, and the slowest pair is divided by exactly s", || {
            let p = ScalingParams { factor: 16.0, ..ScalingParams::default() };
            let ntk = scale(Method::Ntk, 10000.0, 128, &p).expect("ntk");
            let base = base_inv_freq(10000.0, 128);
            assert!(close(ntk.theta.unwrap(), 10000.0 * 16f64.powf(128.0 / 126.0), 1e-12));
            assert!(close(ntk.inv_freq[0], base[0], 1e-15));
            assert!(close(ntk.inv_freq[63], base[63] / 16.0, 1e-12));
        }),
        claim(SEED_YARN, "more than β_fast = 32 times in L₀, divides those under β_slow = 1 turn by s", || {
            let d = ScalingParams::default();
            assert_eq!((d.beta_fast, d.beta_slow), (32.0, 1.0));
            let y = yarn(16.0);
            let base = base_inv_freq(10000.0, 128);
            for (i, (&w, &b)) in y.inv_freq.iter().zip(&base).enumerate() {
                let turns = 4096.0 * b / TAU;
                if turns > 32.0 {
                    assert!(close(w, b, 1e-15), "pair {i} ({turns} turns) must keep ω_i");
                }
                if turns < 1.0 {
                    assert!(close(w, b / 16.0, 1e-12), "pair {i} ({turns} turns) must be divided by s");
                }
            }
        }),
        claim(SEED_YARN, "The factor s goes from 16 to 32. Where does the shaded ramp go?", || {
            // The revealed answer: the ramp depends on β and L₀, not on s.
            assert_eq!(yarn(16.0).correction, yarn(32.0).correction);
            let (q, revealed) = question("seed", "YaRN keeps fast pairs, interpolates slow ones");
            assert_eq!(right_choice(&q), "Nowhere: it stays where it is");
            assert_eq!(revealed.scaling.factor, 32.0);
            assert!(yarn_correction_dim(32.0, 128, 10000.0, 4096) < yarn_correction_dim(1.0, 128, 10000.0, 4096));
        }),
        claim(SEED_DECAY_NEEDS, "the mean of 64 random draws of q and k", || {
            // The green curve: the mean score of 64 random (q, k), near zero at every distance.
            let r = Rope::plain(128, 1.0, 10000.0, PairLayout::Interleaved);
            assert_eq!(pe_lab::encoding::rope::RANDOM_DRAWS, 64);
            let w = pe_lab::encoding::rope::mean_random_weights(&r, 0);
            let ys = r.score_series(&w, 1.0, 251);
            assert!(ys.iter().all(|v| v.abs() < 6.0), "the average stays near zero (|score| ≤ 128 at Δ = 0 for q = k = 1)");
        }),
        claim(SEED_NTK, "base·s^(D/(D−2))", check_ntk_base),
        claim(SEED_NTK, "Predict which changes pair 32 more, NTK or position interpolation, then compare their curves at pair 32", || {
            // The answer to see: position interpolation divides ω_32 by 16, NTK by about 4.1.
            let s = step_state("seed", "NTK-aware scaling raises the base").scaling;
            assert_eq!(s.methods, vec![Method::None, Method::Linear, Method::Ntk]);
            let p = ScalingParams { factor: 16.0, ..ScalingParams::default() };
            let base = base_inv_freq(10000.0, 128);
            let ntk = scale(Method::Ntk, 10000.0, 128, &p).unwrap();
            let pi = scale(Method::Linear, 10000.0, 128, &p).unwrap();
            let (by_ntk, by_pi) = (base[32] / ntk.inv_freq[32], base[32] / pi.inv_freq[32]);
            assert!((by_ntk - 4.09).abs() < 0.01 && close(by_pi, 16.0, 1e-12), "{by_ntk} {by_pi}");
        }),
        claim(SEED_ALPHA, "α² ≈ 1.63", || assert!((yarn(16.0).attention.powi(2) - 1.63).abs() < 0.005)),
        claim(SEED_ALPHA, "α = 0.1·ln s + 1, about 1.28 at s = 16", || {
            assert!(close(yarn(16.0).attention, 0.1 * 16f64.ln() + 1.0, 1e-12));
            assert!((yarn(16.0).attention - 1.28).abs() < 0.005);
            assert!(close(yarn_mscale(16.0, 1.0), 1.0 + 0.1 * 16f64.ln(), 1e-12));
        }),
        claim(SEED_ALPHA, "height at distance 0", || {
            let y = yarn(16.0);
            let r = Rope::new(128, 128, PairLayout::Half, y.inv_freq.clone(), y.attention);
            let ones = vec![1.0; 128];
            assert!(close(r.score(&ones, &ones, 5.0, 5.0), 128.0 * y.attention * y.attention, 1e-9));
        }),
        claim(SEED_ANY_LENGTH, "a model trained on 512 positions would stop, then look down the rows past 512", || {
            // The answer to see: nothing marks it; the rows go on past 512 alike.
            let s = step_state("seed", "Fixed, with no parameters, at any length").sinusoidal;
            assert!(s.seq_len > 1024);
            assert!(pe(128).value(700, 0).is_finite());
        }),
        claim("lesson:seed/The schemes side by side", "ω_i = base^(−2i/d_model) or base^(−2i/D)", || {
            check_formula();
            assert!(close(base_inv_freq(10000.0, 128)[5], pe(128).omegas[5], 1e-15));
        }),
        claim(SEED_LONGROPE, "These lists are illustrative: long 1→s, short 1", || {
            let s = step_state("seed", "LongRoPE searches a factor for every pair").scaling;
            assert!(s.long_factor.is_none(), "the illustrative lists are shown");
            let (_, long) = pe_lab::views::scaling::state::illustrative_longrope(64, 16.0);
            assert!(close(long[0], 1.0, 1e-15) && close(long[63], 16.0, 1e-12));
            assert!(long.windows(2).all(|w| w[1] > w[0]));
            let (short, _) = pe_lab::views::scaling::state::illustrative_longrope(64, 16.0);
            assert!(short.iter().all(|&f| f == 1.0));
        }),
        claim(SEED_LONGROPE, "below 4096", || {
            // Inside L₀ the short factors apply (all 1 here): the original frequencies.
            let s = step_state("seed", "LongRoPE searches a factor for every pair").scaling;
            assert_eq!(s.orig_ctx, 4096);
        }),
        // ---- The precision lesson ----
        claim(P_BF16, "past 256", check_bf16_256),
        claim(P_BF16, "bfloat16 keeps 8 significant bits: whole numbers up to 256 are exact; from 256 to 512 only even ones are stored, then every 4th, 8th…, ties going to a last stored bit of 0", || {
            let gap = |p: u64| stored(Path::Bf16Cache, p + 1) - stored(Path::Bf16Cache, p);
            assert!((256..511).all(|p| stored(Path::Bf16Cache, p) % 2.0 == 0.0));
            assert!((512..1023).all(|p| stored(Path::Bf16Cache, p) % 4.0 == 0.0) && (1024..2047).all(|p| stored(Path::Bf16Cache, p) % 8.0 == 0.0));
            assert!(gap(255) == 1.0 && (gap(600) == 0.0 || gap(600) == 4.0));
            // Round to nearest, ties to even: 257 and 259 are ties between stored neighbours.
            assert_eq!((stored(Path::Bf16Cache, 257), stored(Path::Bf16Cache, 259)), (256.0, 260.0));
            assert_eq!(half::bf16::from_f32(260.0).to_bits() & 1, 0);
            check_bf16_256();
            assert_eq!(half::bf16::MANTISSA_DIGITS, 8);
        }),
        claim(P_BF16, "What does bfloat16 store for position 257?", || {
            let (q, _) = question("precision", "bfloat16 cannot count past 256");
            assert_eq!(q.answer, Answer::Number { value: stored(Path::Bf16Cache, 257), tolerance: 0.0 });
        }),
        claim(P_BF16, "256: 257 lies halfway between the stored 256 = 2·128 and 258 = 2·129, and the tie goes to the even mantissa, 128, whose last stored bit is 0", || {
            assert_eq!(stored(Path::Bf16Cache, 257), 256.0);
            assert_eq!(stored(Path::Bf16Cache, 258), 258.0);
            assert!((257..512).all(|p| stored(Path::Bf16Cache, p) % 2.0 == 0.0));
            // 256 = 1.0000000·2⁸ (last stored bit 0), 258 = 1.0000001·2⁸ (last bit 1).
            assert_eq!(half::bf16::from_f32(256.0).to_bits() & 1, 0);
            assert_eq!(half::bf16::from_f32(258.0).to_bits() & 1, 1);
            let (_, revealed) = question("precision", "bfloat16 cannot count past 256");
            assert_eq!(revealed.precision.pos, 257);
        }),
        claim(P_BF16, "among positions 0…4096, then move Position to 4096", || {
            // The revealed answer: 769 stored values (4095 itself rounds up to 4096).
            assert_eq!(distinct_positions(Path::Bf16Cache, 4095), 769);
            const { assert!(pe_lab::views::precision::state::PREC_POS.max >= 4096.0) };
        }),
        claim(P_F16, "from 2049", check_f16_2048),
        claim(P_F16, "float16 keeps 11 significant bits: whole numbers are exact up to 2048, and 2049 is stored as 2048", || {
            check_f16_2048();
            assert_eq!(half::f16::MANTISSA_DIGITS, 11);
        }),
        claim(P_F16, "near 3000", || {
            // The revealed answer: stored values 2 apart (every odd position rounds to a neighbour).
            assert_eq!(stored(Path::Fp16Seq, 3002) - stored(Path::Fp16Seq, 3000), 2.0);
            assert!(stored(Path::Fp16Seq, 3001) != 3001.0);
            assert_eq!(step_state("precision", "float16 rounds positions from 2049").precision.pos, 3000);
        }),
        claim(P_INF, "at 65520", check_f16_inf),
        claim(P_INF, "float16's largest finite value is 65504: position 65520 and beyond", check_f16_inf),
        claim(P_INF, "Predict pair 0's angle error at position 65519, which float16 stores as 65504, then move Position to 65519", || {
            // The answer to see: pair 0 turns one radian a position, so 15 positions lost are
            // 15 rad, about 2.43 rad once wrapped.
            check_f16_inf();
            assert_eq!(stored(Path::Fp16Seq, 65519), 65504.0);
            let ex = precision::inv_freq(Path::Exact, 128, 10000.0);
            let inv = precision::inv_freq(Path::Fp16Seq, 128, 10000.0);
            let (a, b) = (precision::angles(Path::Fp16Seq, &inv, 65519), precision::angles(Path::Exact, &ex, 65519));
            let e = precision::wrapped_difference(a[0], b[0]).abs();
            assert!((e - 2.43).abs() < 0.01, "{e}");
            const { assert!(pe_lab::views::precision::state::PREC_POS.max >= 65519.0) };
        }),
        claim(P_FLAT, "Near 100,000 bfloat16 steps by 512: the query at m = 100,000 and every key within 64 of it are stored as 99,840", || {
            let s = step_state("precision", "Only m − n matters, until it does not").precision;
            assert_eq!((s.m, s.max_dist), (100_000, 64));
            assert_eq!(stored(Path::Bf16Cache, 100_352) - stored(Path::Bf16Cache, 99_840), 512.0);
            for n in 100_000 - 64..=100_000 {
                assert_eq!(stored(Path::Bf16Cache, n), 99_840.0);
            }
            let inv = precision::inv_freq(Path::Bf16Cache, 128, 10000.0);
            let distances: Vec<u64> = (0..=64).collect();
            let scores = precision::scores(Path::Bf16Cache, &inv, 100_000, &distances);
            assert!(scores.iter().all(|&v| v == scores[0]), "the curve is flat");
        }),
        claim(P_FLAT, "at m = 1000, then move Query position m to 1000", || {
            // The revealed answer: steps 4 positions wide (bfloat16 spacing between 512 and 1024).
            assert_eq!(stored(Path::Bf16Cache, 1004) - stored(Path::Bf16Cache, 1000), 4.0);
            assert!((1000..1004).all(|p| stored(Path::Bf16Cache, p) % 4.0 == 0.0));
        }),
        claim(P_ANGLES, "first exceeds 0.1 rad at position 40, float16's at 182", || {
            assert_eq!(break_at(Path::Bf16Cache, 1000), Some(40));
            assert_eq!(break_at(Path::Fp16Seq, 1000), Some(182));
            // Long before positions stop being exact: 255 is exact in bfloat16, its angle is not.
            assert_eq!(stored(Path::Bf16Cache, 255), 255.0);
            let e = first_break_error(Path::Bf16Cache, 255);
            assert!((e - 0.59).abs() < 0.005, "{e}");
        }),
        claim(P_ANGLES, "the float32 path passes 0.1 rad", || {
            // The answer: past the readout's exact scan, tens of thousands of times later.
            let f32_at = break_at(Path::HfF32, 2_000_000).unwrap();
            assert!(f32_at > EXACT_BREAK_SCAN);
            assert!(f32_at / break_at(Path::Bf16Cache, 1000).unwrap() > 10_000);
        }),
        claim(P_F32, "within 0.1 rad past a million positions", || {
            let at = break_at(Path::HfF32, 2_000_000).expect("float32 breaks before 2 million");
            assert!((1_000_000..2_000_000).contains(&at), "{at}");
        }),
        claim(P_F32, "still holds past a million positions at a larger base (Llama 3 uses 500000)", || {
            // The answer: yes, at 500000 too (transformers' float32 path, head_dim 128).
            let at = first_break(Path::HfF32, 128, 500000.0, 0.1, 1..=2_000_000).unwrap();
            assert!((1_000_000..2_000_000).contains(&at), "{at}");
        }),
        claim(P_F32, "(Llama 3 uses 500000)", || {
            assert!(pe_lab::views::precision::state::PRECISION_PRESETS.iter().any(|p| p.name.starts_with("Llama 3") && p.query.contains("theta=500000")));
        }),
        // ---- The Notation table ----
        claim("notation", "in the concatenated one it couples column i with column ⌈d_model/2⌉ + i", || {
            // d_model 7: ⌈7/2⌉ = 4 pairs; pair 1's sine is column 1, its cosine column 5.
            let p = Sinusoid::new(7, 10000.0, Layout::Concat);
            let m = OffsetMap::new(&p, 3);
            let turn = 3.0 * p.omegas[1];
            for (r, c, v) in [(1, 1, turn.cos()), (1, 5, turn.sin()), (5, 5, turn.cos()), (5, 1, -turn.sin())] {
                assert!(close(m.entry(r, c), v, 1e-12), "({r}, {c})");
            }
            assert!((0..7).filter(|&c| c != 1 && c != 5).all(|c| m.entry(1, c) == 0.0));
        }),
        claim("notation", "counted from 0", || {
            // Row 0 is position 0: sin 0 = 0 and cos 0 = 1.
            assert_eq!((pe(8).value(0, 0), pe(8).value(0, 1)), (0.0, 1.0));
        }),
        claim("notation", "0 ≤ col < d_model", || assert_eq!(pe(8).matrix(1).len(), 8)),
        claim("notation", "10000 in Vaswani et al. and RoFormer", || {
            assert_eq!(pe_lab::views::sinusoidal::state::BASE.default, 10000.0);
            assert_eq!(pe_lab::views::rope::state::THETA.default, 10000.0);
        }),
        claim("notation", "columns 2i and 2i + 1 in the interleaved layout). 0 ≤ i < ⌈d_model/2⌉, or D/2 in RoPE", || {
            check_formula();
            assert_eq!(pair_count(9), 5);
            assert_eq!(base_inv_freq(10000.0, 64).len(), 32);
        }),
        claim("notation", "base^(−2i/d_model)", check_formula),
        claim("notation", "base^(−2i/D)", || assert!(close(base_inv_freq(500.0, 16)[3], 500f64.powf(-6.0 / 16.0), 1e-15))),
        claim("notation", "2π/ω_i", check_wavelength),
        claim("notation", "√(1/t) = α = 0.1·ln s + 1", || assert!(close(yarn(9.0).attention, 0.1 * 9f64.ln() + 1.0, 1e-12))),
        // ---- Panels and view introductions ----
        claim(SEED_DECAY, "q = k = 1", check_ones_score),
        claim("rope-decay", "q = k = 1", check_ones_score),
        claim("compare-similarity", "q = k = 1", check_ones_score),
        claim("compare-similarity", "divided by its value at Δ = 0: at equal width (128 here)", || {
            assert_eq!(pe_lab::views::compare::state::COMPARE_WIDTH, 128);
        }),
        claim("rope-angles", "ω_i = base^(−2i/D)", || assert!(close(base_inv_freq(500.0, 16)[3], 500f64.powf(-6.0 / 16.0), 1e-15))),
        claim("precision-score", "q = k = 1", check_ones_score),
        claim("scaling-score-distance", "for α > 1, as both defaults are for s > 1, a sharper softmax", || {
            for f in [1.5, 4.0, 32.0] {
                assert!(yarn(f).attention > 1.0);
                let p = ScalingParams { factor: f, long_factor: vec![1.0; 64], short_factor: vec![1.0; 64], seq_len: Some(65536), ..ScalingParams::default() };
                assert!(scale(Method::LongRope, 10000.0, 128, &p).unwrap().attention > 1.0);
            }
            assert!(close(yarn(1.0).attention, 1.0, 1e-15));
        }),
        claim("scaling-score-distance", "temperature t < 1", || {
            // Logits divided by t = 1/α²: below 1 whenever s > 1.
            for s in [1.5, 4.0, 32.0] {
                assert!(1.0 / (yarn(s).attention * yarn(s).attention) < 1.0);
            }
        }),
        claim("permutation-demo", "8-dimensional", || assert_eq!(DIM, 8)),
        claim("lesson:seed/Why position?", "every token's change in the table non-zero, as sinusoidal PE does", || {
            // The step's own order and settings (no causal mask): every token's output moves.
            let s = step_state("seed", "Why position?").attention;
            assert!(!s.causal);
            let changes = output_changes(&s.order, Positions::Sinusoidal, false);
            assert!(changes.iter().all(|c| *c > 1e-3), "{changes:?}");
        }),
        claim("permutation-demo", "every change is zero", || {
            let order: Vec<usize> = (0..TOKENS.len()).rev().collect();
            assert!(output_changes(&order, Positions::None, false).iter().all(|c| c.abs() < 1e-12));
        }),
        claim("permutation-demo", "with a causal mask: each token attends only to itself and the tokens before it", || {
            let r = pe_lab::encoding::attention::attend(&TOKENS, Positions::None, true);
            for (i, row) in r.weights.iter().enumerate() {
                assert!(row[i] > 0.0 && row[i + 1..].iter().all(|w| *w == 0.0));
            }
        }),
        claim("permutation-demo", "changes the output of each token whose preceding words (with repeats) changed, and the token in front attends only to itself", || {
            use pe_lab::encoding::attention::predecessors;
            let identity: Vec<usize> = (0..TOKENS.len()).collect();
            for order in [[4, 3, 2, 1, 0], [2, 4, 0, 1, 3], [3, 1, 2, 0, 4]] {
                let changes = output_changes(&order, Positions::None, true);
                for (pos, &i) in order.iter().enumerate() {
                    let same = predecessors(&order, pos) == predecessors(&identity, i);
                    assert_eq!(changes[i] < 1e-12, same);
                }
            }
            let r = pe_lab::encoding::attention::attend(&TOKENS, Positions::None, true);
            assert_eq!(r.weights[0][0], 1.0);
        }),
        claim("pe-heatmap", "pair i fills columns 2i and 2i + 1", check_formula),
        claim("pe-curves", "λ_i = 2π/ω_i = 2π·base^(2i/d_model)", check_wavelength),
        claim("pe-spectrum", "ω_i = base^(−2i/d_model)", || {
            let p = Sinusoid::new(64, 500.0, Layout::Concat);
            assert!(close(p.omegas[7], 500f64.powf(-14.0 / 64.0), 1e-15));
        }),
        claim("pe-spectrum", "Pairs whose wavelength λ_i exceeds seq_len − 1 (the dotted grey line is at seq_len) never complete a turn inside the sequence", || {
            // Positions 0 … seq_len − 1 span an angle (seq_len − 1)·ω_i: under a full turn
            // exactly when λ_i > seq_len − 1.
            for (seq_len, d_model) in [(50usize, 128usize), (100, 20), (7, 64)] {
                let p = pe(d_model);
                for i in 0..p.omegas.len() {
                    let under_a_turn = (seq_len - 1) as f64 * p.omegas[i] < TAU;
                    assert_eq!(under_a_turn, p.wavelength(i) > (seq_len - 1) as f64);
                }
            }
        }),
        claim("pe-spectrum", "at most a quarter turn (π/2), like a clock hand that moves no more than a quarter of the dial: that is, λ_i ≥ 4·(seq_len − 1)", || {
            for (seq_len, d_model) in [(50usize, 128usize), (100, 20), (7, 64)] {
                let p = pe(d_model);
                for i in 0..p.omegas.len() {
                    let rises = (1..seq_len).all(|pos| p.value(pos, 2 * i) > p.value(pos - 1, 2 * i));
                    let rule = p.wavelength(i) >= 4.0 * (seq_len - 1) as f64;
                    assert_eq!(rises, rule, "seq_len {seq_len}, d_model {d_model}, pair {i}");
                }
            }
        }),
        claim("pe-similarity", "largest on the diagonal (d_model/2)", || {
            let sim = PositionSimilarity::new(&pe(64));
            assert!(close(sim.dot(9, 9), 32.0, 1e-12));
            assert!((0..200).all(|p| sim.dot(9, p) <= 32.0 + 1e-9));
        }),
        claim("pe-offset", "for Δ > 0 the residual is not zero", || {
            let p = pe(9);
            assert!(OffsetMap::new(&p, 0).residual(0, 0..50) < 1e-12);
            assert!(OffsetMap::new(&p, 40).residual(40, 0..50) > 1e-3);
        }),
        claim("pe-index", "⌈d_model/2⌉ pairs", || assert_eq!((pair_count(7), pair_count(8)), (4, 4))),
        claim("pe-index", "columns 2i and 2i + 1", check_formula),
        claim("view:learned", "the 512 × 384 position embeddings", || {
            let t = minilm();
            assert_eq!((t.rows, t.cols), (512, 384));
        }),
        claim("learned-heatmap", "N(0, 0.02²)", || {
            let t = Table::random(64, 384, 7);
            let n = (t.rows * t.cols) as f64;
            let var = (0..t.rows).flat_map(|r| t.row(r).iter().map(|&v| f64::from(v) * f64::from(v))).sum::<f64>() / n;
            assert!((var.sqrt() - 0.02).abs() < 0.001, "{}", var.sqrt());
        }),
        claim("learned-heatmap", "row 0, always the slot of BERT's [CLS] token, has about five times the norm of the others (2.36 against a median of 0.48)", || {
            let t = minilm();
            let mut norms: Vec<f64> = (1..t.rows).map(|p| t.norm(p)).collect();
            norms.sort_by(f64::total_cmp);
            let median = norms[norms.len() / 2];
            assert!((t.norm(0) - 2.36).abs() < 0.005, "{}", t.norm(0));
            assert!((median - 0.48).abs() < 0.005, "{median}");
            assert!((4.5..5.5).contains(&(t.norm(0) / median)));
        }),
        claim("learned-offset", "is 0.85 at Δ = 1, then falls while it oscillates, with a peak every 5 to 7 offsets (Δ = 6, 12, 17, …), first below zero at Δ = 74, as if training had half-discovered sinusoids; at larger offsets, averaged over fewer and fewer pairs, it swings above and below zero", || {
            // MiniLM's table, averaged over every pos: 0.85 at Δ = 1; local peaks at 6, 12,
            // 17, 22, … 5 to 7 apart, on a falling trend (0.21 at Δ = 9); first below zero at
            // Δ = 74; past Δ = 200 it goes below −0.2 and above +0.3.
            let t = minilm();
            let mean = |k: usize| (0..512 - k).map(|p| t.cosine(p, p + k)).sum::<f64>() / (512 - k) as f64;
            assert!((mean(1) - 0.85).abs() < 0.005, "{}", mean(1));
            assert!(mean(9) < 0.25 && mean(6) < mean(1), "{} {}", mean(9), mean(6));
            let peaks: Vec<usize> = (2..64).filter(|&k| mean(k) > mean(k - 1) && mean(k) > mean(k + 1)).collect();
            assert_eq!(peaks[..3], [6, 12, 17], "{peaks:?}");
            assert!(peaks.windows(2).all(|w| (5..=7).contains(&(w[1] - w[0]))), "{peaks:?}");
            assert!((1..74).all(|k| mean(k) > 0.0) && mean(74) < 0.0);
            let far: Vec<f64> = (200..512).map(mean).collect();
            assert!(far.iter().any(|&v| v < -0.2) && far.iter().any(|&v| v > 0.3));
        }),
        claim("learned-offset", "near zero at every offset", || {
            let t = Table::random(256, 384, 3);
            assert!((1..200).all(|k| (0..256 - k).map(|p| t.cosine(p, p + k)).sum::<f64>().abs() / (256 - k) as f64 <= 0.05));
        }),
        claim("learned-similarity", "its similarity is noise around zero, about 1/√width wide for a table of that width", || {
            // The spread (root mean square) of the off-diagonal cosines, against 1/√width.
            for width in [4, 16, 384] {
                let t = Table::random(96, width, 5);
                let (mut sum, mut n) = (0.0, 0.0);
                for a in 0..96 {
                    for b in a + 1..96 {
                        sum += t.cosine(a, b).powi(2);
                        n += 1.0;
                    }
                }
                let rms = (sum / n).sqrt();
                let expected = 1.0 / (width as f64).sqrt();
                assert!((rms / expected - 1.0).abs() < 0.15, "width {width}: {rms} against {expected}");
            }
        }),
        claim("view:scaling", "turns at ω_i = base^(−2i/D) radians per position, a wavelength λ_i = 2π/ω_i", || {
            let w = base_inv_freq(500.0, 32);
            assert!(close(w[3], 500f64.powf(-6.0 / 32.0), 1e-15));
            let r = Rope::plain(32, 1.0, 500.0, PairLayout::Interleaved);
            assert!(close(r.wavelength(3), TAU / w[3], 1e-12));
        }),
        claim("view:bias", "BLOOM's code adds slope_h·n instead and MPT's slope_h·(n − L + 1)", || {
            // transformers' own rows (tests/fixtures/alibi.json): BLOOM's entry for key n is
            // slope·n and MPT's slope·(n − (L − 1)); each minus −slope·(m − n) is the same for
            // every key of a row m.
            let path = format!("{}/tests/fixtures/alibi.json", env!("CARGO_MANIFEST_DIR"));
            let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            let case = &doc["cases"][0];
            let len = case["bloom_alibi_seq_len"].as_u64().unwrap() as usize;
            let slope = pe_lab::encoding::bias::alibi_slopes(case["n_heads"].as_u64().unwrap() as usize)[0];
            let row = |key: &str| -> Vec<f64> { case[key][0].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect() };
            let (bloom, mpt) = (row("bloom_alibi_f32"), row("mpt_alibi_f32"));
            for n in 0..len {
                assert!(close(bloom[n], slope * n as f64, 1e-6));
                assert!(close(mpt[n], slope * (n as f64 - (len as f64 - 1.0)), 1e-6));
            }
            let m = len - 1;
            let ours = |n: usize| pe_lab::encoding::bias::alibi_bias(slope, m, n).unwrap();
            for n in 0..=m {
                assert!(close(bloom[n] - ours(n), bloom[0] - ours(0), 1e-5));
                assert!(close(mpt[n] - ours(n), mpt[0] - ours(0), 1e-5));
            }
        }),
        claim("view:rope", "ω_i = base^(−2i/D)", || {
            let w = base_inv_freq(500.0, 32);
            assert!(close(w[3], 500f64.powf(-6.0 / 32.0), 1e-15));
        }),
        claim("rope-rotation", "its hand the pair's 2-D vector (grey: at position 0", || {
            // A pair is two dimensions, and position 0 rotates nothing.
            let r = Rope::plain(8, 1.0, 10000.0, PairLayout::Interleaved);
            let (x, mut out) = (vec![0.3, -1.2, 0.5, 2.0, 1.0, 0.0, -0.7, 0.9], vec![0.0; 8]);
            r.rotate(&x, 0.0, &mut out);
            assert_eq!(out, x);
            assert_eq!(r.inv_freq.len() * 2, 8);
        }),
        claim("rope-rotation", "the first hand comes back near the same place every 2π ≈ 6.3 positions", || {
            assert_eq!(base_inv_freq(10000.0, 64)[0], 1.0);
            assert!(close(TAU, 6.3, 0.02));
        }),
        claim("rope-rotation", "ω_0 = 1 radian per position", || {
            assert_eq!(base_inv_freq(10000.0, 64)[0], 1.0);
        }),
        claim("rope-decay", "for q = k = 1 the bound on the rotating dimensions is D times the blue curve", || {
            // q = k = 1: every pair's product h_i = (1 + i)(1 − i) = 2, and RoFormer's
            // h_{D/2} = 0, so the largest change between neighbours is 2 and the bound is
            // 2·Σ_{i=1}^{D/2} |S_i| = D·mean; the score Σ_i 2·cos(Δ·ω_i) never exceeds it.
            let d = 128;
            let w = base_inv_freq(10000.0, d);
            let mean = pe_lab::encoding::rope::su_bound_series(&w, 1.0, 251);
            for (delta, m) in mean.iter().enumerate() {
                let mut sum = (0.0f64, 0.0f64);
                let mut total = 0.0;
                for wl in &w {
                    sum = (sum.0 + (delta as f64 * wl).cos(), sum.1 + (delta as f64 * wl).sin());
                    total += sum.0.hypot(sum.1);
                }
                let bound = 2.0 * total;
                assert!(close(bound, d as f64 * m, 1e-9 * bound.max(1.0)), "Δ = {delta}");
                let score: f64 = w.iter().map(|wl| 2.0 * (delta as f64 * wl).cos()).sum();
                assert!(score.abs() <= bound + 1e-9, "Δ = {delta}");
                // Not on the score's scale: at Δ = 0 the blue curve is far below the score.
                if delta == 0 {
                    assert!(close(score, d as f64, 1e-9) && *m < score / 3.0);
                }
            }
        }),
        claim("rope-decay", "It is the bound divided by that largest change and by D/2", check_relative_bound),
        claim("notation", "the mean of |S_i| for i = 1 … D/2, the “relative upper bound”: the bound divided by that largest change and by D/2", check_relative_bound),
        claim("rope-decay", "the mean of |S_i| for i = 1 … D/2 (blue)", || {
            let w = base_inv_freq(10000.0, 8);
            let su = pe_lab::encoding::rope::su_bound_series(&w, 3.0, 2);
            // At Δ = 3: the mean over i = 1..4 of |Σ_{l<i} e^(i·3·ω_l)|.
            let mut sum = (0.0f64, 0.0f64);
            let mut total = 0.0;
            for wl in &w {
                sum = (sum.0 + (3.0 * wl).cos(), sum.1 + (3.0 * wl).sin());
                total += sum.0.hypot(sum.1);
            }
            assert!(close(su[1], total / 4.0, 1e-12), "{} vs {}", su[1], total / 4.0);
        }),
        claim("rope-decay", "(green: the mean of 64 draws", || {
            assert_eq!(pe_lab::encoding::rope::RANDOM_DRAWS, 64);
        }),
        claim("rope-decay", "the expected score is zero at every Δ (green: the mean of 64 draws, which wobbles around zero) and the spread of one draw's score (√head_dim for unit-variance entries) does not shrink with Δ", check_random_scores),
        claim("scaling-frequencies", "base·s^(D/(D−2))", check_ntk_base),
        claim("scaling-score-distance", "(transformers' longrope default, from Phi-3's code, is α = √(1 + ln s / ln L₀))", || {
            let p = ScalingParams { factor: 16.0, long_factor: vec![1.0; 64], short_factor: vec![1.0; 64], seq_len: Some(65536), ..ScalingParams::default() };
            let l = scale(Method::LongRope, 10000.0, 128, &p).unwrap();
            assert!(close(l.attention, (1.0 + 16f64.ln() / 4096f64.ln()).sqrt(), 1e-12));
        }),
        claim("scaling-score-distance", "The shaded band holds the distances the model saw in training, 0 to L₀ − 1", || {
            // The trained range starts at distance 0: the chart's band is [0, L₀].
            let s = step_state("seed", "Position interpolation").scaling;
            assert_eq!(s.orig_ctx, 4096);
        }),
        claim("scaling-score-distance", "(at most 131,072)", || {
            assert_eq!(pe_lab::views::scaling::state::MAX_SCORE_DISTANCE, 131_072);
        }),
        claim("scaling-score-distance", "√(1/t) = α = 0.1·ln s + 1", || {
            for s in [2.0, 4.0, 16.0] {
                assert!(close(yarn(s).attention, 0.1 * f64::ln(s) + 1.0, 1e-12));
            }
        }),
        claim("scaling-score-distance", "is multiplied by α²", || {
            let y = yarn(8.0);
            let plain = Rope::new(64, 32, PairLayout::Half, base_inv_freq(10000.0, 32), 1.0);
            let scaled = Rope::new(64, 32, PairLayout::Half, base_inv_freq(10000.0, 32), y.attention);
            let q: Vec<f64> = (0..64).map(|i| (i as f64 * 0.37).sin()).collect();
            let k: Vec<f64> = (0..64).map(|i| (i as f64 * 0.91).cos()).collect();
            let pass: f64 = q[32..].iter().zip(&k[32..]).map(|(a, b)| a * b).sum();
            let (a, b) = (plain.score(&q, &k, 40.0, 7.0) - pass, scaled.score(&q, &k, 40.0, 7.0) - pass);
            assert!(close(b, a * y.attention * y.attention, 1e-9), "only the rotary part grows by α²");
        }),
        claim("compare-table", "512 × 768 = 393,216 in BERT-base", || {
            let n = |s: &str| s.replace(',', "").parse::<u64>().unwrap();
            assert_eq!(n("512") * n("768"), n("393,216"));
        }),
        claim("compare-table", "32 × 12 in each of T5-base's encoder and decoder", || {
            // T5-base's config: relative_attention_num_buckets 32, num_heads 12; PE Lab's default.
            assert_eq!(pe_lab::views::bias::state::BUCKETS.default, 32);
        }),
        claim("t5-buckets", "every future key to bucket 0", || {
            for rel in [1i64, 5, 300] {
                assert_eq!(pe_lab::encoding::bias::t5_bucket(rel, false, 32, 128), 0);
            }
        }),
        claim("view:precision", "8 significant bits, so 257 is stored as 256, and float16 overflows to infinity at 65520", || {
            assert_eq!(stored(Path::Bf16Cache, 257), 256.0);
            check_f16_inf();
        }),
        claim("view:precision", "in 16 bits", || {
            assert_eq!(std::mem::size_of::<half::bf16>() * 8, 16);
            assert_eq!(std::mem::size_of::<half::f16>() * 8, 16);
        }),
        claim("precision-positions", "infinity from position 65520 (its largest finite value is 65504)", check_f16_inf),
        claim("precision-angles", "Errors below 1e-12 are drawn at 1e-12", || assert_eq!(ERROR_FLOOR_RAD, 1e-12)),
        claim("precision-angles", "ω_i is near 1", || {
            let w = base_inv_freq(10000.0, 128);
            assert!(w[0] == 1.0 && w[1] > 0.8);
        }),
        claim("precision-error", "up to 2^24 = 16,777,216 exactly", || {
            assert_eq!(2f64.powi(24), "16,777,216".replace(',', "").parse::<f64>().unwrap());
            assert_eq!(stored(Path::HfF32, 16_777_216), 16_777_216.0);
            assert_eq!(stored(Path::HfF32, 16_777_217), 16_777_216.0);
        }),
        claim("precision-error", "2^−24 ≈ 6e-8, so the fast pairs drift past 0.1 rad after about 1.3 million positions (at D = 128 and base 10,000", || {
            assert!((2f64.powi(-24) - 6e-8).abs() < 0.1e-8);
            let at = break_at(Path::HfF32, 2_000_000).unwrap();
            assert!((1_250_000..1_350_000).contains(&at), "{at}");
            assert!(at > EXACT_BREAK_SCAN);
        }),
        claim("rope-wavelength", "these are the pairs that YaRN with β_slow = 1 and Llama 3 with low_freq_factor = 1 divide fully by their scaling factor s", || {
            let (d, theta, l0) = (128, 10000.0, 4096);
            let base = base_inv_freq(theta, d);
            for method in [Method::Yarn, Method::Llama3] {
                let params = ScalingParams {
                    factor: 16.0,
                    orig_ctx: l0,
                    beta_slow: 1.0,
                    low_freq_factor: 1.0,
                    ..ScalingParams::default()
                };
                let s = scale(method, theta, d, &params).unwrap();
                for (w, b) in s.inv_freq.iter().zip(&base) {
                    // Every pair with λ_i > L₀: above the line drawn at max distance = L₀.
                    if TAU / b > l0 as f64 {
                        assert!(close(*w, b / 16.0, 1e-12 * b), "{method:?}");
                    }
                }
            }
        }),
        claim("notation", "“q = k = 1” means every component of both is 1", check_ones_score),
        claim("notation", "transformers sets α = (0.1·mscale·ln s + 1)/(0.1·mscale_all_dim·ln s + 1); DeepSeek's attention also multiplies the softmax scale by (0.1·mscale_all_dim·ln s + 1)²", || {
            let params = ScalingParams {
                factor: 40.0,
                orig_ctx: 4096,
                mscale: Some(0.707),
                mscale_all_dim: Some(1.0),
                ..ScalingParams::default()
            };
            let s = scale(Method::Yarn, 10000.0, 64, &params).unwrap();
            assert!(close(s.attention, yarn_mscale(40.0, 0.707) / yarn_mscale(40.0, 1.0), 1e-12));
            assert!(close(yarn_mscale(40.0, 1.0), 0.1 * 40f64.ln() + 1.0, 1e-15));
        }),
        claim("precision-error", "(float16 from 65520)", check_f16_inf),
        claim("precision-error", "at positions they still store exactly (every whole number up to 256 in bfloat16, 2048 in float16): ω_i and pos·ω_i, rounded to 8 or 11 significant bits, are off by 0.1 rad already", || {
            let (bf, fp) = (break_at(Path::Bf16Cache, 4096).unwrap(), break_at(Path::Fp16Seq, 4096).unwrap());
            assert!(bf < 256 && fp < 2048, "{bf} {fp}");
            for p in 0..=256 {
                assert_eq!(stored(Path::Bf16Cache, p), p as f64);
            }
            for p in 0..=2048 {
                assert_eq!(stored(Path::Fp16Seq, p), p as f64);
            }
            assert_eq!((stored(Path::Bf16Cache, 257), stored(Path::Fp16Seq, 2049)), (256.0, 2048.0));
            // 8 and 11 significant bits: the spacing just above 1 is 2^−7 and 2^−10.
            assert_eq!(pe_lab::encoding::precision::to_bf16(1.0 + 2f32.powi(-7)), 1.0 + 2f32.powi(-7));
            assert_eq!(pe_lab::encoding::precision::to_bf16(1.0 + 2f32.powi(-8)), 1.0);
            assert_eq!(pe_lab::encoding::precision::to_f16(1.0 + 2f32.powi(-10)), 1.0 + 2f32.powi(-10));
            assert_eq!(pe_lab::encoding::precision::to_f16(1.0 + 2f32.powi(-11)), 1.0);
            // Thousands of times earlier than float32's 1.3 million.
            assert!(1_250_000 / bf > 1000 && 1_250_000 / fp > 1000);
        }),
        claim("precision-angles", "(at 100,000, bfloat16's are up to 256 off)", || {
            assert_eq!(pe_lab::views::precision::state::PrecisionState::default().pos, 100_000);
            let worst = (99_000..=101_000u64).map(|p| (stored(Path::Bf16Cache, p) - p as f64).abs()).fold(0.0, f64::max);
            assert_eq!(worst, 256.0);
        }),
        claim("view:learned", "N(0, 0.02²) as in BERT, GPT-2 used 0.01", || {
            // BERT's initializer_range; GPT-2's wpe (openai/gpt-2 model.py: stddev=0.01).
            let t = Table::random(512, 384, 7);
            let (mut sum, mut n) = (0.0, 0.0);
            for p in 0..512 {
                for c in 0..384 {
                    sum += f64::from(t.get(p, c)).powi(2);
                    n += 1.0;
                }
            }
            assert!(((sum / n).sqrt() - 0.02).abs() < 0.0005);
        }),
        claim("lesson:models/Wavelengths after scaling", "λ′_i = 2π/ω′_i", check_wavelength),
        claim("lesson:models/Wavelengths after scaling", "a pair whose wavelength is under L₀/4 = 2,048 keeps its frequency, one over L₀ = 8,192 has it divided by 8", || {
            let m = pe_lab::gallery::ModelRow::find("llama-3.1-8b").unwrap();
            assert_eq!(m.original_ctx, 8192);
            let (w, w0) = (m.scaled().unwrap().inv_freq, m.unscaled().unwrap());
            for (a, b) in w.iter().zip(&w0) {
                let lambda = TAU / b;
                if lambda < 2048.0 {
                    assert_eq!(a, b);
                } else if lambda > 8192.0 {
                    assert!((a - b / 8.0).abs() <= 1e-15 * b);
                }
            }
            assert!(w0.iter().any(|b| TAU / b < 2048.0) && w0.iter().any(|b| TAU / b > 8192.0));
        }),
        claim("lesson:models/How far can a base reach?", "B(Δ) = Σ_i cos(Δ·ω_i) over the D/2 pairs of D rotating dimensions", || {
            let th = pe_lab::encoding::base_bound::thetas(128, 1e4);
            assert_eq!(th.len(), 64);
            let direct: f64 = th.iter().map(|w| (7.0 * w).cos()).sum();
            assert_eq!(pe_lab::encoding::base_bound::b_sum(&th, 7.0), direct);
        }),
        claim("lesson:models/How far can a base reach?", "ω_i = base^(−2i/D)", || {
            let w = base_inv_freq(10000.0, 128);
            assert!((w[5] - 10000f64.powf(-10.0 / 128.0)).abs() < 1e-15);
        }),
        claim("lesson:models/How far can a base reach?", "only while B(Δ) ≥ 0", || {
            use pe_lab::encoding::base_bound::{b_sum, first_negative, thetas};
            let first = first_negative(128, 5e5, 1 << 24, u64::MAX).first.unwrap();
            let th = thetas(128, 5e5);
            assert!((0..first).step_by(7).all(|d| b_sum(&th, d as f64) >= 0.0));
        }),
        claim("lesson:models/How far can a base reach?", "Llama 2 has D = 128, base 10,000, and was trained on 4,096 tokens", || {
            let m = pe_lab::gallery::ModelRow::find("llama-2-7b").unwrap();
            assert_eq!((m.rotary, m.theta, m.original_ctx), (128, 1e4, 4096));
        }),
        claim("lesson:models/How far can a base reach?", "first drop below 0", || {
            let th = pe_lab::encoding::base_bound::thetas(128, 1e4);
            assert!(pe_lab::encoding::base_bound::b_sum(&th, 1707.0) < 0.0);
        }),
        claim("lesson:models/How far can a base reach?", "before 4,096: by this bound base 10,000 is too small for the length Llama 2 was trained on", || {
            let m = pe_lab::gallery::ModelRow::find("llama-2-7b").unwrap();
            let first = pe_lab::encoding::base_bound::first_negative(128, 1e4, 1 << 24, u64::MAX).first;
            assert!(first.unwrap() < m.original_ctx as u64);
        }),
        claim("lesson:models/How far can a base reach?", "Before Δ = 4,096", || {
            let first = pe_lab::encoding::base_bound::first_negative(128, 1e4, 1 << 24, u64::MAX).first;
            assert!(first.unwrap() < 4096, "the right choice");
        }),
        claim("lesson:models/How far can a base reach?", "After Δ = 4,096", || {
            let first = pe_lab::encoding::base_bound::first_negative(128, 1e4, 1 << 24, u64::MAX).first;
            assert!(first.is_some_and(|m| m < 4096), "a wrong choice");
        }),
        claim("lesson:models/How far can a base reach?", "At Δ = 1,707", || {
            let first = pe_lab::encoding::base_bound::first_negative(128, 1e4, 1 << 24, u64::MAX).first;
            assert_eq!(first, Some(1707));
        }),
        claim("lesson:models/How far can a base reach?", "Llama 2 was still trained at 4,096", || {
            assert_eq!(pe_lab::gallery::ModelRow::find("llama-2-7b").unwrap().original_ctx, 4096);
        }),
        claim("lesson:models/The smallest base for a context", "its published context of 131,072", || {
            use pe_lab::encoding::base_bound::Crossing;
            let m = pe_lab::gallery::ModelRow::find("llama-3.1-8b").unwrap();
            assert_eq!(m.context, 131_072);
            // The question's answer, in the table: with its scaling the sum still turns
            // negative before 131,072 (at 85,133).
            let mut c = Crossing::with_thetas(128, m.theta, m.scaled().unwrap().inv_freq);
            while !c.done() {
                c.advance(1 << 24);
            }
            assert_eq!(c.first(), Some(Some(85_133)));
        }),
        claim("lesson:models/The smallest base for a context", "stays ≥ 0 below L", || {
            use pe_lab::encoding::base_bound::{holds_for, min_base, BaseGrid};
            let mut grid = BaseGrid::new(16);
            while !grid.done() {
                grid.advance(1 << 22);
            }
            assert!(holds_for(16, min_base(&grid, 300).unwrap(), 300));
        }),
        claim("model-gallery", "ω_i = base^(−2i/D)", || {
            // Every gallery model's unscaled frequencies follow it.
            for m in pe_lab::gallery::MODELS.iter().filter(|m| m.rotary > 0) {
                let w = m.unscaled().unwrap();
                for (i, w) in w.iter().enumerate() {
                    let expect = m.theta.powf(-(2.0 * i as f64) / m.rotary as f64);
                    assert!((w - expect).abs() <= 1e-15 * expect, "{}", m.id);
                }
            }
        }),
        claim("model-gallery", "pair i joins dimensions 2i and 2i + 1 in the interleaved layout, or i and i + D/2 in the half layout", || {
            for j in 0..4 {
                assert_eq!(PairLayout::Half.dims(j, 8), (j, j + 4));
                assert_eq!(PairLayout::Interleaved.dims(j, 8), (2 * j, 2 * j + 1));
            }
        }),
        claim("model-wavelengths", "chunks of 8,192 tokens", || {
            let scout = pe_lab::gallery::ModelRow::find("llama-4-scout").unwrap();
            assert!(scout.config.contains("\"attention_chunk_size\": 8192"));
            assert!(scout.note.contains("chunks of 8,192 tokens"));
        }),
        claim("model-scores", "up to 16 distances in it", || {
            assert_eq!(pe_lab::encoding::base_bound::COLUMN_SAMPLES, 16);
        }),
        claim("base-bound", "up to 16 distances in it, the first negative always among them", || {
            use pe_lab::encoding::base_bound::{mean_cos_columns, thetas, COLUMN_SAMPLES};
            assert_eq!(COLUMN_SAMPLES, 16);
            let cols = mean_cos_columns(&thetas(128, 1e4), 7.0, 500, COLUMN_SAMPLES, &[1707]);
            let at = cols.iter().rev().find(|c| c.0 <= 1707f64.log10()).unwrap();
            assert!(at.1 < 0.0);
        }),
        claim("base-bound", "Where B(Δ) < 0 that expected preference is negative", || {
            let th = pe_lab::encoding::base_bound::thetas(128, 1e4);
            assert!(pe_lab::encoding::base_bound::b_sum(&th, 1707.0) < 0.0);
        }),
        claim("base-bound-min", "at D = 128, bases from 28,700 to 29,000 keep B(Δ) ≥ 0 for every Δ < 4,096, while 30,000 and 40,000 do not", || {
            use pe_lab::encoding::base_bound::{holds_for, min_base, BaseGrid};
            for b in [28_700.0, 28_800.0, 28_900.0, 29_000.0] {
                assert!(holds_for(128, b, 4096), "{b}");
            }
            assert!(!holds_for(128, 30_000.0, 4096));
            assert!(!holds_for(128, 40_000.0, 4096));
            // And the grid's answer is above that range: the sentence's point.
            let mut grid = BaseGrid::new(128);
            while !grid.done() {
                grid.advance(1 << 24);
            }
            assert!(min_base(&grid, 4096).unwrap() > 29_000.0);
        }),
        claim("model-gallery", "where the config names none, the pre-training length its makers state (Gemma 3 4B)", || {
            let g = pe_lab::gallery::ModelRow::find("gemma-3-4b").unwrap();
            assert!(!g.config.contains("original_max_position_embeddings"));
            assert!(g.original_ctx_source.contains("pre-train our models with 32K sequences"));
            assert_eq!(g.original_ctx, 32768);
            for m in &pe_lab::gallery::MODELS {
                assert_eq!(m.original_ctx_source.is_empty(), m.id != "gemma-3-4b", "{}", m.id);
            }
        }),
        claim("model-gallery", "in D/2 pairs", || {
            for m in pe_lab::gallery::MODELS.iter().filter(|m| m.rotary > 0) {
                assert_eq!(m.scaled().unwrap().inv_freq.len(), m.rotary / 2, "{}", m.id);
            }
        }),
        claim("model-wavelengths", "λ′_i = 2π/ω′_i", || {
            // The panel's CSV and summary take each scaled frequency's wavelength so.
            let m = pe_lab::gallery::ModelRow::find("llama-3.1-8b").unwrap();
            let w = m.scaled().unwrap().inv_freq;
            assert!(w.iter().all(|w| (TAU / w) * w - TAU < 1e-12));
            check_wavelength();
        }),
        claim("notation", "its wavelength 2π/ω′_i", check_wavelength),
        claim("notation", "over the D/2 pairs", || {
            assert_eq!(pe_lab::encoding::base_bound::thetas(96, 1e4).len(), 48);
        }),
        claim("notation", "B(Δ) ≥ 0 for every Δ < L", || {
            use pe_lab::encoding::base_bound::holds_for;
            assert!(holds_for(128, 1e4, 1707) && !holds_for(128, 1e4, 1708));
        }),
        claim("model-scores", "divided by its value at Δ = 0", || {
            // All ones: each pair adds 2·cos(Δ·ω_i); at Δ = 0 the score is D, so the ratio is
            // the mean of the cosines.
            let w = base_inv_freq(10000.0, 8);
            let r = Rope::plain(8, 1.0, 10000.0, PairLayout::Half);
            let ones = vec![1.0; 8];
            for delta in [0.0, 3.0, 100.0] {
                let ratio = r.score(&ones, &ones, delta, 0.0) / r.score(&ones, &ones, 0.0, 0.0);
                let mean = w.iter().map(|w| (delta * w).cos()).sum::<f64>() / 4.0;
                assert!(close(ratio, mean, 1e-12));
            }
        }),
        claim("base-bound", "only while B(Δ) ≥ 0", || {
            // The scan's answer is the first negative: every distance before it is ≥ 0.
            use pe_lab::encoding::base_bound::{b_sum, first_negative, thetas, SCAN_LIMIT};
            let first = first_negative(128, 1e4, SCAN_LIMIT, u64::MAX).first.unwrap();
            let th = thetas(128, 1e4);
            assert!((0..first).all(|d| b_sum(&th, d as f64) >= 0.0));
            assert!(b_sum(&th, first as f64) < 0.0);
        }),
        claim("base-bound-min", "stays ≥ 0 for every Δ < L", || {
            use pe_lab::encoding::base_bound::{b_sum, min_base, thetas, BaseGrid};
            let mut grid = BaseGrid::new(32);
            while !grid.done() {
                grid.advance(1 << 22);
            }
            let b = min_base(&grid, 1000).unwrap();
            let th = thetas(32, b);
            assert!((0..1000).all(|d| b_sum(&th, d as f64) >= 0.0));
        }),
        claim("base-bound-min", "a grid of ten per decade", || {
            assert_eq!(pe_lab::encoding::base_bound::GRID_PER_DECADE, 10);
        }),
        claim("base-bound", "summed over the D/2 pairs", || {
            let th = pe_lab::encoding::base_bound::thetas(128, 1e4);
            assert_eq!(th.len(), 64);
            assert_eq!(pe_lab::encoding::base_bound::b_sum(&th, 0.0), 64.0);
        }),
    ]
    .into_iter()
    .chain(train_claims())
    .collect()
}

/// NTK-aware scaling's new base, base·s^(D/(D−2)).
fn check_ntk_base() {
    for (d, factor) in [(64usize, 4.0), (128, 16.0)] {
        let p = ScalingParams {
            factor,
            ..ScalingParams::default()
        };
        let ntk = scale(Method::Ntk, 10000.0, d, &p).unwrap();
        let expected = 10000.0 * factor.powf(d as f64 / (d as f64 - 2.0));
        assert!(close(ntk.theta.unwrap(), expected, 1e-12));
    }
}

/// The sinusoidal formula: column 2i is sin(pos/base^(2i/d_model)), column 2i + 1 its cosine.
fn check_formula() {
    let p = pe(8);
    for pos in [0usize, 3, 49] {
        for i in 0..4 {
            let angle = pos as f64 / 10000f64.powf((2 * i) as f64 / 8.0);
            assert!(close(p.value(pos, 2 * i), angle.sin(), 1e-12));
            assert!(close(p.value(pos, 2 * i + 1), angle.cos(), 1e-12));
        }
    }
}

/// With q = k = 1 (all ones) the score is Σ over pairs of 2·cos(Δ·ω_i), falling from D at Δ = 0.
fn check_ones_score() {
    let r = Rope::plain(32, 1.0, 10000.0, PairLayout::Interleaved);
    let ones = vec![1.0; 32];
    for delta in [0.0, 1.0, 17.0, 250.0] {
        let expected: f64 = base_inv_freq(10000.0, 32)
            .iter()
            .map(|w| 2.0 * (delta * w).cos())
            .sum();
        assert!(close(
            r.score(&ones, &ones, 300.0 + delta, 300.0),
            expected,
            1e-9
        ));
    }
}

fn check_wavelength() {
    let p = pe(20);
    for i in 0..10 {
        assert!(close(p.wavelength(i), TAU / p.omegas[i], 1e-12));
        assert!(close(
            p.wavelength(i),
            TAU * 10000f64.powf((2 * i) as f64 / 20.0),
            1e-12
        ));
    }
}

fn check_bf16_256() {
    assert!((0..=256).all(|p| stored(Path::Bf16Cache, p) == p as f64));
    assert_ne!(stored(Path::Bf16Cache, 257), 257.0);
}

fn check_f16_2048() {
    assert!((0..=2048).all(|p| stored(Path::Fp16Seq, p) == p as f64));
    assert_eq!(stored(Path::Fp16Seq, 2049), 2048.0);
}

fn check_f16_inf() {
    assert_eq!(half::f16::MAX.to_f64(), 65504.0);
    assert_eq!(stored(Path::Fp16Seq, 65519), 65504.0);
    assert!(stored(Path::Fp16Seq, 65520).is_infinite());
}

fn first_break_error(path: Path, pos: u64) -> f64 {
    let ex = precision::inv_freq(Path::Exact, 128, 10000.0);
    let inv = precision::inv_freq(path, 128, 10000.0);
    precision::largest_error(
        &precision::angles(path, &inv, pos),
        &precision::angles(Path::Exact, &ex, pos),
    )
}

/// For zero-mean independent q and k, the score's mean is zero and its variance is the same
/// at every distance (a rotation keeps a Gaussian pair's distribution).
fn check_random_scores() {
    let r = Rope::plain(16, 1.0, 10000.0, PairLayout::Interleaved);
    let mut rng = pe_lab::encoding::rope::SeededNormal::new(11);
    let samples: Vec<(Vec<f64>, Vec<f64>)> = (0..4000)
        .map(|_| (rng.vector(16), rng.vector(16)))
        .collect();
    let stats = |delta: f64| {
        let s: Vec<f64> = samples
            .iter()
            .map(|(q, k)| r.score(q, k, delta, 0.0))
            .collect();
        let mean = s.iter().sum::<f64>() / s.len() as f64;
        let var = s.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / s.len() as f64;
        (mean, var)
    };
    for delta in [0.0, 10.0, 200.0, 5000.0] {
        let (mean, var) = stats(delta);
        assert!(mean.abs() < 0.3, "mean {mean} at Δ = {delta}");
        assert!(
            (var - 16.0).abs() < 1.6,
            "variance {var} at Δ = {delta} (16 expected)"
        );
    }
}

#[test]
fn every_claim_holds() {
    for c in claims() {
        (c.check)();
    }
}

#[test]
fn every_claim_is_still_said_where_it_is_placed() {
    let texts = texts();
    for c in claims() {
        assert!(
            texts
                .iter()
                .any(|(place, text)| place == c.place && text.contains(c.phrase)),
            "{}: the phrase “{}” is no longer said there; check the new sentence and its claim",
            c.place,
            c.phrase
        );
    }
}

/// The text with every claimed phrase, source and name of its place blanked out.
fn uncovered(place: &str, text: &str, claims: &[Claim]) -> String {
    let mut rest = text.to_string();
    let mut phrases: Vec<&str> = claims
        .iter()
        .filter(|c| c.place == place)
        .map(|c| c.phrase)
        .chain(SOURCES.iter().map(|s| s.0))
        .chain(NAMES.iter().copied())
        .collect();
    // Longer phrases first, so a name inside a claimed phrase does not break it up.
    phrases.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for p in phrases {
        rest = rest.replace(p, " ");
    }
    rest
}

#[test]
fn no_number_is_said_without_a_claim() {
    let claims = claims();
    let mut missing = Vec::new();
    for (place, text) in texts() {
        let rest = uncovered(&place, &text, &claims);
        if rest.chars().any(|c| c.is_ascii_digit()) {
            missing.push(format!("{place}: “{}”", rest.trim()));
        }
    }
    assert!(
        missing.is_empty(),
        "numbers no claim covers:\n{}",
        missing.join("\n")
    );
}

#[test]
fn an_unclaimed_number_is_caught() {
    // The check above can fail: a sentence with a new number is refused.
    let claims = claims();
    let rest = uncovered(
        "pe-index",
        "There are 7 pairs in columns 2i and 2i + 1.",
        &claims,
    );
    assert!(rest.chars().any(|c| c.is_ascii_digit()));
    let rest = uncovered(
        "pe-index",
        "⌈d_model/2⌉ pairs in columns 2i and 2i + 1.",
        &claims,
    );
    assert!(!rest.chars().any(|c| c.is_ascii_digit()), "{rest}");
}

#[test]
fn lesson_steps_fit_a_projector() {
    for name in pe_lab::state::lesson::BUILT_IN {
        let lesson = parse_lesson(&lesson_file(name)).expect("valid");
        for step in &lesson.steps {
            let words = step.text.split_whitespace().count();
            assert!(
                words <= MAX_STEP_WORDS,
                "{name}/{}: {words} words",
                step.title
            );
        }
    }
}

/// Symbols a lesson must define before it uses them: the symbol as written, and for each
/// lesson that uses it, the step that defines it and the words that do.
const DEFINED_AT: &[(&str, &str, &str, &str)] = &[
    (
        "ω_",
        "models",
        "How far can a base reach?",
        "ω_i = base^(−2i/D)",
    ),
    ("Δ", "models", "How far can a base reach?", "at distance Δ"),
    (
        "L₀",
        "models",
        "Four ways to place positions",
        "L₀, the length their scaling starts from",
    ),
    (
        "ω_",
        "seed",
        "A pair shares one frequency",
        "ω_i = base^(−2i/d_model), with base = 10000, is pair i's frequency",
    ),
    (
        "λ_",
        "seed",
        "Fast columns and slow columns",
        "λ_i = 2π/ω_i",
    ),
    (
        "Δ",
        "seed",
        "Offsets are rotations",
        "maps PE[pos] to PE[pos + Δ]",
    ),
    ("M(Δ)", "seed", "Offsets are rotations", "one matrix M(Δ)"),
    (
        "p0",
        "seed",
        "How similar are two positions?",
        "PE[p0]·PE[pos]",
    ),
    (
        "W_q",
        "seed",
        "Attention sees absolute positions",
        "learned W_q, W_k",
    ),
    (
        "L₀",
        "seed",
        "Past the training length, slow pairs meet new angles",
        "A model trained on L₀ = 4096 positions",
    ),
    (
        "β_fast",
        "seed",
        "YaRN keeps fast pairs, interpolates slow ones",
        "pairs that turn more than β_fast = 32 times",
    ),
    (
        "α",
        "seed",
        "YaRN's attention factor",
        "multiplies cos and sin by α",
    ),
    (
        "ω_",
        "precision",
        "Angles break before positions do",
        "The frequencies ω_i (pair i's, in radians per position)",
    ),
];

#[test]
fn lessons_define_symbols_before_using_them() {
    for name in pe_lab::state::lesson::BUILT_IN {
        let lesson = parse_lesson(&lesson_file(name)).expect("valid");
        for &(symbol, _, _, _) in DEFINED_AT {
            let first = lesson.steps.iter().position(|s| {
                [&s.title, &s.text, &s.try_this]
                    .iter()
                    .any(|t| t.contains(symbol))
            });
            let Some(first) = first else { continue };
            let entry = DEFINED_AT
                .iter()
                .find(|d| d.0 == symbol && d.1 == name)
                .unwrap_or_else(|| panic!("{name} uses {symbol} but no step is said to define it"));
            let step = &lesson.steps[first];
            assert_eq!(
                step.title, entry.2,
                "{name}: {symbol} is used in “{}” before “{}” defines it",
                step.title, entry.2
            );
            assert!(
                step.text.contains(entry.3) || step.try_this.contains(entry.3),
                "{name}/{}: does not define {symbol} with “{}”",
                step.title,
                entry.3
            );
        }
    }
}

/// Symbols PE Lab no longer uses, each with the one that replaced it: the same quantity had
/// two names, or one name meant two quantities.
const RETIRED: &[(&str, &str)] = &[
    ("θ", "base (rope_theta), or ω_i for a frequency"),
    ("pair j", "pair i"),
    ("offset k", "offset Δ"),
    ("M(k)", "M(Δ)"),
    ("distance d", "distance Δ = m − n"),
    ("d/2", "D/2 or d_model/2"),
    ("PE[p]", "PE[pos]"),
    ("L0", "L₀"),
    (
        "permutation-invariant:",
        "permutation-equivariant (the seed's word in parentheses)",
    ),
    ("−m·", "−slope_h·"),
];

#[test]
fn retired_symbols_are_gone() {
    let mut found = Vec::new();
    for (place, text) in texts() {
        for (old, new) in RETIRED {
            if text.contains(old) {
                found.push(format!("{place}: “{old}” (say {new})"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

// ---- Train it yourself: its captions, and the train lesson (numbers of the shipped run,
// `lessons/train-run.npz`, which tests/train.rs checks is this code's default run bit for bit)

const TRAIN_TASK: &str = "lesson:train/A task only order can solve";
const TRAIN_LEARN: &str = "lesson:train/Which encodings will learn it?";
const TRAIN_COIN: &str = "lesson:train/NoPE stays at a coin toss";
const TRAIN_HOLD: &str = "lesson:train/Which will hold at 4× the length?";
const TRAIN_LOOKS: &str = "lesson:train/Where ? looks";
const TRAIN_CAUSAL: &str = "lesson:train/A causal mask gives NoPE order";
const TRAIN_OFFSET: &str = "lesson:train/Your turn: a relation between positions";

fn shipped_run() -> (TrainState, Session) {
    let file = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/lessons/train-run.npz"
    ))
    .expect("lessons/train-run.npz");
    shipped::load(&file).expect("the shipped run")
}

/// The settings of a step of the train lesson (its revealed state when `revealed`).
fn train_step(title: &str, revealed: bool) -> TrainState {
    let lesson = parse_lesson(&lesson_file("train")).expect("valid");
    let step = lesson
        .steps
        .into_iter()
        .find(|s| s.title == title)
        .unwrap_or_else(|| panic!("no step “{title}”"));
    let state = if revealed {
        step.revealed_state()
    } else {
        step.app_state()
    };
    TrainState::from_query(&state.train, &mut Notices::default())
}

/// Whether a step's state asks for the shipped run.
fn train_step_shows_shipped(title: &str, revealed: bool) -> bool {
    let lesson = parse_lesson(&lesson_file("train")).expect("valid");
    let step = lesson
        .steps
        .into_iter()
        .find(|s| s.title == title)
        .expect("step");
    let state = if revealed {
        step.revealed_state()
    } else {
        step.app_state()
    };
    state.train.get("shipped").as_deref() == Some("1")
}

/// Test accuracy of `enc` at `len` in `session` (None: no positions there).
fn accuracy(state: &TrainState, session: &Session, enc: Enc, len: usize) -> Option<f64> {
    let i = state
        .encs
        .iter()
        .position(|&e| e == enc)
        .expect("in the run");
    let li = session.lens.iter().position(|&l| l == len).expect("tested");
    session.length_scores[i][li].map(|s| s.accuracy)
}

fn trainer(state: &TrainState, enc: Enc) -> usize {
    state
        .encs
        .iter()
        .position(|&e| e == enc)
        .expect("in the run")
}

/// The shipped run is the default run, the run the lesson's reveals show.
fn check_shipped_is_default() {
    let (state, _) = shipped_run();
    assert_eq!(state, TrainState::default().run_key());
    for title in [TRAIN_LEARN, TRAIN_HOLD] {
        let t = title.trim_start_matches("lesson:train/");
        assert!(
            train_step_shows_shipped(t, true),
            "{t}: the reveal shows the shipped run"
        );
        assert!(
            !train_step_shows_shipped(t, false),
            "{t}: the question comes before the run"
        );
        assert_eq!(train_step(t, true).run_key(), state);
    }
    for t in ["NoPE stays at a coin toss", "Where ? looks"] {
        assert!(train_step_shows_shipped(t, false));
        assert_eq!(train_step(t, false).run_key(), state);
    }
}

fn check_default_setup() {
    let s = train_step("A task only order can solve", false);
    assert_eq!(s, TrainState::default());
    assert_eq!(
        (s.task, s.causal, s.steps, s.train_len, s.test_len),
        (Task::Order, false, 400, 16, 64)
    );
    assert_eq!(s.encs.len(), 6);
}

fn train_claims() -> Vec<Claim> {
    vec![
        claim("train-setup", "A batch is 32 sequences of one length", || {
            assert_eq!(pe_lab::views::train::settings::BATCH, 32);
        }),
        claim("train-length", "each model answers the same 64 test sequences per length", || {
            assert_eq!(pe_train::run::TEST_COUNT, 64);
        }),
        claim("train-attention", "a row's weights sum to 1", || {
            let (_, session) = shipped_run();
            for traces in &session.traces {
                for tr in traces.iter().flatten() {
                    let att = tr.attention(0, 0);
                    let t = (att.len() as f64).sqrt() as usize;
                    for row in att.chunks(t) {
                        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                    }
                }
            }
        }),
        claim(TRAIN_TASK, "Each sequence holds one A and one B (with filler tokens from length 4), then ?, where the model answers which came first. Swap A and B: same tokens, opposite answer", || {
            let task = Task::Order;
            let mut rng = pe_train::rng::Rng::new(5);
            assert_eq!(task.min_len(), 3);
            for len in [3, 4, 9, 16] {
                let batch = task.batch(len, 8, &mut rng);
                for pair in batch.chunks(2) {
                    let labels = |e: &pe_train::task::Example| -> Vec<String> { e.tokens.iter().map(|&t| task.token_label(t)).collect() };
                    let (a, b) = (labels(&pair[0]), labels(&pair[1]));
                    assert_eq!(a.iter().filter(|l| *l == "A").count(), 1);
                    assert_eq!(a.iter().filter(|l| *l == "B").count(), 1);
                    assert_eq!(a.last().map(String::as_str), Some("?"));
                    assert!(a.iter().all(|l| ["A", "B", "?", "·"].contains(&l.as_str())));
                    assert_eq!(a.iter().filter(|l| *l == "·").count(), len - 3, "fillers from length 4");
                    // The twin: A and B swapped, the answer the other one.
                    let swapped: Vec<String> = a.iter().map(|l| match l.as_str() { "A" => "B".into(), "B" => "A".into(), x => x.to_string() }).collect();
                    assert_eq!(swapped, b);
                    let answer = |e: &pe_train::task::Example| e.targets.iter().flatten().copied().collect::<Vec<_>>();
                    assert_eq!(answer(&pair[0]).len(), 1);
                    assert_ne!(answer(&pair[0]), answer(&pair[1]));
                }
            }
        }),
        claim(TRAIN_TASK, "a bidirectional mask, 400 training steps on lengths up to 16, tests up to 64", check_default_setup),
        claim(TRAIN_LEARN, "Six copies of one small transformer train on the same batches from the same weights", check_default_setup),
        claim(TRAIN_LEARN, "Trained on lengths up to 16, which models will answer more than 90 % of the test sequences of length 16 right?", || {
            check_shipped_is_default();
            let (q, _) = question("train", "Which encodings will learn it?");
            assert_eq!(right_choice(&q), "All but NoPE");
            let (state, session) = shipped_run();
            for enc in Enc::ALL {
                let a = accuracy(&state, &session, enc, 16).unwrap();
                assert_eq!(a > 0.9, enc != Enc::Nope, "{enc:?}: {a}");
            }
        }),
        claim(TRAIN_LEARN, "NoPE gets at most one of each pair, 50 %", || {
            let (state, session) = shipped_run();
            let i = trainer(&state, Enc::Nope);
            assert!(session.length_scores[i].iter().all(|s| s.unwrap().accuracy == 0.5));
            assert_eq!(Task::Order.order_blind_optimum().unwrap().0, 0.5);
        }),
        claim(TRAIN_LEARN, "The others score 96.9 % to 100 % at 16", || {
            let (state, session) = shipped_run();
            let others: Vec<f64> = Enc::ALL[1..].iter().map(|&e| accuracy(&state, &session, e, 16).unwrap()).collect();
            let lo = others.iter().cloned().fold(1.0, f64::min);
            let hi = others.iter().cloned().fold(0.0, f64::max);
            assert_eq!((percent(lo).as_str(), percent(hi).as_str()), ("96.9 %", "100 %"));
        }),
        claim(TRAIN_LEARN, "Which accuracy curve never rises above the dotted 50 % line?", || {
            let (state, session) = shipped_run();
            for (i, &e) in state.encs.iter().enumerate() {
                let top = session.trainers[i].history.iter().map(|s| s.accuracy).fold(0.0, f64::max);
                assert_eq!(top <= 0.5, e == Enc::Nope, "{e:?}: {top}");
            }
        }),
        claim(TRAIN_COIN, "Loss is −ln(probability of the right answer): ½ costs ln 2 ≈ 0.693 (dotted line). NoPE's loss falls to ln 2, never below", || {
            // Twins get the same output q: their mean loss −(ln q + ln(1 − q))/2 is least, ln 2, at q = ½.
            let twin_loss = |q: f64| -(q.ln() + (1.0 - q).ln()) / 2.0;
            assert!((twin_loss(0.5) - std::f64::consts::LN_2).abs() < 1e-15);
            assert!([0.1, 0.3, 0.49, 0.51, 0.9].iter().all(|&q| twin_loss(q) > std::f64::consts::LN_2));
            assert_eq!(format!("{:.3}", std::f64::consts::LN_2), "0.693");
            let (state, session) = shipped_run();
            let h = &session.trainers[trainer(&state, Enc::Nope)].history;
            assert!(h.iter().all(|s| s.loss >= std::f64::consts::LN_2));
            assert!(h.last().unwrap().loss < std::f64::consts::LN_2 + 0.001);
            assert!(h[0].loss > 1.0);
        }),
        claim(TRAIN_COIN, "the others dip far below, RoPE and learned for good early on", || {
            let (state, session) = shipped_run();
            for &e in &Enc::ALL[1..] {
                let h = &session.trainers[trainer(&state, e)].history;
                let lowest = h.iter().map(|s| s.loss).fold(f64::INFINITY, f64::min);
                assert!(lowest < 0.01 * std::f64::consts::LN_2, "{e:?}: {lowest}");
                // The last step above ln 2: in the first quarter of the run for RoPE and the
                // learned table; in its second half for the others (they spike back late).
                let last = h.iter().rposition(|s| s.loss > std::f64::consts::LN_2).unwrap();
                if matches!(e, Enc::Rope | Enc::Learned) {
                    assert!(last < h.len() / 4, "{e:?}: last above ln 2 at {last} of {}", h.len());
                } else {
                    assert!(last > h.len() / 2, "{e:?}: last above ln 2 at {last} of {}", h.len());
                }
            }
        }),
        claim(TRAIN_COIN, "T5 and NoPE start at exactly the same loss (2.0511): what must T5's learned bias start at?", || {
            let (state, session) = shipped_run();
            assert_eq!(format!("{:.4}", session.trainers[trainer(&state, Enc::Nope)].history[0].loss), "2.0511");
            let first = |e| session.trainers[trainer(&state, e)].history[0].loss;
            assert_eq!(first(Enc::T5).to_bits(), first(Enc::Nope).to_bits());
            let t5 = pe_train::model::Params::init(&state.config(Enc::T5), state.seed);
            assert!(!t5.t5.is_empty() && t5.t5.iter().all(|&b| b == 0.0));
        }),
        claim(TRAIN_HOLD, "4× the length", || {
            let s = TrainState::default();
            assert_eq!(s.test_len, 4 * s.train_len);
        }),
        claim(TRAIN_HOLD, "each model answers 64 test sequences at 16 lengths, 4, 8, …, 64. None longer than 16 appeared in training. The learned table has rows for positions 0 to 15 only", || {
            let (state, session) = shipped_run();
            assert_eq!(pe_train::run::TEST_COUNT, 64);
            assert_eq!((session.lens[0], *session.lens.last().unwrap()), (4, 64));
            assert_eq!(state.train_len, 16);
            let learned = &session.trainers[trainer(&state, Enc::Learned)];
            assert_eq!(learned.cfg.max_len(), Some(16), "rows 0 to 15");
            assert!(accuracy(&state, &session, Enc::Learned, 16).is_some());
            assert!(accuracy(&state, &session, Enc::Learned, 20).is_none());
        }),
        claim(TRAIN_HOLD, "At length 64, four times the longest training sequence, which model still answers more than 90 % right?", || {
            let (q, _) = question("train", "Which will hold at 4× the length?");
            assert!(right_choice(&q).starts_with("ALiBi"));
            let (state, session) = shipped_run();
            for enc in Enc::ALL {
                let a = accuracy(&state, &session, enc, 64);
                assert_eq!(a.is_some_and(|a| a > 0.9), enc == Enc::Alibi, "{enc:?}: {a:?}");
            }
        }),
        claim(TRAIN_HOLD, "T5: learned buckets, logarithmic for far distances (max_distance 128)", || {
            assert_eq!(pe_lab::views::train::settings::T5_MAX_DISTANCE, 128);
        }),
        claim(TRAIN_HOLD, "ALiBi alone: 96.9 % at 64; its fixed penalty extends to distances never trained. Sinusoidal falls to 28.1 %, RoPE to 56.2 %, T5 to 32.8 %: past 16 they meet positions or distances never trained", || {
            let (state, session) = shipped_run();
            let at = |e| percent(accuracy(&state, &session, e, 64).unwrap());
            assert_eq!(
                [at(Enc::Alibi), at(Enc::Sinusoidal), at(Enc::Rope), at(Enc::T5)],
                ["96.9 %", "28.1 %", "56.2 %", "32.8 %"]
            );
        }),
        claim(TRAIN_HOLD, "T5's buckets for distances of 16 or more keep their starting bias, zero)", || {
            let (state, session) = shipped_run();
            let t5 = &session.trainers[trainer(&state, Enc::T5)];
            let pe_train::model::Position::T5 { buckets, bucket_of, span } = &t5.cfg.position else { panic!("T5") };
            // Distances seen in training: up to 15 either way; distances of 16 or more never.
            let seen: Vec<usize> = (0..=2 * span).filter(|&r| (r as i64 - *span as i64).unsigned_abs() < 16).map(|r| bucket_of[r] as usize).collect();
            for (r, &b) in bucket_of.iter().enumerate() {
                if (r as i64 - *span as i64).unsigned_abs() >= 16 {
                    let b = b as usize;
                    assert!(!seen.contains(&b), "distance {} shares a trained bucket", r as i64 - *span as i64);
                    for h in 0..state.heads {
                        assert_eq!(t5.params.t5[h * buckets + b], 0.0);
                    }
                }
            }
            assert!(accuracy(&state, &session, Enc::Learned, 20).is_none());
        }),
        claim(TRAIN_LOOKS, "The last row is ?, which answers. On the input shown (ALiBi, Layer shown 1, head 0), ? puts 95 % of its weight on A and B at length 16, 83 % at 32", || {
            let (state, session) = shipped_run();
            let step = train_step("Where ? looks", false);
            assert_eq!((step.att_enc, step.att_layer, step.att_head, step.layers), (Enc::Alibi, 1, 0, 2));
            let i = trainer(&state, Enc::Alibi);
            let mut said = Vec::new();
            for (k, &len) in session.attention_lens.iter().enumerate() {
                let ex = &pe_train::run::test_set(state.task, len, state.seed)[0];
                let at = |label: &str| ex.tokens.iter().position(|&t| state.task.token_label(t) == label).unwrap();
                assert_eq!(at("?"), len - 1, "the last row is ?");
                let att = session.traces[i][k].as_ref().unwrap().attention(1, 0);
                let row = &att[(len - 1) * len..];
                said.push((len, format!("{:.0} %", 100.0 * (row[at("A")] + row[at("B")]))));
            }
            assert_eq!(said, [(16, "95 %".into()), (32, "83 %".into())]);
        }),
        claim(TRAIN_LOOKS, "Choose sinusoidal, then T5: at 32 they put as much weight on A and B as ALiBi, yet score 59 % and 58 % there", || {
            let (state, session) = shipped_run();
            assert_eq!(session.attention_lens[1], 32);
            let ex = &pe_train::run::test_set(state.task, 32, state.seed)[0];
            let at = |label: &str| ex.tokens.iter().position(|&t| state.task.token_label(t) == label).unwrap();
            let on_ab = |e| {
                let att = session.traces[trainer(&state, e)][1].as_ref().unwrap().attention(1, 0);
                att[31 * 32 + at("A")] + att[31 * 32 + at("B")]
            };
            assert!(on_ab(Enc::Sinusoidal) >= on_ab(Enc::Alibi) && on_ab(Enc::T5) >= on_ab(Enc::Alibi));
            let pct0 = |e| format!("{:.0} %", 100.0 * accuracy(&state, &session, e, 32).unwrap());
            assert_eq!((pct0(Enc::Sinusoidal), pct0(Enc::T5)), ("59 %".to_string(), "58 %".to_string()));
            assert_eq!(accuracy(&state, &session, Enc::Alibi, 32), Some(1.0));
        }),
        claim(TRAIN_HOLD, "Past the band, find where each line first drops below 90 %", || {
            let (state, session) = shipped_run();
            let past: Vec<usize> = session.lens.iter().copied().filter(|&l| l > state.train_len).collect();
            for e in [Enc::Sinusoidal, Enc::Rope, Enc::T5] {
                assert!(past.iter().any(|&l| accuracy(&state, &session, e, l).unwrap() < 0.9), "{e:?}");
            }
            assert!(past.iter().all(|&l| accuracy(&state, &session, Enc::Alibi, l).unwrap() > 0.9));
        }),
        claim(TRAIN_CAUSAL, "Trained with these settings, NoPE answers 100 % right at every length from 4 to 64, ALiBi 85.9 % at 64", || {
            // (Step 4 is the length question, whose reveal shows the same lengths.)
            assert_eq!(train_step("Which will hold at 4× the length?", true).test_len, 64);
            let state = train_step("A causal mask gives NoPE order", false);
            assert_eq!((state.causal, state.encs.as_slice(), state.layers), (true, &[Enc::Nope, Enc::Alibi][..], 2));
            let mut session = state.session();
            session.run();
            assert_eq!((session.lens[0], *session.lens.last().unwrap()), (4, 64));
            for li in 0..session.lens.len() {
                assert_eq!(session.length_scores[0][li].unwrap().accuracy, 1.0);
            }
            assert_eq!(percent(accuracy(&state, &session, Enc::Alibi, 64).unwrap()), "85.9 %");
        }),
        claim(TRAIN_OFFSET, "from the third position on, for the token two back, at every length", || {
            let task = Task::Offset;
            let ex = &task.batch(10, 1, &mut pe_train::rng::Rng::new(3))[0];
            for (i, t) in ex.targets.iter().enumerate() {
                assert_eq!(*t, (i >= 2).then(|| ex.tokens[i - 2]));
            }
        }),
        claim(TRAIN_OFFSET, "Predict which encodings will hold past length 16", || {
            assert_eq!(train_step("Your turn: a relation between positions", false).train_len, 16);
        }),
    ]
}
