//! The browser driver of the paint schedule ([`crate::scheduler`], where every rule of when a
//! chart paints is stated and tested). This module has no policy of its own: it tells the
//! [`Scheduler`] what happened (an input, an animation frame, an idle period, a chart that
//! changed, painted or scrolled) with `performance.now()`, and does what it answers — applies
//! values, gives charts their turn, asks the browser for frames and idle callbacks — and
//! publishes its counts on `window.__peLab`.
//!
//! A chart holds a [`Slot`]. Its paint effect reads [`Slot::granted`] first: `false` means the
//! effect woke because an input changed, and it calls [`Slot::dirty`] and returns (reading
//! nothing else, so later changes do not wake it again); `true` means this is its turn, and it
//! paints (reading, and so tracking, everything the paint needs).
//!
//! Ordering the scheduler relies on (see its module documentation):
//! - the values a frame applies wake their charts' effects, which the reactive executor runs
//!   in the order they were queued, within the microtasks after the frame callback; a task
//!   spawned after applying them ([`after_effects`]) therefore runs once they all have, and
//!   gives the turns ([`Scheduler::turns`]);
//! - a `setTimeout(0)` runs after all of the frame's microtasks (its paints): the frame is
//!   then done ([`Scheduler::frame_done`]) and waiting exports run.

use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::context::AppCtx;
use super::dom;
use crate::scheduler::{Asks, ChartId, Export, Input, Scheduler};

/// Work handed to the scheduler to run later: a control's value to apply, or an export.
type Task = Box<dyn FnOnce()>;

thread_local! {
    static SCHEDULE: RefCell<Scheduler<Task>> = RefCell::new(Scheduler::new());
    /// Each chart's turn signal, which its paint effect tracks.
    static TURNS: RefCell<Vec<(ChartId, RwSignal<u32>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs one transition of the schedule (never re-entered: what it returns is done after).
fn schedule<R>(f: impl FnOnce(&mut Scheduler<Task>) -> R) -> R {
    SCHEDULE.with_borrow_mut(f)
}

/// One chart's place in the schedule.
#[derive(Clone, Copy)]
pub struct Slot {
    id: ChartId,
    /// Bumped to give the chart its turn; its paint effect tracks it.
    turn: RwSignal<u32>,
    /// The last turn the paint effect used.
    used: StoredValue<u32>,
    /// Whether the chart is in the viewport, as its observer last told.
    in_viewport: StoredValue<bool>,
    /// Whether its last paint, made out of sight, follows every change of the state
    /// ([`Slot::painted_out_of_sight`]).
    follows_state: StoredValue<bool>,
}

impl Slot {
    /// A new slot, dirty until its first turn. Removed from the schedule with its owner.
    pub fn register() -> Slot {
        Slot::new(0)
    }

    /// As [`Slot::register`], for a paint effect whose first run is its turn (a value
    /// computed at once on creation): its first turn is given with it.
    pub fn register_at_turn() -> Slot {
        Slot::new(1)
    }

    fn new(turn: u32) -> Slot {
        let id = schedule(|s| s.register());
        let turn = RwSignal::new(turn);
        TURNS.with_borrow_mut(|t| t.push((id, turn)));
        on_cleanup(move || {
            schedule(|s| s.remove(id));
            TURNS.with_borrow_mut(|t| t.retain(|(x, _)| *x != id));
            publish_counts();
        });
        publish_counts();
        Slot {
            id,
            turn,
            used: StoredValue::new(0),
            in_viewport: StoredValue::new(false),
            follows_state: StoredValue::new(false),
        }
    }

    /// The chart's ID in the schedule.
    pub fn id(&self) -> ChartId {
        self.id
    }

    /// Whether this run of the paint effect is the chart's turn (tracks the turn).
    pub fn granted(&self) -> bool {
        let turn = self.turn.get();
        if self.used.get_value() == turn {
            return false;
        }
        self.used.set_value(turn);
        true
    }

    /// Something the chart draws changed: it asks for a turn.
    pub fn dirty(&self) {
        let asks = schedule(|s| s.dirty(self.id, dom::now_ms()));
        ask(asks);
        publish_counts();
    }

    /// Device pixels per image pixel for this turn's paint ([`Scheduler::coarseness`]).
    pub fn coarseness(&self) -> usize {
        schedule(|s| s.coarseness(self.id, dom::now_ms()))
    }

    /// Whether this turn's paint, whose full version does `work`, draws from quick data
    /// ([`Scheduler::quick_for`]).
    pub fn quick_for(&self, work: f64) -> bool {
        schedule(|s| s.quick_for(self.id, work, dom::now_ms()))
    }

    /// Whether this turn's paint is a full one ([`Scheduler::full_paint`]).
    pub fn full_paint(&self) -> bool {
        schedule(|s| s.full_paint(self.id, dom::now_ms()))
    }

    /// A full paint that did `work` took `ms` ([`Scheduler::worked`]).
    pub fn worked(&self, work: f64, ms: f64) {
        schedule(|s| s.worked(self.id, work, ms));
    }

    /// The chart painted at `coarse` in `ms` ([`Scheduler::painted`]).
    pub fn painted(&self, coarse: usize, ms: f64) {
        let asks = schedule(|s| s.painted(self.id, coarse, ms, dom::now_ms()));
        ask(asks);
        publish_counts();
    }

    /// As [`Slot::painted`], for a paint from quick data ([`Scheduler::painted_quick`]).
    pub fn painted_quick(&self, coarse: usize, ms: f64) {
        let asks = schedule(|s| s.painted_quick(self.id, coarse, ms, dom::now_ms()));
        ask(asks);
        publish_counts();
    }

    /// Whether the chart is in the viewport.
    pub fn on_screen(&self) -> bool {
        schedule(|s| s.on_screen(self.id))
    }

    /// Before a changed chart asks for its turn: whether it is seen, now. In the viewport but
    /// all under a control bar stuck at its top counts as out of sight (not painted in a
    /// slider's frame); the viewport observer cannot tell, as the bar moves with the page.
    pub fn check_seen(&self, canvas: &web_sys::Element) {
        let on = self.in_viewport.get_value() && !super::canvas::under_bar(canvas, false);
        if on != self.on_screen() {
            self.set_on_screen(on);
        }
    }

    /// The chart scrolled into or out of the viewport. A chart whose last paint follows the
    /// whole state is painted again once the controls rest ([`Scheduler::recheck`]): in view,
    /// it should wake only for what it draws.
    pub fn set_on_screen(&self, on_screen: bool) {
        let mut asks = schedule(|s| s.set_on_screen(self.id, on_screen));
        if on_screen && self.follows_state.get_value() {
            asks = asks.with(schedule(|s| s.recheck(self.id, dom::now_ms())));
            publish_counts();
        }
        ask(asks);
    }

    /// Whether this paint, made out of sight, follows every change of the state (its paint
    /// effect tracks the whole state, not what it draws: see `ui::chart`).
    pub fn painted_out_of_sight(&self, follows_state: bool) {
        self.follows_state.set_value(follows_state);
    }
}

/// Gives charts their turn: their paint effects run in the microtasks after the caller.
fn give_turns(ids: &[ChartId]) {
    for id in ids {
        let turn = TURNS.with_borrow(|t| t.iter().find(|(x, _)| x == id).map(|(_, s)| *s));
        if let Some(turn) = turn {
            turn.try_update(|t| *t = t.wrapping_add(1));
        }
    }
}

/// Asks the browser for what the scheduler asked for.
fn ask(asks: Asks) {
    if asks.frame {
        request_animation_frame(frame);
    }
    if let Some(wait) = asks.idle_in {
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
    if asks.turns {
        after_effects(Box::new(|| {
            let turns = schedule(|s| s.turns());
            give_turns(&turns);
            publish_counts();
        }));
    }
}

/// The animation frame: the values waiting are applied (their charts take their turn once
/// their effects have run), or the charts queued take their turn now; the paints run in the
/// microtasks that follow, before the browser renders this frame.
fn frame() {
    let frame = schedule(|s| s.frame());
    if !frame.apply.is_empty() {
        mark_moving();
        for (_, apply) in frame.apply {
            apply();
        }
        // After this frame's microtasks (its paints).
        set_timeout(|| schedule(|s| s.frame_done()), std::time::Duration::ZERO);
    }
    give_turns(&frame.turns);
    // Asked after the values were applied: the turns come after the effects they woke.
    ask(frame.asks);
    if !frame.after_paints.is_empty() {
        let waiting = frame.after_paints;
        set_timeout(
            move || {
                for f in waiting {
                    f();
                }
            },
            std::time::Duration::ZERO,
        );
    }
    publish_counts();
}

/// An idle period: the scheduler may give one chart its turn.
fn idle() {
    let idle = schedule(|s| s.idle(dom::now_ms()));
    if let Some(id) = idle.turn {
        give_turns(&[id]);
    }
    ask(idle.asks);
}

/// Applies a slider's new value at the start of the next animation frame, in place of one of
/// the same control still waiting (`control` tells them apart). The input handler then changes
/// nothing on the page: the browser's own handling of the drag (a hit test) does not lay the
/// page out again for the text the new value changes, every change is laid out once, in the
/// frame that paints it, and inputs that arrive faster than frames cost one update each frame.
/// On a quiet page (the last frame applied nothing: a key press, a click on the track, a
/// drag's first move) the value is applied at once instead, in the microtask after the input's
/// task (so that inputs dispatched together in one task still apply once, the last value), and
/// its charts paint before the next frame begins: that frame has only to present them (rule 1
/// of [`crate::scheduler`]).
pub fn apply_in_frame(control: u32, apply: impl FnOnce() + 'static) {
    install_flush();
    match schedule(|s| s.input(control, Box::new(apply), dom::now_ms())) {
        Input::AtOnce => after_effects(Box::new(frame)),
        Input::Wait(asks) => ask(asks),
    }
    publish_counts();
}

/// Applies the slider values still waiting for a frame, now. Whether there were any (their
/// effects run in the microtasks after the caller).
pub fn flush_inputs() -> bool {
    let values = schedule(|s| s.flush_inputs());
    let any = !values.is_empty();
    for (_, apply) in values {
        apply();
    }
    if any {
        publish_counts();
        after_effects(Box::new(|| schedule(|s| s.effects_ran())));
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

/// A new key for [`apply_in_frame`].
pub fn control_key() -> u32 {
    schedule(|s| s.next_id())
}

/// Whether an input or a chart changed less than [`crate::scheduler::REST_MS`] ago.
pub(crate) fn moving() -> bool {
    schedule(|s| s.moving(dom::now_ms()))
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
    let slot = Slot::register_at_turn();
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
        super::context::publish(out, next);
        slot.painted(1, 0.0);
    });
    out.read_only()
}

/// Runs `f` once the chart of `slot` shows the current state in full: at once when it does,
/// otherwise after the frame in which it paints (an export of an off-screen chart, or of one
/// painted coarse during a drag). Values still waiting for a frame are applied first.
pub fn when_current(slot: ChartId, f: impl FnOnce() + 'static) {
    match schedule(|s| s.export(slot, Box::new(f))) {
        Export::Now(f) => f(),
        Export::Flush(f) => {
            flush_inputs();
            after_effects(Box::new(move || when_current(slot, f)));
        }
        Export::Wait(asks) => ask(asks),
    }
    publish_counts();
}

/// Work other than charts that waits for the controls to rest counts as pending too.
pub fn other_pending(delta: i32) {
    schedule(|s| s.other_pending(delta));
    publish_counts();
}

/// The schedule's counts on `window.__peLab`: `pending` (charts not yet showing the current
/// state, values and other work waiting: the end-to-end specs wait for 0 before comparing
/// canvases or reading the URL), `appliedFrames` and `neededFrames` (frames that applied
/// values, and those in which a chart on screen had to change), and `framePaintMs` (what the
/// charts painted since the last frame began cost: the benchmark's breakdown of a move).
fn publish_counts() {
    let (pending, (applied, needed), paint_ms) =
        schedule(|s| (s.pending(), s.frame_counts(), s.frame_paint_ms()));
    dom::set_record("pending", f64::from(pending));
    dom::set_record("appliedFrames", f64::from(applied));
    dom::set_record("neededFrames", f64::from(needed));
    dom::set_record("framePaintMs", paint_ms);
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
        let wait = schedule(|s| s.rest_in(dom::now_ms()));
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
    let canvas = element.clone();
    on_visibility(element, None, move |on| {
        slot.in_viewport.set_value(on);
        slot.set_on_screen(on && !super::canvas::under_bar(&canvas, true));
    });
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
    super::dom::keep_observer(
        observer,
        callback,
        web_sys::IntersectionObserver::disconnect,
    );
}
