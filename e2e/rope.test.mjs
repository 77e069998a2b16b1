// End-to-end specs for the RoPE view (`view=rope`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, settle, canvasData, slide, query, downloadText, reveal } from './support.mjs';

const app = useApp();

const PANELS = ['rope-rotation', 'rope-angles', 'rope-score-distance', 'rope-score-matrix', 'rope-decay', 'rope-wavelength'];

async function snapshot(page) {
  const out = {};
  for (const p of PANELS) out[p] = await canvasData(page, p);
  return out;
}

const download = downloadText;

function parseCsv(text) {
  const [head, ...rows] = text.trimEnd().split('\n');
  return { names: head.split(','), rows: rows.map((r) => r.split(',').map(Number)) };
}

test('every RoPE control moves its charts and the URL', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope&qk=random`);
  const moves = [
    ['#ctl-head_dim', 96, 'head_dim', '96', ['rope-rotation', 'rope-angles', 'rope-score-distance', 'rope-score-matrix', 'rope-decay', 'rope-wavelength']],
    ['#ctl-theta', 3, 'theta', '1000', ['rope-angles', 'rope-score-distance', 'rope-decay', 'rope-wavelength']],
    ['#ctl-partial', 0.5, 'partial', '0.5', ['rope-angles', 'rope-score-distance', 'rope-decay', 'rope-wavelength']],
    ['#ctl-max_dist', 400, 'max_dist', '400', ['rope-angles', 'rope-score-distance', 'rope-score-matrix', 'rope-decay']],
    ['#ctl-seed', 5, 'seed', '5', ['rope-rotation', 'rope-score-distance', 'rope-score-matrix']],
    ['#ctl-pos', 77, 'pos', '77', ['rope-rotation']],
  ];
  for (const [selector, value, param, expected, panels] of moves) {
    const before = await snapshot(page);
    await slide(page, selector, value);
    await settle(page);
    const after = await snapshot(page);
    for (const p of panels) assert.notEqual(after[p], before[p], `${param} repaints ${p}`);
    assert.equal(query(page).get(param), expected, `${param} in the URL`);
  }
  for (const [label, param, value, panel] of [
    ['Interleaved (2i, 2i+1)', 'layout', 'interleaved', 'rope-score-distance'],
    ['All ones', 'qk', 'ones', 'rope-score-matrix'],
  ]) {
    const before = await canvasData(page, panel);
    await page.getByLabel(label).check();
    await settle(page);
    assert.notEqual(await canvasData(page, panel), before, `${param} repaints ${panel}`);
    assert.equal(query(page).get(param), value);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('scores overlaid for different query positions coincide (only m − n matters)', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope&head_dim=64&max_dist=300&m=0,1000,5000&seed=3`);
  const { names, rows } = parseCsv(await download(page, 'rope-score-distance', 'CSV'));
  assert.deepEqual(names, ['distance', 'm=0', 'm=1000', 'm=5000']);
  assert.equal(rows.length, 301);
  let spread = 0;
  for (const r of rows) spread = Math.max(spread, Math.abs(r[1] - r[2]), Math.abs(r[1] - r[3]));
  assert.ok(spread < 1e-9, `max spread ${spread}`);
  // The curve is not trivially flat: RoPE does change the score with distance.
  const values = rows.map((r) => r[1]);
  assert.ok(Math.max(...values) - Math.min(...values) > 1, 'scores vary with distance');
  // A typed list with nothing valid: said under the box, and the positions shown stay.
  await reveal(page, 'rope-score-distance');
  await page.locator('#ctl-m').fill('abc');
  await page.locator('#ctl-m').press('Enter');
  await settle(page);
  assert.equal(await page.locator('[data-control="m"] .control-msg').innerText(),
    'kept 0 entries; dropped 1 (whole numbers from 0 to 131072 only, at most 4). The positions shown stay.');
  assert.equal(query(page).get('m'), '0,1000,5000');
  await context.close();
});

test('angle and decay CSVs equal the formulas', async () => {
  const h = 32;
  const theta = 10000;
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope&head_dim=${h}&theta=${theta}&max_dist=100`);
  const inv = Array.from({ length: h / 2 }, (_, j) => Math.pow(theta, (-2 * j) / h));
  const angles = parseCsv(await download(page, 'rope-angles', 'CSV'));
  assert.equal(angles.rows.length, 101);
  assert.equal(angles.names.length, h / 2);
  for (const pos of [0, 1, 57, 100]) {
    for (let j = 0; j < h / 2; j++) assert.ok(Math.abs(angles.rows[pos][j] - Math.cos(pos * inv[j])) < 1e-12);
  }
  const decay = parseCsv(await download(page, 'rope-decay', 'CSV'));
  assert.deepEqual(decay.names, ['distance', 'su_bound', 'ones_score', 'random_mean_score']);
  for (const d of [0, 1, 10, 99]) {
    const ones = inv.reduce((acc, t) => acc + 2 * Math.cos(d * t), 0);
    assert.ok(Math.abs(decay.rows[d][2] - ones) < 1e-9, `ones score at ${d}`);
    let re = 0, im = 0, total = 0;
    for (const t of inv) { re += Math.cos(d * t); im += Math.sin(d * t); total += Math.hypot(re, im); }
    assert.ok(Math.abs(decay.rows[d][1] - total / inv.length) < 1e-9, `bound at ${d}`);
  }
  await context.close();
});

test('custom q and k: a malformed vector is refused and the last good one stays', async () => {
  const q = '1,0,0,0,0,0,0,0';
  const k = '0,0,0,0,1,0,0,0';
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope&head_dim=8&qk=custom&q=${q}&k=${k}`);
  assert.equal(query(page).get('q'), q);
  const before = await canvasData(page, 'rope-score-distance');
  await page.locator('#ctl-q').fill('1, 2, oops');
  await page.locator('#ctl-q').dispatchEvent('change');
  await settle(page);
  assert.match(await page.locator('[data-control="q"] .control-msg').innerText(), /not a number/);
  assert.equal(query(page).get('q'), q, 'URL keeps the last good q');
  assert.equal(await canvasData(page, 'rope-score-distance'), before, 'charts unchanged');
  await page.locator('#ctl-q').fill('0,1,0,0,0,0,0,0');
  await page.locator('#ctl-q').dispatchEvent('change');
  await settle(page);
  assert.equal(query(page).get('q'), '0,1,0,0,0,0,0,0');
  assert.notEqual(await canvasData(page, 'rope-score-distance'), before);
  // head_dim moved under the vectors: the label follows it, and the page says what the charts
  // use (q = k = 1), as the same link does when opened.
  await slide(page, '#ctl-head_dim', 16);
  await settle(page);
  assert.match(await page.locator('[data-control="q"] label').innerText(), /\(16 numbers/);
  assert.match(await page.locator('[data-control="q"] .control-msg').innerText(), /q has 8 numbers and head_dim is 16: the charts use q = k = 1/);
  const live = await canvasData(page, 'rope-score-distance');
  const { page: again, context: other } = await openApp(app.browser, page.url());
  assert.equal(await canvasData(again, 'rope-score-distance'), live, 'the link draws what the page drew');
  await other.close();
  await context.close();
});

test('the clocks animate, and stay still under reduced motion', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope&pos=0`);
  await page.getByRole('button', { name: /Play/ }).click();
  await page.waitForFunction(() => Number(new URL(location.href).searchParams.get('pos')) > 5, null, { timeout: 5000 });
  await page.getByRole('button', { name: /Pause/ }).click();
  await context.close();
  const reduced = await app.browser.newContext({ reducedMotion: 'reduce' });
  const p2 = await reduced.newPage();
  await p2.goto(`${app.server.url}?view=rope&pos=0`);
  await p2.waitForFunction(() => (window.__peLab?.paints ?? 0) > 0);
  const button = p2.locator('button.play');
  assert.equal(await button.isDisabled(), true);
  assert.match(await button.innerText(), /reduced motion/);
  await reduced.close();
});

test('the RoFormer figure preset sets its parameters', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope`);
  await page.getByRole('button', { name: /RoFormer/ }).click();
  await settle(page);
  const q = query(page);
  assert.deepEqual([q.get('head_dim'), q.get('theta'), q.get('max_dist'), q.get('qk'), q.get('layout')], ['128', '10000', '250', 'ones', 'interleaved']);
  assert.match(await page.locator('.view-rope .source').innerText(), /RoFormer/);
  // The source names the figure's state only while the page shows it.
  await slide(page, '#ctl-head_dim', 64);
  await settle(page);
  assert.equal(await page.locator('.view-rope .source').innerText(), '');
  await context.close();
});
