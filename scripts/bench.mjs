// PE Lab benchmark: slider input → repainted canvas latency per panel, at default and maximum
// sizes, in headless Chromium against the release build; plus the initial transfer size and
// the time to the first chart. Not a test: it reports numbers and flags budgets (PRODUCT.md §5).
//
//   node scripts/bench.mjs [--moves 40] [--panel pe-heatmap] [--view rope] [--loads-only 1]
//                          [--out bench-results/latest.json]
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, launch, openApp, DIST } from '../e2e/support.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const MOVES = Number(args.moves || 40);
const OUT = args.out || 'bench-results/latest.json';

/** Each view: its panels and the sizes to test, with the slider moves to make. */
const SIN_DEFAULT = { seq_len: [128, 127], d_model: [128, 126], base: [4, 3.99], p0: [32, 33], offset: [4, 5] };
const SIN_MAX = { seq_len: [8192, 8191], d_model: [4096, 4094], base: [4, 3.99], p0: [32, 33], offset: [4, 5] };
/** The sliders that change what a panel draws. */
const SIN_PANELS = {
  'pe-heatmap': ['seq_len', 'd_model', 'base'],
  'pe-curves': ['seq_len', 'd_model', 'base'],
  'pe-spectrum': ['seq_len', 'd_model', 'base'],
  'pe-similarity': ['seq_len', 'd_model', 'base', 'p0'],
  'pe-offset': ['offset', 'd_model', 'base'],
  'pe-index': ['d_model', 'base'],
};
const pick = (values, names) => names.map((n) => [`#ctl-${n}`, values[n]]);

const ROPE_DEFAULT = { head_dim: [64, 62], theta: [4, 3.99], max_dist: [256, 255], pos: [10, 11] };
const ROPE_MAX = { head_dim: [512, 510], theta: [4, 3.99], max_dist: [131072, 131071], pos: [10, 11] };
const ROPE_PANELS = {
  'rope-rotation': ['head_dim', 'theta', 'pos'],
  'rope-angles': ['head_dim', 'theta', 'max_dist'],
  'rope-score-distance': ['head_dim', 'theta', 'max_dist'],
  'rope-score-matrix': ['head_dim', 'theta', 'max_dist'],
  'rope-decay': ['head_dim', 'theta', 'max_dist'],
  'rope-wavelength': ['head_dim', 'theta'],
};
const SCALING_DEFAULT = { factor: [Math.log10(4), Math.log10(4.1)], orig_ctx: [4096, 4095], head_dim: [128, 126], beta_fast: [Math.log10(32), Math.log10(31)] };
const SCALING_MAX = { factor: [Math.log10(32), Math.log10(31)], orig_ctx: [4096, 4095], head_dim: [512, 510], beta_fast: [Math.log10(32), Math.log10(31)] };

/** Each view: its panels and, per size, the URL and the slider moves (first value = initial). */
const VIEWS = [
  {
    view: 'sinusoidal',
    panels: Object.keys(SIN_PANELS),
    sizes: (panel) => ({
      default: { query: 'seq_len=128&d_model=128', moves: pick(SIN_DEFAULT, SIN_PANELS[panel]) },
      max: { query: 'seq_len=8192&d_model=4096', moves: pick(SIN_MAX, SIN_PANELS[panel]) },
    }),
  },
  {
    view: 'rope',
    panels: Object.keys(ROPE_PANELS),
    sizes: (panel) => ({
      default: { query: 'head_dim=64&max_dist=256&pos=10', moves: pick(ROPE_DEFAULT, ROPE_PANELS[panel]) },
      max: { query: 'head_dim=512&max_dist=131072&pos=10', moves: pick(ROPE_MAX, ROPE_PANELS[panel]) },
    }),
  },
  {
    view: 'scaling',
    panels: ['scaling-frequencies', 'scaling-score-distance'],
    sizes: () => ({
      default: { query: 'factor=4&orig_ctx=4096&head_dim=128', moves: pick(SCALING_DEFAULT, ['factor', 'orig_ctx', 'head_dim', 'beta_fast']) },
      max: {
        query: 'method=none,linear,ntk,dynamic,yarn,longrope,llama3&factor=32&orig_ctx=4096&head_dim=512',
        moves: pick(SCALING_MAX, ['factor', 'orig_ctx', 'head_dim', 'beta_fast']),
      },
    }),
  },
  {
    // seq_len crops the table (cheap); seed draws a new random table, whose statistics (an
    // O(n²·d) cosine matrix and a PCA) are recomputed: measured on learned-offset.
    view: 'learned',
    panels: ['learned-heatmap', 'learned-similarity', 'learned-pca', 'learned-offset'],
    sizes: (panel) => {
      const moves = panel === 'learned-offset' ? ['seed'] : ['seq_len'];
      return {
        default: { query: 'table=random&rows=512&cols=384&seq_len=512', moves: pick({ seq_len: [512, 511], seed: [0, 1] }, moves) },
        max: { query: 'table=random&rows=2048&cols=768&seq_len=4096', moves: pick({ seq_len: [4096, 4095], seed: [0, 1] }, moves) },
      };
    },
  },
  {
    view: 'bias',
    panels: ['alibi-slopes', 'alibi-bias', 't5-buckets'],
    sizes: (panel) => {
      const moves = { 'alibi-slopes': ['heads'], 'alibi-bias': ['heads', 'seq_len'], 't5-buckets': ['buckets', 'max_distance'] }[panel];
      return {
        default: { query: 'heads=8&seq_len=24&buckets=32&max_distance=128', moves: pick({ heads: [8, 9], seq_len: [24, 25], buckets: [32, 34], max_distance: [128, 127] }, moves) },
        max: { query: 'heads=128&seq_len=512&buckets=256&max_distance=4096', moves: pick({ heads: [128, 127], seq_len: [512, 511], buckets: [256, 254], max_distance: [4096, 4095] }, moves) },
      };
    },
  },
  {
    // No slider: a move is a click (Shuffle, Original order, or the positional encoding).
    view: 'attention',
    panels: ['permutation-demo'],
    sizes: () => {
      const moves = [
        ['[data-panel="permutation-demo"] button.shuffle', null],
        ['[data-panel="permutation-demo"] button.reset', null],
        ['[data-control="pe"] input[value="rope"]', null],
        ['[data-control="pe"] input[value="sinusoidal"]', null],
      ];
      // The demo has one size (five tokens).
      return { default: { query: 'pe=sinusoidal', moves } };
    },
  },
  {
    view: 'compare',
    panels: ['compare-similarity'],
    sizes: () => ({
      default: { query: 'k_max=128', moves: pick({ k_max: [128, 127] }, ['k_max']) },
      max: { query: 'k_max=511', moves: pick({ k_max: [511, 510] }, ['k_max']) },
    }),
  },
];

const PREC_DEFAULT = { head_dim: [128, 126], theta: [4, 3.99], pos: [5, 5.01], m: [5, 5.01], max_dist: [64, 63] };
const PREC_MAX = { head_dim: [512, 510], theta: [4, 3.99], pos: [7.8, 7.79], m: [7.8, 7.79], max_dist: [4096, 4095] };
const PREC_PANELS = {
  'precision-positions': ['pos'],
  'precision-angles': ['head_dim', 'theta', 'pos'],
  'precision-score': ['head_dim', 'theta', 'm', 'max_dist'],
  'precision-error': ['head_dim', 'theta'],
};
VIEWS.push({
  view: 'precision',
  panels: Object.keys(PREC_PANELS),
  sizes: (panel) => ({
    default: { query: 'head_dim=128&pos=100000&m=100000&max_dist=64', moves: pick(PREC_DEFAULT, PREC_PANELS[panel]) },
    max: { query: 'head_dim=512&pos=63095734&m=63095734&max_dist=4096', moves: pick(PREC_MAX, PREC_PANELS[panel]) },
  }),
});

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
  await context.close();

  // Each view loaded on demand: what it adds to the download, the first chart of a deep link,
  // and the time from a click in the navigation to its panels painted.
  console.log('\nview         on-demand gzip   deep link: first chart   nav click → panels shown (→ every chart painted)');
  for (const { name } of views) {
    if (args.view && args.view !== name) continue;
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
{
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

if (args['loads-only'] !== undefined) {
  await browser.close();
  await server.close();
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
  console.log(`\nwritten ${OUT}`);
  process.exit(0);
}
console.log(`\nslider → repainted canvas, ${MOVES} moves per row (ms; "frame" = to the next animation frame)`);
console.log('view        panel                    size     median   p95     max   | frame p95  budget');
for (const v of VIEWS) {
  for (const panel of v.panels) {
    if (args.panel && args.panel !== panel) continue;
    if (args.view && args.view !== v.view) continue;
    for (const [size, spec] of Object.entries(v.sizes(panel))) {
      const { page, context } = await openApp(browser, `${server.url}?view=${v.view}&embed=1&panel=${panel}&${spec.query}`);
      await measure(page, spec.moves, 4); // warm-up
      const samples = await measure(page, spec.moves, MOVES);
      await context.close();
      const missed = samples.filter((s) => s.painted === null).length;
      const painted = stats(samples.filter((s) => s.painted !== null).map((s) => s.painted));
      const frame = stats(samples.map((s) => s.frame));
      const b = BUDGET[size];
      const ok = (b.median === undefined || painted.median <= b.median) && painted.p95 <= b.p95 && missed === 0;
      rows.push({ kind: 'latency', view: v.view, panel, size, painted, frame, missed, ok });
      console.log(
        `${v.view.padEnd(11)} ${panel.padEnd(24)} ${size.padEnd(7)} ${painted.median.toFixed(1).padStart(6)} ${painted.p95.toFixed(1).padStart(6)} ${painted.max.toFixed(1).padStart(7)}  | ${frame.p95.toFixed(1).padStart(7)}    ${ok ? 'ok' : 'MISS'}${missed ? ` (${missed} moves did not repaint)` : ''}`,
      );
    }
  }
}
await browser.close();
await server.close();
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify({ date: new Date().toISOString(), moves: MOVES, rows }, null, 2));
console.log(`\nwritten ${OUT}`);
