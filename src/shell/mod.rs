//! The app shell, above the views: state from the URL, theme, notices, site chrome, the Share
//! dialog, and the current view (loaded on demand: see `views::load`).

pub mod builder;
pub mod lesson;
pub mod notation;
pub mod share;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::state::figures::{Figure, FIGURE_NAMES};
use crate::state::{AppState, Notices, ThemeChoice, View, VIEWS};
use crate::ui::context::{select_state, AppCtx};
use crate::ui::dom;
use std::sync::Arc;

use crate::ui::lazy::{loading, on_demand, suspended, Loading};

on_demand!(lesson_frame, lesson::LessonFrame);
on_demand!(share_dialog, share::ShareDialog);
on_demand!(notation_dialog, notation::NotationDialog);
on_demand!(lesson_builder, builder::Builder);

/// A component fetched on demand (`loading!` of its split point), with a status line while it
/// comes and a message if its code does not arrive. One function for every such place, so
/// that the Suspense machinery is compiled once.
/// `class` styles both lines (`view-loading` for a page's part, `control-msg` for a dialog's).
pub(crate) fn fetched(
    load: fn() -> Loading,
    class: &'static str,
    coming: &'static str,
    failed: &'static str,
) -> AnyView {
    suspended(
        load(),
        Arc::new(move || view! { <p class=class role="status">{coming}</p> }.into_any()),
        Arc::new(move || view! { <p class=class role="alert">{failed}</p> }.into_any()),
    )
}

/// The Share dialog, fetched the first time Share is pressed.
fn load_share() -> Loading {
    loading!(share_dialog)
}

/// The Notation dialog, fetched the first time Notation is pressed.
fn load_notation() -> Loading {
    loading!(notation_dialog)
}

/// Installs the panic banner and mounts the app on `<body>`.
pub fn start() {
    install_panic_banner();
    dom::publish_registry();
    leptos::mount::mount_to_body(App);
    // The static first paint (index.html) gives way in the same task: no frame shows both.
    if let Some(shell) = dom::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("shell"))
    {
        shell.remove();
    }
}

/// A panic logs to the console and shows a visible banner instead of leaving a dead page.
fn install_panic_banner() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("PE Lab panicked: {info}").into());
        let Some(doc) = dom::window().and_then(|w| w.document()) else {
            return;
        };
        if let (Ok(banner), Some(body)) = (doc.create_element("div"), doc.body()) {
            banner.set_class_name("panic-banner");
            let _ = banner.set_attribute("role", "alert");
            banner.set_text_content(Some(
                "PE Lab hit an internal error and stopped updating. Reload the page; the URL keeps your settings.",
            ));
            let _ = body.prepend_with_node_1(&banner);
        }
    }));
}

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    let (initial, notices) = AppState::from_query(&dom::location_search());
    mount_state(initial, notices)
}

/// The least time between two URL writes while the state keeps changing.
const URL_WRITE_EVERY_MS: f64 = 250.0;

/// Keeps the URL equal to the state, never inside an input's frame: a write waits for the
/// frame after the change and for at most one write per [`URL_WRITE_EVERY_MS`], and it always
/// writes the latest state (the last change of a drag is never lost).
fn follow_in_url(state: RwSignal<AppState>) {
    // (time of the last write, the query it wrote, a write is scheduled)
    let writer = StoredValue::new((f64::NEG_INFINITY, String::new(), false));
    Effect::new(move |_| {
        state.track();
        if writer.with_value(|w| w.2) {
            return;
        }
        writer.update_value(|w| w.2 = true);
        crate::ui::schedule::other_pending(1);
        let write = move || {
            crate::ui::schedule::other_pending(-1);
            let Some(query) = state.try_with_untracked(|s| s.to_query()) else {
                return;
            };
            writer.try_update_value(|w| {
                if w.1 != query {
                    dom::replace_query(&query);
                    w.1 = query;
                }
                w.0 = dom::now_ms();
                w.2 = false;
            });
        };
        let wait = writer.with_value(|w| (w.0 + URL_WRITE_EVERY_MS - dom::now_ms()).max(0.0));
        request_animation_frame(move || {
            set_timeout(write, std::time::Duration::from_millis(wait.ceil() as u64));
        });
    });
}

/// Builds the UI for a given state (also used by browser tests).
pub fn mount_state(initial: AppState, notices: Notices) -> impl IntoView {
    let state = RwSignal::new(initial);
    let notices = RwSignal::new(notices);
    let system_dark = RwSignal::new(dom::media_matches("(prefers-color-scheme: dark)"));
    watch_system_theme(system_dark);
    let theme_choice = select_state(state, |s| s.theme);
    let dark = Signal::derive(move || match theme_choice.get() {
        ThemeChoice::Auto => system_dark.get(),
        ThemeChoice::Light => false,
        ThemeChoice::Dark => true,
    });
    let layout_tick = RwSignal::new(0u32);
    let _resize = window_event_listener(leptos::ev::resize, move |_| {
        layout_tick.update(|t| *t = t.wrapping_add(1));
    });
    let ctx = AppCtx {
        state,
        dark,
        layout_tick,
        rebuild: RwSignal::new(0u32),
    };
    provide_context(ctx);
    // A view that reads its own URL values (Train it yourself) adds its notices here.
    provide_context(notices);
    provide_context(crate::ui::tables::TableStore::new());

    // The URL follows the state (replaceState: sliding does not flood the history).
    follow_in_url(state);
    // The theme lives on <html> so that CSS and charts agree.
    Effect::new(move |_| {
        if let Some(root) = dom::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = root.set_attribute("data-theme", if dark.get() { "dark" } else { "light" });
        }
    });

    let embed = state.with_untracked(|s| s.embed);
    if embed {
        share::post_height_to_host();
    }
    let show_controls = state.with_untracked(|s| s.show_controls);
    let view = select_state(state, |s| s.view);
    let in_lesson = select_state(state, |s| s.lesson.is_some());
    let author = select_state(state, |s| s.author && !s.embed);
    // Bumped by "Try again" when a view's code could not be fetched (and by the builder).
    let retries = ctx.rebuild;
    view! {
        <div class="app" class:embed=embed class:no-controls=!show_controls>
            {(!embed).then(|| view! { <Header/> })}
            <NoticeList notices=notices/>
            <main id="main">
                {move || if in_lesson.get() {
                    fetched(
                        || loading!(lesson_frame),
                        "view-loading",
                        "Loading the lesson…",
                        "The lesson could not be loaded: its code did not arrive. Reload the page to try again.",
                    )
                } else {
                    let v = view.get();
                    retries.track();
                    suspended(
                        Box::pin(crate::views::load(v)),
                        Arc::new(move || view! { <ViewLoading view=view/> }.into_any()),
                        Arc::new(move || view! { <ViewFailed view=v retries=retries/> }.into_any()),
                    )
                }}
            </main>
            // The lesson builder, beside the page (not while its lesson is previewed).
            {move || if author.get() && !in_lesson.get() {
                fetched(
                    || loading!(lesson_builder),
                    "view-loading",
                    "Loading the lesson builder…",
                    "The lesson builder could not be loaded: its code did not arrive. Reload the page to try again.",
                )
            } else {
                ().into_any()
            }}
            {embed.then(|| view! { <EmbedFooter show_controls=show_controls/> })}
            {(!embed).then(|| view! { <Footer/> })}
        </div>
    }
}

fn watch_system_theme(system_dark: RwSignal<bool>) {
    let Some(mql) =
        dom::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
    else {
        return;
    };
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::MediaQueryListEvent)>::new(
        move |ev: web_sys::MediaQueryListEvent| system_dark.set(ev.matches()),
    );
    let _ = mql.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    listener.forget();
}

/// Title, view navigation and theme switch.
#[component]
fn Header() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    let state = ctx.state;
    let next_theme = move |_| {
        state.update(|s| {
            s.theme = match s.theme {
                ThemeChoice::Auto => {
                    if ctx.dark.get_untracked() {
                        ThemeChoice::Light
                    } else {
                        ThemeChoice::Dark
                    }
                }
                ThemeChoice::Light => ThemeChoice::Dark,
                ThemeChoice::Dark => ThemeChoice::Light,
            }
        })
    };
    // The lessons PE Lab ships, to choose from (`lesson=` with no name).
    let start_lesson = move |_| {
        state.update(|s| {
            s.lesson = Some(crate::state::LessonLocation {
                source: String::new(),
                step: 1,
                present: false,
                revealed: false,
            })
        })
    };
    let figure = RwSignal::new(None::<Figure>);
    let on_figure = move |ev: leptos::ev::Event| {
        let name = event_target_value(&ev);
        if let Some(index) = FIGURE_NAMES.iter().position(|n| *n == name) {
            crate::ui::lazy::run(crate::ui::lazy::Job::Figure(index, state, figure));
        }
    };
    view! {
        <header class="site-header">
            <a class="skip" href="#main">"Skip to content"</a>
            <h1>"PE Lab"<span class="tagline">" — how transformers know word order"</span></h1>
            <nav aria-label="Views">
                {VIEWS
                    .iter()
                    .map(|spec| {
                        let v = spec.view;
                        view! {
                            <button
                                class="nav-view"
                                aria-current=move || state.with(|s| (s.view == v && s.lesson.is_none()).then_some("page"))
                                on:click=move |_| state.update(|s| {
                                    // Choosing a view leaves a lesson; another view shows
                                    // all its controls (a link hid or locked the first's).
                                    if s.view != v {
                                        s.hidden.clear();
                                        s.locked.clear();
                                    }
                                    s.lesson = None;
                                    s.view = v;
                                })
                            >
                                {spec.title}
                            </button>
                        }
                    })
                    .collect_view()}
            </nav>
            <button class="nav-lesson" on:click=start_lesson
                aria-current=move || state.with(|s| s.lesson.is_some().then_some("page"))>
                "▶ Lesson"
            </button>
            <label class="figures">
                <span class="visually-hidden">"Figures"</span>
                <select aria-label="Reproduce a published figure" on:change=on_figure prop:value=move || figure.get().map(|f| f.name).unwrap_or("")>
                    <option value="">"Figures…"</option>
                    {FIGURE_NAMES.iter().map(|&n| view! { <option value=n>{n}</option> }).collect_view()}
                </select>
            </label>
            <notation::NotationButton/>
            <share::ShareButton/>
            <button class="theme-toggle" on:click=next_theme aria-label="Switch light or dark theme">
                {move || if ctx.dark.get() { "☀ Light" } else { "☾ Dark" }}
            </button>
        </header>
        <Show when=move || figure.get().is_some()>
            <p class="figure-source" role="status">
                {move || figure.get().map(|f| format!("Figure: {} — {}", f.name, f.source))}
                <button class="dismiss" on:click=move |_| figure.set(None)>"Dismiss"</button>
            </p>
        </Show>
    }
}

/// Shown while a view's code is fetched the first time it opens: as tall as a view, so the
/// page does not jump when the panels arrive.
#[component]
fn ViewLoading(view: Memo<View>) -> impl IntoView {
    view! {
        <div class="view-loading" role="status" aria-live="polite">
            <p>{move || format!("Loading the {} view…", view.get().title())}</p>
        </div>
    }
}

/// A view whose code could not be fetched: says so, keeps the rest of the app usable, and
/// offers to try again (a failed fetch is not cached).
#[component]
fn ViewFailed(view: View, retries: RwSignal<u32>) -> impl IntoView {
    view! {
        <div class="view-loading" role="alert">
            <p>
                {format!("The {} view could not be loaded: its code did not arrive (is the server still running, or the network up?). ", view.title())}
                <button on:click=move |_| retries.update(|n| *n += 1)>"Try again"</button>
            </p>
        </div>
    }
}

/// Under an embedded panel: the state in one line when the controls are hidden, and a link
/// that opens the same state in the full app (new tab).
#[component]
fn EmbedFooter(show_controls: bool) -> impl IntoView {
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let href = move || state.with(|s| format!("?{}", s.permalink_query()));
    view! {
        <footer class="embed-footer">
            {(!show_controls).then(|| view! {
                <p class="state-caption">{move || state.with(AppState::caption)}</p>
            })}
            <a class="open-full" href=href target="_blank" rel="noopener">"Open in PE Lab ↗"</a>
        </footer>
    }
}

/// What the URL parser adjusted, shown until dismissed.
#[component]
fn NoticeList(notices: RwSignal<Notices>) -> impl IntoView {
    view! {
        <Show when=move || notices.with(|n| !n.is_empty())>
            <div class="notices" role="status">
                <p>
                    <strong>"Some settings in the link were adjusted:"</strong>
                    <button class="dismiss" on:click=move |_| notices.set(Notices::default())>
                        "Dismiss"
                    </button>
                </p>
                <ul>
                    {move || {
                        notices
                            .with(|n| {
                                n.items
                                    .iter()
                                    .map(|item| {
                                        view! {
                                            <li>
                                                <code>{item.param.clone()}</code>
                                                ": "
                                                {item.message.clone()}
                                            </li>
                                        }
                                    })
                                    .collect_view()
                            })
                    }}
                    {move || {
                        let more = notices.with(|n| n.more);
                        (more > 0).then(|| view! { <li>{format!("… and {more} more.")}</li> })
                    }}
                </ul>
            </div>
        </Show>
    }
}

#[component]
fn Footer() -> impl IntoView {
    view! {
        <footer class="site-footer">
            <p>
                "PE Lab computes everything in your browser; nothing is sent anywhere. "
                "Formulas follow the papers each view names, and are checked against PyTorch and Hugging Face transformers where those implement them."
            </p>
        </footer>
    }
}
