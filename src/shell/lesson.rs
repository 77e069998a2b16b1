//! The lesson frame (`lesson=…`): one step at a time — its claim, a "Try this" prompt, and one
//! or two panels of a view in the step's state, with its highlights. A step with a question
//! asks it first, with its panels locked, and reveals (`revealed=1`) when it is answered or
//! "Show me" is pressed. Back and Next (and the arrow keys) move; "Reset step" restores the
//! step's state; presenter mode (`present=1`) shows the step alone, fitted to the screen, large
//! enough to read from the back of a classroom. `lesson=` with no name lists the lessons PE
//! Lab ships. Loaded on demand, with the lesson file fetched when the lesson opens; its styles
//! come with it.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::lesson::{
    lesson_url, parse_lesson, Answer, Lesson, Question, Step, BUILT_IN, DRAFT, LINKED,
};
use crate::state::{AppState, LessonLocation};
use crate::ui::context::{go_to_state, select_state, AppCtx};
use crate::ui::widgets::{ChartPresentation, LessonPanels};

/// The lesson file as loaded: the lesson, or what went wrong (said to the user).
type Loaded = Option<Result<Arc<Lesson>, String>>;

/// The lesson frame.
#[component]
pub fn LessonFrame() -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let location = select_state(state, |s| s.lesson.clone());
    let source = Memo::new(move |_| location.with(|l| l.as_ref().map(|l| l.source.clone())));
    let step_no = Memo::new(move |_| location.with(|l| l.as_ref().map_or(1, |l| l.step)));
    let present = Memo::new(move |_| location.with(|l| l.as_ref().is_some_and(|l| l.present)));
    let revealed = Memo::new(move |_| location.with(|l| l.as_ref().is_some_and(|l| l.revealed)));
    // Bumped by "Reset step": the step's state is applied again.
    let resets = RwSignal::new(0u32);

    // The lesson file, fetched and checked whenever the source changes; with its source, so
    // that the lesson shown while another loads is not taken for it.
    let file = LocalResource::new(move || {
        let source = source.get();
        async move {
            let source = source.filter(|s| !s.is_empty())?;
            // A lesson in the link, or the builder's draft, is read here, not fetched.
            let carried = match source.as_str() {
                LINKED => Some(crate::state::lesson_link::decode(
                    &super::builder::location_hash(),
                )),
                DRAFT => Some(
                    super::builder::current_draft()
                        .map(|d| d.to_file())
                        .ok_or_else(|| "A lesson draft opens only in the browser it was made in, and none is kept in this one: ask for the lesson's Share link.".to_string()),
                ),
                _ => None,
            };
            if let Some(text) = carried {
                let result = text.and_then(|text| {
                    parse_lesson(&text)
                        .map(Arc::new)
                        .map_err(|e| format!("The lesson cannot be used: {e}."))
                });
                return Some((source, result));
            }
            let result = match crate::ui::tables::fetch_bytes(&lesson_url(&source)).await {
                Err(e) => Err(format!("Could not load the lesson “{source}”: {e}.")),
                Ok(bytes) => match String::from_utf8(bytes) {
                    Err(_) => Err(format!("The lesson “{source}” is not UTF-8 text.")),
                    Ok(text) => parse_lesson(&text)
                        .map(Arc::new)
                        .map_err(|e| format!("The lesson “{source}” cannot be used: {e}.")),
                },
            };
            Some((source, result))
        }
    });
    let loaded = Signal::derive(move || -> Loaded {
        let current = source.get();
        let (from, result) = file.get().flatten()?;
        (current.as_deref() == Some(from.as_str())).then_some(result)
    });

    // The current step, within the lesson.
    let step = Memo::new(move |_| {
        // Leaving the lesson (the navigation, a link) must not re-apply a step on the way out.
        if location.with(Option::is_none) {
            return None;
        }
        loaded.with(|l| match l {
            Some(Ok(lesson)) => {
                let n = step_no.get().clamp(1, lesson.steps.len());
                Some((n, lesson.steps.len(), lesson.steps[n - 1].clone()))
            }
            _ => None,
        })
    });
    // Apply the step's state when the step changes, on "Reset step", and its reveal state when
    // its question is answered.
    Effect::new(move |_| {
        resets.track();
        let shown = revealed.get();
        let Some((n, _, step)) = step.get() else {
            return;
        };
        let next = state.with_untracked(|s| step_state(&step, n, shown, s));
        go_to_state(state, next);
    });
    let go = move |delta: i64| {
        let Some((n, total, _)) = step.get_untracked() else {
            return;
        };
        let target = (n as i64 + delta).clamp(1, total as i64) as usize;
        if target != n {
            state.update(|s| {
                if let Some(l) = s.lesson.as_mut() {
                    l.step = target;
                    l.revealed = false;
                }
            });
        }
    };
    let reset = move |_| {
        state.update(|s| {
            if let Some(l) = s.lesson.as_mut() {
                l.revealed = false;
            }
        });
        resets.update(|n| *n += 1);
    };
    // Left and Right move, unless the focus is somewhere the arrows mean something else.
    let keys = window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
        if ev.alt_key() || ev.ctrl_key() || ev.meta_key() || in_text_field(&ev) {
            return;
        }
        match ev.key().as_str() {
            "ArrowLeft" => go(-1),
            "ArrowRight" => go(1),
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());
    let toggle_present = move |_| {
        state.update(|s| {
            if let Some(l) = s.lesson.as_mut() {
                l.present = !l.present;
            }
        })
    };

    let frame = move || {
        if source.with(|s| s.as_deref() == Some("")) {
            return view! { <LessonPicker/> }.into_any();
        }
        let lesson = match loaded.get() {
            None => {
                return view! { <p class="view-loading" role="status">"Loading the lesson…"</p> }
                    .into_any()
            }
            Some(Err(message)) => {
                let draft = source.get_untracked().as_deref() == Some(DRAFT);
                return view! {
                    <div class="lesson-error" role="alert">
                        <p>{message}</p>
                        {if draft {
                            view! { <p><button class="to-builder" on:click=move |_| back_to_builder(state)>"Back to the builder"</button></p> }.into_any()
                        } else {
                            view! { <p><a href="?">"Open PE Lab without the lesson"</a></p> }.into_any()
                        }}
                    </div>
                }
                .into_any();
            }
            Some(Ok(lesson)) => lesson,
        };
        let name = source.get_untracked().unwrap_or_default();
        let total = lesson.steps.len();
        view! {
            <section class="lesson" class:present=move || present.get() data-lesson=name
                data-step=move || step.with(|s| s.as_ref().map_or(1, |s| s.0))
                data-steps=total aria-label=format!("Lesson: {}", lesson.title)>
                <div class="lesson-bar">
                    <p class="lesson-title">{lesson.title.clone()}</p>
                    <div class="lesson-progress">
                        <progress max=total value=move || step.with(|s| s.as_ref().map_or(1, |s| s.0)) aria-label="Lesson progress"></progress>
                        <span>{move || step.with(|s| s.as_ref().map_or(String::new(), |s| format!("Step {} of {}", s.0, s.1)))}</span>
                    </div>
                    <div class="lesson-buttons">
                        <button on:click=move |_| go(-1) disabled=move || step.with(|s| s.as_ref().is_none_or(|s| s.0 <= 1))>"Back"</button>
                        <button on:click=move |_| go(1) disabled=move || step.with(|s| s.as_ref().is_none_or(|s| s.0 >= s.1))>"Next"</button>
                        <button on:click=reset>"Reset step"</button>
                        {(name == DRAFT).then(|| view! {
                            <button class="to-builder" on:click=move |_| back_to_builder(state)>"Back to the builder"</button>
                        })}
                        <super::notation::NotationButton/>
                        <button on:click=toggle_present aria-pressed=move || if present.get() { "true" } else { "false" }>
                            {move || if present.get() { "Leave presenter mode" } else { "Present" }}
                        </button>
                    </div>
                </div>
                {move || step.get().map(|(n, _, s)| step_view(n, s, present.get(), revealed))}
            </section>
        }
        .into_any()
    };
    view! { <div class="lesson-host"><style>{LESSON_CSS}</style>{frame}</div> }
}

/// Leaves a preview for the builder, with the page at the step previewed.
fn back_to_builder(state: RwSignal<AppState>) {
    state.update(|s| {
        s.lesson = None;
        s.author = true;
    });
}

/// The app state of step `n` (revealed or not): its view, parameters and highlights, with the
/// lesson kept.
fn step_state(step: &Step, n: usize, revealed: bool, current: &AppState) -> AppState {
    let mut next = if revealed {
        step.revealed_state()
    } else {
        step.app_state()
    };
    next.lesson = current
        .lesson
        .clone()
        .map(|l| LessonLocation { step: n, ..l });
    next.theme = current.theme;
    next.embed = current.embed;
    next.author = current.author;
    next
}

/// One step: its claim, its question or prompt, then its panels (the view in the step's
/// state), locked while its question is unanswered.
fn step_view(n: usize, step: Step, present: bool, revealed: Memo<bool>) -> AnyView {
    // Always provided (a re-run of the step closure replaces both, never leaves one behind).
    provide_context(LessonPanels(step.panels.clone()));
    provide_context(present.then_some(ChartPresentation { text_scale: 1.6 }));
    // Presenter mode keeps only the control the step names.
    // Presenter mode keeps only the control the step names (none when it names none).
    let keep = Some(match &step.control {
        Some(c) => format!(".lesson.present .controls > [data-control]:not([data-control=\"{c}\"]), .lesson.present .controls > .method-group:not(:has([data-control=\"{c}\"])), .lesson.present .controls:not(:has([data-control=\"{c}\"])), .lesson.present :is(.panel, .method-group) [data-control]:not([data-control=\"{c}\"]) {{ display: none; }}"),
        None => ".lesson.present .controls, .lesson.present .panel [data-control] { display: none; }".to_string(),
    });
    let view = step.view;
    let asks = step.question.is_some();
    let locked = move || (asks && !revealed.get()).then_some("");
    let try_this = step.try_this;
    view! {
        <div class="lesson-step" data-step-view=view.name()>
            <h2>{format!("{n}. {}", step.title)}</h2>
            <p class="lesson-text">{step.text}</p>
            {step.question.map(|q| view! { <QuestionBox question=q revealed=revealed/> })}
            <Show when=move || !asks || revealed.get()>
                <p class="lesson-try"><strong>"Try this: "</strong>{try_this.clone()}</p>
            </Show>
            {keep.map(|css| view! { <style>{css}</style> })}
        </div>
        <div class="lesson-panels" inert=locked>
            <Suspense fallback=|| view! { <p class="view-loading" role="status">"Loading…"</p> }>
                {Suspend::new(async move {
                    crate::views::load(view).await.unwrap_or_else(|_| {
                        view! { <p role="alert">"This step's view could not be loaded. Reload the page to try again."</p> }.into_any()
                    })
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

/// Whether a key press happened where the arrow keys edit or choose something.
fn in_text_field(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|e| {
            matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || e.is_content_editable()
        })
}

/// A checkpoint: the question, its choices (or a number field), "Check" and "Show me"; once
/// revealed, the right answer marked, the given one marked right or wrong, and the
/// explanation. Digits choose and Enter checks (or shows the answer when none is chosen). The
/// answer stays on this page: the URL says only whether the step is revealed.
#[component]
fn QuestionBox(question: Question, revealed: Memo<bool>) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let Question {
        ask,
        answer,
        explain,
        ..
    } = question;
    // The choice picked (its index) or the number typed, before it is checked.
    let chosen = RwSignal::new(None::<usize>);
    let typed = RwSignal::new(String::new());
    // Whether the checked answer was right (`None`: shown without one).
    let verdict = RwSignal::new(None::<bool>);
    let answer = Arc::new(answer);
    let given = {
        let answer = answer.clone();
        move || match &*answer {
            Answer::Choice { .. } => chosen.get_untracked().map(|c| c as f64),
            Answer::Number { .. } => typed
                .with_untracked(|t| t.trim().replace(',', "").parse::<f64>().ok())
                .filter(|v| v.is_finite()),
        }
    };
    let reveal = move || {
        state.update(|s| {
            if let Some(l) = s.lesson.as_mut() {
                l.revealed = true;
            }
        })
    };
    let check = {
        let answer = answer.clone();
        let given = given.clone();
        move || {
            if revealed.get_untracked() {
                return;
            }
            match given() {
                Some(g) => verdict.set(Some(answer.is_right(g))),
                None => verdict.set(None),
            }
            reveal();
        }
    };
    let choices = match &*answer {
        Answer::Choice { choices, .. } => choices.len(),
        Answer::Number { .. } => 0,
    };
    let keys = {
        let check = check.clone();
        window_event_listener(leptos::ev::keydown, move |ev: web_sys::KeyboardEvent| {
            if revealed.get_untracked() || ev.alt_key() || ev.ctrl_key() || ev.meta_key() {
                return;
            }
            let key = ev.key();
            if key == "Enter" && !on_button(&ev) {
                ev.prevent_default();
                check();
            } else if let Some(d) = key
                .parse::<usize>()
                .ok()
                .filter(|d| (1..=choices).contains(d))
            {
                if !in_text_field(&ev) {
                    chosen.set(Some(d - 1));
                }
            }
        })
    };
    on_cleanup(move || keys.remove());
    // A choice is marked ✓ (and a wrong pick ✗) beside the others; a number is said.
    let said = match &*answer {
        Answer::Choice { .. } => None,
        Answer::Number { .. } => Some(answer.said()),
    };
    let outcome = move || {
        let text = match (verdict.get(), &said) {
            (Some(true), None) => "Right.".to_string(),
            (Some(true), Some(a)) => format!("Right: {a}."),
            (Some(false), None) => "Not quite: the right answer is marked ✓.".to_string(),
            (Some(false), Some(a)) => format!("Not quite: the answer is {a}."),
            (None, None) => "The right answer is marked ✓.".to_string(),
            (None, Some(a)) => format!("The answer: {a}."),
        };
        view! { <p class="verdict" class:right=verdict.get() == Some(true) class:wrong=verdict.get() == Some(false)>{text}</p> }
    };
    let field = match &*answer {
        Answer::Choice { choices, right } => {
            let right = *right;
            choices
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    let mark = move || {
                        if !revealed.get() {
                            ""
                        } else if k == right {
                            "✓ "
                        } else if chosen.get() == Some(k) {
                            "✗ "
                        } else {
                            ""
                        }
                    };
                    view! {
                        <button type="button" class="choice"
                            class:right=move || revealed.get() && k == right
                            class:wrong=move || revealed.get() && k != right && chosen.get() == Some(k)
                            aria-pressed=move || if chosen.get() == Some(k) { "true" } else { "false" }
                            disabled=move || revealed.get()
                            on:click=move |_| chosen.set(Some(k))>
                            <span class="choice-key" aria-hidden="true">{k + 1}</span>
                            {mark}{c.clone()}
                        </button>
                    }
                })
                .collect_view()
                .into_any()
        }
        Answer::Number { .. } => view! {
            <input type="number" step="any" class="answer-number" aria-labelledby="question-ask"
                prop:value=move || typed.get()
                disabled=move || revealed.get()
                on:input=move |ev| typed.set(event_target_value(&ev))/>
        }
        .into_any(),
    };
    let check_click = check.clone();
    view! {
        <div class="question" data-question="" data-revealed=move || if revealed.get() { "true" } else { "false" }>
            <p class="question-ask" id="question-ask"><strong>"Predict: "</strong>{ask}</p>
            <div class="choices" role="group" aria-labelledby="question-ask">{field}</div>
            <div class="question-buttons" hidden=move || revealed.get()>
                <button type="button" class="check"
                    disabled=move || revealed.get() || (chosen.get().is_none() && typed.with(|t| t.trim().is_empty()))
                    on:click=move |_| check_click()>"Check"</button>
                <button type="button" class="show-me" disabled=move || revealed.get()
                    on:click=move |_| { verdict.set(None); reveal() }>"Show me"</button>
            </div>
            <div aria-live="polite">
                <Show when=move || revealed.get()>
                    {outcome.clone()}
                    <p class="explain">{explain.clone()}</p>
                </Show>
            </div>
        </div>
    }
}

/// The lessons PE Lab ships, each with its title and number of steps (read from its file),
/// to start or present.
#[component]
fn LessonPicker() -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let open = move |source: &'static str, present: bool| {
        state.update(|s| {
            if let Some(l) = s.lesson.as_mut() {
                l.source = source.to_string();
                l.step = 1;
                l.present = present;
                l.revealed = false;
            }
        })
    };
    let items = BUILT_IN
        .iter()
        .map(|&name| {
            let info = LocalResource::new(move || async move {
                let bytes = crate::ui::tables::fetch_bytes(&lesson_url(name))
                    .await
                    .ok()?;
                let lesson = parse_lesson(std::str::from_utf8(&bytes).ok()?).ok()?;
                let questions = lesson.steps.iter().filter(|s| s.question.is_some()).count();
                Some((lesson.title, lesson.steps.len(), questions))
            });
            let about = move || match info.get() {
                None => "…".to_string(),
                Some(None) => "could not be read".to_string(),
                Some(Some((_, steps, 0))) => format!("{steps} steps"),
                Some(Some((_, steps, 1))) => format!("{steps} steps, 1 question to predict"),
                Some(Some((_, steps, q))) => format!("{steps} steps, {q} questions to predict"),
            };
            let title = move || {
                info.get()
                    .flatten()
                    .map_or(name.to_string(), |(title, _, _)| title)
            };
            view! {
                <li data-lesson-name=name>
                    <h3>{title}</h3>
                    <p class="lesson-about">{about}</p>
                    <button type="button" on:click=move |_| open(name, false)>"Start"</button>
                    <button type="button" on:click=move |_| open(name, true)>"Present"</button>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="lesson-picker" data-lesson="" aria-labelledby="lesson-picker-title">
            <h2 id="lesson-picker-title">"Lessons"</h2>
            <p>"Guided paths through PE Lab, one claim a step; some steps ask you to predict before they show. A course's own lesson opens with "<code>"?lesson=path/to/file.json"</code>"."</p>
            <ul>{items}</ul>
            <h2>"Your own lesson"</h2>
            <p>"Make a lesson by doing it: set up the page, add it as a step, write what students read, ask before you show. Share it as a link or a file."</p>
            <button type="button" class="make-lesson" on:click=move |_| state.update(|s| { s.lesson = None; s.author = true; })>"Make a lesson"</button>
        </section>
    }
}

/// Whether a key press happened on a button (Enter presses it).
fn on_button(ev: &web_sys::KeyboardEvent) -> bool {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "BUTTON" | "A" | "SUMMARY"))
}

/// The lesson frame's styles, fetched with its code (the first page does not carry them).
const LESSON_CSS: &str = r#"
.lesson-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin: 4px 0 12px; }
.lesson-title { font-weight: 600; margin: 0; }
.lesson-progress { display: flex; align-items: center; gap: 8px; }
.lesson-progress progress { width: 160px; }
.lesson-buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-left: auto; }
.lesson-step { max-width: 80ch; }
.lesson-step h2 { margin: 8px 0; }
.lesson-text { font-size: 1.125rem; }
.lesson-try { background: var(--notice); border-left: 4px solid var(--notice-border); padding: 8px 12px; border-radius: 4px; }
.lesson .view-intro { display: none; }
.lesson-error { background: var(--notice); border: 1px solid var(--notice-border); border-radius: 8px; padding: 8px 16px; }
.lesson-panels[inert] { opacity: 0.75; }
.lesson-panels[inert] .controls { filter: grayscale(1); }
/* A panel's caption may state the answer: shown with the reveal. */
.lesson-panels[inert] .about { display: none; }
.question { border: 2px solid var(--accent); border-radius: 8px; padding: 8px 14px; margin: 12px 0; background: var(--panel); }
.question-ask { font-size: 1.125rem; margin: 4px 0 10px; }
.choices { display: flex; flex-wrap: wrap; gap: 8px; }
.choice { display: inline-flex; align-items: center; gap: 8px; text-align: left; }
.choice[aria-pressed="true"] { outline: 3px solid var(--accent); outline-offset: 1px; }
.choice-key { display: inline-block; min-width: 1.4em; border: 1px solid var(--border); border-radius: 4px; text-align: center; font-weight: 600; }
.choice.right { border-color: var(--ok); color: var(--ok); font-weight: 600; }
.choice.wrong { border-color: var(--bad); color: var(--bad); }
.choice:disabled { opacity: 1; }
.answer-number { font-size: 1.125rem; width: 12ch; }
.question-buttons { display: flex; gap: 8px; margin: 10px 0 4px; }
.question-buttons[hidden] { display: none; }
.verdict { font-weight: 600; margin: 8px 0 4px; }
.verdict.right { color: var(--ok); }
.verdict.wrong { color: var(--bad); }
.explain { margin: 4px 0; }
.lesson-picker ul { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 320px), 1fr)); gap: 16px; }
.lesson-picker li { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 12px 16px; }
.lesson-picker h3 { margin: 0 0 4px; }
.lesson-picker button { margin-right: 8px; }
/* Presenter mode: the step alone on the screen, its text beside its panels, each chart as
   tall as the window leaves (the chart paints at its laid-out height). */
.app:has(.lesson.present) > :is(.site-header, .site-footer) { display: none; }
.app:has(.lesson.present) main { padding: 8px 16px 0; }
.lesson.present { display: grid; height: calc(100vh - 8px); grid-template-columns: minmax(300px, 32%) minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr); gap: 0 24px; }
.lesson.present .lesson-bar { grid-column: 1 / -1; margin: 0 0 4px; }
.lesson.present .lesson-step { max-width: none; overflow: auto; font-size: clamp(16px, 2.4vh, 28px); line-height: 1.3; }
.lesson.present .lesson-step h2 { font-size: 1.3em; margin: 0 0 8px; }
.lesson.present :is(.lesson-text, .lesson-try, .question-ask, .question button, .answer-number) { font-size: 1em; }
.lesson.present .lesson-text { margin: 0 0 8px; }
.lesson.present .choices { flex-direction: column; align-items: stretch; }
.lesson.present .choice { padding: 6px 12px; }
/* Revealed, the room needs the right answer and the one chosen; the other choices make way
   for the explanation (at 1280 × 720 all of them did not fit beside it). */
.lesson.present [data-question][data-revealed="true"] .choice:not(.right, .wrong) { display: none; }
.lesson.present :is(.lesson-panels, .view, .view-body, .view-main) { display: flex; flex-direction: column; min-height: 0; }
.lesson.present :is(.view, .view-body, .view-main, .panels) { flex: 1 1 0; }
.lesson.present .view-body { align-items: stretch; }
.lesson.present .controls { flex: none; }
.lesson.present :is(.method-summary, .method-group > legend, .sampling-note) { display: none; }
.lesson.present .controls > .presets { display: none; }
.lesson.present .panels { min-height: 0; grid-template-columns: repeat(auto-fit, minmax(0, 1fr)); padding-bottom: 8px; }
.lesson.present .panel { content-visibility: visible; display: flex; flex-direction: column; min-height: 0; padding: 8px 12px; }
.lesson.present .chart-wrap { flex: 1 1 0; min-height: 200px; }
/* Two or more panels stand side by side (stacked, three charts in 720 px were 160 px tall). */
.lesson.present .panels:has(> .panel ~ .panel) { grid-template-columns: none; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr); }
/* What a panel shows beside its chart (a table, code, a note) scrolls within at most 45% of
   the panel; the chart keeps the rest. A panel without a chart gives its table all of it. */
.lesson.present .panel > :is(.table-wrap, .loops, .readout) { flex: 0 1 auto; min-height: 0; max-height: 45%; overflow: auto; }
.lesson.present .panel:not(:has(.chart-wrap)) > .table-wrap { flex: 1 1 0; max-height: none; }
.lesson.present canvas.chart, .lesson.present .chart-overlay { height: 100% !important; }
.lesson.present .panel :is(.about, .data-table, .exports, .chart-summary) { display: none; }
.lesson.present .controls { position: static; }
.lesson.present .view-body.beside > .controls { position: static; max-height: none; margin: 0 0 8px; }
.lesson.present .panel, .lesson.present .panel *, .lesson.present .controls, .lesson.present .controls * { font-size: 20px; }
.lesson.present .panel h2 { font-size: 24px; margin: 0 0 4px; }
/* The comparison table beside its chart, each half the width (the chart's legend needs it);
   the table keeps the columns a room needs and scrolls. */
.lesson.present .panels:has(.compare-table) { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
.lesson.present .panel .compare-table, .lesson.present .panel .compare-table * { font-size: 15px; }
.lesson.present .compare-table :is(th, td) { padding: 3px 6px; }
.lesson.present .compare-table :is(th, td):is(:nth-child(2), :nth-child(5)) { display: none; }
.lesson.present .side-by-side { grid-template-columns: 1fr 1fr; margin: 4px 0; }
.lesson.present .panel .demo-table * { font-size: 15px; }
.lesson.present .panel .demo-table :is(th, td) { padding: 0 4px; }
.lesson.present .view-attention .control-line * { font-size: 16px; }
.lesson.present .view-attention .panel h2 { font-size: 20px; }
.lesson.present .view-attention .demo-table caption { font-size: 16px; }
.lesson.present .demo-table :is(th, td):nth-child(3) { display: none; }
@media (max-width: 900px) { .lesson.present { display: block; height: auto; } .lesson.present .chart-wrap { flex: none; height: 360px; } }
"#;
