//! The lesson builder (`author=1`, or ▶ Lesson → Make a lesson), beside the page: a lesson is
//! made by doing it. "Add this as a step" captures the page as it stands (its view, every
//! control, the outlines, hidden and locked controls); the teacher writes the words, picks the
//! control the prompt names, and may ask a question whose reveal state is captured the same
//! way. The draft is checked by the lesson loader itself (`state::builder`), saved in the
//! browser at every change (several named drafts), previewed as a student sees it, downloaded
//! as the file `?lesson=<path>` opens, or shared as a link that carries the lesson in its
//! fragment (`state::lesson_link`). Loaded on demand (its own chunk), with its styles.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::builder::{
    step_query, step_state, Draft, DraftAnswer, DraftQuestion, DraftStep, Shelf, MAX_DRAFTS,
};
use crate::state::lesson::{lesson_url, parse_lesson, CHOICES, DRAFT, MAX_PANELS, MAX_STEPS};
use crate::state::{lesson_link, AppState, LessonLocation, View};
use crate::ui::context::{go_to_state, AppCtx};
use crate::ui::dom;

thread_local! {
    /// The step being edited when the builder last closed (a preview closes it).
    static EDITING: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Where the drafts are kept (localStorage).
const STORAGE_KEY: &str = "pe-lab:lesson-drafts";

/// The URL's fragment, with its `#` (empty when there is none).
pub fn location_hash() -> String {
    dom::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

fn storage() -> Option<web_sys::Storage> {
    dom::window()?.local_storage().ok().flatten()
}

/// The drafts kept in this browser (an empty shelf when there are none or storage is off).
pub fn load_shelf() -> Shelf {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .map(|text| Shelf::from_text(&text))
        .unwrap_or_default()
}

/// Keeps the drafts; whether the browser took them.
fn save_shelf(shelf: &Shelf) -> bool {
    storage().is_some_and(|s| s.set_item(STORAGE_KEY, &shelf.to_text()).is_ok())
}

/// The draft being edited, as kept in this browser (what `lesson=draft` previews).
pub fn current_draft() -> Option<Draft> {
    let shelf = load_shelf();
    shelf.drafts.get(shelf.current).map(|(_, d)| d.clone())
}

/// The page as a step shows it, with the builder open (and the theme kept).
fn page_of(view: View, query: &str, current: &AppState) -> AppState {
    AppState {
        theme: current.theme,
        author: true,
        ..step_state(view, query)
    }
}

/// The builder.
#[component]
pub fn Builder() -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let mut first = load_shelf();
    if first.drafts.is_empty() {
        first.drafts.push((first.fresh_name(""), Draft::default()));
    }
    let shelf = RwSignal::new(first);
    // Whether the browser keeps the drafts (said once, if not).
    let kept = RwSignal::new(true);
    Effect::new(move |_| {
        let ok = shelf.with(save_shelf);
        if kept.get_untracked() != ok {
            kept.set(ok);
        }
    });
    // The step being edited (an index into the current draft's steps), kept across a preview.
    let selected = RwSignal::new(EDITING.with(|e| e.get()));
    Effect::new(move |_| {
        let now = selected.get();
        EDITING.with(|e| e.set(now));
    });
    let message = RwSignal::new(None::<String>);
    let link = RwSignal::new(None::<Result<String, String>>);
    let confirm_delete = RwSignal::new(false);

    let draft = move || shelf.with(|s| s.drafts[s.current].1.clone());
    let edit = move |f: &dyn Fn(&mut Draft)| {
        link.set(None);
        shelf.update(|s| {
            let current = s.current;
            f(&mut s.drafts[current].1)
        });
    };
    let problems = Memo::new(move |_| {
        shelf.with(|s| {
            s.drafts[s.current]
                .1
                .problems()
                .into_iter()
                .map(|e| (e.step, crate::state::builder::for_builder(&e)))
                .collect::<Vec<_>>()
        })
    });
    let go_to_step = move |i: usize| {
        let Some(step) = shelf.with_untracked(|s| s.drafts[s.current].1.steps.get(i).cloned())
        else {
            return;
        };
        selected.set(Some(i));
        let next = state.with_untracked(|s| page_of(step.view, &step.state, s));
        go_to_state(state, next);
    };
    let switch_draft = move |index: usize| {
        shelf.update(|s| s.current = index.min(s.drafts.len().saturating_sub(1)));
        selected.set(None);
        confirm_delete.set(false);
        link.set(None);
    };
    let add_draft = move |name: String, draft: Draft| {
        if shelf.with_untracked(|s| s.drafts.len()) >= MAX_DRAFTS {
            message.set(Some(format!(
                "This browser keeps at most {MAX_DRAFTS} drafts: delete one first."
            )));
            return;
        }
        shelf.update(|s| {
            let name = s.fresh_name(&name);
            s.drafts.push((name, draft));
            s.current = s.drafts.len() - 1;
        });
        selected.set(None);
        link.set(None);
    };
    let add_step = move |_| {
        if shelf.with_untracked(|s| s.drafts[s.current].1.steps.len()) >= MAX_STEPS {
            message.set(Some(format!("A lesson has at most {MAX_STEPS} steps.")));
            return;
        }
        let step = state.with_untracked(|s| DraftStep::capture(s.view, &step_query(s)));
        edit(&|d| d.steps.push(step.clone()));
        selected.set(Some(
            shelf.with_untracked(|s| s.drafts[s.current].1.steps.len() - 1),
        ));
        message.set(None);
    };
    let preview = move |present: bool| {
        let step = selected.get_untracked().map_or(1, |i| i + 1);
        state.update(|s| {
            s.lesson = Some(LessonLocation {
                source: DRAFT.to_string(),
                step,
                present,
                revealed: false,
            })
        });
    };
    let download = move |_| {
        let d = draft();
        let parts = js_sys::Array::of1(&d.to_file().into());
        let _ = dom::download_parts(&parts, "application/json", &file_name(&d.title));
    };
    let share = move |_| {
        let fragment = lesson_link::encode(&draft().to_file());
        link.set(Some(fragment.map(|f| {
            let (origin, path) = dom::window()
                .map(|w| {
                    let l = w.location();
                    (
                        l.origin().unwrap_or_default(),
                        l.pathname().unwrap_or_default(),
                    )
                })
                .unwrap_or_default();
            format!("{origin}{path}?lesson=link#{f}")
        })));
    };
    let open_copy = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if name.is_empty() {
            return;
        }
        leptos::task::spawn_local(async move {
            let text = crate::ui::tables::fetch_bytes(&lesson_url(&name))
                .await
                .ok()
                .and_then(|b| String::from_utf8(b).ok());
            match text.as_deref().map(parse_lesson) {
                Some(Ok(lesson)) => add_draft(
                    format!("Copy of {}", lesson.title),
                    Draft::from_lesson(&lesson),
                ),
                _ => message.set(Some(format!("The lesson “{name}” could not be loaded."))),
            }
        });
    };
    let open_file = move |ev: leptos::ev::Event| {
        let Some(file) = dom::picked_file(&ev) else {
            return;
        };
        // The same file can be opened again (a change event needs a new value).
        if let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        {
            input.set_value("");
        }
        let name = file.name();
        if file.size() > crate::state::lesson::MAX_LESSON_BYTES as f64 {
            message.set(Some(format!(
                "{} is larger than {} KB: it is not a lesson PE Lab can open.",
                crate::state::params::shorten(&name, 40),
                crate::state::lesson::MAX_LESSON_BYTES / 1024
            )));
            return;
        }
        leptos::task::spawn_local(async move {
            let shown = crate::state::params::shorten(&name, 40);
            let Some(bytes) = dom::file_bytes(&file).await else {
                message.set(Some(format!("{shown} could not be read.")));
                return;
            };
            let text = String::from_utf8(bytes).ok();
            match text.as_deref().map(Draft::from_file) {
                Some(Ok(d)) => {
                    let title = if d.title.is_empty() {
                        name.clone()
                    } else {
                        d.title.clone()
                    };
                    add_draft(title, d);
                    let cut = Draft::cut_from(text.as_deref().unwrap_or_default());
                    message.set(Some(if cut.is_empty() {
                        format!("Opened {shown}.")
                    } else {
                        format!("Opened {shown}: {}.", cut.join("; "))
                    }));
                }
                Some(Err(e)) => message.set(Some(format!("{shown} cannot be opened: {e}."))),
                None => message.set(Some(format!("{shown} is not UTF-8 text."))),
            }
        });
    };

    let drafts_row = move || {
        let (names, current) = shelf.with(|s| {
            (
                s.drafts.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
                s.current,
            )
        });
        let options = names
            .into_iter()
            .enumerate()
            .map(
                |(i, n)| view! { <option value=i.to_string() selected={i == current}>{n}</option> },
            )
            .collect_view();
        view! {
            <label>"Draft "
                <select aria-label="Draft" on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() { switch_draft(i) }
                }>{options}</select>
            </label>
        }
    };

    let step_list = move || {
        let steps = shelf.with(|s| s.drafts[s.current].1.steps.clone());
        let total = steps.len();
        steps
            .into_iter()
            .enumerate()
            .map(|(i, step)| {
                let said = problems.with(|p| {
                    p.iter()
                        .filter(|(at, _)| *at == Some(i + 1))
                        .map(|(_, m)| view! { <li>{m.clone()}</li> })
                        .collect_view()
                });
                let title = if step.title.trim().is_empty() {
                    "(no title yet)".to_string()
                } else {
                    step.title.clone()
                };
                let swap = move |a: usize, b: usize| {
                    edit(&|d| d.steps.swap(a, b));
                    if selected.get_untracked() == Some(a) {
                        selected.set(Some(b));
                    } else if selected.get_untracked() == Some(b) {
                        selected.set(Some(a));
                    }
                };
                view! {
                    <li class="builder-step" class:current=move || selected.get() == Some(i) data-builder-step=i + 1>
                        <button type="button" class="step-go" on:click=move |_| go_to_step(i)
                            aria-current=move || (selected.get() == Some(i)).then_some("step")>
                            {format!("{}. {title}", i + 1)}
                            <span class="step-view">{format!(" — {}", step.view.title())}</span>
                        </button>
                        <span class="step-tools">
                            <button type="button" aria-label=format!("Move step {} up", i + 1) disabled={i == 0}
                                on:click=move |_| swap(i, i - 1)>"↑"</button>
                            <button type="button" aria-label=format!("Move step {} down", i + 1) disabled={i + 1 >= total}
                                on:click=move |_| swap(i, i + 1)>"↓"</button>
                            <button type="button" aria-label=format!("Duplicate step {}", i + 1) disabled={total >= MAX_STEPS}
                                on:click=move |_| {
                                    edit(&|d| { let copy = d.steps[i].clone(); d.steps.insert(i + 1, copy) });
                                    selected.set(Some(i + 1));
                                }>"Duplicate"</button>
                            <button type="button" aria-label=format!("Delete step {}", i + 1)
                                on:click=move |_| {
                                    edit(&|d| { d.steps.remove(i); });
                                    selected.set(None);
                                }>"Delete"</button>
                        </span>
                        <ul class="problems">{said}</ul>
                    </li>
                }
            })
            .collect_view()
    };
    let lesson_problems = move || {
        problems.with(|p| {
            p.iter()
                .filter(|(at, _)| at.is_none())
                .map(|(_, m)| view! { <li>{m.clone()}</li> })
                .collect_view()
        })
    };

    view! {
        <aside class="builder" data-builder="" aria-label="Lesson builder">
            <style>{BUILDER_CSS}</style>
            <div class="builder-head">
                <h2>"Lesson builder"</h2>
                <button type="button" on:click=move |_| state.update(|s| s.author = false)>"Close"</button>
            </div>
            <p class="builder-intro">"Set up the page, then “Add this as a step”. Your words are kept in this browser as you type; the page's setup, when you add or update a step."</p>
            <Show when=move || !kept.get()>
                <p class="builder-warn" role="alert">"This browser does not keep drafts (its storage is off or full): download the lesson to keep it."</p>
            </Show>
            <fieldset class="builder-drafts">
                <legend>"Drafts"</legend>
                {drafts_row}
                <label>"Name "
                    <input type="text" maxlength="76" prop:value=move || shelf.with(|s| s.drafts[s.current].0.clone())
                        on:change=move |ev| {
                            let name = event_target_value(&ev);
                            shelf.update(|s| {
                                let current = s.current;
                                let fresh = s.fresh_name(&name);
                                if s.drafts[current].0 != name.trim() { s.drafts[current].0 = fresh; }
                            });
                        }/>
                </label>
                <div class="builder-row">
                    <button type="button" on:click=move |_| add_draft(String::new(), Draft::default())>"New lesson"</button>
                    <select aria-label="Start from a copy of a lesson PE Lab ships" on:change=open_copy prop:value="">
                        <option value="">"Start from a copy of…"</option>
                        {crate::state::lesson::BUILT_IN.iter().map(|&n| view! { <option value=n>{n}</option> }).collect_view()}
                    </select>
                    <label class="file-button">"Open a lesson file"
                        <input type="file" accept=".json,application/json" on:change=open_file/>
                    </label>
                </div>
                <div class="builder-row">
                    <Show when=move || !confirm_delete.get()
                        fallback=move || view! {
                            <span role="alert">{move || shelf.with(|s| format!("Delete the draft “{}”? This cannot be undone.", s.drafts[s.current].0))}</span>
                            <button type="button" on:click=move |_| {
                                shelf.update(|s| {
                                    let current = s.current;
                                    s.drafts.remove(current);
                                    if s.drafts.is_empty() { let n = s.fresh_name(""); s.drafts.push((n, Draft::default())); }
                                    s.current = current.min(s.drafts.len() - 1);
                                });
                                confirm_delete.set(false);
                                selected.set(None);
                            }>"Yes, delete it"</button>
                            <button type="button" on:click=move |_| confirm_delete.set(false)>"Keep it"</button>
                        }>
                        <button type="button" on:click=move |_| confirm_delete.set(true)>"Delete this draft"</button>
                    </Show>
                </div>
            </fieldset>
            <label class="builder-field">"Lesson title"
                <input type="text" prop:value=move || shelf.with(|s| s.drafts[s.current].1.title.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); edit(&|d| d.title = v.clone()) }/>
            </label>
            <ul class="problems">{lesson_problems}</ul>
            <ol class="builder-steps">{step_list}</ol>
            <PageSettings/>
            <div class="builder-row">
                <button type="button" class="primary" on:click=add_step>"Add this as a step"</button>
            </div>
            {move || selected.get().map(|i| view! { <StepEditor index=i shelf=shelf link=link/> })}
            <div class="builder-row builder-out">
                <button type="button" on:click=move |_| preview(false)>"Preview"</button>
                <button type="button" on:click=move |_| preview(true)>"Preview in presenter mode"</button>
                <button type="button" on:click=download>"Download"</button>
                <button type="button" on:click=share>"Share link"</button>
            </div>
            {move || link.get().map(|l| match l {
                Ok(url) => {
                    let len = url.len();
                    let warn = (!problems.with(Vec::is_empty)).then_some(" The lesson still has problems (listed above): students who open the link will see only a message naming the first.");
                    view! {
                        <div class="share-out">
                            <input type="text" readonly data-share-link="" prop:value=url.clone() aria-label="Link to this lesson"
                                on:focus=move |ev| { if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select() } }/>
                            <button type="button" on:click=move |_| dom::copy_text(&url)>"Copy"</button>
                            <p>{format!("{} characters. The lesson travels in the link itself, after the #: PE Lab's server never receives it.", crate::format::grouped(len as u64))}{warn}</p>
                        </div>
                    }.into_any()
                }
                Err(e) => view! { <p class="builder-warn" role="alert">{e}</p> }.into_any(),
            })}
            <p class="builder-message" role="status">{move || message.get()}</p>
        </aside>
    }
}

/// Settings of the page that a step captures besides its controls: outlined columns and
/// positions, and which controls students see, may not move, or do not see.
#[component]
fn PageSettings() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let list = |v: &[usize]| {
        v.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    // Read as the URL would be (the same bounds and messages); spaces separate as commas do.
    let outline_said = RwSignal::new(String::new());
    let set_outline = move |key: &'static str, typed: String| {
        let clean = typed
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(",");
        let (read, notices) = AppState::from_query(&format!("{key}={clean}"));
        outline_said.set(
            notices
                .items
                .iter()
                .map(|n| n.message.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        );
        state.update(|s| {
            if key == "hl_cols" {
                s.highlight.cols = read.highlight.cols;
            } else {
                s.highlight.positions = read.highlight.positions;
            }
        });
    };
    let controls = move || {
        let view = state.with(|s| s.view);
        view.spec()
            .controls
            .split_whitespace()
            .filter_map(|name| view.control(name))
            .map(|name| {
                let value = move || {
                    state.with(|s| {
                        if s.hidden.contains(&name) {
                            "hidden"
                        } else if s.locked.contains(&name) {
                            "locked"
                        } else {
                            "shown"
                        }
                    })
                };
                view! {
                    <label class="control-access">{name}
                        <select prop:value=value on:change=move |ev| {
                            let how = event_target_value(&ev);
                            state.update(|s| {
                                s.hidden.retain(|n| *n != name);
                                s.locked.retain(|n| *n != name);
                                match how.as_str() {
                                    "hidden" => s.hidden.push(name),
                                    "locked" => s.locked.push(name),
                                    _ => {}
                                }
                            });
                            // A view reads which controls are hidden or locked when it is built.
                            ctx.rebuild.update(|n| *n += 1);
                        }>
                            <option value="shown">"shown"</option>
                            <option value="locked">"locked"</option>
                            <option value="hidden">"hidden"</option>
                        </select>
                    </label>
                }
            })
            .collect_view()
    };
    view! {
        <details class="page-settings">
            <summary>"Outlines and controls of this page"</summary>
            <label class="builder-field">"Outline columns (numbers, e.g. 4, 5)"
                <input type="text" data-outline="cols" prop:value=move || state.with(|s| list(&s.highlight.cols))
                    on:change=move |ev| set_outline("hl_cols", event_target_value(&ev))/>
            </label>
            <label class="builder-field">"Outline positions (rows)"
                <input type="text" data-outline="positions" prop:value=move || state.with(|s| list(&s.highlight.positions))
                    on:change=move |ev| set_outline("hl_pos", event_target_value(&ev))/>
            </label>
            <p class="builder-warn" role="status">{move || outline_said.get()}</p>
            <p class="builder-note">"Students can move a shown control, see a locked one without moving it, and do not see a hidden one."</p>
            <div class="control-grid">{controls}</div>
        </details>
    }
}

/// The words, panels, prompt and question of step `index`.
#[component]
fn StepEditor(
    index: usize,
    shelf: RwSignal<Shelf>,
    link: RwSignal<Option<Result<String, String>>>,
) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let read = move |f: fn(&DraftStep) -> String| {
        move || {
            shelf.with(|s| {
                s.drafts[s.current]
                    .1
                    .steps
                    .get(index)
                    .map(f)
                    .unwrap_or_default()
            })
        }
    };
    let write = move |f: &dyn Fn(&mut DraftStep)| {
        link.set(None);
        shelf.update(|s| {
            let current = s.current;
            if let Some(step) = s.drafts[current].1.steps.get_mut(index) {
                f(step)
            }
        });
    };
    let step = move || shelf.with(|s| s.drafts[s.current].1.steps.get(index).cloned());
    let view_of = move || step().map(|s| s.view).unwrap_or_default();
    let update_step = move |_| {
        let (view, query) = state.with_untracked(|s| (s.view, step_query(s)));
        write(&|st| {
            if st.view != view {
                *st = DraftStep {
                    title: st.title.clone(),
                    text: st.text.clone(),
                    try_this: st.try_this.clone(),
                    question: st.question.clone().map(|q| DraftQuestion {
                        reveal: String::new(),
                        ..q
                    }),
                    ..DraftStep::capture(view, &query)
                };
            } else {
                st.state = query.clone();
            }
        });
    };
    let panels = move || {
        let v = view_of();
        let chosen = step().map(|s| s.panels).unwrap_or_default();
        v.spec()
            .panels
            .iter()
            .map(|p| {
                let id = p.id;
                let on = chosen.iter().any(|c| c == id);
                let full = chosen.len() >= MAX_PANELS;
                let last = on && chosen.len() == 1;
                view! {
                    <label class="panel-choice">
                        <input type="checkbox" prop:checked=on disabled={(!on && full) || last}
                            on:change=move |_| write(&|st| {
                                if let Some(k) = st.panels.iter().position(|c| c == id) {
                                    if st.panels.len() > 1 { st.panels.remove(k); }
                                } else if st.panels.len() < MAX_PANELS {
                                    st.panels.push(id.to_string());
                                }
                            })/>
                        {p.title}
                    </label>
                }
            })
            .collect_view()
    };
    // The view's controls, as the loader checks.
    let control_options = move || {
        let Some(st) = step() else {
            return ().into_any();
        };
        let current = st.control;
        std::iter::once(("", "(none)"))
            .chain(st.view.spec().controls.split(' ').map(|n| (n, n)))
            .map(|(value, label)| view! { <option value=value selected={value == current}>{label}</option> })
            .collect_view()
            .into_any()
    };
    let kind = move || {
        step()
            .and_then(|s| s.question)
            .map_or("none", |q| match q.answer {
                DraftAnswer::Choice { .. } => "choice",
                DraftAnswer::Number { .. } => "number",
            })
    };
    let set_kind = move |ev: leptos::ev::Event| {
        let k = event_target_value(&ev);
        write(&|st| {
            st.question = match k.as_str() {
                "none" => None,
                k => {
                    let answer = if k == "choice" {
                        DraftAnswer::choice()
                    } else {
                        DraftAnswer::number()
                    };
                    Some(match st.question.take() {
                        Some(q) => DraftQuestion { answer, ..q },
                        None => DraftQuestion {
                            ask: String::new(),
                            explain: String::new(),
                            answer,
                            reveal: String::new(),
                        },
                    })
                }
            }
        });
    };
    let question = move |f: &dyn Fn(&mut DraftQuestion)| {
        write(&|st| {
            if let Some(q) = st.question.as_mut() {
                f(q)
            }
        })
    };
    let q_read = move |f: fn(&DraftQuestion) -> String| {
        move || {
            step()
                .and_then(|s| s.question)
                .map(|q| f(&q))
                .unwrap_or_default()
        }
    };
    let use_reveal = move |_| {
        let query = state.with_untracked(step_query);
        let same_view = state.with_untracked(|s| s.view) == view_of();
        if same_view {
            question(&|q| q.reveal = query.clone());
        }
    };
    let show = move |reveal: bool| {
        let Some(st) = step() else { return };
        let query = match (&st.question, reveal) {
            (Some(q), true) if !q.reveal.is_empty() => q.reveal.clone(),
            _ => st.state.clone(),
        };
        let next = state.with_untracked(|s| page_of(st.view, &query, s));
        go_to_state(state, next);
    };
    // Choices are re-made when their number changes, not on every letter typed.
    let choice_count = Memo::new(move |_| {
        step()
            .and_then(|s| s.question)
            .map_or(0, |q| match q.answer {
                DraftAnswer::Choice { choices, .. } => choices.len(),
                DraftAnswer::Number { .. } => 0,
            })
    });
    let answer_fields = move || match kind() {
        "choice" => {
            let n = choice_count.get();
            let rows = (0..n)
                    .map(|k| {
                        let text = move || {
                            step().and_then(|s| s.question).and_then(|q| match q.answer {
                                DraftAnswer::Choice { choices, .. } => choices.get(k).cloned(),
                                _ => None,
                            }).unwrap_or_default()
                        };
                        let right = move || {
                            step().and_then(|s| s.question).is_some_and(|q| {
                                matches!(q.answer, DraftAnswer::Choice { right: Some(r), .. } if r == k)
                            })
                        };
                        view! {
                            <div class="choice-row" data-choice=k + 1>
                                <input type="radio" name=format!("right-{index}") aria-label=format!("Choice {} is the right one", k + 1)
                                    prop:checked=right on:change=move |_| question(&|q| {
                                        if let DraftAnswer::Choice { right, .. } = &mut q.answer { *right = Some(k) }
                                    })/>
                                <input type="text" aria-label=format!("Choice {}", k + 1) prop:value=text
                                    on:input=move |ev| { let v = event_target_value(&ev); question(&|q| {
                                        if let DraftAnswer::Choice { choices, .. } = &mut q.answer { if let Some(c) = choices.get_mut(k) { *c = v.clone() } }
                                    }) }/>
                                <button type="button" aria-label=format!("Remove choice {}", k + 1) disabled={n <= *CHOICES.start()}
                                    on:click=move |_| question(&|q| {
                                        if let DraftAnswer::Choice { choices, right } = &mut q.answer {
                                            if choices.len() > *CHOICES.start() {
                                                choices.remove(k);
                                                *right = match *right { Some(r) if r == k => None, Some(r) if r > k => Some(r - 1), r => r };
                                            }
                                        }
                                    })>"×"</button>
                            </div>
                        }
                    })
                    .collect_view();
            view! {
                    <p class="builder-note">"Mark the right choice."</p>
                    {rows}
                    <button type="button" disabled={n >= *CHOICES.end()} on:click=move |_| question(&|q| {
                        if let DraftAnswer::Choice { choices, .. } = &mut q.answer { if choices.len() < *CHOICES.end() { choices.push(String::new()) } }
                    })>"Add a choice"</button>
                }
                .into_any()
        }
        "number" => {
            let field = move |get: fn(&DraftAnswer) -> String,
                              set: fn(&mut DraftAnswer, String),
                              label: &'static str| {
                view! {
                    <label class="builder-field">{label}
                        <input type="text" inputmode="decimal" data-number=label
                            prop:value=move || step().and_then(|s| s.question).map(|q| get(&q.answer)).unwrap_or_default()
                            on:input=move |ev| { let v = event_target_value(&ev); question(&|q| set(&mut q.answer, v.clone())) }/>
                    </label>
                }
            };
            view! {
                    {field(|a| match a { DraftAnswer::Number { value, .. } => value.clone(), _ => String::new() },
                           |a, v| if let DraftAnswer::Number { value, .. } = a { *value = v }, "Answer")}
                    {field(|a| match a { DraftAnswer::Number { tolerance, .. } => tolerance.clone(), _ => String::new() },
                           |a, v| if let DraftAnswer::Number { tolerance, .. } = a { *tolerance = v }, "Tolerance (±)")}
                }
                .into_any()
        }
        _ => ().into_any(),
    };
    let reveal_said = move || {
        step().and_then(|s| s.question).map(|q| {
            if q.reveal.is_empty() {
                "No reveal state: the step's own state stays when the answer is shown.".to_string()
            } else {
                format!("Reveal: {}", q.reveal)
            }
        })
    };
    let wrong_view = move || state.with(|s| s.view) != view_of();

    view! {
        <section class="step-editor" data-editing=index + 1 aria-label=format!("Step {}", index + 1)>
            <h3>{format!("Step {}", index + 1)}</h3>
            <p class="builder-note">{move || step().map(|s| format!("Shows the {} view: {}", s.view.title(), if s.state.is_empty() { "its defaults".to_string() } else { s.state.clone() }))}</p>
            <div class="builder-row">
                <button type="button" on:click=update_step>"Update step"</button>
                <button type="button" on:click=move |_| show(false)>"Show this step"</button>
            </div>
            <fieldset><legend>"Panels (one or two)"</legend>{panels}</fieldset>
            <label class="builder-field">"Title"
                <input type="text" prop:value=read(|s| s.title.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); write(&|s| s.title = v.clone()) }/>
            </label>
            <label class="builder-field">"Text: the step's one claim"
                <textarea rows="3" prop:value=read(|s| s.text.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); write(&|s| s.text = v.clone()) }></textarea>
            </label>
            <label class="builder-field">"Try this: what students predict, then do"
                <textarea rows="2" prop:value=read(|s| s.try_this.clone())
                    on:input=move |ev| { let v = event_target_value(&ev); write(&|s| s.try_this = v.clone()) }></textarea>
            </label>
            <p class="builder-note">"On a step with a question, students read it with the answer."</p>
            <label class="builder-field">"The control the prompt names"
                <select data-field="control" on:change=move |ev| { let v = event_target_value(&ev); write(&|s| s.control = v.clone()) }>
                    {control_options}
                </select>
            </label>
            <fieldset class="question-editor">
                <legend>"Ask before showing"</legend>
                <select aria-label="Question" prop:value=kind on:change=set_kind>
                    <option value="none">"No question"</option>
                    <option value="choice">"Multiple choice"</option>
                    <option value="number">"A number"</option>
                </select>
                <Show when=move || kind() != "none">
                    <label class="builder-field">"Question"
                        <textarea rows="2" data-field="ask" prop:value=q_read(|q| q.ask.clone())
                            on:input=move |ev| { let v = event_target_value(&ev); question(&|q| q.ask = v.clone()) }></textarea>
                    </label>
                    {answer_fields}
                    <label class="builder-field">"Explanation, shown with the answer"
                        <textarea rows="2" data-field="explain" prop:value=q_read(|q| q.explain.clone())
                            on:input=move |ev| { let v = event_target_value(&ev); question(&|q| q.explain = v.clone()) }></textarea>
                    </label>
                    <p class="builder-note">{reveal_said}</p>
                    <p class="builder-note">"To set the reveal: move the controls to the state that shows the answer, then:"</p>
                    <div class="builder-row">
                        <button type="button" on:click=use_reveal disabled=wrong_view>"Use this as the reveal"</button>
                        <button type="button" on:click=move |_| show(true)>"Show the reveal"</button>
                        <button type="button" on:click=move |_| question(&|q| q.reveal.clear())>"No reveal"</button>
                    </div>
                    <Show when=wrong_view>
                        <p class="builder-warn">"The page shows another view than this step's: press Show this step, then set the reveal."</p>
                    </Show>
                </Show>
            </fieldset>
        </section>
    }
}

/// The downloaded file's name: the title in lower case, letters and digits joined by hyphens.
fn file_name(title: &str) -> String {
    let slug: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .take(8)
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        "lesson.json".to_string()
    } else {
        format!("{slug}.json")
    }
}

/// The builder's styles, fetched with its code. On a wide screen it is a column at the right
/// of the window and the page makes room; on a narrow one it follows the page.
const BUILDER_CSS: &str = r#"
.builder { box-sizing: border-box; padding: 12px 16px; background: var(--bg, #fff); border-left: 1px solid var(--border, #ccc); font-size: 0.95rem; }
@media (min-width: 1000px) {
  .builder { position: fixed; top: 0; right: 0; bottom: 0; width: 400px; overflow-y: auto; z-index: 30; }
  .app:has(> .builder) { margin-right: 400px; }
}
.builder h2 { margin: 0; font-size: 1.25rem; }
.builder h3 { margin: 8px 0 4px; }
.builder-head { display: flex; justify-content: space-between; align-items: center; gap: 8px; }
.builder-row { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }
.builder-field { display: grid; gap: 2px; margin: 6px 0; }
.builder-field input, .builder-field textarea, .builder-field select { width: 100%; box-sizing: border-box; font: inherit; }
.builder-drafts > label { display: flex; gap: 6px; align-items: center; margin: 4px 0; }
.builder-drafts > label > :is(select, input) { flex: 1; min-width: 0; font: inherit; }
.builder fieldset { border: 1px solid var(--border, #ccc); border-radius: 6px; margin: 8px 0; padding: 6px 10px; }
.builder-steps { padding-left: 0; list-style: none; margin: 8px 0; }
.builder-step { border: 1px solid var(--border, #ccc); border-radius: 6px; padding: 4px 6px; margin: 4px 0; }
.builder-step.current { border-color: var(--accent, #2563eb); box-shadow: 0 0 0 1px var(--accent, #2563eb); }
.step-go { display: block; width: 100%; text-align: left; background: none; border: 0; padding: 2px; font: inherit; font-weight: 600; cursor: pointer; color: inherit; }
.step-view { font-weight: 400; opacity: 0.8; }
.step-tools { display: flex; flex-wrap: wrap; gap: 4px; }
.step-tools button { font-size: 0.85rem; }
.problems { margin: 2px 0; padding-left: 18px; color: var(--error, #b91c1c); }
.problems:empty { display: none; }
.builder-warn { color: var(--error, #b91c1c); }
.builder-warn:empty { display: none; }
.builder-note { margin: 4px 0; font-size: 0.9rem; opacity: 0.85; overflow-wrap: anywhere; }
.builder .primary { font-weight: 600; }
.choice-row { display: grid; grid-template-columns: auto 1fr auto; gap: 4px; align-items: center; margin: 4px 0; }
.control-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(170px, 1fr)); gap: 4px 8px; }
.control-access { display: flex; justify-content: space-between; gap: 4px; }
.panel-choice { display: block; }
.file-button input { display: block; max-width: 100%; }
.share-out input { width: 100%; box-sizing: border-box; font-family: monospace; }
.builder-message:empty { display: none; }
"#;
