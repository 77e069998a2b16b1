// PE Lab beside the strongest peer, AI-Experiri's Positional Encoding Lab (SvelteKit, one SVG
// decay curve), in one run of headless Chromium at 1280 × 800. Not a test, and not part of the
// test command: the peer is built from its public source (README, "Side by side with the peer").
//
//   node scripts/bench-peer.mjs --peer /path/to/peer/build [--loads 5] [--rounds 3] [--out bench-results/peer.json]
//
// Measured in both apps, the same way:
//  - first contentful paint and the first chart presented, on 5 cold loads of the home page
//    (a fresh browser context each: nothing cached);
//  - the decay chart's "max distance" slider (the peer's own 20 values, 100 to 10,000; PE Lab's
//    `rope-decay` panel scrolled into view, the slider at its values' pixels):
//    - input events: the slider's value set and an `input` event dispatched at an arbitrary
//      time (a random delay, not aligned with frames), each after the last one has settled;
//    - real pointer drags: the mouse pressed on the slider and moved to each value's pixel, at
//      random intervals; the move's time is the pointer event's timestamp;
//    - latency: from the input (or pointer event) to the presentation of the frame that shows
//      the change. Neither a canvas nor an SVG path reports its own paint time, so in the task
//      that changes the chart (PE Lab: the first 2D drawing call on the chart's canvas; the
//      peer: a MutationObserver on the curve's path) the page gets a one-character marker with
//      an `elementtiming` attribute: Chromium's Element Timing reports the `renderTime` of the
//      frame that presented it, which is the frame that presented the chart's change;
//    - the full picture at rest: from the input to the presentation of the last frame that
//      changed the chart (PE Lab may show a quick picture first and refine it).
// Requests to other hosts (the peer loads MathJax from a CDN) are refused at once.
// BENCH_PELAB_QUERY is added to PE Lab's URL (`&panel=rope-decay&embed=1`: the decay chart alone,
// to tell its cost from the page's).
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launch } from '../e2e/support.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
if (!args.peer || !fs.existsSync(path.join(args.peer, 'index.html'))) {
  console.error('usage: node scripts/bench-peer.mjs --peer <the peer\'s build/ folder> (README: "Side by side with the peer")');
  process.exit(2);
}
const LOADS = Number(args.loads || 5);
const ROUNDS = Number(args.rounds || 3);
const OUT = args.out || 'bench-results/peer.json';
const VIEWPORT = { width: 1280, height: 800 };
// The peer's slider: 100 to 10,000 in steps of 100; its 20 values, evenly spread.
const VALUES = Array.from({ length: 20 }, (_, k) => Math.round((100 + (k * 9900) / 19) / 100) * 100);

/** Put first in every page: the marker, Element Timing and paint observers, change detection. */
function probe() {
  const w = window;
  const p = (w.__pb = { times: {}, fcp: null, armed: null, seq: 0, firstChart: null, lastMark: null });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) p.times[e.identifier] = e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') p.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  // A visible character whose presentation Element Timing reports.
  p.mark = (id) => {
    const s = document.createElement('span');
    s.setAttribute('elementtiming', id);
    s.textContent = '·';
    s.style.cssText = 'position:fixed;right:2px;bottom:2px;font:10px sans-serif;color:#888;pointer-events:none;z-index:99999';
    (document.body || document.documentElement).appendChild(s);
    p.lastMark = id;
    setTimeout(() => s.remove(), 1000);
  };
  // Called in the task that changes the watched chart: one marker per frame that changes it.
  let markedThisTask = false;
  p.changed = () => {
    if (!p.armed || markedThisTask) return;
    markedThisTask = true;
    queueMicrotask(() => (markedThisTask = false));
    p.armed.frames += 1;
    p.mark(`${p.armed.id}-${p.armed.frames}`);
  };
  // PE Lab: drawing on a chart's canvas. The first one on any chart is the first chart.
  const proto = CanvasRenderingContext2D.prototype;
  for (const m of ['fill', 'stroke', 'fillRect', 'clearRect', 'fillText', 'putImageData', 'drawImage']) {
    const f = proto[m];
    proto[m] = function (...a) {
      const c = this.canvas;
      if (c.classList?.contains('chart')) {
        if (!p.firstChart) { p.firstChart = 'chart-first'; p.mark('chart-first'); }
        if (p.armed && p.armed.frames <= 1) (p.armed.drew ??= new Set()).add(c.closest('[data-panel]')?.dataset.panel);
        if (p.watch && c === p.watch) p.changed();
      }
      return f.apply(this, a);
    };
  }
  // The peer: the first SVG of chart size on screen, and the watched curve's path changing.
  const mo = new MutationObserver((records) => {
    if (!p.firstChart) {
      for (const svg of document.querySelectorAll('svg')) {
        const r = svg.getBoundingClientRect();
        if (r.width >= 200 && r.height >= 100 && r.top < innerHeight && svg.querySelector('path, polyline, line')) {
          p.firstChart = 'chart-first';
          p.mark('chart-first');
          break;
        }
      }
    }
    if (p.watchPath && records.some((r) => r.target === p.watchPath)) p.changed();
  });
  const start = () => mo.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['d'] });
  if (document.documentElement) start();
  else addEventListener('DOMContentLoaded', start);
  // The input's time: an input event's own stamp, or the pointer event that caused it.
  let moved = -Infinity;
  addEventListener('pointermove', (e) => { moved = e.timeStamp; }, true);
  addEventListener('input', (e) => {
    if (!p.armed || p.armed.stamp !== null) return;
    p.armed.stamp = p.armed.pointer ? moved : e.timeStamp;
  }, true);
}

const APPS = {
  'PE Lab': {
    home: '',
    async open(page, url) {
      await page.goto(`${url}?view=rope${process.env.BENCH_PELAB_QUERY || ""}`);
      await page.waitForFunction(() => (window.__peLab?.pending ?? 1) === 0 && document.querySelector('[data-panel="rope-decay"] canvas.chart')?.hasAttribute('data-plot'));
      await page.evaluate(() => {
        const c = document.querySelector('[data-panel="rope-decay"] canvas.chart');
        c.scrollIntoView({ block: 'end' });
        window.__pb.watch = c;
      });
      await page.waitForTimeout(500);
      await page.waitForFunction(() => (window.__peLab?.pending ?? 1) === 0);
      return '#ctl-max_dist';
    },
  },
  peer: {
    home: '',
    async open(page, url) {
      await page.goto(url);
      await page.getByRole('button', { name: 'RoPE', exact: true }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('svg')].some((s) => s.textContent.includes('Relative Distance (m - n)')));
      await page.evaluate(() => {
        const svg = [...document.querySelectorAll('svg')].find((s) => s.textContent.includes('Relative Distance (m - n)'));
        svg.scrollIntoView({ block: 'end' });
        window.__pb.watchPath = [...svg.querySelectorAll('path')].find((p) => (p.getAttribute('d') || '').length > 200);
        // Its slider: the range input in the same box.
        const box = svg.closest('div.rounded');
        box.querySelector('input[type=range]').id = 'peer-max-dist';
      });
      await page.waitForTimeout(500);
      return '#peer-max-dist';
    },
  },
};

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

async function newPage(browser) {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block' });
  await context.addInitScript(probe);
  await context.route((u) => !['127.0.0.1', 'localhost'].includes(u.hostname), (r) => r.abort());
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** Waits until the watched chart has not changed for 400 ms, then returns the move's figures. */
async function settle(page) {
  return page.evaluate(async () => {
    const p = window.__pb;
    const a = p.armed;
    const end = performance.now() + 3000;
    let frames = -1;
    let quietSince = performance.now();
    while (performance.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      if (a.frames !== frames) { frames = a.frames; quietSince = performance.now(); }
      else if (performance.now() - quietSince > 400 && (a.frames === 0 || p.times[`${a.id}-${a.frames}`] !== undefined)) break;
    }
    p.armed = null;
    if (a.stamp === null || a.frames === 0) return null;
    return {
      first: p.times[`${a.id}-1`] - a.stamp,
      rest: p.times[`${a.id}-${a.frames}`] - a.stamp,
      frames: a.frames,
      // The charts drawn on up to the first frame that showed the change.
      drew: [...(a.drew ?? [])],
    };
  });
}

async function sliderRun(page, selector, mode, round) {
  const box = await page.evaluate((s) => {
    const e = document.querySelector(s);
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, h: r.height, min: Number(e.min), max: Number(e.max), value: e.value };
  }, selector);
  // The pixel of each value (a range input's thumb travels its width less the thumb's).
  const thumb = 16;
  const xOf = (v) => box.x + thumb / 2 + ((v - box.min) / (box.max - box.min)) * (box.w - thumb);
  const y = box.y + box.h / 2;
  const order = VALUES.map((v, k) => VALUES[(k * 7 + round * 3) % VALUES.length]);
  const out = [];
  if (mode === 'pointer') {
    await page.mouse.move(xOf(box.min) , y);
    await page.mouse.down();
    await pause(300);
  }
  for (const [k, v] of order.entries()) {
    const id = `${mode}-${round}-${k}`;
    await page.evaluate(([id, pointer]) => { window.__pb.armed = { id, stamp: null, frames: 0, pointer }; }, [id, mode === 'pointer']);
    if (mode === 'pointer') {
      await pause(Math.random() * 17);
      await page.mouse.move(xOf(v), y);
    } else {
      await page.evaluate(([s, v, delay]) => new Promise((r) => setTimeout(() => {
        const e = document.querySelector(s);
        e.value = String(v);
        e.dispatchEvent(new Event('input', { bubbles: true }));
        r();
      }, delay)), [selector, v, Math.random() * 17]);
    }
    const r = await settle(page);
    if (r) out.push({ value: v, ...r });
  }
  if (mode === 'pointer') await page.mouse.up();
  // Back to where it was.
  await page.evaluate(([s, v]) => { const e = document.querySelector(s); e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); }, [selector, box.value]);
  await pause(500);
  return out;
}

function stats(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return { n: 0, median: null, p95: null };
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, median: q(0.5), p95: q(0.95) };
}

const ours = await startServer();
const peer = await startServer({ root: path.resolve(args.peer) });
const urls = { 'PE Lab': ours.url, peer: peer.url };
const browser = await launch();
const results = {};
try {
  for (const name of Object.keys(APPS)) results[name] = { fcp: [], firstChart: [], input: [], pointer: [] };
  // Cold loads, alternating between the apps.
  for (let n = 0; n < LOADS; n++) {
    for (const name of Object.keys(APPS)) {
      const { page, close } = await newPage(browser);
      await page.goto(urls[name] + APPS[name].home);
      await page.waitForFunction(() => window.__pb.fcp !== null && window.__pb.times['chart-first'] !== undefined, null, { timeout: 20000 });
      const { fcp, chart } = await page.evaluate(() => ({ fcp: window.__pb.fcp, chart: window.__pb.times['chart-first'] }));
      results[name].fcp.push(fcp);
      results[name].firstChart.push(chart);
      await close();
      process.stderr.write('.');
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of Object.keys(APPS)) {
      const { page, close } = await newPage(browser);
      const selector = await APPS[name].open(page, urls[name]);
      // BENCH_TRACE=prefix writes a Chromium trace of each app's first round (prefix-<app>.json);
      // BENCH_TRACE_CPU=1 adds V8's sampling profiler (a PE_LAB_PROFILE=1 build names the wasm functions).
      const trace = process.env.BENCH_TRACE && round === 0;
      if (trace) await browser.startTracing(page, { categories: ['devtools.timeline', 'blink', 'cc', 'viz', 'gpu', 'v8', 'benchmark', 'latencyInfo', ...(process.env.BENCH_TRACE_CPU ? ['disabled-by-default-v8.cpu_profiler'] : [])] });
      for (const mode of ['input', 'pointer']) results[name][mode].push(...(await sliderRun(page, selector, mode, round)));
      if (trace) fs.writeFileSync(`${process.env.BENCH_TRACE}-${name.replace(' ', '')}.json`, await browser.stopTracing());
      await close();
      process.stderr.write('.');
    }
  }
} finally {
  await browser.close();
  await ours.close();
  await peer.close();
}

const fmt = (v) => (v === null || v === undefined ? '–' : v.toFixed(1)).padStart(7);
const ratio = (a, b) => (a && b ? (a / b).toFixed(2) : '–').padStart(6);
const rows = [];
const row = (label, pe, pr) => rows.push(`${label.padEnd(44)} ${fmt(pr)} ${fmt(pe)} ${ratio(pe, pr)}`);
const s = (name, key, field) => stats(results[name][key].map((r) => (typeof r === 'number' ? r : r[field])));
console.log(`\nPE Lab beside the peer, headless Chromium ${VIEWPORT.width} × ${VIEWPORT.height}; ${LOADS} cold loads, ${ROUNDS} × 20 moves per mode (ms)`);
console.log(`${'measure'.padEnd(44)} ${'peer'.padStart(7)} ${'PE Lab'.padStart(7)} ${'ratio'.padStart(6)}`);
for (const [label, key, field] of [
  ['max distance, input events → presented: median', 'input', 'first', 'median'],
  ['max distance, input events → presented: p95', 'input', 'first', 'p95'],
  ['max distance, pointer drag → presented: median', 'pointer', 'first', 'median'],
  ['max distance, pointer drag → presented: p95', 'pointer', 'first', 'p95'],
  ['full picture at rest (input → last change): median', 'input', 'rest', 'median'],
  ['full picture at rest (input → last change): p95', 'input', 'rest', 'p95'],
]) {
  const q = label.endsWith('p95') ? 'p95' : 'median';
  row(label, s('PE Lab', key, field)[q], s('peer', key, field)[q]);
}
row('first contentful paint (home): median', stats(results['PE Lab'].fcp).median, stats(results.peer.fcp).median);
row('first chart presented (home): median', stats(results['PE Lab'].firstChart).median, stats(results.peer.firstChart).median);
console.log(rows.join('\n'));
console.log(`moves measured: PE Lab ${results['PE Lab'].input.length} input, ${results['PE Lab'].pointer.length} pointer; peer ${results.peer.input.length} input, ${results.peer.pointer.length} pointer`);
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), viewport: VIEWPORT, values: VALUES, results }, null, 2));
console.log(`written: ${OUT}`);
