//! The rules of when charts paint (`src/scheduler.rs`), driven as the browser driver drives
//! them (`src/ui/schedule.rs`), with a fake clock.
use pe_lab::scheduler::*;

/// A page of charts driven as the browser driver drives the schedule, with a fake clock.
/// A chart's full paint costs `cost` ms; a paint at coarseness `c` costs `cost / c²`.
struct Page {
    s: Scheduler<&'static str>,
    now: f64,
    charts: Vec<(ChartId, f64)>,
    /// Every paint: the chart and its coarseness.
    paints: Vec<(ChartId, usize)>,
    /// The last idle period a paint asked for: in how many ms.
    idle_in: Option<f64>,
}

impl Page {
    fn new() -> Page {
        Page {
            s: Scheduler::new(),
            now: 1000.0,
            charts: Vec::new(),
            paints: Vec::new(),
            idle_in: None,
        }
    }

    /// A chart costing `cost` ms, on screen or not, painted once (a fresh load at rest).
    fn chart(&mut self, cost: f64, on_screen: bool) -> ChartId {
        let id = self.s.register();
        self.charts.push((id, cost));
        let _ = self.s.set_on_screen(id, on_screen);
        self.paint(id);
        id
    }

    fn paint(&mut self, id: ChartId) {
        let cost = self.charts.iter().find(|c| c.0 == id).unwrap().1;
        let coarse = self.s.coarseness(id, self.now);
        let ms = cost / (coarse * coarse) as f64;
        let asks = self.s.painted(id, coarse, ms, self.now);
        if asks.idle_in.is_some() {
            self.idle_in = asks.idle_in;
        }
        self.paints.push((id, coarse));
    }

    fn advance(&mut self, ms: f64) {
        self.now += ms;
    }

    /// An animation frame in which the values waiting are applied: each changes `changes`
    /// (their effects mark those charts dirty), then the charts given a turn paint; then the
    /// frame it asks for, in which no input came. Returns the charts painted and the exports
    /// run after the paints.
    fn frame(&mut self, changes: &[ChartId]) -> (Vec<ChartId>, Vec<&'static str>) {
        let f = self.s.frame();
        let mut turns = f.turns;
        if !f.apply.is_empty() {
            for &id in changes {
                let _ = self.s.dirty(id, self.now);
            }
            assert!(
                f.asks.turns,
                "a frame that applies values gives turns after effects"
            );
            turns.extend(self.s.turns());
        }
        for &id in &turns {
            self.paint(id);
        }
        self.s.frame_done();
        let mut after = f.after_paints;
        if f.asks.frame {
            // The frame after one that applied values (the inputs stopped: it applies none).
            let next = self.s.frame();
            assert!(next.apply.is_empty() && !next.asks.frame);
            for &id in &next.turns {
                self.paint(id);
            }
            turns.extend(next.turns);
            after.extend(next.after_paints);
        }
        (turns, after)
    }

    /// Idle periods until nothing is left to do; the charts they painted.
    fn rest(&mut self) -> Vec<ChartId> {
        self.advance(REST_MS);
        let mut painted = Vec::new();
        for _ in 0..100 {
            let idle = self.s.idle(self.now);
            match idle.turn {
                Some(id) => {
                    self.paint(id);
                    painted.push(id);
                }
                None => break,
            }
            self.advance(1.0);
        }
        painted
    }
}

#[test]
fn a_value_is_applied_in_the_next_frame_and_only_the_last_of_each_control() {
    let mut s: Scheduler<&str> = Scheduler::new();
    assert_eq!(
        s.input(1, "d_model=32", 0.0),
        Input::AtOnce,
        "on a quiet page a value is applied at once"
    );
    let f = s.frame();
    assert_eq!(f.apply, vec![(1, "d_model=32")]);
    assert!(
        f.asks.frame,
        "a frame that applies values asks for the next"
    );
    s.frame_done();
    assert_eq!(
        s.input(1, "d_model=64", 2.0),
        Input::Wait(Asks::default()),
        "a value before that frame waits for it (asked already: one frame is asked for)"
    );
    assert_eq!(s.input(1, "d_model=96", 4.0), Input::Wait(Asks::default()));
    let _ = s.input(2, "base=500", 5.0);
    assert_eq!(s.input(1, "d_model=128", 8.0), Input::Wait(Asks::default()));
    assert_eq!(s.pending(), 2, "each control's waiting value counts once");
    let f = s.frame();
    assert_eq!(f.apply, vec![(1, "d_model=128"), (2, "base=500")]);
    s.frame_done();
    // Inputs faster than frames: each frame applies the last value and asks for the next.
    assert_ne!(s.input(1, "d_model=160", 20.0), Input::AtOnce);
    assert_eq!(s.frame().apply, vec![(1, "d_model=160")]);
    s.frame_done();
    let again = s.frame();
    assert!(again.apply.is_empty(), "a value is applied once");
    assert!(
        !again.asks.frame,
        "a frame that applied nothing asks for none"
    );
    assert_eq!(s.frame_counts().0, 3);
    assert_eq!(
        s.input(1, "d_model=192", 40.0),
        Input::AtOnce,
        "after a frame that applied nothing, the page is quiet again"
    );
}

#[test]
fn the_frame_that_presents_paints_done_before_it_keeps_their_cost() {
    let mut s: Scheduler<&str> = Scheduler::new();
    let id = s.register();
    assert_eq!(s.input(1, "a", 0.0), Input::AtOnce);
    // Applied at once (before the next frame begins), and its chart painted then.
    assert_eq!(s.frame().apply.len(), 1);
    let _ = s.painted(id, 1, 6.0, 1.0);
    s.frame_done();
    // The browser's next frame has nothing of its own to do: it presents that paint.
    assert!(s.frame().apply.is_empty());
    assert_eq!(s.frame_paint_ms(), 6.0);
    // A frame that applies values starts its own count.
    let _ = s.input(1, "b", 20.0);
    assert_eq!(s.frame().apply.len(), 1);
    assert_eq!(s.frame_paint_ms(), 0.0);
}

#[test]
fn a_value_while_a_frames_paints_run_waits_for_a_frame() {
    let mut s: Scheduler<&str> = Scheduler::new();
    let _ = s.input(1, "a", 0.0);
    assert_eq!(s.frame().apply.len(), 1);
    // The next frame comes before the first one's paints are done (no `frame_done` yet).
    assert!(s.frame().apply.is_empty());
    let late = s.input(1, "b", 1.0);
    assert!(
        matches!(late, Input::Wait(Asks { frame: true, .. })),
        "a value while a frame's paints run waits for the next frame: {late:?}"
    );
    s.frame_done();
    assert_eq!(s.frame().apply, vec![(1, "b")]);
}

#[test]
fn a_chart_off_screen_is_not_painted_in_an_inputs_frame() {
    let mut page = Page::new();
    let seen = page.chart(2.0, true);
    let below = page.chart(2.0, false);
    page.advance(REST_MS);
    let _ = page.s.input(1, "v", page.now);
    let (painted, _) = page.frame(&[seen, below]);
    assert_eq!(painted, vec![seen]);
    assert_eq!(
        page.s.pending(),
        1,
        "the chart below the fold is stale, and counted"
    );
    assert_eq!(page.s.frame_counts(), (1, 1));
    // Not while the controls move…
    page.advance(REST_MS / 2.0);
    assert_eq!(page.s.idle(page.now).turn, None);
    // …but once they rest.
    assert_eq!(page.rest(), vec![below]);
    assert_eq!(page.s.pending(), 0);
}

#[test]
fn a_stale_chart_that_scrolls_in_paints_in_the_next_frame() {
    let mut page = Page::new();
    let below = page.chart(2.0, false);
    let _ = page.s.input(1, "v", page.now);
    let _ = page.frame(&[below]);
    let asks = page.s.set_on_screen(below, true);
    assert!(asks.frame);
    let (painted, _) = page.frame(&[]);
    assert_eq!(painted, vec![below]);
    assert_eq!(page.s.pending(), 0);
}

#[test]
fn a_value_that_changes_no_chart_needs_no_paint() {
    let mut page = Page::new();
    let _ = page.chart(2.0, true);
    let _ = page.s.input(1, "same count", page.now);
    let (painted, _) = page.frame(&[]);
    assert!(painted.is_empty());
    assert_eq!(page.s.frame_counts(), (1, 0));
}

#[test]
fn a_chart_too_slow_for_a_frame_paints_quick_while_moving_and_full_at_rest() {
    let mut page = Page::new();
    let slow = page.chart(20.0, true);
    let fast = page.chart(3.0, true);
    page.advance(REST_MS);
    let _ = page.s.input(1, "v", page.now);
    let (painted, _) = page.frame(&[slow, fast]);
    assert_eq!(painted, vec![slow, fast]);
    // 20 ms does not fit its share of the frame, 8 / 2 = 4 ms: ⌈√(20 / 4)⌉ = 3 device pixels
    // per image pixel.
    assert_eq!(page.paints[page.paints.len() - 2..], [(slow, 3), (fast, 1)]);
    assert_eq!(page.s.pending(), 1, "the coarse chart is not yet current");
    // Its estimate of a full paint stays 20 ms: the next move is coarse too.
    let _ = page.s.input(1, "w", page.now + 10.0);
    page.advance(10.0);
    let _ = page.frame(&[slow]);
    assert_eq!(page.paints.last(), Some(&(slow, 2)));
    assert_eq!(page.rest(), vec![slow], "refined once the controls rest");
    assert_eq!(page.paints.last(), Some(&(slow, 1)));
    assert_eq!(page.s.pending(), 0);
}

#[test]
fn a_quick_chart_in_view_is_full_once_the_drag_pauses_before_the_controls_rest() {
    let mut page = Page::new();
    let slow = page.chart(20.0, true);
    let hidden = page.chart(20.0, false);
    page.advance(REST_MS);
    let _ = page.s.input(1, "v", page.now);
    let _ = page.frame(&[slow, hidden]);
    // 20 ms in the frame's whole budget, 8 ms (the other chart is out of sight): coarse 2.
    assert_eq!(
        page.paints.last(),
        Some(&(slow, 2)),
        "quick while the slider moves"
    );
    // An idle period before the pause: nothing yet, and the next one is asked for when the
    // pause would be long enough.
    page.advance(SETTLE_MS / 2.0);
    let idle = page.s.idle(page.now);
    assert_eq!(idle.turn, None);
    assert_eq!(idle.asks.idle_in, Some(SETTLE_MS / 2.0));
    page.advance(SETTLE_MS / 2.0);
    let idle = page.s.idle(page.now);
    assert_eq!(
        idle.turn,
        Some(slow),
        "the drag paused: the chart in view is refined"
    );
    assert!(page.s.full_paint(slow, page.now), "its paint is a full one");
    assert!(!page.s.full_paint(hidden, page.now));
    page.paint(slow);
    assert!(
        !page.s.full_paint(slow, page.now),
        "the next paint while moving is not"
    );
    assert_eq!(
        page.paints.last(),
        Some(&(slow, 1)),
        "in full, though still moving"
    );
    assert!(page.s.moving(page.now));
    // The chart out of sight waits for the controls to rest.
    assert_eq!(page.s.idle(page.now).turn, None);
    assert_eq!(page.rest(), vec![hidden]);
    // A new move is quick again.
    let _ = page.s.input(1, "w", page.now);
    let _ = page.frame(&[slow]);
    assert_eq!(page.paints.last(), Some(&(slow, 2)));
}

#[test]
fn the_charts_of_one_frame_share_its_budget() {
    let mut page = Page::new();
    // Four charts on screen, each cheaper than a frame alone, together 11 ms.
    let costs = [3.6, 1.3, 3.4, 2.8];
    let ids: Vec<ChartId> = costs.iter().map(|&c| page.chart(c, true)).collect();
    page.advance(REST_MS);
    let _ = page.s.input(1, "max_dist", page.now);
    let (painted, _) = page.frame(&ids);
    assert_eq!(painted.len(), 4);
    let frame: Vec<(ChartId, usize)> = page.paints[page.paints.len() - 4..].to_vec();
    let coarse = |id: ChartId| frame.iter().find(|p| p.0 == id).unwrap().1;
    assert_eq!(coarse(ids[1]), 1, "the cheapest paints in full");
    for k in [0, 2, 3] {
        assert!(
            coarse(ids[k]) > 1,
            "chart {k} ({} ms) paints quick",
            costs[k]
        );
    }
    let spent: f64 = frame
        .iter()
        .map(|&(id, c)| costs[ids.iter().position(|x| *x == id).unwrap()] / (c * c) as f64)
        .sum();
    assert!(spent <= FRAME_PAINT_MS, "{spent} ms in the frame");
    // Alone, a 5 ms chart fits its frame.
    let mut alone = Page::new();
    let id = alone.chart(5.0, true);
    alone.advance(REST_MS);
    let _ = alone.s.input(1, "v", alone.now);
    let _ = alone.frame(&[id]);
    assert_eq!(alone.paints.last(), Some(&(id, 1)));
    // At rest all four are refined.
    assert_eq!(page.rest().len(), 3);
    assert_eq!(page.s.pending(), 0);
}

#[test]
fn quick_data_is_predicted_from_the_work_asked_for() {
    let mut s: Scheduler<()> = Scheduler::new();
    let id = s.register();
    s.worked(id, 1000.0, 2.0);
    let _ = s.painted(id, 1, 2.0, 0.0);
    let _ = s.dirty(id, 500.0);
    assert!(!s.quick_for(id, 2000.0, 510.0), "4 ms fits a frame");
    assert!(
        s.quick_for(id, 10_000.0, 510.0),
        "20 ms is known not to, before it is paid"
    );
    // A quick paint is cheap, but the estimate of a full one does not fall with it.
    let _ = s.painted_quick(id, 1, 0.5, 510.0);
    assert!(s.quick_for(id, 10_000.0, 520.0));
    assert_eq!(s.pending(), 1, "a quick paint is refined at rest");
    assert!(!s.quick_for(id, 10_000.0, 510.0 + REST_MS), "never at rest");
    assert_eq!(s.coarseness(id, 510.0 + REST_MS), 1);
}

#[test]
fn at_rest_every_chart_is_full_as_a_fresh_load_draws_it() {
    let mut page = Page::new();
    let costs = [1.0, 9.0, 40.0, 200.0, 3.0, 70.0];
    let ids: Vec<ChartId> = costs
        .iter()
        .enumerate()
        .map(|(i, &c)| page.chart(c, i % 2 == 0))
        .collect();
    for step in 0..20 {
        let _ = page.s.input(step % 3, "v", page.now);
        let changed: Vec<ChartId> = ids
            .iter()
            .copied()
            .filter(|id| id % 3 != step % 2)
            .collect();
        let _ = page.frame(&changed);
        page.advance(16.0);
        let _ = page.s.idle(page.now);
    }
    let _ = page.rest();
    assert_eq!(page.s.pending(), 0);
    // Each chart's last paint was full, and nothing asks for a quick one.
    for &id in &ids {
        let last = page.paints.iter().rev().find(|p| p.0 == id).unwrap();
        assert_eq!(last.1, 1, "chart {id}'s last paint is full");
        assert_eq!(page.s.coarseness(id, page.now), 1);
        assert!(!page.s.quick_for(id, 1e12, page.now));
    }
}

#[test]
fn an_export_of_a_stale_chart_waits_for_its_full_paint() {
    let mut page = Page::new();
    let slow = page.chart(40.0, true);
    let below = page.chart(2.0, false);
    let _ = page.s.input(1, "v", page.now);
    let _ = page.frame(&[slow, below]);
    assert_eq!(page.paints.last(), Some(&(slow, 3)), "coarse while moving");
    // Still moving: both exports wait for a frame, in which each paints in full.
    for (id, name) in [(slow, "slow.png"), (below, "below.svg")] {
        match page.s.export(id, name) {
            Export::Wait(asks) => assert!(asks.frame),
            other => panic!("{other:?}"),
        }
        let (painted, after) = page.frame(&[]);
        assert_eq!(painted, vec![id]);
        assert_eq!(page.paints.last(), Some(&(id, 1)));
        assert_eq!(after, vec![name], "the export runs after the paint");
    }
    assert_eq!(page.s.export(slow, "again.png"), Export::Now("again.png"));
}

#[test]
fn an_export_sees_the_values_the_sliders_show() {
    let mut s: Scheduler<&str> = Scheduler::new();
    let id = s.register();
    let _ = s.painted(id, 1, 1.0, 0.0);
    let _ = s.input(1, "v", 10.0);
    assert_eq!(s.export(id, "x.csv"), Export::Flush("x.csv"));
    assert_eq!(s.flush_inputs(), vec![(1, "v")]);
    assert_eq!(
        s.export(id, "x.csv"),
        Export::Flush("x.csv"),
        "until their effects ran"
    );
    s.effects_ran();
    assert_eq!(s.export(id, "x.csv"), Export::Now("x.csv"));
}

#[test]
fn an_export_in_the_frame_that_applied_a_move_still_gets_a_frame() {
    let mut page = Page::new();
    let seen = page.chart(2.0, true);
    let _ = page.s.input(1, "v", page.now);
    let f = page.s.frame();
    assert_eq!(f.apply.len(), 1);
    let _ = page.s.dirty(seen, page.now);
    // A click handled before the frame's task ends.
    match page.s.export(seen, "now.png") {
        Export::Wait(asks) => assert!(
            asks.frame || f.asks.frame,
            "a frame must come for the export"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(page.s.turns(), vec![seen]);
    page.paint(seen);
    page.s.frame_done();
    assert_eq!(page.frame(&[]).1, vec!["now.png"]);
}

#[test]
fn a_current_chart_painted_out_of_sight_is_painted_again_at_rest_once_in_view() {
    // Painted below the fold, a chart follows every change of the state; scrolled into view
    // it is rechecked: no paint in a frame, one in an idle period once the controls rest.
    let mut page = Page::new();
    let below = page.chart(15.0, false);
    let asks = page.s.set_on_screen(below, true);
    assert!(
        !asks.frame,
        "a current chart does not paint as it scrolls in"
    );
    let asks = page.s.recheck(below, page.now);
    assert!(!asks.frame && asks.idle_in.is_some());
    assert_eq!(page.s.pending(), 1);
    assert_eq!(page.rest(), vec![below]);
    assert_eq!(page.s.pending(), 0);
    assert_eq!(page.paints.last(), Some(&(below, 1)), "in full");
    // A dirty chart is left to its turn.
    let _ = page.s.input(1, "v", page.now);
    let _ = page.s.frame();
    let _ = page.s.dirty(below, page.now);
    assert!(page.s.recheck(below, page.now) == Asks::default());
}
