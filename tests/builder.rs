//! The lesson builder's model: a draft is written in the loader's format and checked by the
//! loader; shipped lessons survive the builder and the share link unchanged; stored drafts
//! never fail to read.

use pe_lab::state::builder::{Draft, DraftAnswer, DraftQuestion, DraftStep, Shelf};
use pe_lab::state::lesson::{parse_lesson, BUILT_IN};
use pe_lab::state::lesson_link;
use pe_lab::state::View;

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/lessons/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn every_shipped_lesson_is_the_same_lesson_after_the_builder_and_its_link() {
    for name in BUILT_IN {
        let lesson = parse_lesson(&shipped(name)).unwrap();
        // A copy of a shipped lesson, written out again.
        let copy = Draft::from_lesson(&lesson);
        assert!(copy.problems().is_empty(), "{name}: {:?}", copy.problems());
        assert_eq!(parse_lesson(&copy.to_file()).unwrap(), lesson, "{name}");
        // The file opened in the builder (its highlights kept in the state).
        let opened = Draft::from_file(&shipped(name)).unwrap();
        assert_eq!(opened.lesson().unwrap(), lesson, "{name}");
        // The share link.
        let link = lesson_link::encode(&copy.to_file()).unwrap();
        let back = lesson_link::decode(&link).unwrap();
        assert_eq!(parse_lesson(&back).unwrap(), lesson, "{name}");
    }
}

#[test]
fn a_ten_step_lesson_fits_in_a_link() {
    let mut seed = Draft::from_file(&shipped("seed")).unwrap();
    seed.steps.truncate(10);
    let file = seed.to_file();
    let link = lesson_link::encode(&file).unwrap();
    // The figure the README quotes (about 2,900 characters of data for the seed lesson's first
    // ten steps, from a 7 KB file).
    let data = link.len() - lesson_link::PREFIX.len();
    assert!((2_600..=3_200).contains(&data), "{data} characters");
    assert!(
        link.len() * 2 < file.len(),
        "{} of {}",
        link.len(),
        file.len()
    );
}

fn step_on(view: View, state: &str) -> DraftStep {
    let mut step = DraftStep::capture(view, state);
    step.title = "A step".into();
    step.text = "A claim.".into();
    step.try_this = "Move it.".into();
    step
}

#[test]
fn the_builder_says_what_the_loader_says() {
    let mut draft = Draft {
        title: String::new(),
        steps: vec![DraftStep::capture(View::Sinusoidal, "seq_len=50")],
    };
    let said: Vec<String> = draft.problems().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        said,
        ["field “title”: is empty", "step 1, field “title”: is empty"]
    );
    draft.title = "Mine".into();
    draft.steps[0] = step_on(View::Sinusoidal, "seq_len=50");
    assert!(draft.problems().is_empty());

    // A question without a right answer.
    draft.steps[0].question = Some(DraftQuestion {
        ask: "Which?".into(),
        explain: "Because.".into(),
        answer: DraftAnswer::Choice {
            choices: vec!["a".into(), "b".into()],
            right: None,
        },
        reveal: String::new(),
    });
    assert_eq!(
        draft.problems()[0].to_string(),
        "step 1, field “question.answer”: must be the right choice's number, 1 to 2"
    );
    // A reveal equal to the step's state.
    let q = draft.steps[0].question.as_mut().unwrap();
    q.answer = DraftAnswer::Choice {
        choices: vec!["a".into(), "b".into()],
        right: Some(1),
    };
    q.reveal = "seq_len=50".into();
    assert!(draft.problems()[0]
        .to_string()
        .starts_with("step 1, field “question.reveal”: is the same as the step's state"));
    draft.steps[0].question.as_mut().unwrap().reveal = "seq_len=100".into();
    assert!(draft.problems().is_empty());
    assert_eq!(
        draft.lesson().unwrap().steps[0]
            .question
            .as_ref()
            .unwrap()
            .answer
            .said(),
        "b"
    );

    // A prompt naming a control the step hides or locks.
    let mut rope = step_on(View::Rope, "head_dim=64&hide=theta&lock=max_dist");
    rope.panels = vec!["rope-decay".into()];
    rope.control = "theta".into();
    draft.steps.push(rope);
    assert_eq!(
        draft.problems()[0].to_string(),
        "step 2, field “control”: the prompt names “theta”, which the step hides: a student could not see it"
    );
    draft.steps[1].control = "max_dist".into();
    assert!(draft.problems()[0]
        .to_string()
        .contains("which the step locks"));
    draft.steps[1].control = "head_dim".into();
    assert!(draft.problems().is_empty());
    let lesson = draft.lesson().unwrap();
    let rope = lesson.steps[1].app_state();
    assert_eq!(rope.hidden, ["theta"]);
    assert_eq!(rope.locked, ["max_dist"]);

    // A number question typed with a word where the number goes.
    draft.steps[1].question = Some(DraftQuestion {
        ask: "How many?".into(),
        explain: "Count.".into(),
        answer: DraftAnswer::Number {
            value: "twelve".into(),
            tolerance: "0".into(),
        },
        reveal: String::new(),
    });
    assert!(draft.problems()[0]
        .to_string()
        .starts_with("step 2, field “question.answer”: must be a number"));
}

#[test]
fn stored_drafts_read_back_and_garbage_is_an_empty_shelf() {
    let mut shelf = Shelf::default();
    let name = shelf.fresh_name("");
    assert_eq!(name, "Untitled lesson");
    shelf
        .drafts
        .push((name, Draft::from_file(&shipped("seed")).unwrap()));
    assert_eq!(shelf.fresh_name("Untitled lesson"), "Untitled lesson 2");
    shelf.drafts.push((
        "half done".into(),
        Draft {
            title: String::new(),
            steps: vec![DraftStep::capture(View::Rope, "")],
        },
    ));
    shelf.current = 1;
    assert_eq!(Shelf::from_text(&shelf.to_text()), shelf);
    for garbage in [
        "",
        "null",
        "[]",
        "{\"drafts\": 3}",
        "{\"drafts\": [{}], \"current\": -1}",
        "{",
    ] {
        assert_eq!(Shelf::from_text(garbage), Shelf::default(), "{garbage}");
    }
    let far = Shelf::from_text(&shelf.to_text().replace("\"current\":1", "\"current\":99"));
    assert_eq!(far.current, 1);
}

#[test]
fn a_hostile_file_opens_as_a_draft_with_its_text_as_text() {
    let file = r#"{"title": "<script>alert(1)</script>", "steps": [{"title": 5, "panels": ["nope", "pe-heatmap"], "text": "<img src=x onerror=alert(1)>", "question": {"choices": [1, "b"], "answer": 9}}]}"#;
    let draft = Draft::from_file(file).unwrap();
    assert_eq!(draft.title, "<script>alert(1)</script>");
    assert_eq!(draft.steps[0].view, View::Sinusoidal);
    assert_eq!(draft.steps[0].text, "<img src=x onerror=alert(1)>");
    assert!(!draft.problems().is_empty());
    assert!(Draft::from_file("[1]").is_err());
    assert!(Draft::from_file(&"x".repeat(300 * 1024)).is_err());
}

#[test]
fn a_captured_page_is_the_same_page_as_a_step() {
    let (page, _) = pe_lab::state::AppState::from_query(
        "view=rope&head_dim=32&theta=500&hl_cols=3&hide=seed&lock=qk&theme=dark&author=1",
    );
    let query = pe_lab::state::builder::step_query(&page);
    assert!(!query.contains("view=") && !query.contains("theme") && !query.contains("author"));
    let back = pe_lab::state::builder::step_state(View::Rope, &query);
    assert_eq!(back.rope, page.rope);
    assert_eq!(back.highlight, page.highlight);
    assert_eq!(back.hidden, ["seed"]);
    assert_eq!(back.locked, ["qk"]);
}

#[test]
fn a_step_captured_from_each_default_view_is_checked() {
    for spec in pe_lab::state::VIEWS.iter() {
        let (page, _) =
            pe_lab::state::AppState::from_query(&format!("view={}&author=1", spec.name));
        let step = DraftStep::capture(page.view, &pe_lab::state::builder::step_query(&page));
        let draft = Draft {
            title: String::new(),
            steps: vec![step],
        };
        let problems = draft.problems();
        assert!(!problems.is_empty(), "{}", spec.name);
        let shelf = Shelf {
            drafts: vec![("x".into(), draft)],
            current: 0,
        };
        assert_eq!(Shelf::from_text(&shelf.to_text()), shelf);
    }
}

#[test]
fn opening_a_file_says_what_it_leaves_out() {
    assert!(Draft::cut_from(&shipped("seed")).is_empty());
    let step = r#"{"title": "T", "panels": ["pe-heatmap", "pe-curves", "pe-spectrum"], "text": "x", "try": "y"}"#;
    let many = vec![step; 101].join(",");
    let text = format!(r#"{{"title": "L", "steps": [{many}]}}"#);
    let cut = Draft::cut_from(&text);
    assert_eq!(
        cut[0],
        "kept its first 100 steps of 101 (a lesson has at most 100)"
    );
    assert_eq!(cut[1], "steps 1, 2, 3, 4, 5, … kept their first 2 panels");
    assert_eq!(cut.len(), 2);
    let one = r#"{"title": "L", "steps": [{"title": "T", "panels": ["pe-heatmap", "pe-curves", "pe-spectrum"], "text": "x", "try": "y"}]}"#;
    assert_eq!(Draft::cut_from(one), vec!["step 1 kept its first 2 panels"]);
    let d = Draft::from_file(&text).unwrap();
    assert_eq!((d.steps.len(), d.steps[0].panels.len()), (100, 2));
}

#[test]
fn the_builder_names_problems_by_its_own_labels() {
    let mut d = Draft::from_file(&shipped("seed")).unwrap();
    d.steps[0].try_this.clear();
    let said: Vec<String> = d
        .problems()
        .iter()
        .map(pe_lab::state::builder::for_builder)
        .collect();
    assert!(
        said.iter().any(|m| m.starts_with("Step 1, “Try this”: ")),
        "{said:?}"
    );
    assert!(!said.iter().any(|m| m.contains("field “")), "{said:?}");
}
