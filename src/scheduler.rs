//! When charts paint: the paint policy of every chart on the page, as a plain state machine.
//!
//! It holds no browser types and reads no clock: the driver (`ui::schedule`, browser only)
//! tells it what happened — an input arrived, an animation frame began, the browser is idle,
//! a chart changed, painted or scrolled — with the time, and does what it answers: apply
//! these values, give these charts their turn, ask for a frame or an idle period. Every rule
//! below is a native test in `tests/scheduler.rs`.
//!
//! 1. **A value is applied in the next frame, once, or at once on a quiet page.** A slider's
//!    value waits for the next animation frame; a newer value of the same control replaces it
//!    ([`Scheduler::input`], [`Scheduler::frame`]). When the last frame applied nothing and
//!    none is asked for (a key press, a click on the track, the first move of a drag), the
//!    value is applied at once ([`Input::AtOnce`]): its paints use the time before the next
//!    frame instead of that frame's. At most one value is applied so between two frames, and
//!    a frame that applies values asks for the next, so a stream of inputs is applied once a
//!    frame as before.
//! 2. **Only what is on screen costs an input's frame.** A chart whose inputs changed is
//!    marked dirty, not painted. Dirty charts on screen paint together in the next frame
//!    (in the frame that applied the input, once its effects have marked them:
//!    [`Scheduler::turns`]); dirty charts off screen paint when they scroll in, or one per
//!    idle period once the controls rest ([`Scheduler::idle`]).
//! 3. **A chart too slow for a frame paints quick while the controls move**, coarser or from
//!    fewer samples, predicted from what its last full paint cost ([`Scheduler::coarseness`],
//!    [`Scheduler::quick_for`]), and is painted again in full as soon as the drag pauses
//!    ([`SETTLE_MS`] without an input) while it is in view, once the controls rest otherwise. The charts that
//!    paint in one frame share its budget ([`FRAME_PAINT_MS`]) in equal parts: the costly
//!    ones paint quick when together they would not fit.
//! 4. **At rest every chart is full**: no quick paint is asked for, and every dirty or coarse
//!    chart gets a turn, so the page ends as a fresh load of the same state would draw it.
//! 5. **An export sees what the sliders show, in full**: waiting values are applied first
//!    ([`Export::Flush`]), and an export of a dirty or coarse chart waits until the frame in
//!    which it paints in full ([`Export::Wait`]).
//!
//! The driver must keep one ordering promise: the charts made dirty by the values a frame
//! applies call [`Scheduler::dirty`] before it calls [`Scheduler::turns`] (in the browser:
//! the effects those values wake run before a task queued after them), and
//! [`Scheduler::frame_done`] comes after the frame's paints (a task after its microtasks).

/// How long the controls must rest, in ms, before off-screen and coarse charts are brought up
/// to date.
pub const REST_MS: f64 = 150.0;

/// A pause in the inputs this long (ms) brings the charts in view that painted quick up to
/// full, one per idle period: the picture a student stops at is whole in a few frames, not
/// at rest. Everything else (charts out of sight, texts that follow the state) waits for
/// [`REST_MS`].
pub const SETTLE_MS: f64 = 25.0;

/// A chart whose full paint takes longer than this (ms) paints quick while a slider moves.
pub const QUICK_PAINT_MS: f64 = 6.0;

/// What the charts that paint in one frame may cost together while a slider moves (ms): the
/// rest of the frame is the browser's (style, layout, raster of the changed canvases).
pub const FRAME_PAINT_MS: f64 = 8.0;

/// The coarsest raster a quick paint draws: device pixels per image pixel.
pub const MAX_COARSENESS: usize = 4;

/// A chart in the schedule.
pub type ChartId = u32;

/// A control whose values wait for a frame (see [`Scheduler::input`]).
pub type ControlId = u32;

/// What the driver must ask the browser for after a transition: each is asked for once,
/// until it comes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[must_use]
pub struct Asks {
    /// An animation frame ([`Scheduler::frame`]).
    pub frame: bool,
    /// An idle period after this many ms ([`Scheduler::idle`]).
    pub idle_in: Option<f64>,
    /// A call of [`Scheduler::turns`] once the effects already queued have run.
    pub turns: bool,
}

/// What an input does ([`Scheduler::input`]).
#[derive(Debug, PartialEq)]
#[must_use]
pub enum Input {
    /// The page is quiet: apply the value now, by a call of [`Scheduler::frame`] at once.
    AtOnce,
    /// The value waits for the next frame: ask the browser for this.
    Wait(Asks),
}

impl Asks {
    /// Both asks.
    pub fn with(self, other: Asks) -> Asks {
        Asks {
            frame: self.frame || other.frame,
            idle_in: self.idle_in.or(other.idle_in),
            turns: self.turns || other.turns,
        }
    }
}

/// What an animation frame does ([`Scheduler::frame`]).
#[derive(Debug, PartialEq)]
pub struct Frame<T> {
    /// Values to apply now, the last of each control (with it), in the order the controls
    /// first moved. When there are any, the charts they change take their turn in
    /// [`Scheduler::turns`].
    pub apply: Vec<(ControlId, T)>,
    /// Charts to give their turn now.
    pub turns: Vec<ChartId>,
    /// Exports to run after this frame's paints.
    pub after_paints: Vec<T>,
    /// What to ask the browser for.
    pub asks: Asks,
}

/// What an export does ([`Scheduler::export`]).
#[derive(Debug, PartialEq)]
pub enum Export<T> {
    /// The chart is current: run it now.
    Now(T),
    /// Values are waiting or were just applied: apply [`Scheduler::flush_inputs`], then ask
    /// again once their effects have run.
    Flush(T),
    /// The chart paints in full in the next frame; the export comes back in that frame's
    /// [`Frame::after_paints`].
    Wait(Asks),
}

/// What an idle period does ([`Scheduler::idle`]).
#[derive(Debug, PartialEq)]
pub struct Idle {
    /// The chart to give its turn now.
    pub turn: Option<ChartId>,
    pub asks: Asks,
}

#[derive(Debug)]
struct Entry {
    id: ChartId,
    dirty: bool,
    on_screen: bool,
    /// Its last paint was quick: a full one follows once the controls rest.
    coarse: bool,
    /// What a full paint of it last cost (measured, or estimated from a coarse one), in ms.
    cost_ms: f64,
    /// Its next paint must be full (an export is waiting for it).
    full: bool,
    /// Its last full paint that told its work (see [`Scheduler::quick_for`]): work and cost.
    last_work: Option<(f64, f64)>,
    /// Queued for a turn in the next frame.
    queued: bool,
    /// What its next paint may cost while the controls move (ms): its share of the frame.
    allowance_ms: f64,
}

/// The schedule of every chart on the page. `T` is a value waiting to be applied or an
/// export waiting to run (in the browser, a closure).
#[derive(Debug)]
pub struct Scheduler<T> {
    entries: Vec<Entry>,
    next_id: u32,
    /// The last time an input arrived or a chart changed.
    last_change: f64,
    /// The last time an input arrived.
    last_input: f64,
    inputs: Vec<(ControlId, T)>,
    after_frame: Vec<T>,
    frame_asked: bool,
    /// When the idle period asked for is due (none asked: `None`).
    idle_at: Option<f64>,
    turns_asked: bool,
    /// The current frame applied values and their charts' turns are still to be given.
    in_frame: bool,
    /// Values were applied outside a frame ([`Scheduler::flush_inputs`]) and their effects
    /// have not run yet.
    flushed: bool,
    /// This frame applied values and has not yet counted whether a chart had to change.
    uncounted: bool,
    /// The last frame applied no value: an input may be applied at once.
    quiet: bool,
    applied_frames: u32,
    needed_frames: u32,
    /// Other work that waits for the controls to rest (a URL write, a chunk loading).
    other: u32,
    /// What the charts painted since the current frame began cost, in ms.
    frame_paint_ms: f64,
}

impl<T> Default for Scheduler<T> {
    fn default() -> Self {
        Scheduler {
            entries: Vec::new(),
            next_id: 1,
            last_change: f64::NEG_INFINITY,
            last_input: f64::NEG_INFINITY,
            inputs: Vec::new(),
            after_frame: Vec::new(),
            frame_asked: false,
            idle_at: None,
            turns_asked: false,
            in_frame: false,
            flushed: false,
            uncounted: false,
            quiet: true,
            applied_frames: 0,
            needed_frames: 0,
            other: 0,
            frame_paint_ms: 0.0,
        }
    }
}

impl<T> Scheduler<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// A new ID, for a chart or a control.
    pub fn next_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        id
    }

    /// A new chart: dirty (it has never painted) and off screen until told otherwise.
    pub fn register(&mut self) -> ChartId {
        let id = self.next_id();
        self.entries.push(Entry {
            id,
            dirty: true,
            on_screen: false,
            coarse: false,
            cost_ms: 0.0,
            full: false,
            last_work: None,
            queued: false,
            allowance_ms: QUICK_PAINT_MS,
        });
        id
    }

    /// The chart is gone.
    pub fn remove(&mut self, id: ChartId) {
        self.entries.retain(|e| e.id != id);
    }

    fn entry(&mut self, id: ChartId) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.id == id)
    }

    /// Whether an input arrived or a chart changed less than [`REST_MS`] before `now`.
    pub fn moving(&self, now: f64) -> bool {
        now - self.last_change < REST_MS
    }

    /// When the controls will have rested, from `now`: 0 when they have.
    pub fn rest_in(&self, now: f64) -> f64 {
        (REST_MS - (now - self.last_change)).max(0.0)
    }

    fn ask_frame(&mut self) -> Asks {
        Asks {
            frame: !std::mem::replace(&mut self.frame_asked, true),
            ..Asks::default()
        }
    }

    /// The chart in view that painted quick and waits for its full paint, if any.
    fn to_refine(&self) -> Option<ChartId> {
        self.entries
            .iter()
            .find(|e| e.dirty && e.coarse && e.on_screen && !e.queued)
            .map(|e| e.id)
    }

    /// Asks for an idle period when the next thing waiting for one is due, unless one is
    /// asked for already by then.
    fn ask_idle(&mut self, now: f64) -> Asks {
        let settled_in = (SETTLE_MS - (now - self.last_input)).max(0.0);
        let wait = if self.to_refine().is_some() {
            settled_in.min(self.rest_in(now))
        } else {
            self.rest_in(now)
        };
        if self.idle_at.is_some_and(|at| at <= now + wait) {
            return Asks::default();
        }
        self.idle_at = Some(now + wait);
        Asks {
            idle_in: Some(wait),
            ..Asks::default()
        }
    }

    fn ask_turns(&mut self) -> Asks {
        Asks {
            turns: !std::mem::replace(&mut self.turns_asked, true),
            ..Asks::default()
        }
    }

    /// Queues a chart for a turn: in this frame when the frame is applying values (its
    /// effects are running), otherwise in the next one.
    fn queue(&mut self, id: ChartId) -> Asks {
        if let Some(e) = self.entry(id) {
            e.queued = true;
        }
        if self.in_frame {
            self.ask_turns()
        } else {
            self.ask_frame()
        }
    }

    /// Something a chart draws changed at `now`: it asks for a turn, in the next frame when
    /// it is on screen, once the controls rest otherwise.
    pub fn dirty(&mut self, id: ChartId, now: f64) -> Asks {
        self.last_change = now;
        let Some(e) = self.entry(id) else {
            return Asks::default();
        };
        e.dirty = true;
        if e.on_screen {
            self.queue(id)
        } else {
            self.ask_idle(now)
        }
    }

    /// The chart scrolled into or out of the viewport: a dirty chart that scrolls in paints
    /// in the next frame.
    pub fn set_on_screen(&mut self, id: ChartId, on_screen: bool) -> Asks {
        let Some(e) = self.entry(id) else {
            return Asks::default();
        };
        e.on_screen = on_screen;
        if on_screen && e.dirty {
            self.queue(id)
        } else {
            Asks::default()
        }
    }

    /// The chart is current, but its last paint was made out of sight and so follows every
    /// change of the state, not only what it draws (see `ui::chart`): now in view, the first
    /// move of any slider would wake it and cost that move's frame a paint that changes
    /// nothing. It paints again once the controls rest, in an idle period (as a quick chart
    /// is refined), and from then on follows only what it reads. A dirty chart is left as it
    /// is: its turn is coming.
    pub fn recheck(&mut self, id: ChartId, now: f64) -> Asks {
        let Some(e) = self.entry(id) else {
            return Asks::default();
        };
        if e.dirty {
            return Asks::default();
        }
        e.dirty = true;
        e.coarse = true;
        self.ask_idle(now)
    }

    /// Whether the chart is in the viewport.
    pub fn on_screen(&self, id: ChartId) -> bool {
        self.entries.iter().any(|e| e.id == id && e.on_screen)
    }

    /// A control's new `value` at `now`: it waits for the next frame, in place of a value of
    /// the same control still waiting; or, on a quiet page (the last frame applied nothing,
    /// no frame is asked for, no frame's paints are running), it is applied at once: the
    /// answer is [`Input::AtOnce`].
    pub fn input(&mut self, control: ControlId, value: T, now: f64) -> Input {
        self.last_change = now;
        self.last_input = now;
        match self.inputs.iter_mut().find(|(c, _)| *c == control) {
            Some(waiting) => waiting.1 = value,
            None => self.inputs.push((control, value)),
        }
        if self.quiet && !self.frame_asked && !self.in_frame {
            self.quiet = false;
            return Input::AtOnce;
        }
        Input::Wait(self.ask_frame())
    }

    /// The values still waiting, to apply now (a click or key arrived: what it does sees the
    /// values the sliders show). [`Scheduler::effects_ran`] follows once their effects ran.
    pub fn flush_inputs(&mut self) -> Vec<(ControlId, T)> {
        let values = std::mem::take(&mut self.inputs);
        if !values.is_empty() {
            self.flushed = true;
        }
        values
    }

    /// The effects of values applied by [`Scheduler::flush_inputs`] have run.
    pub fn effects_ran(&mut self) {
        self.flushed = false;
    }

    /// An animation frame begins (or an input on a quiet page is applied at once).
    pub fn frame(&mut self) -> Frame<T> {
        self.frame_asked = false;
        let apply = std::mem::take(&mut self.inputs);
        let after_paints = std::mem::take(&mut self.after_frame);
        self.quiet = apply.is_empty();
        if apply.is_empty() {
            let turns = self.take_queued();
            // A frame with no work of its own presents the paints done before it (a value
            // applied at once): their cost stays this frame's.
            if !turns.is_empty() {
                self.frame_paint_ms = 0.0;
            }
            return Frame {
                apply,
                turns,
                after_paints,
                asks: Asks::default(),
            };
        }
        self.frame_paint_ms = 0.0;
        self.in_frame = true;
        self.uncounted = true;
        self.applied_frames += 1;
        let mut asks = self.ask_turns();
        // The next frame tells whether the inputs have stopped (it applies nothing).
        self.frame_asked = true;
        asks.frame = true;
        Frame {
            apply,
            turns: Vec::new(),
            after_paints,
            asks,
        }
    }

    /// The effects of the values this frame applied have run (and marked their charts dirty):
    /// the charts queued take their turn now.
    pub fn turns(&mut self) -> Vec<ChartId> {
        self.turns_asked = false;
        self.take_queued()
    }

    fn take_queued(&mut self) -> Vec<ChartId> {
        let turns: Vec<ChartId> = self
            .entries
            .iter_mut()
            .filter(|e| e.queued && e.dirty)
            .map(|e| {
                e.queued = false;
                e.id
            })
            .collect();
        if !turns.is_empty() && std::mem::replace(&mut self.uncounted, false) {
            self.needed_frames += 1;
        }
        self.allot(&turns);
        turns
    }

    /// Shares a frame's budget among the charts painting in it: each may spend an equal share,
    /// at most [`QUICK_PAINT_MS`] (a chart cheaper than its share paints in full).
    fn allot(&mut self, turns: &[ChartId]) {
        let allowance = (FRAME_PAINT_MS / turns.len().max(1) as f64).min(QUICK_PAINT_MS);
        for e in self.entries.iter_mut().filter(|e| turns.contains(&e.id)) {
            e.allowance_ms = allowance;
        }
    }

    /// The frame's paints are done: a chart made dirty from now on waits for the next frame.
    pub fn frame_done(&mut self) {
        self.in_frame = false;
        self.uncounted = false;
    }

    /// An idle period at `now`: once the controls rest, the next coarse chart (they are in
    /// sight) or dirty chart off screen takes its turn, one per idle period.
    pub fn idle(&mut self, now: f64) -> Idle {
        self.idle_at = None;
        let moving = self.moving(now);
        let next = if !moving {
            self.entries
                .iter()
                .find(|e| e.dirty && e.coarse && !e.queued)
                .or_else(|| {
                    self.entries
                        .iter()
                        .find(|e| e.dirty && !e.on_screen && !e.queued)
                })
                .map(|e| e.id)
        } else if now - self.last_input >= SETTLE_MS {
            // The drag paused: a quick chart in view is painted in full now.
            self.to_refine()
        } else {
            None
        };
        let Some(id) = next else {
            let asks = if moving {
                self.ask_idle(now)
            } else {
                Asks::default()
            };
            return Idle { turn: None, asks };
        };
        if let Some(e) = self.entry(id) {
            e.queued = false;
            e.allowance_ms = QUICK_PAINT_MS;
            // Full, though the controls have not rested yet.
            e.full |= moving;
        }
        let more = self.entries.iter().filter(|e| e.dirty && !e.queued).count() > 1;
        let asks = if more {
            self.ask_idle(now)
        } else {
            Asks::default()
        };
        Idle {
            turn: Some(id),
            asks,
        }
    }

    /// Device pixels per image pixel for the chart's paint at `now`: 1, or more while the
    /// controls move and a full paint would not fit in its share of the frame (its cost
    /// shrinks with the square of it).
    pub fn coarseness(&self, id: ChartId, now: f64) -> usize {
        if !self.moving(now) {
            return 1;
        }
        let Some(e) = self.entries.iter().find(|e| e.id == id) else {
            return 1;
        };
        if e.full || e.cost_ms <= e.allowance_ms {
            return 1;
        }
        ((e.cost_ms / e.allowance_ms).sqrt().ceil() as usize).clamp(1, MAX_COARSENESS)
    }

    /// Whether the chart's paint at `now`, whose full version does `work` (samples,
    /// rotations: any measure its cost grows in proportion to), should draw from quick data:
    /// the controls move and the full paint would not fit in its share of the frame, predicted
    /// from the last full paint's cost scaled by the work (a jump from a small value to a
    /// large one is known to be costly before it is paid), or from the last paint's cost when
    /// no work was told.
    pub fn quick_for(&self, id: ChartId, work: f64, now: f64) -> bool {
        if !self.moving(now) {
            return false;
        }
        let Some(e) = self.entries.iter().find(|e| e.id == id) else {
            return false;
        };
        if e.full {
            return false;
        }
        let predicted = match e.last_work {
            Some((w, ms)) if w > 0.0 => ms * work / w,
            _ => e.cost_ms,
        };
        predicted > e.allowance_ms
    }

    /// Whether the chart's paint at `now` is a full one: the controls rest, or this turn was
    /// given for a full paint (the drag paused, or an export waits for it).
    pub fn full_paint(&self, id: ChartId, now: f64) -> bool {
        !self.moving(now) || self.entries.iter().any(|e| e.id == id && e.full)
    }

    /// A full paint of the chart that did `work` (see [`Scheduler::quick_for`]) took `ms`.
    pub fn worked(&mut self, id: ChartId, work: f64, ms: f64) {
        if let Some(e) = self.entry(id) {
            e.last_work = Some((work, ms));
        }
    }

    /// The chart painted at `coarse` (see [`Scheduler::coarseness`]) in `ms`, at `now`. A
    /// coarse paint is followed by a full one once the controls rest.
    pub fn painted(&mut self, id: ChartId, coarse: usize, ms: f64, now: f64) -> Asks {
        self.frame_paint_ms += ms;
        let c = coarse.max(1) as f64;
        let Some(e) = self.entry(id) else {
            return Asks::default();
        };
        e.cost_ms = ms * c * c;
        e.coarse = coarse > 1;
        e.dirty = coarse > 1;
        e.full = false;
        if coarse > 1 {
            self.ask_idle(now)
        } else {
            Asks::default()
        }
    }

    /// As [`Scheduler::painted`], for a paint drawn from quick data (or showing unfinished
    /// work): it is painted again once the controls rest, and the estimate of a full paint
    /// does not fall (data that is cheap only when drawn quick would otherwise make the next
    /// move paint in full, and miss its frame).
    pub fn painted_quick(&mut self, id: ChartId, coarse: usize, ms: f64, now: f64) -> Asks {
        let before = self.entry(id).map_or(0.0, |e| e.cost_ms);
        let asks = self.painted(id, coarse, ms, now);
        if let Some(e) = self.entry(id) {
            e.cost_ms = e.cost_ms.max(before);
            e.coarse = true;
            e.dirty = true;
        }
        asks.with(self.ask_idle(now))
    }

    /// An export of the chart (`run`): now when it shows the current state in full,
    /// otherwise after the frame in which it paints in full.
    pub fn export(&mut self, id: ChartId, run: T) -> Export<T> {
        if !self.inputs.is_empty() || self.flushed {
            return Export::Flush(run);
        }
        let Some(e) = self.entry(id) else {
            return Export::Now(run);
        };
        e.full = e.dirty;
        if !e.dirty {
            return Export::Now(run);
        }
        self.after_frame.push(run);
        // A frame must come even when the chart is queued in this one (a click handled within
        // the frame that applied a move): the export waits for the frame after it.
        let asks = self.queue(id);
        Export::Wait(asks.with(self.ask_frame()))
    }

    /// Other work that waits for the controls to rest begins (`+1`) or ends (`-1`).
    pub fn other_pending(&mut self, delta: i32) {
        self.other = self.other.saturating_add_signed(delta);
    }

    /// Charts not yet showing the current state in full, values waiting and other waiting
    /// work (`__peLab.pending`: the end-to-end specs wait for 0).
    pub fn pending(&self) -> u32 {
        let charts = self.entries.iter().filter(|e| e.dirty).count() as u32;
        charts + self.inputs.len() as u32 + self.other
    }

    /// Frames that applied values, and those of them in which a chart on screen had to
    /// change (a value that changes no chart needs no paint).
    pub fn frame_counts(&self) -> (u32, u32) {
        (self.applied_frames, self.needed_frames)
    }

    /// What the charts painted since the current frame began cost, in ms (a refinement at
    /// rest, outside any frame, adds to it).
    pub fn frame_paint_ms(&self) -> f64 {
        self.frame_paint_ms
    }
}
