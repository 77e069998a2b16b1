// Views loaded on demand: the initial page carries only the shell and the default view; every
// other view's chunk is fetched the first time it opens, once, with a loading state, and a
// failed fetch says so and can be retried.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { useApp, openApp, settle, reveal, registeredViews, DIST } from './support.mjs';

const app = useApp();
const isChunk = (url) => /\/(split_|chunk_)\w+\.wasm(\?v=[0-9a-f]{8})?$/.test(url);
const allPainted = () => {
  const charts = [...document.querySelectorAll('main canvas.chart')];
  return charts.length > 0 && charts.every((c) => c.hasAttribute('data-plot'));
};

test('chunks are fetched with the build\'s version, and their loader has a content-hashed name', () => {
  const files = fs.readdirSync(DIST);
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  assert.ok(wasm.includes('split_rope_view.wasm'), wasm.join(' '));
  const loader = files.find((f) => /^__wasm_split-[0-9a-f]{8}\.js$/.test(f));
  assert.ok(loader, files.join(' '));
  assert.ok(!files.includes('__wasm_split.js'));
  // One version for every chunk, of the chunks' content: it changes when a chunk does.
  const js = fs.readFileSync(`${DIST}/${loader}`, 'utf8');
  const version = js.match(/\.wasm\?v=([0-9a-f]{8})`/)?.[1];
  assert.ok(version, 'the loader versions its chunk URLs');
  const chunks = wasm.filter((f) => f.startsWith('split_') || f.startsWith('chunk_'));
  // Split points by name; the shared modules (`chunk_N`) by their numbers, which the loader
  // makes in one loop (scripts/post-build.mjs): `for(let n=16;n<=157;n++)…("chunk_"+n)`.
  const range = js.match(/for\(let (\w+)=(\d+);\1<=(\d+);\1\+\+\)[^;]*"chunk_"\+\1/);
  const shared = (n) => range && n >= Number(range[2]) && n <= Number(range[3]);
  for (const f of chunks) {
    const n = f.match(/^chunk_(\d+)\.wasm$/)?.[1];
    assert.ok(js.includes(`"${f.slice(0, -5)}"`) || (n !== undefined && shared(Number(n))), `the loader names ${f}`);
  }
  // And nothing more: every shared module it makes is a file of the build.
  if (range) for (let n = Number(range[2]); n <= Number(range[3]); n++) assert.ok(wasm.includes(`chunk_${n}.wasm`), `chunk_${n}.wasm`);
});

test('the initial page loads no view chunk and stays within 230 KB gzip', async () => {
  app.server.log.length = 0;
  const { page, context, errors, requests } = await openApp(app.browser, app.server.url);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(requests.filter(isChunk), []);
  let gzip = 0;
  for (const p of new Set(app.server.log)) {
    const file = p === '/' ? 'index.html' : p.slice(1);
    gzip += zlib.gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
  }
  assert.ok(gzip <= 230 * 1024, `initial transfer ${gzip} bytes gzip`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the first paint is a static shell: the header and the default view\'s words, where the app then draws them', async () => {
  // What the shell shows, with the WebAssembly held back (the app never mounts), and where.
  const look = (page) => page.evaluate(() => {
    const box = (sel) => { const r = document.querySelector(sel)?.getBoundingClientRect(); return r ? [r.x, r.y, r.width, r.height].map(Math.round) : null; };
    return {
      headers: document.querySelectorAll('.site-header').length,
      header: document.querySelector('.site-header')?.innerText.replace(/\s+/g, ' ').replace(/Figures….*?(?= Notation)/, 'Figures…'),
      current: document.querySelector('.site-header [aria-current]')?.textContent ?? null,
      intro: document.querySelector('.view-intro p')?.textContent ?? null,
      formula: document.querySelector('.view-intro math')?.textContent ?? null,
      theme: document.documentElement.dataset.theme,
      toggle: document.querySelector('.theme-toggle')?.textContent,
      boxes: ['.site-header h1', '.site-header nav', '.theme-toggle', '.view-intro p', '.view-intro .formula'].map(box),
    };
  });
  const shellOf = async (query, colorScheme = 'light') => {
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    const page = await context.newPage();
    await page.route(/\.wasm(\?.*)?$/, (route) => route.abort());
    await page.goto(`${app.server.url}${query}`);
    await page.waitForTimeout(300);
    const seen = await look(page);
    await context.close();
    return seen;
  };
  for (const scheme of ['light', 'dark']) {
    const shell = await shellOf('', scheme);
    const { page, context, errors } = await openApp(app.browser, app.server.url, { colorScheme: scheme });
    const drawn = await look(page);
    assert.equal(await page.locator('#shell').count(), 0);
    assert.equal(drawn.headers, 1);
    // The same words, in the same places: the app takes over without a shift.
    assert.deepEqual(shell, drawn, scheme);
    assert.deepEqual(errors, []);
    await context.close();
  }
  // Another view keeps the header only, naming no view as current; an embed shows nothing.
  const rope = await shellOf('?view=rope');
  assert.equal(rope.headers, 1);
  assert.equal(rope.current, null);
  assert.equal(rope.intro, null);
  const lesson = await shellOf('?lesson=seed&step=2');
  assert.equal(lesson.intro, null);
  assert.equal((await shellOf('?view=rope&embed=1')).headers, 0);
  assert.equal((await shellOf('?lesson=seed&present=1')).headers, 0);
  assert.equal((await shellOf('?theme=dark')).toggle, '☀ Light');
});

test('every registered view opens from the navigation, fetching its chunk once', async () => {
  const views = await registeredViews(app);
  const { page, context, errors, requests } = await openApp(app.browser, app.server.url);
  for (const round of [1, 2]) {
    for (const v of views) {
      const before = requests.filter(isChunk).length;
      await page.getByRole('button', { name: v.title, exact: true }).click();
      await page.waitForFunction(allPainted, null, { timeout: 20000 });
      const shown = await page.$$eval('[data-panel]', (s) => s.map((e) => e.dataset.panel));
      assert.deepEqual(shown, v.panels.map((p) => p.id), v.name);
      // Built before it was in the page, every chart still paints at its laid-out width.
      await page.waitForFunction(() => [...document.querySelectorAll('main canvas.chart')].every((c) => Math.abs(c.width - c.clientWidth) <= 1), null, { timeout: 5000 })
        .catch(async () => assert.fail(`${v.name}: ${JSON.stringify(await page.$$eval('main canvas.chart', (cs) => cs.map((c) => [c.width, c.clientWidth])))}`));
      if (round === 2) assert.equal(requests.filter(isChunk).length, before, `${v.name}: fetched again`);
    }
  }
  // Each non-default view fetched its own split chunk.
  for (const v of views.filter((v) => v.name !== 'sinusoidal')) {
    assert.ok(requests.some((r) => r.includes(`/split_${v.name}_view.wasm`)), v.name);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a slow chunk shows a loading state as tall as the window, then the panels', async () => {
  const { page, context, errors } = await openApp(app.browser, app.server.url);
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route(/split_rope_view\.wasm/, async (route) => {
    await gate;
    await route.continue();
  });
  await page.getByRole('button', { name: 'RoPE', exact: true }).click();
  const loading = page.locator('.view-loading');
  await loading.waitFor();
  assert.equal(await loading.innerText(), 'Loading the RoPE view…');
  assert.equal(await loading.getAttribute('role'), 'status');
  const box = await loading.boundingBox();
  assert.ok(box.height >= 900, `placeholder height ${box.height}`);
  release();
  await page.waitForFunction(allPainted, null, { timeout: 20000 });
  assert.equal(await page.locator('.view-loading').count(), 0);
  assert.equal(await page.locator('[data-panel="rope-decay"]').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a chunk that cannot be fetched gives a clear message, no panic, and Try again works', async () => {
  const { page, context, errors } = await openApp(app.browser, app.server.url);
  await page.route(/split_bias_view\.wasm/, (route) => route.abort());
  await page.getByRole('button', { name: 'Relative biases', exact: true }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.innerText(), /The Relative biases view could not be loaded/);
  assert.equal(await page.locator('.panic-banner').count(), 0);
  // The rest of the app still works.
  await page.getByRole('button', { name: 'Sinusoidal', exact: true }).click();
  await page.waitForFunction(allPainted);
  await page.getByRole('button', { name: 'Relative biases', exact: true }).click();
  await alert.waitFor();
  await page.unroute(/split_bias_view\.wasm/);
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.waitForFunction(allPainted, null, { timeout: 20000 });
  assert.equal(await page.locator('[data-panel="alibi-slopes"]').count(), 1);
  assert.equal(await page.locator('.panic-banner').count(), 0);
  // Only the aborted fetches were logged.
  assert.ok(errors.every((e) => /Failed to fetch|ERR_FAILED|TypeError/.test(e)), errors.join('\n'));
  await context.close();
});

test('every registered panel is reachable by its embed URL alone (no view=)', async () => {
  const views = await registeredViews(app);
  const { page, context, errors } = await openApp(app.browser, app.server.url);
  for (const v of views) {
    for (const p of v.panels) {
      await page.goto(`${app.server.url}?embed=1&panel=${p.id}`);
      await page.waitForSelector(`[data-panel="${p.id}"]`, { timeout: 20000 });
      await page.waitForFunction(() => [...document.querySelectorAll('main canvas.chart')].every((c) => c.hasAttribute('data-plot')));
      assert.deepEqual(await page.$$eval('[data-panel]', (s) => s.map((e) => e.dataset.panel)), [p.id]);
      assert.equal(await page.locator(`[data-panel="${p.id}"] h2`).innerText(), p.title);
      assert.equal(new URL(page.url()).searchParams.get('view'), v.name);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Sinusoidal panels below the fold are fetched when scrolled near, in the current state', async () => {
  const below = ['pe-spectrum', 'pe-similarity', 'pe-offset', 'pe-index'];
  const { page, context, errors, requests } = await openApp(app.browser, app.server.url);
  const fetched = () => requests.filter((r) => /\/split_sinusoidal_below\.wasm\?v=[0-9a-f]{8}$/.test(r)).length;
  await page.waitForLoadState('networkidle');
  // On arrival: placeholders with the panels' IDs and headings, nothing fetched.
  const views = await registeredViews(app);
  const titles = Object.fromEntries(views.find((v) => v.name === 'sinusoidal').panels.map((p) => [p.id, p.title]));
  for (const id of below) {
    assert.equal(await page.locator(`[data-panel="${id}"].panel-loading h2`).innerText(), titles[id]);
  }
  assert.equal(fetched(), 0);
  // A control moved before they arrive: they show its state.
  await page.fill('[data-control="d_model"] .num', '48');
  await page.locator('[data-control="d_model"] .num').press('Enter');
  await settle(page);
  for (const id of below) await reveal(page, id);
  assert.equal(fetched(), 1);
  assert.equal(await page.locator('.panel-loading').count(), 0);
  const canvases = () => page.evaluate((ids) => ids.flatMap((id) => [...document.querySelectorAll(`[data-panel="${id}"] canvas`)].map((c) => c.toDataURL())), below);
  const got = await canvases();
  const fresh = await openApp(app.browser, page.url());
  for (const id of below) await reveal(fresh.page, id);
  assert.deepEqual(await fresh.page.evaluate((ids) => ids.flatMap((id) => [...document.querySelectorAll(`[data-panel="${id}"] canvas`)].map((c) => c.toDataURL())), below), got);
  assert.match(page.url(), /d_model=48/);
  assert.deepEqual(errors, []);
  await fresh.context.close();
  await context.close();
});

test('a jump to the end of the page fetches the panels below the fold too (phone width)', async () => {
  const { page, context, errors } = await openApp(app.browser, app.server.url, { viewport: { width: 390, height: 800 } });
  await page.waitForLoadState('networkidle');
  assert.equal(await page.locator('.panel-loading').count(), 4);
  // Straight to the end (a jump, as from a link or the scroll bar): only the last
  // placeholder is in sight.
  await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
  await page.waitForFunction(() => document.querySelectorAll('.panel-loading').length === 0 && document.querySelector('[data-panel="pe-index"] table'), null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('panels below the fold that cannot be fetched say so, and Try again brings them', async () => {
  const { page, context, errors } = await openApp(app.browser, app.server.url);
  await page.route(/split_sinusoidal_below\.wasm/, (route) => route.abort());
  await page.locator('[data-panel="pe-spectrum"]').scrollIntoViewIfNeeded();
  const alert = page.locator('[data-panel="pe-spectrum"] [role="alert"]');
  await alert.waitFor();
  assert.match(await alert.innerText(), /This panel could not be loaded/);
  assert.equal(await page.locator('.panic-banner').count(), 0);
  await page.unroute(/split_sinusoidal_below\.wasm/);
  await alert.getByRole('button', { name: 'Try again' }).click();
  await reveal(page, 'pe-similarity');
  assert.equal(await page.locator('.panel-loading').count(), 0);
  assert.ok(errors.every((e) => /Failed to fetch|ERR_FAILED|TypeError/.test(e)), errors.join('\n'));
  await context.close();
});
