// End-to-end specs for the context-extension view (`view=scaling`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useApp, openApp, settle, canvasData, slide, query } from './support.mjs';

const app = useApp();

async function download(page, panel) {
  const button = page.locator(`[data-panel="${panel}"] .exports button`, { hasText: /^CSV$/ }).first();
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const [head, ...rows] = fs.readFileSync(await dl.path(), 'utf8').trimEnd().split('\n');
  const names = head.split(',');
  const cols = Object.fromEntries(names.map((n, i) => [n, rows.map((r) => Number(r.split(',')[i]))]));
  return { names, cols };
}

const both = async (page) => [await canvasData(page, 'scaling-frequencies'), await canvasData(page, 'scaling-score-distance')];

test('every control moves the charts and the URL', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=scaling&method=none,linear,ntk,dynamic,yarn,longrope,llama3&factor=4&orig_ctx=1024`);
  const moves = [
    ['#ctl-factor', Math.log10(8), 'factor', '8'],
    ['#ctl-orig_ctx', 2048, 'orig_ctx', '2048'],
    ['#ctl-head_dim', 64, 'head_dim', '64'],
    ['#ctl-theta', 5, 'theta', '100000'],
    ['#ctl-partial', 0.5, 'partial', '0.5'],
    ['#ctl-seq_len', 40000, 'seq_len', '40000'],
    ['#ctl-beta_fast', Math.log10(16), 'beta_fast', '16'],
    ['#ctl-beta_slow', Math.log10(2), 'beta_slow', '2'],
    ['#ctl-low_freq_factor', Math.log10(2), 'low_freq_factor', '2'],
    ['#ctl-high_freq_factor', Math.log10(8), 'high_freq_factor', '8'],
  ];
  for (const [selector, value, param, expected] of moves) {
    const before = await both(page);
    await slide(page, selector, value);
    await settle(page);
    const after = await both(page);
    assert.ok(after[0] !== before[0] || after[1] !== before[1], `${param} repaints a chart`);
    assert.notEqual(after[1], before[1], `${param} repaints the score chart`);
    assert.equal(query(page).get(param), expected, `${param} in the URL`);
  }
  // mscale acts only with mscale_all_dim; an explicit attention factor overrides both.
  for (const [selector, value, param] of [['#ctl-mscale', '1', 'mscale'], ['#ctl-mscale_all_dim', '0.5', 'mscale_all_dim'], ['#ctl-attn_factor', '1.5', 'attn_factor']]) {
    const before = await both(page);
    await page.locator(selector).fill(value);
    await page.locator(selector).dispatchEvent('change');
    await settle(page);
    assert.equal(query(page).get(param), value, `${param} in the URL`);
    if (param !== 'mscale') assert.ok((await both(page))[1] !== before[1], `${param} repaints the score chart`);
  }
  const before = await both(page);
  await page.getByLabel('Exact range').check();
  await settle(page);
  assert.equal(query(page).get('truncate'), 'false');
  await page.locator('input[name="method"][value="llama3"]').uncheck();
  await settle(page);
  assert.equal(query(page).get('method'), 'none,linear,ntk,dynamic,yarn,longrope');
  assert.notEqual((await both(page))[1], before[1]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('model presets and a pasted config set the controls', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=scaling`);
  await page.locator('#ctl-preset').selectOption('llama-3.1-8b');
  await settle(page);
  let q = query(page);
  assert.deepEqual([q.get('method'), q.get('theta'), q.get('factor'), q.get('orig_ctx'), q.get('head_dim')], ['none,llama3', '500000', '8', '8192', '128']);
  assert.match(await page.locator('.presets .source').innerText(), /meta-llama\/Llama-3\.1-8B/);
  // The source stays only while the state is the preset's.
  await slide(page, '#ctl-factor', 0.3); // log scale: s = 10^0.3 ≈ 2
  await settle(page);
  assert.equal(await page.locator('.presets .source').innerText(), '');
  await page.locator('#ctl-preset').selectOption('GPT-NeoX-20B');
  await settle(page);
  q = query(page);
  assert.deepEqual([q.get('head_dim'), q.get('partial')], ['96', '0.25']);

  const config = JSON.stringify({ model_type: 'llama', hidden_size: 2048, num_attention_heads: 32, max_position_embeddings: 16384, rope_theta: 50000, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096, beta_fast: 16 } });
  await page.locator('#ctl-config').fill(config);
  await page.getByRole('button', { name: 'Apply config' }).click();
  await settle(page);
  q = query(page);
  assert.deepEqual([q.get('method'), q.get('head_dim'), q.get('theta'), q.get('factor'), q.get('orig_ctx'), q.get('beta_fast')], ['none,yarn', '64', '50000', '4', '4096', '16']);
  assert.match(await page.locator('[data-control="config"] .control-msg').innerText(), /Applied/);
  await context.close();
});

test('a malformed config shows an error and changes nothing', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=scaling`);
  const url = page.url();
  const charts = await both(page);
  for (const [text, needle] of [['{"hidden_size": 4096,', /not valid JSON/], ['{"head_dim": 64, "rope_scaling": {"type": "su"}}', /not supported/], ['{"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8}}', /needs/]]) {
    await page.locator('#ctl-config').fill(text);
    await page.getByRole('button', { name: 'Apply config' }).click();
    await settle(page);
    assert.match(await page.locator('[data-control="config"] .control-msg').innerText(), needle);
    assert.equal(page.url(), url, 'URL unchanged');
    assert.deepEqual(await both(page), charts, 'charts unchanged');
  }
  await context.close();
});

test('the CSVs equal the formulas', async () => {
  const D = 64;
  const theta = 10000;
  const s = 4;
  const L0 = 1024;
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=scaling&method=none,linear,ntk,yarn&head_dim=${D}&theta=${theta}&factor=${s}&orig_ctx=${L0}`);
  const f = await download(page, 'scaling-frequencies');
  for (const m of ['none', 'linear', 'ntk', 'yarn']) for (const c of ['freq', 'wavelength', 'attn']) assert.ok(f.names.includes(`${c}_${m}`), `${c}_${m}`);
  const base = Array.from({ length: D / 2 }, (_, j) => Math.pow(theta, (-2 * j) / D));
  const ntkTheta = theta * Math.pow(s, D / (D - 2));
  for (let j = 0; j < D / 2; j++) {
    const rel = (a, b) => Math.abs(a - b) <= 1e-12 * Math.abs(b);
    assert.ok(rel(f.cols.freq_none[j], base[j]), `none ${j}`);
    assert.ok(rel(f.cols.freq_linear[j], base[j] / s), `linear ${j}`);
    assert.ok(rel(f.cols.freq_ntk[j], Math.pow(ntkTheta, (-2 * j) / D)), `ntk ${j}`);
    assert.ok(rel(f.cols.wavelength_none[j], (2 * Math.PI) / base[j]), `wavelength ${j}`);
  }
  assert.ok(Math.abs(f.cols.attn_yarn[0] - (0.1 * Math.log(s) + 1)) < 1e-12);
  const sd = await download(page, 'scaling-score-distance');
  assert.deepEqual(sd.names, ['distance', 'none', 'linear', 'ntk', 'yarn']);
  assert.equal(sd.cols.distance.length, s * L0 + 1);
  for (const d of [0, 1, 500, 4096]) {
    const want = base.reduce((acc, w) => acc + 2 * Math.cos(d * w), 0);
    assert.ok(Math.abs(sd.cols.none[d] - want) < 1e-9, `none at ${d}`);
    const lin = base.reduce((acc, w) => acc + 2 * Math.cos((d * w) / s), 0);
    assert.ok(Math.abs(sd.cols.linear[d] - lin) < 1e-9, `linear at ${d}`);
  }
  const alpha = 0.1 * Math.log(s) + 1;
  assert.ok(Math.abs(sd.cols.yarn[0] - alpha * alpha * D) < 1e-9, 'yarn includes α²');
  await context.close();
});

test('no console error and no request to another origin', async () => {
  const { page, context, errors, requests } = await openApp(app.browser, `${app.server.url}?view=scaling&method=none,linear,ntk,dynamic,yarn,longrope,llama3`);
  await page.locator('#ctl-preset').selectOption('GPT-J-6B');
  await page.getByRole('button', { name: /YaRN on LLaMA-2/ }).click();
  await settle(page);
  assert.deepEqual(errors, []);
  const foreign = requests.filter((u) => !u.startsWith(app.server.origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(foreign, []);
  await context.close();
});
