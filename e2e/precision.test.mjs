// The Precision view: every control moves a chart and the URL, the CSVs have the issue's
// columns and the formulas' values, hostile URLs are clamped with a notice, and the short
// lesson opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, settle, slide, query, downloadText } from './support.mjs';

const app = useApp();

async function snapshot(page) {
  return page.$$eval('[data-panel] canvas.chart', (cs) => Object.fromEntries(cs.map((c) => [c.closest('[data-panel]').dataset.panel, c.toDataURL()])));
}

async function csvOf(page, panel) {
  const text = (await downloadText(page, panel, 'CSV')).trim().split('\n');
  return { names: text[0].split(','), rows: text.slice(1).map((r) => r.split(',')) };
}

test('every precision control moves its charts and the URL', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=precision`);
  const moves = [
    ['#ctl-head_dim', 64, 'head_dim', '64', ['precision-angles', 'precision-score', 'precision-error']],
    ['#ctl-theta', 5, 'theta', '100000', ['precision-angles', 'precision-score', 'precision-error']],
    ['#ctl-pos', 3, 'pos', '1000', ['precision-positions', 'precision-angles']],
    ['#ctl-m', 6, 'm', '1000000', ['precision-score']],
    ['#ctl-max_dist', 200, 'max_dist', '200', ['precision-score']],
  ];
  for (const [selector, value, param, expected, panels] of moves) {
    const before = await snapshot(page);
    await slide(page, selector, value);
    await settle(page);
    const after = await snapshot(page);
    for (const p of panels) assert.notEqual(after[p], before[p], `${param} repaints ${p}`);
    assert.equal(query(page).get(param), expected, `${param} in the URL`);
  }
  const before = await snapshot(page);
  await page.locator('input[name="paths"][value="hf_f32"]').uncheck();
  await settle(page);
  assert.equal(query(page).get('paths'), 'exact,hf_bf16,bf16_cache,fp16_seq');
  assert.notEqual((await snapshot(page))['precision-error'], before['precision-error']);
  await page.locator('#ctl-precision-preset').selectOption('Llama 3 (D = 128, base 500,000)');
  await settle(page);
  assert.deepEqual([query(page).get('head_dim'), query(page).get('theta')], ['128', '500000']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the angles CSV has exactly the issue’s columns and the paths’ values, inf and nan as words', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=precision&head_dim=8&theta=10000&pos=70000&paths=fp16_seq,exact`);
  const { names, rows } = await csvOf(page, 'precision-angles');
  const cols = (p) => ['inv_freq', 'angle', 'cos', 'sin'].map((k) => `${k}_${p}`);
  assert.deepEqual(names, ['pair', ...cols('fp16_seq'), ...cols('exact')]);
  assert.equal(rows.length, 4);
  for (const [j, row] of rows.entries()) {
    assert.equal(row[0], String(j));
    // float16 positions past 65519 are infinite: angle inf, cos and sin nan.
    assert.deepEqual(row.slice(2, 5), ['inf', 'nan', 'nan']);
    const inv = 10000 ** (-(2 * j) / 8);
    assert.ok(Math.abs(Number(row[5]) - inv) <= 1e-15 * inv);
    const angle = 70000 * inv;
    assert.ok(Math.abs(Number(row[6]) - angle) <= 1e-9 * angle);
    assert.ok(Math.abs(Number(row[7]) - Math.cos(angle)) < 1e-9 && Math.abs(Number(row[8]) - Math.sin(angle)) < 1e-9);
  }
  const positions = await csvOf(page, 'precision-positions');
  assert.deepEqual(positions.names, ['position', 'seen_fp16_seq', 'seen_exact']);
  assert.ok(positions.rows.some((r) => r[1] === 'inf'));
  const score = await csvOf(page, 'precision-score');
  assert.deepEqual(score.names, ['distance', 'score_fp16_seq', 'score_exact']);
  const error = await csvOf(page, 'precision-error');
  assert.deepEqual(error.names, ['position', 'max_angle_error_fp16_seq', 'max_angle_error_exact']);
  await context.close();
});

test('bfloat16 stores 257 as 256: the positions panel says how many positions each path tells apart', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=precision&pos=270&paths=exact,bf16_cache`);
  assert.match(await page.locator('[data-panel="precision-positions"] .readout').innerText(), /exact \(float64\): 271 · GPT-NeoX bfloat16 cache: 264/);
  const { rows } = await csvOf(page, 'precision-positions');
  const at = Object.fromEntries(rows.map((r) => [r[0], r[2]]));
  assert.equal(at['257'], '256');
  assert.equal(at['259'], '260');
  await context.close();
});

test('a position past 2^26 and a bad path name are clamped or ignored with a notice', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=precision&pos=1e12&paths=bf16_cache,nope`);
  const notices = await page.locator('.notices').innerText();
  assert.match(notices, /pos/);
  assert.match(notices, /paths/);
  assert.equal(query(page).get('pos'), String(2 ** 26));
  assert.equal(query(page).get('paths'), 'bf16_cache');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the precision lesson opens and walks', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=precision`);
  await page.waitForSelector('[data-lesson="precision"][data-step="1"] [data-panel="precision-positions"] canvas[data-plot]', { timeout: 20000 });
  const steps = Number(await page.locator('[data-lesson]').getAttribute('data-steps'));
  assert.ok(steps >= 3 && steps <= 8);
  for (let n = 2; n <= steps; n++) {
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForSelector(`[data-lesson="precision"][data-step="${n}"] canvas[data-plot]`, { timeout: 20000 });
  }
  assert.deepEqual(errors, []);
  await context.close();
});
