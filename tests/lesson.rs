//! Lessons as data: the shipped seed lesson is valid, and every malformed file gives one clear
//! error naming the step and the field.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::state::lesson::{
    lesson_source, lesson_url, parse_lesson, Answer, BUILT_IN, MAX_LESSON_BYTES,
};
use pe_lab::state::{AppState, View};

fn seed() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/lessons/seed.json"))
        .expect("seed lesson")
}

#[test]
fn the_seed_lesson_follows_the_source_material_in_at_least_twelve_steps() {
    let lesson = parse_lesson(&seed()).expect("valid");
    assert!(lesson.steps.len() >= 12, "{} steps", lesson.steps.len());
    let first = &lesson.steps[0];
    assert_eq!(first.view, View::Attention);
    // Every step: one or two panels, a clean state (no notice), a prompt (asking a
    // prediction unless the step's question does).
    for (n, step) in lesson.steps.iter().enumerate() {
        assert!((1..=2).contains(&step.panels.len()), "step {}", n + 1);
        let (_, notices) =
            AppState::from_query(&format!("view={}&{}", step.view.name(), step.state));
        assert!(notices.is_empty(), "step {}: {notices:?}", n + 1);
        assert!(
            step.question.is_some() || step.try_this.starts_with("Predict"),
            "step {}",
            n + 1
        );
        let state = step.app_state();
        assert_eq!(state.view, step.view);
    }
    // The lesson's d_model = 8 steps highlight columns.
    let formula = &lesson.steps[2];
    assert_eq!(formula.app_state().sinusoidal.d_model, 8);
    assert_eq!(formula.app_state().highlight.cols, vec![0, 2, 4, 6]);
    // Views in the order of the material: why, sinusoidal, learned, RoPE, extension, compare.
    let views: Vec<View> = lesson.steps.iter().map(|s| s.view).collect();
    let last = |v: View| views.iter().rposition(|&x| x == v).unwrap();
    let first_of = |v: View| views.iter().position(|&x| x == v).unwrap();
    assert!(last(View::Sinusoidal) < first_of(View::Learned));
    assert!(last(View::Learned) < first_of(View::Rope));
    assert!(last(View::Rope) < first_of(View::Scaling));
    assert_eq!(*views.last().unwrap(), View::Compare);
}

fn error_of(text: &str) -> String {
    parse_lesson(text).expect_err("invalid").to_string()
}

const STEP: &str = r#"{"title": "T", "panels": ["pe-curves"], "state": "d_model=8", "text": "x", "try": "Predict y"}"#;

fn lesson_with(step: &str) -> String {
    format!(r#"{{"title": "L", "steps": [{STEP}, {step}]}}"#)
}

#[test]
fn malformed_lessons_name_the_step_and_the_field() {
    assert!(error_of("{").starts_with("not valid JSON ("));
    assert!(error_of("[]").contains("JSON object"));
    assert_eq!(error_of(r#"{"steps": []}"#), "field “title”: missing");
    assert_eq!(
        error_of(r#"{"title": "L", "steps": []}"#),
        "field “steps”: has no step"
    );
    assert_eq!(error_of(r#"{"title": "L"}"#), "field “steps”: missing");
    let cases = [
        (
            r#"{"panels": ["pe-curves"], "text": "x", "try": "y"}"#,
            "step 2, field “title”: missing",
        ),
        (
            r#"{"title": "T", "panels": ["nope"], "text": "x", "try": "y"}"#,
            "step 2, field “panels”: unknown panel “nope”",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves", "rope-decay"], "text": "x", "try": "y"}"#,
            "step 2, field “panels”: the panels of a step must belong to one view",
        ),
        (
            r#"{"title": "T", "panels": [], "text": "x", "try": "y"}"#,
            "step 2, field “panels”: must name one or two panels",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves"], "state": "d_model=0", "text": "x", "try": "y"}"#,
            "step 2, field “state”: d_model: ",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves"], "state": "view=rope", "text": "x", "try": "y"}"#,
            "step 2, field “state”: leave out view=",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves"], "text": 5, "try": "y"}"#,
            "step 2, field “text”: must be a string",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves"], "text": "x"}"#,
            "step 2, field “try”: missing",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves"], "text": "x", "try": "y", "control": "theta"}"#,
            "step 2, field “control”: “theta” is not one of the Sinusoidal view's controls (seq_len, d_model, base, layout, p0, offset)",
        ),
        (
            r#"{"title": "T", "panels": ["pe-curves"], "text": "x", "try": "y", "highlight": {"cols": [-1]}}"#,
            "step 2, field “highlight.cols”: must hold whole numbers from 0",
        ),
    ];
    for (step, expected) in cases {
        let message = error_of(&lesson_with(step));
        assert!(
            message.starts_with(expected),
            "{message:?} does not start with {expected:?}"
        );
    }
    let huge = format!(r#"{{"title": "{}"}}"#, "x".repeat(MAX_LESSON_BYTES));
    assert!(error_of(&huge).contains("larger than"));
}

#[test]
fn a_valid_custom_lesson_reads_its_highlight_into_the_state() {
    let step = r#"{"title": "T", "panels": ["pe-heatmap"], "state": "d_model=8", "text": "<b>not html</b>", "try": "Predict", "highlight": {"cols": [4, 5], "positions": [3]}, "control": "d_model"}"#;
    let lesson = parse_lesson(&lesson_with(step)).expect("valid");
    let s = &lesson.steps[1];
    assert_eq!(s.text, "<b>not html</b>");
    assert_eq!(s.control.as_deref(), Some("d_model"));
    let state = s.app_state();
    assert_eq!(
        (
            state.highlight.cols.clone(),
            state.highlight.positions.clone()
        ),
        (vec![4, 5], vec![3])
    );
}

#[test]
fn lesson_sources_stay_on_this_site() {
    assert_eq!(lesson_source("seed").as_deref(), Ok("seed"));
    assert_eq!(lesson_url("seed"), "./lessons/seed.json");
    assert_eq!(
        lesson_source("course/week1.json").as_deref(),
        Ok("course/week1.json")
    );
    assert_eq!(lesson_url("course/week1.json"), "course/week1.json");
    for bad in [
        "https://evil.example/l.json",
        "//evil.example/l.json",
        "/abs.json",
        "x.txt",
        "a\\b.json",
        "java script:.json",
        "javascript:x.json",
    ] {
        assert!(lesson_source(bad).is_err(), "{bad}");
    }
    // No name: the list of the lessons PE Lab ships.
    assert_eq!(lesson_source("").as_deref(), Ok(""));
    let (state, notices) = AppState::from_query("lesson=https://evil.example/l.json");
    assert!(state.lesson.is_none());
    assert_eq!(notices.items[0].param, "lesson");
}

#[test]
fn a_lesson_url_holds_the_lesson_and_the_step_only() {
    let (state, notices) = AppState::from_query("lesson=seed&step=3&present=1&embed=1&seq_len=99");
    assert!(notices.is_empty());
    let lesson = state.lesson.clone().expect("lesson");
    assert_eq!(
        (lesson.source.as_str(), lesson.step, lesson.present),
        ("seed", 3, true)
    );
    assert_eq!(state.to_query(), "lesson=seed&step=3&present=1&embed=1");
    let (back, _) = AppState::from_query(&state.to_query());
    assert_eq!(back.lesson, state.lesson);
    // A revealed question is in the URL, so a link opens it revealed.
    let (revealed, _) = AppState::from_query("lesson=seed&step=2&revealed=1");
    assert!(revealed.lesson.as_ref().unwrap().revealed);
    assert_eq!(revealed.to_query(), "lesson=seed&step=2&revealed=1");
    let (clamped, notices) = AppState::from_query("lesson=seed&step=0");
    assert_eq!(clamped.lesson.unwrap().step, 1);
    assert_eq!(notices.items[0].param, "step");
}

#[test]
fn the_precision_lesson_is_short_and_valid() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/lessons/precision.json"
    ))
    .expect("lesson");
    let lesson = parse_lesson(&text).expect("valid");
    assert!((3..=8).contains(&lesson.steps.len()));
    assert!(lesson.steps.iter().all(|s| s.view == View::Precision));
    assert_eq!(lesson_url("precision"), "./lessons/precision.json");
}

const QUESTION: &str = r#""question": {"ask": "Which?", "choices": ["a", "b", "c"], "answer": 2, "explain": "b, because.", "reveal": "d_model=16"}"#;

#[test]
fn a_question_reads_its_choices_answer_and_reveal_state() {
    let step = format!(
        r#"{{"title": "T", "panels": ["pe-heatmap"], "state": "d_model=8", "text": "x", "try": "See", "highlight": {{"cols": [1]}}, {QUESTION}}}"#
    );
    let lesson = parse_lesson(&lesson_with(&step)).expect("valid");
    let s = &lesson.steps[1];
    let q = s.question.as_ref().expect("question");
    assert_eq!(
        q.answer,
        Answer::Choice {
            choices: vec!["a".into(), "b".into(), "c".into()],
            right: 1
        }
    );
    assert!(q.answer.is_right(1.0) && !q.answer.is_right(0.0));
    assert_eq!(q.answer.said(), "b");
    // Before: the step's state; revealed: the reveal state, with the step's highlights.
    assert_eq!(s.app_state().sinusoidal.d_model, 8);
    let revealed = s.revealed_state();
    assert_eq!(revealed.sinusoidal.d_model, 16);
    assert_eq!(revealed.highlight.cols, vec![1]);
    // A reveal with its own highlights keeps them.
    let own = step.replace("d_model=16", "d_model=16&hl_cols=9");
    let lesson = parse_lesson(&lesson_with(&own)).expect("valid");
    assert_eq!(lesson.steps[1].revealed_state().highlight.cols, vec![9]);
    // A number with a tolerance; no reveal: the step's own state.
    let number = r#"{"title": "T", "panels": ["pe-curves"], "text": "x", "try": "y", "question": {"ask": "How many?", "answer": 1387, "tolerance": 2, "explain": "Because."}}"#;
    let lesson = parse_lesson(&lesson_with(number)).expect("valid");
    let q = lesson.steps[1].question.as_ref().unwrap();
    assert!(q.answer.is_right(1385.0) && q.answer.is_right(1389.0) && !q.answer.is_right(1390.0));
    assert_eq!(q.answer.said(), "1387 (± 2)");
    assert_eq!(
        lesson.steps[1].revealed_state(),
        lesson.steps[1].app_state()
    );
}

#[test]
fn malformed_questions_name_the_step_and_the_field() {
    let with = |q: &str| {
        error_of(&lesson_with(&format!(
            r#"{{"title": "T", "panels": ["pe-curves"], "text": "x", "try": "y", "question": {q}}}"#
        )))
    };
    let cases = [
        ("5", "step 2, field “question”: must be an object"),
        (
            r#"{"choices": ["a", "b"], "answer": 1, "explain": "e"}"#,
            "step 2, field “question.ask”: missing",
        ),
        (
            r#"{"ask": "q", "choices": ["a", "b"], "answer": 1}"#,
            "step 2, field “question.explain”: missing",
        ),
        (
            r#"{"ask": "q", "choices": ["a"], "answer": 1, "explain": "e"}"#,
            "step 2, field “question.choices”: must hold 2 to 5 choices",
        ),
        (
            r#"{"ask": "q", "choices": ["a", "b", "c", "d", "e", "f"], "answer": 1, "explain": "e"}"#,
            "step 2, field “question.choices”: must hold 2 to 5 choices",
        ),
        (
            r#"{"ask": "q", "choices": ["a", ""], "answer": 1, "explain": "e"}"#,
            "step 2, field “question.choices”: each choice",
        ),
        (
            r#"{"ask": "q", "choices": "a", "answer": 1, "explain": "e"}"#,
            "step 2, field “question.choices”: must be a list",
        ),
        (
            r#"{"ask": "q", "choices": ["a", "b"], "answer": 3, "explain": "e"}"#,
            "step 2, field “question.answer”: must be the right choice's number, 1 to 2",
        ),
        (
            r#"{"ask": "q", "choices": ["a", "b"], "answer": 1.5, "explain": "e"}"#,
            "step 2, field “question.answer”: must be the right choice's number",
        ),
        (
            r#"{"ask": "q", "answer": "x", "explain": "e", "tolerance": 1}"#,
            "step 2, field “question.answer”: must be a number",
        ),
        (
            r#"{"ask": "q", "answer": 3, "explain": "e"}"#,
            "step 2, field “question.tolerance”: must be a number from 0",
        ),
        (
            r#"{"ask": "q", "answer": 3, "explain": "e", "tolerance": -1}"#,
            "step 2, field “question.tolerance”: must be a number from 0",
        ),
        (
            r#"{"ask": "q", "answer": 3, "tolerance": 0, "explain": "e", "reveal": "view=rope"}"#,
            "step 2, field “question.reveal”: leave out view=",
        ),
        (
            r#"{"ask": "q", "answer": 3, "tolerance": 0, "explain": "e", "reveal": "d_model=0"}"#,
            "step 2, field “question.reveal”: d_model: ",
        ),
        (
            r#"{"ask": "q", "answer": 3, "tolerance": 0, "explain": "e", "reveal": 7}"#,
            "step 2, field “question.reveal”: must be a query string",
        ),
    ];
    for (q, expected) in cases {
        let message = with(q);
        assert!(
            message.starts_with(expected),
            "{message:?} does not start with {expected:?}"
        );
    }
}

#[test]
fn the_shipped_lessons_ask_before_they_show() {
    let count = |name: &str| {
        let text = std::fs::read_to_string(format!(
            "{}/lessons/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("lesson");
        parse_lesson(&text)
            .expect("valid")
            .steps
            .iter()
            .filter(|s| s.question.is_some())
            .count()
    };
    assert!(count("seed") >= 4, "{}", count("seed"));
    assert!(count("precision") >= 1);
}

#[test]
fn every_lesson_file_is_listed_and_every_listed_lesson_has_a_file() {
    let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/lessons"))
        .expect("lessons/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_string))
        .collect();
    files.sort();
    let mut listed: Vec<String> = BUILT_IN.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "lessons/ and BUILT_IN (the lesson picker's list) must agree"
    );
}

#[test]
fn a_step_may_name_any_control_of_its_view_even_one_its_url_leaves_out() {
    // With the mask off, `causal` is not in the step's URL, yet its checkbox is on the page.
    let step = r#"{"title": "T", "panels": ["permutation-demo"], "view": "attention", "text": "x", "try": "y", "control": "causal"}"#;
    let lesson = parse_lesson(&lesson_with(step)).expect("causal is a control of Why position?");
    assert_eq!(lesson.steps[1].control.as_deref(), Some("causal"));
}
