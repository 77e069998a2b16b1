//! When charts paint. A chart whose inputs change is marked dirty, not painted: dirty charts
//! that are on screen paint together in the next animation frame (however many inputs arrived
//! before it, once), and dirty charts off screen paint when they scroll in or, one at a time,
//! once the controls have rested. Nothing the user cannot see costs an input frame.
//!
//! A chart holds a [`Slot`]. Its paint effect reads [`Slot::granted`] first: `false` means the
//! effect woke because an input changed, and it calls [`Slot::dirty`] and returns (reading
//! nothing else, so later changes do not wake it again); `true` means this is its turn, and it
//! paints (reading, and so tracking, everything the paint needs).

use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::context::AppCtx;
use super::dom;

/// How long the controls must rest before off-screen charts are brought up to date.
const REST_MS: f64 = 150.0;

/// A chart whose full paint takes longer than this paints coarser while a slider moves.
const QUICK_PAINT_MS: f64 = 6.0;

/// One chart's place in the schedule.
#[derive(Clone, Copy)]
pub struct Slot {
    id: u32,
    /// Bumped to give the chart its turn; its paint effect tracks it.
    turn: RwSignal<u32>,
    /// The last turn the chart used.
    used: StoredValue<u32>,
}

struct Entry {
    id: u32,
    turn: RwSignal<u32>,
    dirty: bool,
    on_screen: bool,
    /// Its last paint was a quick, coarse one: a full one follows once the controls rest.
    coarse: bool,
    /// What a full paint of it last cost (measured, or estimated from a coarse one), in ms.
    cost_ms: f64,
    /// Its next paint must be full (an export is waiting for it).
    full: bool,
    /// Its last full paint that told its work (see [`Slot::quick_for`]): that work and its cost.
    last_work: Option<(f64, f64)>,
    /// Already queued for the next frame.
    queued: bool,
}

/// A control's new value, waiting to be written into the state.
type Apply = Box<dyn FnOnce()>;

thread_local! {
    static ENTRIES: RefCell<Vec<Entry>> = const { RefCell::new(Vec::new()) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
    static FRAME_REQUESTED: Cell<bool> = const { Cell::new(false) };
    static IDLE_REQUESTED: Cell<bool> = const { Cell::new(false) };
    static LAST_CHANGE: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
    /// Run after the next frame's paints (exports waiting for a current canvas).
    static AFTER_FRAME: RefCell<Vec<Box<dyn FnOnce()>>> = const { RefCell::new(Vec::new()) };
    /// Other work that must not run in an input frame and is still waiting (a URL write).
    static OTHER_PENDING: Cell<u32> = const { Cell::new(0) };
    /// Slider values waiting for the next frame, the last one of each control.
    static INPUTS: RefCell<Vec<(u32, Apply)>> = const { RefCell::new(Vec::new()) };
    /// The frame applied inputs and its paints are under way: charts they make dirty take
    /// their turn in this frame.
    static IN_FRAME: Cell<bool> = const { Cell::new(false) };
    /// Slider values were applied outside a frame and their effects have not run yet.
    static APPLIED: Cell<bool> = const { Cell::new(false) };
    /// Frames that applied slider values, and those of them in which a chart on screen had
    /// to change (`__peLab.appliedFrames`, `__peLab.neededFrames`: a value that changes no
    /// chart, such as a fraction of 32 pairs that rounds to the same count, needs no paint).
    static FRAME_COUNTS: Cell<(u32, u32)> = const { Cell::new((0, 0)) };
    /// This frame applied values and has not yet counted whether a chart had to change.
    static UNCOUNTED: Cell<bool> = const { Cell::new(false) };
    /// Turns are to be given after the effects now queued have run.
    static TURNS_QUEUED: Cell<bool> = const { Cell::new(false) };
    /// What the charts painted since the current animation frame began cost, in ms.
    static FRAME_PAINT_MS_SO_FAR: Cell<f64> = const { Cell::new(0.0) };
}

impl Slot {
    /// A new slot, dirty until its first turn. Removed from the schedule with its owner.
    pub fn register() -> Slot {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1));
            id
        });
        let turn = RwSignal::new(0u32);
        ENTRIES.with_borrow_mut(|e| {
            e.push(Entry {
                id,
                turn,
                dirty: true,
                on_screen: false,
                coarse: false,
                cost_ms: 0.0,
                full: false,
                last_work: None,
                queued: false,
            })
        });
        on_cleanup(move || {
            ENTRIES.with_borrow_mut(|e| e.retain(|x| x.id != id));
            publish_pending();
        });
        publish_pending();
        Slot {
            id,
            turn,
            used: StoredValue::new(0),
        }
    }

    /// The chart's ID in the schedule (written on its canvas as `data-chart`).
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Whether this run of the paint effect is the chart's turn (tracks the turn).
    pub fn granted(&self) -> bool {
        let turn = self.turn.get();
        if turn == self.used.get_value() {
            return false;
        }
        self.used.set_value(turn);
        true
    }

    /// Something the chart draws changed: ask for a turn (the next frame when on screen).
    pub fn dirty(&self) {
        LAST_CHANGE.with(|t| t.set(dom::now_ms()));
        let on_screen = with_entry(self.id, |e| {
            e.dirty = true;
            e.on_screen
        });
        match on_screen {
            Some(true) => queue_frame(self.id),
            Some(false) => request_idle(),
            None => {}
        }
        publish_pending();
    }

    /// Device pixels per image pixel for this turn's paint: 1, or more when the controls are
    /// moving and a full paint of this chart would not fit in a frame (the cost shrinks with
    /// the square of it).
    pub fn coarseness(&self) -> usize {
        if !moving() {
            return 1;
        }
        let (cost, full) = with_entry(self.id, |e| (e.cost_ms, e.full)).unwrap_or((0.0, false));
        if full || cost <= QUICK_PAINT_MS {
            return 1;
        }
        ((cost / QUICK_PAINT_MS).sqrt().ceil() as usize).clamp(1, 4)
    }

    /// Whether this turn's paint, whose full version does `work` (samples, rotations: any
    /// measure its cost grows in proportion to), should draw from quick data: the controls
    /// are moving and the full paint would not fit in a frame, predicted from the last full
    /// paint's cost scaled by the work (a jump from a small value to a large one is known to
    /// be costly before it is paid), or from the last paint's cost when no work was told.
    pub fn quick_for(&self, work: f64) -> bool {
        if !moving() {
            return false;
        }
        let (cost, full, last) =
            with_entry(self.id, |e| (e.cost_ms, e.full, e.last_work)).unwrap_or((0.0, false, None));
        if full {
            return false;
        }
        let predicted = match last {
            Some((w, ms)) if w > 0.0 => ms * work / w,
            _ => cost,
        };
        predicted > QUICK_PAINT_MS
    }

    /// A full paint that did `work` (see [`Slot::quick_for`]) took `ms`.
    pub fn worked(&self, work: f64, ms: f64) {
        with_entry(self.id, |e| e.last_work = Some((work, ms)));
    }

    /// The chart painted at `coarse` (see [`Slot::coarseness`]) in `ms`. A coarse paint is
    /// followed by a full one once the controls rest.
    pub fn painted(&self, coarse: usize, ms: f64) {
        // `__peLab.framePaintMs`: what the charts painted since the last animation frame of
        // the schedule began cost (the benchmark's breakdown of a move's frame; a refinement
        // at rest, outside any frame, adds to it).
        let so_far = FRAME_PAINT_MS_SO_FAR.with(|t| {
            t.set(t.get() + ms);
            t.get()
        });
        dom::set_record("framePaintMs", so_far);
        let c = coarse.max(1) as f64;
        with_entry(self.id, |e| {
            e.cost_ms = ms * c * c;
            e.coarse = coarse > 1;
            e.dirty = coarse > 1;
            e.full = false;
        });
        if coarse > 1 {
            request_idle();
        }
        publish_pending();
    }

    /// As [`Slot::painted`], for a paint drawn from quick data: the estimate of a full paint
    /// does not fall (data that is cheap only when drawn quick would otherwise make the next
    /// move paint in full, and miss its frame).
    /// It is refined once the controls rest, whatever the raster's coarseness was.
    pub fn painted_quick(&self, coarse: usize, ms: f64) {
        let before = with_entry(self.id, |e| e.cost_ms).unwrap_or(0.0);
        self.painted(coarse, ms);
        with_entry(self.id, |e| {
            e.cost_ms = e.cost_ms.max(before);
            e.coarse = true;
            e.dirty = true;
        });
        request_idle();
        publish_pending();
    }

    /// Whether the chart is in the viewport.
    pub fn on_screen(&self) -> bool {
        with_entry(self.id, |e| e.on_screen).unwrap_or(false)
    }

    /// The chart scrolled into or out of the viewport.
    pub fn set_on_screen(&self, on_screen: bool) {
        let dirty = with_entry(self.id, |e| {
            e.on_screen = on_screen;
            e.dirty
        });
        if on_screen && dirty == Some(true) {
            queue_frame(self.id);
        }
    }
}

fn with_entry<R>(id: u32, f: impl FnOnce(&mut Entry) -> R) -> Option<R> {
    ENTRIES.with_borrow_mut(|e| e.iter_mut().find(|x| x.id == id).map(f))
}

/// Gives a chart its turn. The paint runs in the effect, in a microtask after the caller.
fn give_turn(id: u32) {
    let turn = with_entry(id, |e| {
        e.queued = false;
        e.turn
    });
    if let Some(turn) = turn {
        turn.try_update(|t| *t = t.wrapping_add(1));
    }
}

fn queue_frame(id: u32) {
    with_entry(id, |e| e.queued = true);
    if IN_FRAME.with(Cell::get) {
        // Made dirty by an input this frame applied: it paints in this frame.
        give_turns_later();
        return;
    }
    request_frame();
}

fn request_frame() {
    if FRAME_REQUESTED.with(|r| r.replace(true)) {
        return;
    }
    request_animation_frame(frame);
}

/// Applies a slider's new value at the start of the next animation frame, in place of one of
/// the same control still waiting (`control` tells them apart). The input handler then changes
/// nothing on the page: the browser's own handling of the drag (a hit test) does not lay the
/// page out again for the text the new value changes, every change is laid out once, in the
/// frame that paints it, and inputs that arrive faster than frames cost one update each frame.
pub fn apply_in_frame(control: u32, apply: impl FnOnce() + 'static) {
    install_flush();
    LAST_CHANGE.with(|t| t.set(dom::now_ms()));
    INPUTS.with_borrow_mut(
        |inputs| match inputs.iter_mut().find(|(c, _)| *c == control) {
            Some(waiting) => waiting.1 = Box::new(apply),
            None => inputs.push((control, Box::new(apply))),
        },
    );
    publish_pending();
    request_frame();
}

/// Applies the slider values still waiting for a frame, now. Whether there were any (their
/// effects run in the microtasks after the caller).
pub fn flush_inputs() -> bool {
    let inputs = INPUTS.with_borrow_mut(std::mem::take);
    let any = !inputs.is_empty();
    for (_, apply) in inputs {
        apply();
    }
    if any {
        publish_pending();
        APPLIED.with(|a| a.set(true));
        after_effects(Box::new(|| APPLIED.with(|a| a.set(false))));
    }
    any
}

/// Any click, key or committed change applies waiting slider values first: what it does (an
/// export, a copy, a reset) sees the values the sliders show.
fn install_flush() {
    thread_local! {
        static INSTALLED: Cell<bool> = const { Cell::new(false) };
    }
    if INSTALLED.with(|i| i.replace(true)) {
        return;
    }
    let Some(w) = dom::window() else { return };
    let flush = Closure::<dyn Fn()>::new(|| {
        flush_inputs();
    });
    for event in ["click", "keydown", "change"] {
        let _ = w.add_event_listener_with_callback_and_bool(
            event,
            flush.as_ref().unchecked_ref(),
            true,
        );
    }
    // Listens for the page's life.
    flush.forget();
}

/// Runs `f` after the effects already queued: the executor runs its tasks in the order they
/// were queued, all within the current microtasks. (One future type for every use.)
fn after_effects(f: Box<dyn FnOnce()>) {
    leptos::task::spawn_local(async move { f() });
}

fn count_frame(applied: u32, needed: u32) {
    let (a, n) = FRAME_COUNTS.with(Cell::get);
    let (a, n) = (a + applied, n + needed);
    FRAME_COUNTS.with(|c| c.set((a, n)));
    dom::set_record("appliedFrames", f64::from(a));
    dom::set_record("neededFrames", f64::from(n));
}

/// A new key for [`apply_in_frame`].
pub fn control_key() -> u32 {
    NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    })
}

/// Gives queued charts their turn once the effects already queued (those the applied inputs
/// woke, which mark charts dirty) have run: tasks of the executor run in the order queued.
fn give_turns_later() {
    if TURNS_QUEUED.with(|q| q.replace(true)) {
        return;
    }
    after_effects(Box::new(|| {
        TURNS_QUEUED.with(|q| q.set(false));
        give_queued_turns();
    }));
}

fn give_queued_turns() {
    let queued: Vec<u32> = ENTRIES.with_borrow(|e| {
        e.iter()
            .filter(|x| x.queued && x.dirty)
            .map(|x| x.id)
            .collect()
    });
    if !queued.is_empty() && UNCOUNTED.with(|u| u.replace(false)) {
        count_frame(0, 1);
    }
    for id in queued {
        give_turn(id);
    }
}

/// The animation frame: waiting slider values are applied, then every queued chart (all on
/// screen) takes its turn; their effects paint in the microtasks that follow, before the
/// browser renders this frame.
fn frame() {
    FRAME_REQUESTED.with(|r| r.set(false));
    FRAME_PAINT_MS_SO_FAR.with(|t| t.set(0.0));
    let inputs = INPUTS.with_borrow_mut(std::mem::take);
    if inputs.is_empty() {
        give_queued_turns();
    } else {
        mark_moving();
        IN_FRAME.with(|f| f.set(true));
        UNCOUNTED.with(|u| u.set(true));
        count_frame(1, 0);
        for (_, apply) in inputs {
            apply();
        }
        publish_pending();
        give_turns_later();
        // This frame's microtasks are done before any task runs.
        set_timeout(
            || {
                IN_FRAME.with(|f| f.set(false));
                UNCOUNTED.with(|u| u.set(false));
            },
            std::time::Duration::ZERO,
        );
    }
    let waiting = AFTER_FRAME.with_borrow_mut(std::mem::take);
    if !waiting.is_empty() {
        // After the paints (microtasks) of this frame.
        set_timeout(
            move || {
                for f in waiting {
                    f();
                }
            },
            std::time::Duration::ZERO,
        );
    }
}

/// Whether an input changed a chart less than [`REST_MS`] ago.
pub(crate) fn moving() -> bool {
    dom::now_ms() - LAST_CHANGE.with(Cell::get) < REST_MS
}

/// Brings off-screen and coarse charts up to date, one per idle period, once the controls
/// rest.
fn request_idle() {
    if IDLE_REQUESTED.with(|r| r.replace(true)) {
        return;
    }
    let rested = dom::now_ms() - LAST_CHANGE.with(Cell::get);
    let wait = (REST_MS - rested).max(0.0);
    set_timeout(
        || {
            let Some(w) = dom::window() else { return };
            let cb = Closure::once_into_js(idle);
            if w.request_idle_callback(cb.unchecked_ref()).is_err() {
                idle();
            }
        },
        std::time::Duration::from_millis(wait.ceil() as u64),
    );
}

fn idle() {
    IDLE_REQUESTED.with(|r| r.set(false));
    if moving() {
        // An input arrived meanwhile: wait for the controls to rest again.
        request_idle();
        return;
    }
    // Coarse charts on screen first (they are in sight), then the others.
    let next = ENTRIES.with_borrow(|e| {
        e.iter()
            .find(|x| x.dirty && x.coarse && !x.queued)
            .or_else(|| e.iter().find(|x| x.dirty && !x.on_screen && !x.queued))
            .map(|x| x.id)
    });
    if let Some(id) = next {
        give_turn(id);
        // The next one in a later idle period (the paint runs in this one's microtasks).
        let more = ENTRIES.with_borrow(|e| e.iter().filter(|x| x.dirty && !x.queued).count() > 1);
        if more {
            request_idle();
        }
    }
}

/// A value that follows what `compute` reads, recomputed only once the controls rest: a table
/// of numbers rebuilt on every slider move would cost the charts their frame (hundreds of new
/// elements to lay out). The first value is computed at once; later ones lag an input by the
/// rest time, and `__peLab.pending` counts them until they are current.
pub fn at_rest<T>(compute: impl Fn() -> T + 'static) -> ReadSignal<T>
where
    T: PartialEq + Default + Send + Sync + 'static,
{
    let out = RwSignal::new(T::default());
    let slot = Slot::register();
    // The first run counts as the slot's turn.
    slot.used.set_value(u32::MAX);
    // Any change of the state makes it stale directly (see `ChartCanvas`): what `compute`
    // reads is not recomputed merely to find that out.
    let state = use_context::<AppCtx>().map(|c| c.state);
    Effect::new(move |_| {
        if !slot.granted() {
            slot.dirty();
            return;
        }
        if let Some(s) = state {
            s.track();
        }
        let next = compute();
        if out.with_untracked(|o| *o != next) {
            out.set(next);
        }
        slot.painted(1, 0.0);
    });
    out.read_only()
}

/// Runs `f` once the chart painted on `canvas` shows the current state in full: at once when
/// it does, otherwise after the frame in which it paints (an export of an off-screen chart, or
/// of one painted coarse during a drag).
pub fn when_current(canvas: &web_sys::HtmlCanvasElement, f: impl FnOnce() + 'static) {
    if flush_inputs() || APPLIED.with(Cell::get) {
        // Once the effects of the values just applied have marked their charts.
        let canvas = canvas.clone();
        after_effects(Box::new(move || when_current(&canvas, f)));
        return;
    }
    let id = canvas
        .get_attribute("data-chart")
        .and_then(|s| s.parse::<u32>().ok());
    // Dirty, or painted coarse: it paints again, in full, before `f` runs.
    let dirty = id.and_then(|id| {
        with_entry(id, |e| {
            e.full = e.dirty;
            e.dirty
        })
    }) == Some(true);
    match id {
        Some(id) if dirty => {
            AFTER_FRAME.with_borrow_mut(|w| w.push(Box::new(f)));
            queue_frame(id);
            // `f` runs after the next frame, which must come: within the frame that applied
            // a move (a click handled before its task ends), `queue_frame` paints the chart in
            // this frame and asks for none, and `f` waited for a frame nobody requested.
            request_frame();
        }
        _ => f(),
    }
}

/// Work other than charts that waits for the controls to rest counts as pending too.
pub fn other_pending(delta: i32) {
    OTHER_PENDING.with(|p| p.set(p.get().saturating_add_signed(delta)));
    publish_pending();
}

/// `window.__peLab.pending`: charts not yet showing the current state, plus other waiting
/// work. The end-to-end specs wait for 0 before comparing canvases or reading the URL.
fn publish_pending() {
    let charts = ENTRIES.with_borrow(|e| e.iter().filter(|x| x.dirty).count() as u32);
    let inputs = INPUTS.with_borrow(|i| i.len() as u32);
    dom::set_record(
        "pending",
        f64::from(charts + inputs + OTHER_PENDING.with(Cell::get)),
    );
}

/// Marks a panel `off-screen` while it is out of the viewport. While the controls move (the
/// page root has the class `moving`) the stylesheet skips the rendering of such panels
/// (`content-visibility: hidden`): a text or chart below the fold that follows the state would
/// otherwise be laid out, painted and composited again in every input frame (measured on the
/// Sinusoidal view: about 2 of a 13 ms frame). Once the controls rest they render again,
/// found by find-in-page and screen readers as before.
pub fn observe_panel(panel: &web_sys::Element) {
    let el = panel.clone();
    on_visibility(panel, None, move |on| {
        let _ = el.class_list().toggle_with_force("off-screen", !on);
    });
}

/// Puts the class `moving` on the page root until the controls rest (see [`observe_panel`]).
fn mark_moving() {
    thread_local! {
        static MARKED: Cell<bool> = const { Cell::new(false) };
    }
    fn root() -> Option<web_sys::Element> {
        dom::window()?.document()?.document_element()
    }
    fn unmark_at_rest() {
        let rested = dom::now_ms() - LAST_CHANGE.with(Cell::get);
        let wait = (REST_MS - rested).max(0.0);
        set_timeout(
            || {
                if moving() {
                    unmark_at_rest();
                } else if let Some(root) = root() {
                    let _ = root.class_list().remove_1("moving");
                    MARKED.with(|m| m.set(false));
                }
            },
            std::time::Duration::from_millis(wait.ceil() as u64),
        );
    }
    if MARKED.with(|m| m.replace(true)) {
        return;
    }
    if let Some(root) = root() {
        let _ = root.class_list().add_1("moving");
    }
    unmark_at_rest();
}

/// Tells `slot` when its chart enters or leaves the viewport; stops with the owner. No
/// margin: a chart just below the fold does not cost an input frame (it is current anyway once
/// the controls rest, and paints in the frame after it scrolls in).
pub fn observe_on_screen(element: &web_sys::Element, slot: Slot) {
    on_visibility(element, None, move |on| slot.set_on_screen(on));
}

/// Calls `f` with whether `element` is in the viewport (grown by `margin`, CSS such as
/// "200px") whenever that changes; stops with the owner. Without an observer: `f(true)`.
pub fn on_visibility(element: &web_sys::Element, margin: Option<&str>, f: impl Fn(bool) + 'static) {
    let f = std::rc::Rc::new(f);
    let g = f.clone();
    let callback = Closure::<dyn Fn(js_sys::Array)>::new(move |entries: js_sys::Array| {
        for entry in entries.iter() {
            if let Ok(entry) = entry.dyn_into::<web_sys::IntersectionObserverEntry>() {
                g(entry.is_intersecting());
            }
        }
    });
    let options = web_sys::IntersectionObserverInit::new();
    if let Some(margin) = margin {
        options.set_root_margin(margin);
    }
    let observer = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    );
    let Ok(observer) = observer else {
        f(true);
        return;
    };
    observer.observe(element);
    let kept = StoredValue::new_local((observer, callback));
    on_cleanup(move || {
        kept.try_with_value(|(observer, _)| observer.disconnect());
    });
}
