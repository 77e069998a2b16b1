// PE Lab benchmark, in headless Chromium against the release build. Not a test: it reports
// numbers and flags budgets (PRODUCT.md §5).
//  1. The initial transfer (gzip) and first chart; each view loaded on demand; the lesson.
//  2. The headline: every slider of every view on the full page (1280 × 900), input → first
//     rendered frame that shows the change, at default and largest sizes, plus a continuous drag.
//  3. With --panels: each registered panel alone (embed), every slider on it moved between its
//     value and the next one.
// Views, panels and sliders are read from the app (`window.__peLab.views`, the page's range
// inputs): a new view is measured without an edit here.
//
//   node scripts/bench.mjs [--moves 30] [--view rope] [--size default|largest] [--slider ctl-seq_len] [--watch rope-decay]
//                          [--loads-only 1] [--skip-loads 1] [--panels 1] [--panel pe-heatmap]
//                          [--out bench-results/latest.json] [--debug 1]
//   --watch PANEL scrolls that panel's chart into view before each slider is measured;
//   --debug 1 prints every move (latency, the input's wait for the main thread, what the charts' paints
//     took in the first frame showing it: `__peLab.framePaintMs`, how many of them were reduced, the
//     first frames);
//   BENCH_TRACE=file.json writes a Chromium trace of the measured moves (one slider: use --slider);
//   BENCH_TRACE_CPU=1 adds V8's sampling profiler to it (a PE_LAB_PROFILE=1 build names the wasm functions),
//   BENCH_TRACE_CATEGORIES=a,b more trace categories (e.g. disabled-by-default-devtools.timeline.invalidationTracking).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, launch, openApp, revealAll, DIST } from '../e2e/support.mjs';
import { instrument, quantile, spread } from './bench-page.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const MOVES = Number(args.moves || 30);
const OUT = args.out || 'bench-results/latest.json';

const BUDGET = { default: { median: 8, p95: 16 }, max: { p95: 33 } };

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}

async function measure(page, moves, count) {
  return page.evaluate(async ([moves, count]) => {
    const out = [];
    for (let n = 0; n < count; n++) {
      const [selector, values] = moves[n % moves.length];
      const el = document.querySelector(selector);
      if (values === null) {
        // A button or a radio: one click is the move.
        const before = window.__peLab.paints;
        const t0 = performance.now();
        el.click();
        await new Promise((r) => setTimeout(r, 0));
        const painted = window.__peLab.paints > before ? window.__peLab.lastPaintMs - t0 : null;
        await new Promise((r) => requestAnimationFrame(() => r()));
        out.push({ painted, frame: performance.now() - t0 });
        await new Promise((r) => setTimeout(r, 30));
        continue;
      }
      // Each slider alternates between its two values, starting away from the initial one.
      window.__benchTurn = window.__benchTurn || {};
      const turn = (window.__benchTurn[selector] = (window.__benchTurn[selector] || 0) + 1);
      const value = values[turn % values.length];
      const before = window.__peLab.paints;
      const t0 = performance.now();
      el.value = String(value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      // Leptos runs effects in microtasks: by the next task every canvas has repainted.
      await new Promise((r) => setTimeout(r, 0));
      const painted = window.__peLab.paints > before ? window.__peLab.lastPaintMs - t0 : null;
      await new Promise((r) => requestAnimationFrame(() => r()));
      const frame = performance.now() - t0;
      out.push({ painted, frame });
      await new Promise((r) => setTimeout(r, 30));
    }
    return out;
  }, [moves, count]);
}

/** Gzip and raw size of the files behind a list of requested paths. */
function transferOf(log) {
  const files = [...new Set(log)].map((p) => (p === '/' ? 'index.html' : p.slice(1)));
  let gzip = 0;
  let raw = 0;
  const parts = [];
  for (const f of files) {
    const body = fs.readFileSync(path.join(DIST, f));
    const z = zlib.gzipSync(body, { level: 9 }).length;
    gzip += z;
    raw += body.length;
    parts.push(`${f} ${(z / 1024).toFixed(1)} KB`);
  }
  return { gzip, raw, parts, files: [...new Set(log)] };
}

const server = await startServer();
const browser = await launch();
const rows = [];
/** The registered views, as the app publishes them. */
let registered = [];

// Initial transfer: everything the default page loads, gzip-compressed as served.
{
  server.log.length = 0;
  const { page, context } = await openApp(browser, server.url);
  await page.waitForLoadState('networkidle');
  const firstPaint = await page.evaluate(() => window.__peLab.firstPaintMs);
  const initial = transferOf(server.log);
  rows.push({ kind: 'transfer', gzip_kb: initial.gzip / 1024, raw_kb: initial.raw / 1024, first_chart_ms: firstPaint, files: initial.parts });
  console.log(`initial transfer (/ until idle): ${initial.gzip} bytes gzip = ${(initial.gzip / 1024).toFixed(1)} KiB (budget 230 KB; ${(initial.raw / 1024).toFixed(1)} KiB raw) — ${initial.parts.join(', ')}`);
  console.log(`first chart painted ${firstPaint.toFixed(0)} ms after navigation (budget 1000 ms)`);
  const views = await page.evaluate(() => window.__peLab.views);
  registered = views;
  await context.close();

  // Each view loaded on demand: what it adds to the download, the first chart of a deep link,
  // and the time from a click in the navigation to its panels painted.
  console.log('\nview         on-demand gzip   deep link: first chart   nav click → panels shown (→ every chart painted)');
  for (const { name } of views) {
    if (args.view && args.view !== name) continue;
    if (args['skip-loads'] !== undefined) break;
    server.log.length = 0;
    const deep = await openApp(browser, `${server.url}?view=${name}`);
    await deep.page.waitForLoadState('networkidle');
    const deepMs = await deep.page.evaluate(() => window.__peLab.firstPaintMs);
    const extra = transferOf(server.log.filter((f) => !initial.files.includes(f)));
    await deep.context.close();

    const home = await openApp(browser, `${server.url}?view=${views.find((v) => v.name !== name).name}`);
    // Panels shown (sections in the page, the loading state gone) and every chart painted
    // (the learned view's charts also wait for its 384 KB table).
    const [navMs, paintedMs] = await home.page.evaluate(async (name) => {
      const button = [...document.querySelectorAll('nav button.nav-view')].find((b) => b.textContent === window.__peLab.views.find((v) => v.name === name).title);
      const view = window.__peLab.views.find((v) => v.name === name);
      const t0 = performance.now();
      button.click();
      let shown = NaN;
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now() - t0;
        if (Number.isNaN(shown) && view.panels.every((p) => document.querySelector(`[data-panel="${p.id}"]`)) && !document.querySelector('.view-loading')) shown = now;
        const charts = [...document.querySelectorAll('main canvas.chart')];
        if (!Number.isNaN(shown) && charts.every((c) => c.hasAttribute('data-plot'))) return [shown, now];
        if (now > 10000) return [shown, NaN];
      }
    }, name);
    await home.context.close();
    const ok = deepMs <= 1000 && navMs <= 300;
    rows.push({ kind: 'view-load', view: name, gzip_kb: extra.gzip / 1024, deep_link_first_chart_ms: deepMs, nav_to_panels_ms: navMs, nav_to_all_charts_ms: paintedMs, files: extra.parts, ok });
    console.log(`${name.padEnd(12)} ${(extra.gzip / 1024).toFixed(1).padStart(8)} KiB   ${deepMs.toFixed(0).padStart(10)} ms       ${navMs.toFixed(0).padStart(8)} ms (all charts ${paintedMs.toFixed(0)} ms)   ${ok ? 'ok' : 'MISS'}  ${extra.parts.length} files`);
  }
}

// The lesson: its frame, its file and its first step's view, all fetched when it opens.
if (args['skip-loads'] === undefined) {
  server.log.length = 0;
  const initialFiles = rows.find((r) => r.kind === 'transfer').files.map((f) => f.split(' ')[0]);
  const lesson = await openApp(browser, `${server.url}?lesson=seed&step=2`);
  await lesson.page.waitForLoadState('networkidle');
  const ms = await lesson.page.evaluate(() => window.__peLab.firstPaintMs);
  const extra = transferOf(server.log.filter((f) => !initialFiles.includes(f === '/' ? 'index.html' : f.slice(1))));
  await lesson.context.close();
  rows.push({ kind: 'lesson-load', gzip_kb: extra.gzip / 1024, first_chart_ms: ms, files: extra.parts });
  console.log(`lesson=seed&step=2: ${(extra.gzip / 1024).toFixed(1)} KiB on demand (${extra.parts.length} files), first chart ${ms.toFixed(0)} ms after navigation`);
}

// The Sinusoidal panels below the fold, fetched when scrolled near: what they add and how long
// from the scroll to every one of them painted.
if (args['skip-loads'] === undefined) {
  const { page, context } = await openApp(browser, server.url);
  await page.waitForLoadState('networkidle');
  server.log.length = 0;
  const ms = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('.panel-loading')?.scrollIntoView();
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const done = !document.querySelector('.panel-loading') && [...document.querySelectorAll('main canvas.chart')].filter((c) => c.getBoundingClientRect().top < innerHeight).every((c) => c.hasAttribute('data-plot'));
      if (done || performance.now() - t0 > 10000) return performance.now() - t0;
    }
  });
  const extra = transferOf(server.log);
  await context.close();
  rows.push({ kind: 'below-fold-load', gzip_kb: extra.gzip / 1024, scroll_to_panels_ms: ms, files: extra.parts });
  console.log(`sinusoidal below the fold: ${(extra.gzip / 1024).toFixed(1)} KiB on demand (${extra.parts.length} files), scroll → panels painted ${ms.toFixed(0)} ms`);
}

if (args['loads-only'] !== undefined) {
  await browser.close();
  await server.close();
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
  console.log(`\nwritten ${OUT}`);
  process.exit(0);
}
// ─── The headline: whole views, as the user sees them ─────────────────────────────────────────
// Every slider of every registered view, on the full page at 1280 × 900, at the view's default
// state and at its largest sizes. A move is a real (trusted, frame-aligned) mouse drag of the
// slider's thumb to a value spread over its range; its latency runs from the `input` event
// (frame-aligned: dispatched at the start of the frame that handles it) to the end of the first
// rendered frame whose visible canvases differ (a visible canvas drawn on is hashed after every
// frame), the issue's measure and the budgeted one; also from the pointer event's timestamp
// (when the browser received it: the wait for the frame included, up to a display refresh). Also reported: the frame in which every visible chart that the move changes
// has changed, and the frame after which nothing changes any more (refinement done). Then a
// continuous drag: 60 moves sent at 60 Hz without waiting for the page (Chromium coalesces them
// per frame, as it does a real mouse), and the share of frames in which the visible charts
// changed, out of the display refreshes in which the control's value had changed (a slider with
// few states, such as a fraction of 32 pairs, changes on fewer inputs than it receives), times
// the share of applied values that changed a chart on screen (the app counts both; a value that
// rounds to the same pair count, or a YaRN β between the same two dimensions, needs no new
// picture). (Chromium's Event Timing reports no entry for an `input` fired by a drag, so
// presentation times cannot be read that way.)
/** A view's largest state: every slider at its maximum (found on the page), except where a
 *  choice no slider reaches makes it larger (a random table of any size, every method, every
 *  model): those views say so here. */
const LARGEST = {
  sinusoidal: 'seq_len=8192&d_model=4096',
  rope: 'head_dim=512&max_dist=131072',
  scaling: 'method=none,linear,ntk,dynamic,yarn,longrope,llama3&factor=32&head_dim=512',
  learned: 'table=random&rows=2048&cols=768&seq_len=4096',
  bias: 'heads=128&seq_len=512&buckets=256&max_distance=4096',
  compare: 'k_max=511',
  precision: 'head_dim=512&pos=63095734&m=63095734&max_dist=4096',
  models: 'head_dim=256&theta=100000000&models=gpt-j-6b,gpt-neox-20b,llama-2-7b,mistral-7b-v0.3,llama-3.1-8b,qwen2.5-7b,gemma-3-4b,llama-4-scout',
};
/** Sliders whose charts are all below the fold on arrival: the user scrolls to one first (the
 *  sticky controls stay in sight), and so does the benchmark. Found on the page: each slider
 *  is moved once, and the charts that changed once the page is current are looked at. */
async function belowTheFold(page, sliders) {
  return page.evaluate(async (sliders) => {
    const settle = async () => {
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 300 && (window.__peLab?.pending ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    };
    const canvases = [...document.querySelectorAll('main canvas.chart')];
    const hash = (c) => {
      const d = new Uint32Array(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.buffer);
      let h = 2166136261 ^ c.width ^ (c.height << 16);
      for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 16777619);
      return h >>> 0;
    };
    const inView = (c) => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
    const out = {};
    await settle();
    for (const id of sliders) {
      const before = canvases.map(hash);
      const el = document.getElementById(id);
      const start = el.value;
      const [lo, hi] = [Number(el.min), Number(el.max)];
      el.value = String(Number(el.value) > (lo + hi) / 2 ? lo + 0.2 * (hi - lo) : lo + 0.8 * (hi - lo));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await settle();
      const changed = canvases.filter((c, i) => hash(c) !== before[i]);
      if (changed.length && !changed.some(inView)) out[id] = changed[0].closest('[data-panel]')?.dataset.panel;
      // Back to where it was: the next slider is probed in the state it is measured in (a
      // value of one can make another change nothing, as m clamps Precision's max_dist).
      el.value = start;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await settle();
    }
    return out;
  }, sliders);
}

/** The query of `url` with every slider on its page at its maximum. */
async function allAtMax(url) {
  const { page, context } = await openApp(browser, url);
  await page.waitForLoadState('networkidle');
  await revealAll(page);
  const query = await page.evaluate(async () => {
    for (const el of document.querySelectorAll('main input[type=range]')) {
      if (el.offsetParent === null || el.disabled) continue;
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    for (let i = 0; i < 300 && (window.__peLab?.pending ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    return location.search.slice(1);
  });
  await context.close();
  return query;
}
const FRAME_BUDGET = { default: 16, largest: 33 };
const DRAG_SHARE = 0.9;

const fmt = (x) => (x === null || x === undefined ? '   –  ' : x.toFixed(1).padStart(6));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


async function measureSlider(page, id, moves, probe) {
  const slider = page.locator(`#${id}`);
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  const x = (f) => box.x + 8 + f * (box.width - 16);
  await page.mouse.move(x(spread(0)), y);
  await page.mouse.down();
  await page.waitForTimeout(400);
  const samples = [];
  if (process.env.BENCH_TRACE) await page.context().browser().startTracing(page, {
    categories: ['devtools.timeline', 'blink', 'cc', 'v8', ...(process.env.BENCH_TRACE_CPU ? ['disabled-by-default-v8.cpu_profiler'] : []),
      ...(process.env.BENCH_TRACE_CATEGORIES || '').split(',').filter(Boolean)],
  });
  for (let k = 1; k <= moves; k++) {
    await page.evaluate((p) => window.__bench.arm(p), probe);
    await page.mouse.move(x(spread(k)), y);
    const r = await page.evaluate(() => window.__bench.result);
    if (r) samples.push(r);
  }
  if (process.env.BENCH_TRACE) fs.writeFileSync(process.env.BENCH_TRACE, await page.context().browser().stopTracing());
  // The continuous drag: 60 moves at 60 Hz across the middle of the range.
  await page.waitForTimeout(300);
  await page.evaluate(() => window.__bench.armDrag());
  const cdp = await page.context().newCDPSession(page);
  const sent = [];
  const start = Date.now();
  for (let k = 0; k < 60; k++) {
    await sleep(start + k * (1000 / 60) - Date.now());
    sent.push(cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: x(0.2 + (0.6 * k) / 59), y, button: 'left', buttons: 1 }));
  }
  await Promise.all(sent);
  await cdp.detach();
  await page.waitForTimeout(100);
  const drag = await page.evaluate(() => window.__bench.stopDrag());
  await page.mouse.up();
  await page.waitForTimeout(400);
  return { samples, drag };
}

console.log(`\nwhole view at 1280 × 900: slider input → end of the first frame showing the change (ms, ${MOVES} moves spread over each slider's range)`);
console.log('(↓: its chart is below the fold on arrival; scrolled into view first, as a user would)');
console.log('(from input: the `input` event → the end of the first frame showing the change, the budgeted figure;');
console.log(' from pointer: from the pointer event, with the wait for that frame; all, settled: from the pointer)');
console.log('view        size     slider             moved  input p50   p95 | ptr p50   p95 | all p95 | settled p95 | drag: frames updated | budget');
const summary = { default: [0, 0], largest: [0, 0], drag: [0, 0] };
for (const { name } of registered) {
  if (args.view && args.view !== name) continue;
  for (const size of ['default', 'largest']) {
    if (args.size && args.size !== size) continue;
    const base = `${server.url}?view=${name}`;
    const url = size === 'default' ? base : LARGEST[name] ? `${base}&${LARGEST[name]}` : `${server.url}?${await allAtMax(base)}`;
    // Each slider starts from the same state (a fresh page): the others at this size.
    const open = async () => {
      const opened = await openApp(browser, url);
      await opened.page.waitForLoadState('networkidle');
      // Panels fetched when scrolled near are fetched first: every panel is on the page, and
      // their sliders are measured.
      await revealAll(opened.page);
      await opened.page.evaluate(instrument);
      await opened.page.waitForTimeout(500);
      return opened;
    };
    let { page, context } = await open();
    const sliders = await page.$$eval('main input[type=range]', (els) => els.filter((e) => e.offsetParent !== null && !e.disabled).map((e) => e.id));
    const watch = args.watch ? Object.fromEntries(sliders.map((id) => [id, args.watch])) : await belowTheFold(page, sliders.filter((id) => !args.slider || `#${id}` === args.slider || id === args.slider));
    await context.close();
    ({ page, context } = await open());
    for (const id of sliders) {
      if (args.slider && `#${id}` !== args.slider && id !== args.slider) continue;
      if (page.url() !== url) {
        await context.close();
        ({ page, context } = await open());
      }
      const watched = watch[id];
      if (watched) {
        await page.evaluate((p) => document.querySelector(`[data-panel="${p}"] canvas`).scrollIntoView({ block: 'end' }), watched);
        await page.waitForTimeout(300);
      }
      const { samples, drag } = await measureSlider(page, id, MOVES);
      const visible = samples.filter((s) => s.first !== null);
      // A move that changes no visible chart is felt as the next frame (the slider itself).
      const felt = samples.map((s) => (s.first === null ? s.next : s.first));
      // The budget is the issue's measure: from the `input` event (dispatched at the start of
      // the frame that handles it: input is frame-aligned) to the end of that first frame. The
      // wait before it, from the pointer event to the frame's start (up to a display refresh,
      // 16.7 ms, whatever the page does), is shown beside it.
      const fromInput = samples.map((s, i) => felt[i] - Math.max(0, s.wait));
      const p95 = quantile(fromInput, 0.95);
      const ok = p95 !== null && p95 <= FRAME_BUDGET[size] && (drag === null || drag.share >= DRAG_SHARE || visible.length === 0);
      summary[size][0] += ok ? 1 : 0;
      summary[size][1] += 1;
      if (drag && visible.length) {
        summary.drag[0] += drag.share >= DRAG_SHARE ? 1 : 0;
        summary.drag[1] += 1;
      }
      const row = {
        kind: 'whole-view', view: name, size, slider: id, moves: samples.length, changed_visible: visible.length,
        input_p50: quantile(fromInput, 0.5), input_p95: p95, first_p50: quantile(felt, 0.5), first_p95: quantile(felt, 0.95), all_p95: quantile(visible.map((s) => s.all), 0.95),
        settled_p95: quantile(visible.map((s) => s.settled), 0.95), drag, ok,
      };
      rows.push(row);
      if (args.debug) console.log(JSON.stringify(drag), '\n' + samples.map((s) => `${Math.round(s.first)} ms (input waited ${s.wait.toFixed(1)}, charts painted ${s.paintMs?.toFixed(1)} ms in its frame, ${s.reduced} reduced) ${JSON.stringify(s.trail)}`).join('\n'));
      const dragText = drag && visible.length ? `${drag.changed}/${Math.max(1, Math.round(Math.min(drag.moves, drag.slots) * drag.needRate))} = ${(100 * drag.share).toFixed(0)}%` : 'n/a';
      console.log(
        `${name.padEnd(11)} ${size.padEnd(8)} ${(id.replace('ctl-', '') + (watched ? ' ↓' : '')).padEnd(18)} ${String(visible.length).padStart(2)}/${String(samples.length).padEnd(2)} ${fmt(row.input_p50)} ${fmt(p95)} | ${fmt(row.first_p50)} ${fmt(row.first_p95)} | ${fmt(row.all_p95)} | ${fmt(row.settled_p95)}      | ${dragText.padEnd(19)} | ${ok ? 'ok' : 'MISS'}`,
      );
    }
    await context.close();
  }
}
console.log(`\nwithin budget: default ${summary.default[0]}/${summary.default[1]} sliders (p95 ≤ 16 ms), largest ${summary.largest[0]}/${summary.largest[1]} (p95 ≤ 33 ms); drag ≥ 90% of frames: ${summary.drag[0]}/${summary.drag[1]}`);

// Train it yourself: the default run (the view as it opens, all six encodings), its wall time
// (budget 60 s) and training steps per second per encoding; and every slider of the page
// measured as above while that run goes.
if (!args.view || args.view === 'train') {
  const { page, context } = await openApp(browser, `${server.url}?view=train`);
  await page.evaluate(instrument);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'running');
  console.log('\nTrain it yourself, default run: sliders while it trains (ms, as above; a slider whose panel shows no chart, to the first frame showing its number box changed)');
  const during = [];
  for (const id of await page.$$eval('main input[type=range]', (els) => els.filter((e) => e.offsetParent !== null && !e.disabled).map((e) => e.id))) {
    const running = await page.evaluate(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'running');
    if (!running) break;
    // A slider whose panel shows no chart changes none (the setup acts when Run is pressed;
    // the maps are drawn once testing is over): what shows its move is its own number box.
    // Watching the canvases would time the run's next redraw instead.
    const chartless = await page.$eval(`#${id}`, (e) => !e.closest('[data-panel]')?.querySelector('canvas'));
    const probe = chartless ? `[data-control="${id.replace('ctl-', '')}"] input.num` : undefined;
    const { samples } = await measureSlider(page, id, 12, probe);
    const felt = samples.map((s) => (s.first === null ? s.next : s.first));
    const fromInput = samples.map((s, i) => felt[i] - Math.max(0, s.wait));
    const p95 = quantile(fromInput, 0.95);
    const ok = p95 !== null && p95 <= FRAME_BUDGET.default;
    during.push({ slider: id, input_p50: quantile(fromInput, 0.5), input_p95: p95, ok });
    console.log(`  ${id.replace('ctl-', '').padEnd(12)} input p50 ${fmt(quantile(fromInput, 0.5))} p95 ${fmt(p95)}  ${ok ? 'ok' : 'MISS'}`);
  }
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'done', null, { timeout: 600000 });
  const runMs = Number(await page.locator('[data-panel="train-setup"]').getAttribute('data-run-ms'));
  const rates = await page.locator('[data-panel="train-setup"]').getAttribute('data-run-rates');
  rows.push({ kind: 'train', run_ms: runMs, steps_per_s: rates, during, ok: runMs <= 60000 });
  console.log(`default run: ${(runMs / 1000).toFixed(1)} s (budget 60 s) ${runMs <= 60000 ? 'ok' : 'MISS'}; training steps per second: ${rates.replaceAll(',', ', ')}`);
  await context.close();
}

if (args.panels !== undefined) {
console.log(`\nslider → repainted canvas, ${MOVES} moves per row (ms; "frame" = to the next animation frame)`);
console.log('view        panel                    size     median   p95     max   | frame p95  budget');
for (const v of registered) {
  for (const { id: panel } of v.panels) {
    if (args.panel && args.panel !== panel) continue;
    if (args.view && args.view !== v.name) continue;
    for (const size of ['default', 'max']) {
      const query = size === 'default' ? '' : LARGEST[v.name] ? `&${LARGEST[v.name]}` : `&${(await allAtMax(`${server.url}?view=${v.name}`)).replace(/^view=[^&]*&?/, '')}`;
      const { page, context } = await openApp(browser, `${server.url}?view=${v.name}&embed=1&panel=${panel}${query}`);
      await page.waitForLoadState('networkidle');
      // Every slider of the panel, between its value and the next one down (up at its minimum).
      const moves = await page.$$eval('main input[type=range]', (els) => els.filter((e) => e.offsetParent !== null && !e.disabled).map((e) => {
        const [v, step, lo] = [Number(e.value), Number(e.step) || 1, Number(e.min)];
        return [`#${e.id}`, [v, v - step >= lo ? v - step : v + step]];
      }));
      if (moves.length === 0) { await context.close(); continue; }
      await measure(page, moves, 4); // warm-up
      const samples = await measure(page, moves, MOVES);
      await context.close();
      const missed = samples.filter((s) => s.painted === null).length;
      const painted = stats(samples.filter((s) => s.painted !== null).map((s) => s.painted));
      const frame = stats(samples.map((s) => s.frame));
      const b = BUDGET[size];
      const ok = painted.n > 0 && (b.median === undefined || painted.median <= b.median) && painted.p95 <= b.p95;
      rows.push({ kind: 'latency', view: v.name, panel, size, painted, frame, missed, ok });
      console.log(
        `${v.name.padEnd(11)} ${panel.padEnd(24)} ${size.padEnd(7)} ${(painted.median ?? NaN).toFixed(1).padStart(6)} ${(painted.p95 ?? NaN).toFixed(1).padStart(6)} ${(painted.max ?? NaN).toFixed(1).padStart(7)}  | ${frame.p95.toFixed(1).padStart(7)}    ${ok ? 'ok' : 'MISS'}${missed ? ` (${missed} moves changed nothing on it)` : ''}`,
      );
    }
  }
}

}
await browser.close();
await server.close();
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), moves: MOVES, rows }, null, 2));
console.log(`\nwritten ${OUT}`);
