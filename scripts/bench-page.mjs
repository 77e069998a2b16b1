// What the benchmarks run in the page, shared by scripts/bench.mjs (Chromium, every measure) and
// scripts/bench-engines.mjs (slider latency in Chromium and Firefox side by side): the frame
// watcher that times an input to the first rendered frame showing its change.

/** In the page: canvas hashes after every rendered frame, and the input events as they arrive. */
export function instrument() {
  if (window.__bench) return;
  const shown = () => [...document.querySelectorAll('canvas')].filter((c) => {
    const r = c.getBoundingClientRect();
    return c.width > 0 && c.height > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  });
  const pixels = (c) => {
    const d = new Uint32Array(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.buffer);
    let h = 2166136261 ^ c.width ^ (c.height << 16);
    for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
    return h >>> 0;
  };
  // A canvas's pixels are read again only when something was drawn on it since they were
  // last read (every 2D call that writes pixels, and a new size, marks it): reading every
  // canvas after every frame cost the page 6–10 ms of its main thread per frame and tens of
  // MB of garbage per move, whose collections landed in later moves' frames. A canvas with
  // no such call cannot have changed; a call this list missed could only make a change be
  // seen later (a slower figure), never sooner.
  const touched = new WeakSet();
  const proto = CanvasRenderingContext2D.prototype;
  for (const m of ['fill', 'stroke', 'fillRect', 'strokeRect', 'clearRect', 'fillText', 'strokeText', 'putImageData', 'drawImage', 'reset']) {
    const f = proto[m];
    if (typeof f !== 'function') continue;
    proto[m] = function (...a) { touched.add(this.canvas); return f.apply(this, a); };
  }
  for (const p of ['width', 'height']) {
    const d = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, p);
    Object.defineProperty(HTMLCanvasElement.prototype, p, { ...d, set(v) { touched.add(this); d.set.call(this, v); } });
  }
  const hashes = new WeakMap();
  const canvasHash = (c) => {
    if (touched.has(c) || !hashes.has(c)) {
      touched.delete(c);
      hashes.set(c, pixels(c));
    }
    return hashes.get(c);
  };
  // The end of a rendered frame: a message posted from its animation-frame callback is handled
  // once the frame's rendering (style, layout, paint, commit) is done.
  const channel = new MessageChannel();
  let frameDone = null;
  channel.port1.onmessage = () => { const f = frameDone; frameDone = null; f?.(performance.now()); };
  // When the last watched frame's animation-frame callbacks began (ours is registered before the
  // app's, so it runs first): the start of the frame's work.
  let frameStart = 0;
  const afterFrame = () => new Promise((r) => requestAnimationFrame(() => { frameStart = performance.now(); frameDone = r; channel.port2.postMessage(0); }));
  const inputs = [];
  let onInput = null;
  // A drag's `input` is stamped when it is dispatched; the pointer event that caused it carries
  // the time the browser received the movement.
  let moved = -Infinity;
  addEventListener('pointermove', (e) => { moved = e.timeStamp; }, true);
  // What the control shows after each input (its number box, once the app has handled it):
  // a drag over a slider with few states (a fraction of 32 pairs) changes the state on fewer
  // inputs than it sends, and only those can change a chart.
  const shownValues = [];
  addEventListener('input', (e) => {
    const box = e.target.closest?.('.control')?.querySelector('.num');
    if (box) setTimeout(() => shownValues.push(box.value), 0);
  });
  // The app may apply a value at once, in the input's own task, when its page is quiet (rule 1
  // of src/scheduler.rs): its paints then run before the next frame begins. That work is the
  // app's too: from the dispatch to the end of the task (a message posted after its
  // microtasks), up to the frame's start, when the input's dispatch applied a frame's values.
  let applied0 = 0;
  let inputTask = null;
  const taskEnd = new MessageChannel();
  taskEnd.port1.onmessage = () => { if (inputTask && inputTask.end === null) inputTask.end = performance.now(); };
  addEventListener('input', (e) => {
    const stamp = e.timeStamp - moved < 100 ? Math.min(moved, e.timeStamp) : e.timeStamp;
    inputs.push(stamp);
    window.__benchDispatch = e.timeStamp;
    applied0 = window.__peLab?.appliedFrames ?? 0;
    inputTask = { start: performance.now(), end: null, atOnce: false };
    onInput?.(stamp);
    onInput = null;
  }, true);
  addEventListener('input', () => {
    if (!inputTask) return;
    inputTask.atOnce = (window.__peLab?.appliedFrames ?? 0) !== applied0;
    taskEnd.port2.postMessage(0);
  });
  const busy = () => (window.__peLab?.pending ?? 0) > 0;

  window.__bench = {
    /** Before one move: hash what is shown; the frames after the input are watched. With
     *  `probe` (a selector), what is watched is that element's shown value instead of the
     *  canvases: for a control that changes no chart, its own readout. */
    arm(probe) {
      const canvases = probe ? [probe] : shown();
      const hash = probe ? (sel) => { const e = document.querySelector(sel); return String(e?.value ?? e?.textContent); } : canvasHash;
      const base = canvases.map(hash);
      const reduced0 = window.__peLab?.coarsePaints ?? 0;
      this.result = new Promise((resolve) => {
        const timer = setTimeout(() => { onInput = null; resolve(null); }, 2000);
        onInput = async (stamp) => {
          clearTimeout(timer);
          const task = inputTask;
          const frames = [];
          let last = base;
          let lastChange = stamp;
          for (let k = 0; k < 150; k++) {
            const t = await afterFrame();
            const start = frameStart;
            const hs = canvases.map(hash);
            if (hs.some((h, i) => h !== last[i])) lastChange = t;
            // What the charts' paints took in this frame, and how many were reduced so far.
            frames.push({ t, start, hs, paintMs: window.__peLab?.framePaintMs, reduced: window.__peLab?.coarsePaints ?? 0 });
            last = hs;
            // (A probe's value is all that is watched: the charts' pending paints are not its.)
            if (t - stamp > 200 && t - lastChange > 150 && (probe || !busy())) break;
          }
          const final = last;
          const expected = base.map((h, i) => h !== final[i]);
          const at = (pred) => frames.find(pred)?.t;
          const firstFrame = frames.find((f) => f.hs.some((h, i) => h !== base[i]));
          const first = firstFrame?.t;
          const all = at((f) => f.hs.every((h, i) => !expected[i] || h !== base[i]));
          const settled = at((f) => f.t >= lastChange);
          resolve({
            next: frames[0].t - stamp,
            wait: window.__benchDispatch - stamp,
            trail: frames.slice(0, 3).map((f) => [Math.round(f.t - stamp), f.hs.map((h, i) => (h !== base[i] ? 1 : 0)).join('')]),
            first: first === undefined ? null : first - stamp,
            // From the start of the first frame after the input (its animation-frame callbacks)
            // to the end of the first frame showing the change, and how many frames that was
            // after the first: the app's part, without the wait for the display's next frame
            // (plus, for a value applied at once, the input task's own work before that frame).
            // With the work the input's own task did when the value was applied at once.
            fromFrame: first === undefined ? null : first - frames[0].start + (task?.atOnce ? Math.max(0, Math.min(task.end ?? frames[0].start, frames[0].start) - task.start) : 0),
            framesLate: firstFrame ? frames.indexOf(firstFrame) : null,
            all: first === undefined ? null : all - stamp,
            settled: first === undefined ? null : settled - stamp,
            // In the first frame showing the change: the charts' paints (ms), and how many
            // of them were reduced (coarse or quick, refined at rest).
            paintMs: firstFrame?.paintMs,
            reduced: firstFrame ? firstFrame.reduced - reduced0 : null,
          });
        };
      });
    },
    /** A continuous drag: every frame until `stop`, and whether the shown canvases changed. */
    armDrag() {
      const canvases = shown();
      let last = canvases.map(canvasHash);
      const n0 = inputs.length;
      const v0 = shownValues.length;
      const counts = () => [window.__peLab?.appliedFrames ?? 0, window.__peLab?.neededFrames ?? 0];
      const [applied0, needed0] = counts();
      const frames = [];
      let running = true;
      this.stopDrag = async () => {
        running = false;
        await done;
        const stamps = inputs.slice(n0);
        if (stamps.length === 0) return null;
        const [t0, t1] = [stamps[0], stamps[stamps.length - 1]];
        // Frames that could show a new input: from the first input to one frame after the last.
        const inDrag = frames.filter((f) => f.t > t0 && f.t <= t1 + 34);
        // Display refreshes in which a new input could have been shown (the app may drop frames:
        // count refreshes, not rendered frames).
        const slots = Math.max(1, Math.round((t1 + 1000 / 60 - t0) / (1000 / 60)));
        const changed = inDrag.filter((f) => f.changed).length;
        const values = shownValues.slice(v0);
        const moves = values.filter((v, i) => i > 0 && v !== values[i - 1]).length + 1;
        // A value that changes no visible chart (a fraction of 32 pairs that rounds to the same
        // count, a YaRN β between the same two dimensions) needs no new frame: the app counts
        // the frames that applied a value and those in which a chart on screen had to change.
        const [applied1, needed1] = counts();
        const needRate = applied1 > applied0 ? Math.min(1, (needed1 - needed0) / (applied1 - applied0)) : 1;
        const possible = Math.max(1, Math.round(Math.min(moves, slots) * needRate));
        return { inputs: stamps.length, moves, slots, needRate, frames: inDrag.length, changed, share: Math.min(1, changed / possible) };
      };
      const done = (async () => {
        while (running) {
          const t = await afterFrame();
          const hs = canvases.map(canvasHash);
          frames.push({ t, changed: hs.some((h, i) => h !== last[i]) });
          last = hs;
        }
      })();
    },
  };
}

export function quantile(xs, p) {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : null;
}

/** Spread over the range: the golden-ratio sequence visits every part with jumps of all sizes. */
export const spread = (k) => (0.5 + k * 0.6180339887) % 1;
