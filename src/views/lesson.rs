//! The lesson frame (`lesson=…`): one step at a time — its claim, a "Try this" prompt, and one
//! or two panels of a view in the step's state, with its highlights. Back and Next (and the
//! arrow keys) move; "Reset step" restores the step's state; presenter mode (`present=1`)
//! shows the step large enough to read from the back of a classroom. Loaded on demand, with
//! the lesson file fetched when the lesson opens.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::lesson::{lesson_url, parse_lesson, Lesson, Step};
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
    let loaded = RwSignal::new(None as Loaded);
    // Bumped by "Reset step": the step's state is applied again.
    let resets = RwSignal::new(0u32);

    // Fetch and check the lesson file whenever the source changes.
    Effect::new(move |_| {
        let Some(source) = source.get() else { return };
        loaded.set(None);
        leptos::task::spawn_local(async move {
            let result = match crate::ui::tables::fetch_bytes(&lesson_url(&source)).await {
                Err(e) => Err(format!("Could not load the lesson “{source}”: {e}.")),
                Ok(bytes) => match String::from_utf8(bytes) {
                    Err(_) => Err(format!("The lesson “{source}” is not UTF-8 text.")),
                    Ok(text) => parse_lesson(&text)
                        .map(Arc::new)
                        .map_err(|e| format!("The lesson “{source}” cannot be used: {e}.")),
                },
            };
            loaded.try_set(Some(result));
        });
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
    // Apply the step's state when the step changes, and on "Reset step".
    Effect::new(move |_| {
        resets.track();
        let Some((n, _, step)) = step.get() else {
            return;
        };
        let next = state.with_untracked(|s| step_state(&step, n, s));
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
                }
            });
        }
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
        let lesson = match loaded.get() {
            None => {
                return view! { <p class="view-loading" role="status">"Loading the lesson…"</p> }
                    .into_any()
            }
            Some(Err(message)) => {
                return view! {
                    <div class="lesson-error" role="alert">
                        <p>{message}</p>
                        <p><a href="?">"Open PE Lab without the lesson"</a></p>
                    </div>
                }
                .into_any()
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
                        <button on:click=move |_| resets.update(|n| *n += 1)>"Reset step"</button>
                        <crate::shell::notation::NotationButton/>
                        <button on:click=toggle_present aria-pressed=move || if present.get() { "true" } else { "false" }>
                            {move || if present.get() { "Leave presenter mode" } else { "Present" }}
                        </button>
                    </div>
                </div>
                {move || step.get().map(|(n, _, s)| step_view(n, s, present.get()))}
            </section>
        }
        .into_any()
    };
    view! { <div class="lesson-host">{frame}</div> }
}

/// The app state of step `n`: its view, parameters and highlights, with the lesson kept.
fn step_state(step: &Step, n: usize, current: &AppState) -> AppState {
    let mut next = step.app_state();
    next.lesson = current
        .lesson
        .clone()
        .map(|l| LessonLocation { step: n, ..l });
    next.theme = current.theme;
    next.embed = current.embed;
    next
}

/// One step: its claim and prompt, then its panels (the view in the step's state).
fn step_view(n: usize, step: Step, present: bool) -> AnyView {
    // Always provided (a re-run of the step closure replaces both, never leaves one behind).
    provide_context(LessonPanels(step.panels.clone()));
    provide_context(present.then_some(ChartPresentation {
        text_scale: 1.6,
        min_height: 520.0,
    }));
    // Presenter mode keeps only the control the step names.
    let keep = step.control.clone().map(|c| {
        format!(".lesson.present .controls > [data-control]:not([data-control=\"{c}\"]), .lesson.present .controls > .method-group:not(:has([data-control=\"{c}\"])), .lesson.present .controls:not(:has([data-control=\"{c}\"])) {{ display: none; }}")
    });
    let view = step.view;
    view! {
        <div class="lesson-step" data-step-view=view.name()>
            <h2>{format!("{n}. {}", step.title)}</h2>
            <p class="lesson-text">{step.text}</p>
            <p class="lesson-try"><strong>"Try this: "</strong>{step.try_this}</p>
            {keep.map(|css| view! { <style>{css}</style> })}
        </div>
        <div class="lesson-panels">
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
