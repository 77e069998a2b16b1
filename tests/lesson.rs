//! Lessons as data: the shipped seed lesson is valid, and every malformed file gives one clear
//! error naming the step and the field.
#![cfg(not(target_arch = "wasm32"))]

use pe_lab::state::lesson::{lesson_source, lesson_url, parse_lesson, MAX_LESSON_BYTES};
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
    // Every step: one or two panels, a clean state (no notice), a prompt naming a control.
    for (n, step) in lesson.steps.iter().enumerate() {
        assert!((1..=2).contains(&step.panels.len()), "step {}", n + 1);
        let (_, notices) =
            AppState::from_query(&format!("view={}&{}", step.view.name(), step.state));
        assert!(notices.is_empty(), "step {}: {notices:?}", n + 1);
        assert!(step.try_this.starts_with("Predict"), "step {}", n + 1);
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
            "step 2, field “control”: “theta” is not a control of the Sinusoidal view",
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
        "",
    ] {
        assert!(lesson_source(bad).is_err(), "{bad}");
    }
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
