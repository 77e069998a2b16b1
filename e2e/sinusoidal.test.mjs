// End-to-end specs for the Sinusoidal view, against the `trunk build --release` output served
// on 127.0.0.1. Each test asserts what a user would check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useApp, openApp, settle, canvasData, slide, reveal, revealAll, query, paints } from './support.mjs';

const app = useApp();

/** The sinusoidal table by its definition, in JS doubles. */
function pe(pos, col, d, base, layout = 'interleaved') {
  const pairs = Math.ceil(d / 2);
  let i;
  let kind;
  if (layout === 'interleaved') {
    i = Math.floor(col / 2);
    kind = col % 2 === 0 ? 'sin' : 'cos';
  } else {
    i = col < pairs ? col : col - pairs;
    kind = col < pairs ? 'sin' : 'cos';
  }
  const angle = pos / Math.pow(base, (2 * i) / d);
  return kind === 'sin' ? Math.sin(angle) : Math.cos(angle);
}

test('every slider changes the heatmap pixels and the URL', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?seq_len=64&d_model=32`);
  const moves = [
    ['#ctl-seq_len', 100, 'seq_len', '100'],
    ['#ctl-d_model', 48, 'd_model', '48'],
    ['#ctl-base', 2, 'base', '100'], // log slider: 10^2
  ];
  for (const [selector, value, param, expected] of moves) {
    const before = await canvasData(page, 'pe-heatmap');
    await slide(page, selector, value);
    await settle(page);
    assert.notEqual(await canvasData(page, 'pe-heatmap'), before, `${param} repaints the heatmap`);
    assert.equal(query(page).get(param), expected, `${param} is in the URL`);
  }
  const before = await canvasData(page, 'pe-heatmap');
  await page.getByLabel('Concatenated [sin … | cos …]').check();
  await settle(page);
  assert.notEqual(await canvasData(page, 'pe-heatmap'), before, 'layout repaints the heatmap');
  assert.equal(query(page).get('layout'), 'concat');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a pasted URL restores every control', async () => {
  const url = `${app.server.url}?view=sinusoidal&seq_len=300&d_model=65&base=2500&layout=concat&cols=3,10&p0=120&offset=9`;
  const { page, context } = await openApp(app.browser, url);
  const num = (name) => page.locator(`[data-control="${name}"] .num`).inputValue();
  assert.equal(await num('seq_len'), '300');
  assert.equal(await num('d_model'), '65');
  assert.equal(await num('base'), '2500');
  // p0 and offset are controls of panels below the fold.
  await revealAll(page);
  assert.equal(await num('p0'), '120');
  assert.equal(await num('offset'), '9');
  assert.equal(await page.getByLabel('Concatenated [sin … | cos …]').isChecked(), true);
  const curves = await page.locator('[data-panel="pe-curves"] canvas').getAttribute('aria-label');
  assert.match(curves, /PE columns 3 and 10 against/);
  // The app writes the same state back.
  const q = query(page);
  for (const [k, v] of Object.entries({ seq_len: '300', d_model: '65', base: '2500', layout: 'concat', cols: '3,10', p0: '120', offset: '9' })) {
    assert.equal(q.get(k), v, k);
  }
  await context.close();
});

test('invalid URL values are clamped with a visible notice', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?seq_len=999999&d_model=abc&base=-3`);
  const notice = await page.locator('.notices').innerText();
  assert.match(notice, /seq_len/);
  assert.match(notice, /d_model/);
  assert.match(notice, /base/);
  assert.equal(query(page).get('seq_len'), '8192');
  assert.equal(query(page).get('d_model'), '128');
  assert.equal(query(page).get('base'), '2');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a clicked heatmap column appears in the curves', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?seq_len=64&d_model=16`);
  const canvas = page.locator('[data-panel="pe-heatmap"] canvas');
  const [x0, y0, x1, y1] = (await canvas.getAttribute('data-plot')).split(',').map(Number);
  const col = 7; // not among the default columns (4, 5 and 6 at d_model 16)
  const curvesBefore = await canvasData(page, 'pe-curves');
  // Device pixel ratio is 1 here, so canvas pixels are CSS pixels.
  await canvas.click({ position: { x: x0 + ((col + 0.5) / 16) * (x1 - x0), y: (y0 + y1) / 2 } });
  await settle(page);
  assert.ok(query(page).get('cols').split(',').includes(String(col)), 'column in the URL');
  const label = await page.locator('[data-panel="pe-curves"] canvas').getAttribute('aria-label');
  assert.match(label, new RegExp(`\\b${col}\\b`));
  assert.notEqual(await canvasData(page, 'pe-curves'), curvesBefore, 'curves repainted');
  // Hovering shows the numbers of the cell under the pointer.
  await canvas.hover({ position: { x: x0 + ((col + 0.5) / 16) * (x1 - x0), y: y0 + (10.5 / 64) * (y1 - y0) } });
  const readout = await page.locator('[data-panel="pe-heatmap"] .readout').innerText();
  assert.match(readout, /pos\s+10/);
  assert.match(readout, /col\s+7/);
  assert.match(readout, /pair i\s+3/);
  assert.match(readout, /cos/);
  await context.close();
});

async function download(page, buttonLocator) {
  const [dl] = await Promise.all([page.waitForEvent('download'), buttonLocator.click()]);
  return { name: dl.suggestedFilename(), path: await dl.path() };
}

test('the downloaded heatmap CSV equals the encoding', async () => {
  const cases = [
    { seq_len: 50, d_model: 7, base: 10000, layout: 'interleaved' },
    { seq_len: 200, d_model: 64, base: 500, layout: 'concat' },
  ];
  for (const c of cases) {
    const { page, context } = await openApp(app.browser, `${app.server.url}?seq_len=${c.seq_len}&d_model=${c.d_model}&base=${c.base}&layout=${c.layout}`);
    const file = await download(page, page.locator('[data-panel="pe-heatmap"] .exports button', { hasText: /^CSV$/ }));
    assert.match(file.name, /\.csv$/);
    const lines = fs.readFileSync(file.path, 'utf8').trimEnd().split('\n');
    const header = lines[0].split(',');
    assert.equal(header.length, c.d_model, 'one column per matrix column');
    assert.equal(lines.length - 1, c.seq_len, 'one line per position');
    let worst = 0;
    for (let pos = 0; pos < c.seq_len; pos++) {
      const cells = lines[pos + 1].split(',').map(Number);
      assert.equal(cells.length, c.d_model);
      for (let col = 0; col < c.d_model; col++) {
        worst = Math.max(worst, Math.abs(cells[col] - pe(pos, col, c.d_model, c.base, c.layout)));
      }
    }
    assert.ok(worst <= 1e-9, `max difference ${worst}`);
    await context.close();
  }
});

test('large matrices also export as NPY (float32, C order)', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?seq_len=2048&d_model=512`);
  const file = await download(page, page.locator('[data-panel="pe-heatmap"] .exports button', { hasText: /^NPY$/ }));
  const bytes = fs.readFileSync(file.path);
  assert.equal(bytes.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const headerLen = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLen).toString('latin1');
  assert.match(header, /'descr': '<f4'/);
  assert.match(header, /'shape': \(2048, 512\)/);
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 10 + headerLen, bytes.byteOffset + bytes.length));
  assert.equal(data.length, 2048 * 512);
  for (const [pos, col] of [[0, 0], [1000, 1], [2047, 511], [1500, 300]]) {
    assert.ok(Math.abs(data[pos * 512 + col] - pe(pos, col, 512, 10000)) < 1e-6, `${pos},${col}`);
  }
  await context.close();
});

test('every panel exports PNG and CSV', async () => {
  for (const panel of ['pe-heatmap', 'pe-curves', 'pe-spectrum', 'pe-similarity', 'pe-offset', 'pe-index']) {
    // A page per panel: headless Chromium stops delivering downloads after ten on one page.
    const { page, context } = await openApp(app.browser, `${app.server.url}?seq_len=32&d_model=16&embed=1&panel=${panel}`);
    const bar = page.locator(`[data-panel="${panel}"] .exports`).first();
    const png = await download(page, bar.locator('button', { hasText: /^PNG$/ }));
    const head = fs.readFileSync(png.path).subarray(1, 4).toString('latin1');
    assert.equal(head, 'PNG', `${panel} PNG`);
    const csv = await download(page, bar.locator('button', { hasText: /^CSV$/ }));
    const lines = fs.readFileSync(csv.path, 'utf8').trimEnd().split('\n');
    assert.ok(lines.length > 2, `${panel} CSV has data`);
    assert.match(lines[0], /^[A-Za-z]/, `${panel} CSV starts with a header`);
    assert.doesNotMatch(lines[1], /[^0-9eE.,+\-NaInf]/, `${panel} CSV rows are numbers`);
    await context.close();
  }
});

test('embed mode shows one panel without site chrome', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?embed=1&panel=pe-curves`);
  assert.equal(await page.locator('section[data-panel]').count(), 1);
  assert.equal(await page.locator('[data-panel="pe-curves"]').count(), 1);
  assert.equal(await page.locator('.site-header').count(), 0);
  assert.equal(await page.locator('.controls').count(), 1);
  await context.close();
  const hidden = await openApp(app.browser, `${app.server.url}?embed=1&panel=pe-similarity&controls=0`);
  assert.equal(await hidden.page.locator('section[data-panel]').count(), 1);
  assert.equal(await hidden.page.locator('input[type="range"]').count(), 0, 'controls=0 hides every control');
  await hidden.context.close();
});

test('the page logs no console error and requests nothing from another origin', async () => {
  const { page, context, errors, requests } = await openApp(app.browser, `${app.server.url}?seq_len=512&d_model=256`);
  // Exercise every panel: hover, click, move each panel control.
  const heat = page.locator('[data-panel="pe-heatmap"] canvas');
  await heat.hover({ position: { x: 200, y: 100 } });
  await heat.click({ position: { x: 220, y: 120 } });
  await revealAll(page);
  await slide(page, '#ctl-p0', 300);
  await slide(page, '#ctl-offset', 77);
  await page.locator('.theme-toggle').click();
  await settle(page);
  assert.ok((await paints(page)) >= 8);
  assert.deepEqual(errors, []);
  const foreign = requests.filter((u) => !u.startsWith(app.server.origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
  await context.close();
});

test('odd widths show a lone sin column and a non-zero offset residual', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?seq_len=64&d_model=7&offset=5`);
  await reveal(page, 'pe-offset');
  const residual = Number(await page.locator('[data-panel="pe-offset"] .residual').getAttribute('data-residual'));
  assert.ok(residual > 1e-3, `residual ${residual}`);
  const table = await page.locator('[data-panel="pe-index"] table').innerText();
  assert.match(table, /—/, 'the lone pair has no cos column');
  await page.locator('[data-control="d_model"] .num').fill('8');
  await page.locator('[data-control="d_model"] .num').press('Enter');
  await settle(page);
  const even = Number(await page.locator('[data-panel="pe-offset"] .residual').getAttribute('data-residual'));
  assert.ok(even < 1e-12, `even residual ${even}`);
  await context.close();
});
