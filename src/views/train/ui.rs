//! The Train it yourself view (`view=train`): setup and Run, learning curves, length
//! generalization, attention maps.
//!
//! A run trains in slices of a few milliseconds, each a task of its own, between which the
//! browser takes input and paints (see [`post`]). The work is done one sequence at a time
//! in a fixed order, so where a slice ends does not change the run. A run stops when the view
//! is left, and what it reached stays for when the view comes back.

use std::cell::RefCell;

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use pe_train::run::{Phase, Session};

use super::state::SHIPPED;
use super::settings::{
    length_csv, loss_csv, percent, run_summary, task_label, Enc, TrainState, ATT_HEAD, ATT_LAYER,
    LAYERS, LR, SEED, STEPS, TRAIN_LEN,
};
use crate::format::sig;
use crate::render::charts::{LineChart, SeriesStyle};
use crate::render::colormap::ColorMap;
use crate::render::raster::{AxisSamples, SampledGrid};
use crate::state::params::{toggle_in_order, FloatSpec, IntSpec, Notices};
use crate::state::AppState;
use crate::ui::context::{select_state, AppCtx};
use crate::ui::widgets::{
    control_class, panel_visible, ChartCanvas, ChartRef, Painter, Panel, StateChoice, StateRange,
};
use crate::ui::{dom, export};
use crate::views::common::{heatmap_frame, line_series, paint_lines, reference_line, ExportButtons};
use pe_train::task::Task;

/// A slice of training, in ms: short enough that an input waits little for it.
const SLICE_MS: f64 = 4.0;
/// How often the charts follow a run under way, in ms.
const REDRAW_MS: f64 = 120.0;
/// Multiply-adds per ms this browser managed in its last run, kept for the next estimate.
const RATE_KEY: &str = "pe-lab:train-rate";
/// The estimate before a browser's first run: measured in headless Chromium on the
/// developers' 2-core machine (multiply-adds per ms).
const DEFAULT_RATE: f64 = 1_300_000.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Running,
    Done,
    Stopped,
}

impl Status {
    fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Done => "done",
            Status::Stopped => "stopped",
        }
    }
}

/// A run: the settings it was started with, its session, and where it stands.
struct Run {
    key: TrainState,
    session: Session,
    status: Status,
    started: f64,
    ms: Option<f64>,
    /// Time spent training each encoding, in ms.
    training_ms: Vec<f64>,
    /// The shipped run ([`super::shipped`]), read from its file, not trained here.
    shipped: bool,
}

thread_local! {
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
    /// Bumped when the run has news for the page (the view's signal, while it is shown).
    static NEWS: RefCell<Option<(RwSignal<u64>, f64)>> = const { RefCell::new(None) };
    /// The shipped run, once read (see [`show_shipped`]).
    static SHIPPED_FILE: RefCell<Option<Result<(TrainState, Session), String>>> = const { RefCell::new(None) };
    /// The shipped run is being fetched.
    static SHIPPED_LOADING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Timers chained since the last animation frame (see [`post`]).
    static CHAIN: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn with_run<R>(read: impl FnOnce(Option<&Run>) -> R) -> R {
    RUN.with(|r| read(r.borrow().as_ref()))
}

/// Tells the page, at most every [`REDRAW_MS`] unless `now`.
fn tell(now: bool) {
    let t = dom::now_ms();
    NEWS.with(|n| {
        if let Some((signal, last)) = n.borrow_mut().as_mut() {
            if now || t - *last >= REDRAW_MS {
                *last = t;
                signal.try_update(|v| *v += 1);
            }
        }
    });
}

/// Asks for the next slice. A timer of 0 ms is a task of its own (the browser takes input and
/// paints between tasks), but browsers make chained timers wait 4 ms from the fifth on
/// (HTML's timer nesting level): after four, the chain goes through the next animation frame,
/// whose callback is not a timer, and starts again. (Leptos's own `set_timeout` and
/// `request_animation_frame` are used: a `MessageChannel` would cost the first download its
/// bindings.)
fn post() {
    let chained = CHAIN.with(|c| {
        let n = c.get();
        c.set(if n >= 4 { 0 } else { n + 1 });
        n < 4
    });
    if chained {
        set_timeout(slice, std::time::Duration::ZERO);
    } else {
        request_animation_frame(|| set_timeout(slice, std::time::Duration::ZERO));
    }
}

/// One slice of the run under way.
fn slice() {
    let deadline = dom::now_ms() + SLICE_MS;
    let (going, finished) = RUN.with(|r| {
        let mut r = r.borrow_mut();
        let Some(run) = r.as_mut().filter(|run| run.status == Status::Running) else {
            return (false, false);
        };
        let mut now = dom::now_ms();
        while now < deadline {
            let turn = run.session.training_turn();
            let more = run.session.work_one();
            let then = dom::now_ms();
            if let Some(i) = turn {
                run.training_ms[i] += then - now;
            }
            now = then;
            if !more {
                let ms = dom::now_ms() - run.started;
                run.status = Status::Done;
                run.ms = Some(ms);
                remember_rate(run.session.cost() / ms.max(1.0));
                return (false, true);
            }
        }
        (true, false)
    });
    tell(finished);
    if going {
        post();
    }
}

fn storage() -> Option<web_sys::Storage> {
    dom::window()?.local_storage().ok().flatten()
}

fn remember_rate(rate: f64) {
    if let Some(s) = storage() {
        let _ = s.set_item(RATE_KEY, &rate.to_string());
    }
}

/// Multiply-adds per ms: this browser's last run, or [`DEFAULT_RATE`]; and whether it is
/// this browser's own.
fn rate() -> (f64, bool) {
    storage()
        .and_then(|s| s.get_item(RATE_KEY).ok().flatten())
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|r| r.is_finite() && *r > 0.0)
        .map_or((DEFAULT_RATE, false), |r| (r, true))
}

fn start(settings: &TrainState) {
    RUN.with(|r| {
        *r.borrow_mut() = Some(Run {
            key: settings.run_key(),
            session: settings.session(),
            status: Status::Running,
            started: dom::now_ms(),
            ms: None,
            training_ms: vec![0.0; settings.encs.len()],
            shipped: false,
        })
    });
    tell(true);
    post();
}

/// The URL asks for the shipped run (`shipped=1`).
fn wants_shipped(s: &AppState) -> bool {
    s.train.get(SHIPPED).is_some_and(|v| v == "1")
}

fn drop_shipped(s: &mut AppState) {
    s.train.values.retain(|(k, _)| *k != SHIPPED);
}

/// Shows the shipped run ([`super::shipped`]) when the URL asks for it, unless a finished run
/// of the same settings is shown already (it is the same run): fetched and read once, then
/// installed as a finished run. If it cannot be read, or its settings are not the ones asked
/// for, the page says so and `shipped` leaves the URL.
fn show_shipped(state: RwSignal<AppState>, key: TrainState) {
    let have = with_run(|r| r.is_some_and(|r| r.key == key && r.status == Status::Done));
    if have {
        return;
    }
    let shown = use_context::<RwSignal<Notices>>();
    let install = move |read: &Result<(TrainState, Session), String>| {
        let now = state.with_untracked(|s| wants_shipped(s).then(|| settings_of(s).run_key()));
        let Some(now) = now else {
            return; // The page moved on while the file came.
        };
        let problem = match read {
            Err(e) => format!("the shipped run could not be read ({e}): press Run to train here."),
            Ok((key, _)) if *key != now => {
                "the shipped run is of the view's default settings, and these differ: press Run to train with them.".to_string()
            }
            Ok((key, session)) => {
                stop();
                RUN.with(|r| {
                    *r.borrow_mut() = Some(Run {
                        training_ms: vec![0.0; key.encs.len()],
                        key: key.clone(),
                        session: session.clone(),
                        status: Status::Done,
                        started: dom::now_ms(),
                        ms: None,
                        shipped: true,
                    })
                });
                tell(true);
                return;
            }
        };
        if let Some(shown) = shown {
            shown.update(|n| n.push(SHIPPED, problem));
        }
        state.update(drop_shipped);
    };
    if SHIPPED_FILE.with(|f| f.borrow().as_ref().map(&install)).is_some() {
        return;
    }
    if SHIPPED_LOADING.with(|l| l.replace(true)) {
        return;
    }
    leptos::task::spawn_local(async move {
        let read = crate::ui::tables::fetch_bytes(super::shipped::FILE)
            .await
            .and_then(|bytes| super::shipped::load(&bytes));
        SHIPPED_LOADING.with(|l| l.set(false));
        install(&read);
        // Kept once read; a failed fetch is tried again the next time.
        if read.is_ok() {
            SHIPPED_FILE.with(|f| *f.borrow_mut() = Some(read));
        }
    });
}

/// Takes the shipped run off the page when the URL no longer asks for it (a run trained here
/// stays: it is the student's).
fn hide_shipped() {
    let shipped = with_run(|r| r.is_some_and(|r| r.shipped));
    if shipped {
        RUN.with(|r| *r.borrow_mut() = None);
        tell(true);
    }
}

fn stop() {
    let stopped = RUN.with(|r| {
        let mut r = r.borrow_mut();
        match r.as_mut() {
            Some(run) if run.status == Status::Running => {
                run.status = Status::Stopped;
                true
            }
            _ => false,
        }
    });
    if stopped {
        tell(true);
    }
}

/// The Train it yourself view.
#[component]
pub fn TrainView() -> impl IntoView {
    let ctx = use_context::<AppCtx>().expect("AppCtx");
    // The URL's values read and checked once, when the view opens: what was adjusted is said
    // in the page's notices, and the URL then holds every setting.
    let (first, notices) = ctx.state.with_untracked(|s| {
        let mut notices = Notices::default();
        (TrainState::from_query(&s.train, &mut notices), notices)
    });
    if !notices.is_empty() {
        if let Some(shown) = use_context::<RwSignal<Notices>>() {
            shown.update(|n| {
                for item in notices.items {
                    n.push(&item.param, item.message);
                }
            });
        }
    }
    let written = ctx.state.with_untracked(|s| {
        let mut q = first.to_query();
        if wants_shipped(s) {
            q.values.push((SHIPPED, "1".into()));
        }
        q
    });
    if ctx.state.with_untracked(|s| s.train != written) {
        ctx.state.update(|s| s.train = written);
    }
    let settings = select_state(ctx.state, settings_of);
    // The shipped run follows the URL's `shipped=1` (tracking the whole state: a check that
    // costs nothing when it is not asked for, and one closure less than a memo of its own).
    Effect::new(move |_| {
        if ctx.state.with(wants_shipped) {
            show_shipped(ctx.state, settings.with(TrainState::run_key));
        } else {
            hide_shipped();
        }
    });
    let news = RwSignal::new(0u64);
    NEWS.with(|n| *n.borrow_mut() = Some((news, 0.0)));
    on_cleanup(|| {
        stop();
        NEWS.with(|n| *n.borrow_mut() = None);
    });
    let summary = move || {
        news.track();
        let now = settings.with(TrainState::run_key);
        with_run(|run| match run {
            None => vec![
                "Press Run: every chosen encoding trains the same small transformer on the same batches; then each is tested at lengths up to the longest test length.".to_string(),
            ],
            Some(run) => {
                let mut lines = match run.status {
                    Status::Done if run.shipped => {
                        let mut lines = vec![crate::captions::TRAIN_SHIPPED.to_string()];
                        lines.extend(run_summary(&run.key, &run.session));
                        lines
                    }
                    Status::Done => run_summary(&run.key, &run.session),
                    Status::Running => vec![format!(
                        "Running… {} done.",
                        percent(run.session.progress())
                    )],
                    Status::Stopped => vec![
                        "This run was stopped before it finished: the curves show the steps it took, and the length chart the lengths tested before the stop (testing starts once every encoding has trained).".to_string(),
                    ],
                };
                if run.key != now {
                    lines.insert(
                        0,
                        if run.status == Status::Running {
                            "These charts show the run under way; its settings differ from the ones above, which the next Run will use."
                        } else {
                            "These charts show the last run; its settings differ from the ones above. Press Run to train with these."
                        }
                        .to_string(),
                    );
                }
                lines
            }
        })
        .into_iter()
        .map(|l| view! { <p>{l}</p> })
        .collect_view()
    };
    view! {
        <div class="view view-train">
            <style>{TRAIN_CSS}</style>
            <div class="view-intro">
                <p>{crate::captions::TRAIN_INTRO}</p>
            </div>
            <div class="run-summary" aria-live="polite" data-run-summary>{summary}</div>
            <div class="panels">
                <SetupPanel settings=settings news=news/>
                <LossPanel settings=settings news=news/>
                <LengthPanel settings=settings news=news/>
                <AttentionPanel settings=settings news=news/>
            </div>
        </div>
    }
}

/// The settings of the state (what was adjusted was said when the view opened).
fn settings_of(s: &AppState) -> TrainState {
    TrainState::from_query(&s.train, &mut Notices::default())
}

/// Changes the settings in the state (`shipped` stays while the run's settings do: only the
/// map shown changed).
fn edit(s: &mut AppState, change: impl FnOnce(&mut TrainState)) {
    let mut t = settings_of(s);
    let before = t.run_key();
    change(&mut t);
    let keep = wants_shipped(s) && t.run_key() == before;
    s.train = t.to_query();
    if keep {
        s.train.values.push((SHIPPED, "1".into()));
    }
}

fn width_name(s: &AppState) -> &'static str {
    match settings_of(s).width {
        8 => "8",
        16 => "16",
        24 => "24",
        32 => "32",
        40 => "40",
        48 => "48",
        56 => "56",
        _ => "64",
    }
}

const LR_SPEC: FloatSpec = LR;

#[component]
fn SetupPanel(settings: Memo<TrainState>, news: RwSignal<u64>) -> impl IntoView {
    const ID: &str = "train-setup";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let state = use_context::<AppCtx>().expect("AppCtx").state;
    let status = move || {
        news.track();
        with_run(|r| r.map_or("idle", |r| r.status.name()))
    };
    let run_ms = run_attr(news, |r| r.ms.map(|ms| format!("{}", ms.round())));
    let running = move || status() == "running";
    let source = run_attr(news, run_source);
    // Training steps per second of each encoding, once done: `nope 95.1,rope 90.2,…`.
    let rates = run_attr(news, |r| {
        if r.status != Status::Done || r.shipped {
            return None;
        }
        let parts: Vec<String> = r
            .key
            .encs
            .iter()
            .zip(&r.training_ms)
            .map(|(e, ms)| format!("{} {}", e.name(), sig(r.key.steps as f64 / (ms / 1000.0).max(1e-9), 4)))
            .collect();
        Some(parts.join(","))
    });
    let estimate = move || {
        let s = settings.get();
        let cost = s.cost();
        let (rate, own) = rate();
        let seconds = cost / rate / 1000.0;
        let from = if own {
            "from this browser's last run"
        } else {
            "from a run in headless Chromium on a 2-core machine; this browser's own speed is used after its first run"
        };
        format!(
            "{} model{} × {} steps: about {} s ({from}).",
            s.encs.len(),
            if s.encs.len() == 1 { "" } else { "s" },
            s.steps,
            sig(seconds.max(0.1), 2)
        )
    };
    let progress = move || {
        news.track();
        with_run(|r| {
            r.map(|r| {
                let phase = match r.session.phase() {
                    Phase::Training => {
                        let steps: usize = r.session.trainers.iter().map(|t| t.step).sum();
                        let total = r.session.trainers.len() * r.key.steps;
                        format!("training: {steps} of {total} steps")
                    }
                    Phase::Testing => "testing every length".to_string(),
                    Phase::Done => match r.ms {
                        Some(ms) => format!("done in {} s", sig(ms / 1000.0, 3)),
                        None if r.shipped => "the shipped run (not trained in this page)".to_string(),
                        None => "done".to_string(),
                    },
                };
                let phase = if r.status == Status::Stopped {
                    format!("stopped ({phase})")
                } else {
                    phase
                };
                (r.session.progress(), phase)
            })
        })
    };
    let enc_class = control_class(
        "enc",
        &[
            "control choice methods",
            "control choice methods gone",
            "control choice methods locked",
        ],
    );
    let weights = move |_| {
        with_run(|r| {
            let Some(r) = r else { return };
            let named: Vec<_> = r
                .key
                .encs
                .iter()
                .zip(&r.session.trainers)
                .flat_map(|(&enc, t)| super::shipped::tensors(enc, t))
                .collect();
            let arrays: Vec<crate::export::npz::Array> = named
                .iter()
                .map(|(name, shape, values)| crate::export::npz::Array {
                    name,
                    shape: shape.clone(),
                    values,
                })
                .collect();
            let bytes = crate::export::npz::write(&arrays);
            let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()));
            let _ = dom::download_parts(&parts, "application/octet-stream", "train-weights.npz");
        })
    };
    let settings_json = move |_| {
        let text = with_run(|r| r.map(|r| r.key.settings_json()))
            .unwrap_or_else(|| settings.get_untracked().settings_json());
        let parts = js_sys::Array::of1(&JsValue::from_str(&text));
        let _ = dom::download_parts(&parts, "application/json", "train-settings.json");
    };
    let train_len = Memo::new(move |_| settings.with(|s| s.train_len));
    view! {
        <Panel id=ID attr:data-run=status attr:data-run-ms=run_ms attr:data-run-rates=rates attr:data-run-source=source>
            <div class="controls train-controls" role="group" aria-label="Training setup">
                <StateChoice name="task" label="Task"
                    options=Task::ALL.iter().map(|t| (t.name(), task_label(*t))).collect()
                    get=|s| settings_of(s).task.name()
                    put=|s, v| edit(s, |t| t.task = Task::from_name(v).unwrap_or_default())/>
                <fieldset class=enc_class data-control="enc">
                    <legend>"Encodings"</legend>
                    {Enc::ALL.into_iter().map(|e| {
                        let checked = move || settings.with(|s| s.encs.contains(&e));
                        let toggle = move |_| state.update(|s| edit(s, |t| toggle_in_order(&mut t.encs, e, &Enc::ALL)));
                        view! {
                            <label class="choice-option">
                                <input type="checkbox" name="enc" value=e.name() prop:checked=checked on:change=toggle/>
                                <span>{e.label()}</span>
                            </label>
                        }
                    }).collect_view()}
                </fieldset>
                <StateChoice name="mask" label="Mask"
                    options=vec![("bidirectional", "Bidirectional"), ("causal", "Causal")]
                    get=|s| if settings_of(s).causal { "causal" } else { "bidirectional" }
                    put=|s, v| edit(s, |t| t.causal = v == "causal")/>
                <StateRange spec=TRAIN_LEN get=|s| settings_of(s).train_len as f64 put=|s, v| edit(s, |t| {
                    let (old, new) = (t.train_len, v as usize);
                    t.test_len = if t.test_len == 4 * old { 4 * new } else { t.test_len.clamp(new, 4 * new) };
                    t.train_len = new;
                })/>
                // Built anew when the training length changes: its range starts there.
                {move || {
                    let min = train_len.get() as i64;
                    view! {
                        <StateRange spec=IntSpec { min, ..super::settings::TEST_LEN }
                            get=|s| settings_of(s).test_len as f64
                            max=|s| 4.0 * settings_of(s).train_len as f64
                            put=|s, v| edit(s, |t| t.test_len = (v as usize).clamp(t.train_len, 4 * t.train_len))/>
                    }
                }}
                <StateRange spec=LAYERS get=|s| settings_of(s).layers as f64 put=|s, v| edit(s, |t| {
                    t.layers = v as usize;
                    t.att_layer = t.att_layer.min(t.layers - 1);
                })/>
                <StateChoice name="width" label="Width"
                    options=vec![("8", "8"), ("16", "16"), ("24", "24"), ("32", "32"), ("48", "48"), ("64", "64")]
                    get=width_name put=|s, v| edit(s, |t| t.width = v.parse().unwrap_or(32))/>
                <StateChoice name="heads" label="Heads"
                    options=vec![("1", "1"), ("2", "2"), ("4", "4")]
                    get=|s| match settings_of(s).heads { 1 => "1", 4 => "4", _ => "2" }
                    put=|s, v| edit(s, |t| {
                        t.heads = v.parse().unwrap_or(2);
                        t.att_head = t.att_head.min(t.heads - 1);
                    })/>
                <StateRange spec=STEPS get=|s| settings_of(s).steps as f64 put=|s, v| edit(s, |t| t.steps = v as usize)/>
                <StateRange spec=LR_SPEC get=|s| settings_of(s).lr put=|s, v| edit(s, |t| t.lr = v)/>
                <StateRange spec=SEED get=|s| settings_of(s).seed as f64 put=|s, v| edit(s, |t| t.seed = v as u64)/>
            </div>
            <div class="run-bar">
                <button class="run-button" disabled=running on:click=move |_| {
                    state.update(drop_shipped);
                    start(&settings.get_untracked());
                }>"Run"</button>
                <button disabled=move || !running() on:click=|_| stop()>"Stop"</button>
                <span class="readout">{estimate}</span>
            </div>
            {move || progress().map(|(done, phase)| view! {
                <div class="run-progress">
                    <progress max="1" value=done aria-label="Run progress"></progress>
                    <span>{phase}</span>
                </div>
            })}
            <p class="about">{crate::captions::TRAIN_SETUP}</p>
            <div class="exports" role="group" aria-label="Export the run">
                <button on:click=weights disabled=move || { news.track(); with_run(|r| r.is_none()) }>"Weights (NPZ)"</button>
                <button on:click=settings_json>"Settings (JSON)"</button>
            </div>
        </Panel>
    }
    .into_any()
}

/// An attribute of the run shown (absent without a run), following it. Every such attribute
/// is this one closure type with another `of`: each new closure type handed to the page costs
/// the first download its own entries.
fn run_attr(news: RwSignal<u64>, of: fn(&Run) -> Option<String>) -> impl Fn() -> Option<String> + Copy {
    move || {
        news.track();
        with_run(|r| r.and_then(of))
    }
}

/// Where the run shown comes from, for `data-run-source` on each panel: `page` (trained
/// here) or `shipped` (the shipped file).
fn run_source(r: &Run) -> Option<String> {
    Some(if r.shipped { "shipped" } else { "page" }.to_string())
}

/// The colour index of an encoding: the same in every chart, whatever is chosen.
fn colour(e: Enc) -> usize {
    Enc::ALL.iter().position(|&x| x == e).unwrap_or(0)
}

fn stem(s: &TrainState) -> String {
    format!(
        "{}_{}_L{}_seed{}",
        s.task.name(),
        if s.causal { "causal" } else { "bidirectional" },
        s.train_len,
        s.seed
    )
}

#[component]
fn LossPanel(settings: Memo<TrainState>, news: RwSignal<u64>) -> impl IntoView {
    const ID: &str = "train-loss";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let loss_chart = ChartRef::new();
    let acc_chart = ChartRef::new();
    let paint = move |p: &Painter, accuracy: bool| {
        news.track();
        let px = p.canvas.width() as usize;
        with_run(|run| {
            let (steps, mut series) = match run {
                Some(r) => {
                    let series = r
                        .key
                        .encs
                        .iter()
                        .zip(&r.session.trainers)
                        .map(|(&e, t)| {
                            let ys: Vec<f64> = t
                                .history
                                .iter()
                                .map(|s| if accuracy { s.accuracy } else { s.loss.max(1e-4) })
                                .collect();
                            line_series(e.label().into(), colour(e), &ys, |i| (i + 1) as f64, px, SeriesStyle::Line)
                        })
                        .collect();
                    (r.key.steps, series)
                }
                None => (settings.with(|s| s.steps), Vec::new()),
            };
            // On the order task, the best a model blind to order can do (twins get the same
            // output): accuracy ½, loss ln 2.
            let task = run.map_or_else(|| settings.with(|s| s.task), |r| r.key.task);
            if let Some((acc, loss)) = task.order_blind_optimum() {
                let (name, y) = if accuracy {
                    ("order-blind best, 50 %", acc)
                } else {
                    ("order-blind best, ln 2 ≈ 0.693", loss)
                };
                series.push(reference_line(name.into(), &[y, y], |i| if i == 0 { 1.0 } else { steps.max(2) as f64 }, px));
            }
            let chart = LineChart {
                x_label: "training step".into(),
                y_label: if accuracy { "training accuracy" } else { "training loss (log)" }.into(),
                x_range: (1.0, steps.max(2) as f64),
                y_range: if accuracy { (0.0, 1.0) } else { (1e-4, 10.0) },
                y_log: !accuracy,
                x_log: false,
                series,
                bands: vec![],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = with_run(|r| r.map(|r| loss_csv(&r.key.encs, &r.session))).unwrap_or_default();
        export::csv_text(text, &format!("train-loss_{}.csv", settings.with_untracked(stem)));
    });
    view! {
        <Panel id=ID attr:data-run-source=run_attr(news, run_source)>
            <ChartCanvas chart=loss_chart label="Training loss against step, one line per encoding." paint=move |p: &Painter| paint(p, false) height=240.0/>
            <ExportButtons chart=loss_chart stem=Signal::derive(move || format!("{ID}_{}", settings.with(stem))) csv=csv_cb/>
            <ChartCanvas chart=acc_chart label="Training accuracy against step, one line per encoding." paint=move |p: &Painter| paint(p, true) height=200.0/>
            <p class="about">{crate::captions::TRAIN_LOSS}</p>
            // The same CSV: it holds both charts' data (each step's loss and accuracy).
            <ExportButtons chart=acc_chart stem=Signal::derive(move || format!("{ID}-accuracy_{}", settings.with(stem))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

#[component]
fn LengthPanel(settings: Memo<TrainState>, news: RwSignal<u64>) -> impl IntoView {
    const ID: &str = "train-length";
    if !panel_visible(ID) {
        return ().into_any();
    }
    let chart = ChartRef::new();
    let paint = move |p: &Painter| {
        news.track();
        let px = p.canvas.width() as usize;
        with_run(|run| {
            let key = run.map_or_else(|| settings.get(), |r| r.key.clone());
            let lens: Vec<usize> = run.map_or_else(|| key.test_lens(), |r| r.session.lens.clone());
            let mut series = Vec::new();
            if let Some(r) = run {
                for (&e, scores) in r.key.encs.iter().zip(&r.session.length_scores) {
                    let ys: Vec<f64> = scores.iter().map_while(|s| s.map(|s| s.accuracy)).collect();
                    if ys.is_empty() {
                        continue;
                    }
                    let name = if ys.len() < lens.len() && scores.len() == lens.len() {
                        format!("{}: no vectors past position {}", e.label(), key.train_len - 1)
                    } else {
                        e.label().to_string()
                    };
                    let style = if ys.len() == 1 { SeriesStyle::Points } else { SeriesStyle::Line };
                    series.push(line_series(name, colour(e), &ys, |i| lens[i] as f64, px, style));
                }
            }
            if key.task == Task::Order {
                series.push(reference_line(
                    "order-blind best, 50 %".into(),
                    &[0.5, 0.5],
                    |i| if i == 0 { lens[0] as f64 } else { key.test_len as f64 },
                    px,
                ));
            }
            let chart = LineChart {
                x_label: "test length (tokens)".into(),
                y_label: "test accuracy".into(),
                x_range: (lens.first().copied().unwrap_or(1) as f64, key.test_len as f64),
                y_range: (0.0, 1.0),
                y_log: false,
                x_log: false,
                series,
                bands: vec![crate::render::charts::Band {
                    x0: lens.first().copied().unwrap_or(1) as f64,
                    x1: key.train_len as f64,
                    label: format!("trained on lengths up to {}", key.train_len),
                }],
            };
            paint_lines(p, &chart)
        })
    };
    let csv_cb = Callback::new(move |_| {
        let text = with_run(|r| r.map(|r| length_csv(&r.key.encs, &r.session))).unwrap_or_default();
        export::csv_text(text, &format!("train-length_{}.csv", settings.with_untracked(stem)));
    });
    view! {
        <Panel id=ID attr:data-run-source=run_attr(news, run_source)>
            <ChartCanvas chart=chart label="Test accuracy against sequence length, one line per encoding; the shaded band is the lengths seen in training." paint=paint height=300.0/>
            <p class="about">{crate::captions::TRAIN_LENGTH}</p>
            <ExportButtons chart=chart stem=Signal::derive(move || format!("{ID}_{}", settings.with(stem))) csv=csv_cb/>
        </Panel>
    }
    .into_any()
}

const LAYER_SPEC: IntSpec = ATT_LAYER;
const HEAD_SPEC: IntSpec = ATT_HEAD;

#[component]
fn AttentionPanel(settings: Memo<TrainState>, news: RwSignal<u64>) -> impl IntoView {
    const ID: &str = "train-attention";
    if !panel_visible(ID) {
        return ().into_any();
    }
    // The maps' charts as last made (the export bar exports the first, made before it).
    let charts = [StoredValue::new_local(None::<ChartRef>), StoredValue::new_local(None)];
    // Whether map `k` of the chosen encoding was traced in the run shown.
    let traced = move |k: usize| {
        news.track();
        let enc = settings.with(|s| s.att_enc);
        with_run(|run| {
            run.is_some_and(|run| {
                run.key
                    .encs
                    .iter()
                    .position(|&e| e == enc)
                    .is_some_and(|i| run.session.traces[i][k].is_some())
            })
        })
    };
    // (trainer index, length) of the map `k` at the current choice, once traced.
    let paint = move |p: &Painter, k: usize| {
        news.track();
        let (enc, (layer, head)) = settings.with(|s| (s.att_enc, s.shown_layer_head()));
        with_run(|run| {
            let run = run?;
            let i = run.key.encs.iter().position(|&e| e == enc)?;
            let trace = run.session.traces.get(i)?[k].as_ref()?;
            let (layer, head) = (layer.min(run.key.layers - 1), head.min(run.key.heads - 1));
            let att = trace.attention(layer, head);
            let t = run.session.attention_lens[k];
            let cmap = ColorMap::sequential();
            let frame = heatmap_frame(&cmap, t, t, "key position n", "query position m", 0.0, 1.0, "weight");
            let rect = p.heatmap_frame(&frame)?;
            let causal = run.key.causal;
            let grid = SampledGrid::compute(
                AxisSamples::centred(t, p.raster(rect).1),
                AxisSamples::centred(t, p.raster(rect).0),
                |i, j| if causal && j > i { f64::NAN } else { att[i * t + j] },
            );
            p.put_grid(rect, &grid, &grid.paint_rgba(&cmap, 0.0, 1.0));
            Some(rect)
        })
    };
    let caption = move |k: usize| {
        news.track();
        let enc = settings.with(|s| s.att_enc);
        with_run(|run| {
            let Some(run) = run else {
                return "Run to see the maps.".to_string();
            };
            let len = run.session.attention_lens[k];
            let Some(i) = run.key.encs.iter().position(|&e| e == enc) else {
                return format!("{} was not in this run.", enc.label());
            };
            match run.session.traces.get(i).and_then(|t| t[k].as_ref()) {
                Some(_) => {
                    let ex = &pe_train::run::test_set(run.key.task, len, run.key.seed)[0];
                    let words: Vec<String> = ex.tokens.iter().map(|&t| run.key.task.token_label(t)).collect();
                    let place = if len <= run.key.train_len { "inside training" } else { "past training" };
                    format!("Length {len} ({place}), the first test input: {}", words.join(" "))
                }
                None if run.status == Status::Stopped => format!("Length {len}: not drawn, the run was stopped."),
                None if run.status != Status::Done => format!("Length {len}: drawn once testing is over."),
                None => format!("Length {len}: {} has no vectors past position {}.", enc.label(), run.key.train_len - 1),
            }
        })
    };
    let csv_cb = Callback::new(move |_| {
        let (enc, (layer, head)) = settings.with_untracked(|s| (s.att_enc, s.shown_layer_head()));
        let text = with_run(|run| {
            let run = run?;
            let i = run.key.encs.iter().position(|&e| e == enc)?;
            let trace = run.session.traces.get(i)?[0].as_ref()?;
            let t = run.session.attention_lens[0];
            let att = trace.attention(layer.min(run.key.layers - 1), head.min(run.key.heads - 1));
            let names: Vec<String> = (0..t).map(|j| format!("key{j}")).collect();
            let mut out = crate::export::csv::header(&names);
            for row in att.chunks(t) {
                crate::export::csv::push_row(&mut out, row);
            }
            Some(out)
        })
        .unwrap_or_default();
        export::csv_text(text, &format!("train-attention_{}.csv", enc.name()));
    });
    view! {
        <Panel id=ID attr:data-run-source=run_attr(news, run_source)>
            <Show when=move || { news.track(); with_run(|r| r.is_some()) }>
            <div class="controls" role="group" aria-label="Attention map shown">
                <StateChoice name="att_enc" label="Encoding"
                    options=Enc::ALL.iter().map(|e| (e.name(), e.label())).collect()
                    get=|s| settings_of(s).att_enc.name()
                    put=|s, v| edit(s, |t| t.att_enc = Enc::from_name(v).unwrap_or(Enc::Rope))/>
                <StateRange spec=LAYER_SPEC get=|s| settings_of(s).shown_layer_head().0 as f64
                    max=|s| settings_of(s).layers as f64 - 1.0 put=|s, v| edit(s, |t| t.att_layer = v as usize)/>
                <StateRange spec=HEAD_SPEC get=|s| settings_of(s).shown_layer_head().1 as f64
                    max=|s| settings_of(s).heads as f64 - 1.0 put=|s, v| edit(s, |t| t.att_head = v as usize)/>
            </div>
            </Show>
            <div class="train-maps">
                {[0usize, 1].map(|k| view! {
                    <figure>
                        // A chart is pending from its making until its first paint: it is made
                        // only when there is a map to paint.
                        <Show when=move || traced(k)>
                            {move || {
                                let chart = ChartRef::new();
                                charts[k].set_value(Some(chart));
                                view! { <ChartCanvas chart=chart label=Signal::derive(move || caption(k)) paint=move |p: &Painter| paint(p, k) height=280.0/> }
                            }}
                        </Show>
                        // The chart shows its name under it; without a chart, the words say why.
                        <Show when=move || !traced(k)>
                            <figcaption class="readout">{move || caption(k)}</figcaption>
                        </Show>
                    </figure>
                })}
            </div>
            <p class="about">{crate::captions::TRAIN_ATTENTION}{move || {
                news.track();
                with_run(|r| r.is_some_and(|r| r.key.causal)).then_some(crate::captions::TRAIN_ATTENTION_CAUSAL)
            }}</p>
            <Show when=move || traced(0)>
                {move || charts[0].get_value().map(|chart| view! {
                    <ExportButtons chart=chart stem=Signal::derive(move || format!("{ID}_{}", settings.with(|s| s.att_enc.name()))) csv=csv_cb/>
                })}
            </Show>
        </Panel>
    }
    .into_any()
}

/// The view's styles, fetched with its code.
const TRAIN_CSS: &str = r#"
/* In a lesson the step's text says what the run shows (and a summary of the whole run would
   answer the step's question before it is asked). */
.lesson .run-summary { display: none; }
.run-summary { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 4px 16px; margin: 0 0 16px; }
.run-summary p { margin: 8px 0; max-width: 90ch; }
.view-train .panel .controls { position: static; border: 0; padding: 0; margin: 0 0 8px; background: none; }
.view-train .train-controls { grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); gap: 4px 20px; }
.view-train :is([data-panel="train-setup"], [data-panel="train-attention"]) { grid-column: 1 / -1; }
.run-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; margin: 8px 0; }
.run-bar .run-button { font-weight: 600; padding: 6px 18px; }
.run-bar .readout { min-height: 0; }
.run-progress { display: flex; align-items: center; gap: 12px; font-size: 0.9rem; }
.run-progress progress { flex: 0 1 320px; }
/* The encoding of the maps: its options in a row, so the maps keep their height. */
.view-train [data-panel="train-attention"] fieldset.choice { flex-flow: row wrap; align-items: center; }
.train-maps { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px 24px; }
.train-maps figure { margin: 0; min-width: 0; }
/* In presenter mode the maps take the panel's height, as a panel's own chart does. */
.lesson.present .train-maps { flex: 1 1 0; min-height: 0; }
.lesson.present .train-maps figure { display: flex; flex-direction: column; min-height: 0; }
"#;
