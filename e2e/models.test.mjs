// The Real models view: the gallery (rows, sources, CSV, a row opening its preset), the
// selected models drawn together, and the base-bound panels (the first crossing of B(Δ) for
// the URL's head_dim and theta, checked by a direct sum here; the smallest-base CSV checked
// against the definition).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, settle, slide, query, downloadText, canvasData, reveal } from './support.mjs';

const app = useApp();

/** B(Δ) = Σ_i cos(Δ·base^(−2i/D)), summed here independently of the app. */
function bSum(d, base, delta) {
  let s = 0;
  for (let i = 0; i < d / 2; i++) s += Math.cos(delta * base ** (-(2 * i) / d));
  return s;
}

async function firstNegative(page) {
  const el = page.locator('[data-panel="base-bound"] [data-first-negative]');
  await el.waitFor({ timeout: 20000 });
  return Number(await el.getAttribute('data-first-negative'));
}

test('the gallery lists every model with a source, and its CSV has them all', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=models`);
  await settle(page);
  const rows = page.locator('[data-panel="model-gallery"] .model-table tbody tr');
  const n = await rows.count();
  assert.ok(n >= 12, `${n} models`);
  const sources = page.locator('[data-panel="model-gallery"] .model-sources li');
  assert.equal(await sources.count(), n, 'one source line per model');
  for (const text of await sources.allTextContents()) assert.ok(text.length > 40, text);
  const csv = (await downloadText(page, 'model-gallery', 'CSV')).trim().split('\n');
  assert.equal(csv.length, n + 1);
  assert.ok(csv[0].startsWith('id,model,scheme,heads,head_dim,rotary_dims,layout,rope_theta,scaling,original_context,context'));
  const llama = csv.find((r) => r.startsWith('llama-3.1-8b,'));
  assert.ok(llama.includes(',128,128,half,500000,') && llama.includes(',8192,131072,'), llama);
  // The default selection is drawn and the rows are marked.
  assert.equal(await page.locator('[data-panel="model-gallery"] tr.chosen').count(), 4);
  assert.deepEqual(errors, []);
  await context.close();
});

test('choosing models redraws both charts and the URL; a row opens the Context extension view with its config', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=models&models=llama-2-7b`);
  await settle(page);
  await reveal(page, 'model-scores');
  const before = [await canvasData(page, 'model-wavelengths'), await canvasData(page, 'model-scores')];
  await page.locator('[data-control="models"] input[value="llama-4-scout"]').check();
  await settle(page);
  assert.equal(query(page).get('models'), 'llama-2-7b,llama-4-scout');
  const after = [await canvasData(page, 'model-wavelengths'), await canvasData(page, 'model-scores')];
  assert.notEqual(after[0], before[0]);
  assert.notEqual(after[1], before[1]);
  // Llama 2: 128 dims, base 10,000, context 4,096: pairs with 2π·10000^(2i/128) ≤ 4096 turn.
  let turn = 0;
  for (let i = 0; i < 64; i++) if (2 * Math.PI * 10000 ** ((2 * i) / 128) <= 4096) turn++;
  assert.match(await page.locator('[data-panel="model-wavelengths"] .readout').textContent(), new RegExp(`Llama 2 7B: ${turn} of 64 pairs complete a turn`));
  // The wavelengths CSV: one row per pair per model, the scaled frequency divides by 16 for
  // Scout's slowest pair.
  const rows = (await downloadText(page, 'model-wavelengths', 'CSV')).trim().split('\n').slice(1).map((r) => r.split(','));
  assert.equal(rows.length, 64 + 64);
  const slowest = rows.find((r) => r[0] === 'llama-4-scout' && r[1] === '63');
  const unscaled = 500000 ** (-(2 * 63) / 128);
  assert.ok(Math.abs(Number(slowest[2]) - unscaled / 16) < 1e-12 * unscaled);
  await page.locator('[data-panel="model-gallery"] button[data-open="llama-3.1-8b"]').click();
  await settle(page);
  const q = query(page);
  assert.equal(q.get('view'), 'scaling');
  assert.deepEqual([q.get('theta'), q.get('factor'), q.get('orig_ctx'), q.get('head_dim')], ['500000', '8', '8192', '128']);
  assert.ok(q.get('method').includes('llama3'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('B(Δ) first goes negative where a direct sum says, and follows head_dim and the base', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=models&head_dim=64&theta=10000`);
  await reveal(page, 'base-bound');
  const check = async (d, base) => {
    const m = await firstNegative(page);
    assert.ok(bSum(d, base, m) < 0, `B(${m}) < 0 at D ${d}, base ${base}`);
    for (let k = 0; k < m; k++) assert.ok(bSum(d, base, k) >= 0, `B(${k}) ≥ 0 at D ${d}, base ${base}`);
    return m;
  };
  assert.equal(await check(64, 10000), 725);
  const before = await canvasData(page, 'base-bound');
  await slide(page, '#ctl-head_dim', 128);
  await settle(page);
  assert.equal(await check(128, 10000), 1707);
  assert.notEqual(await canvasData(page, 'base-bound'), before);
  assert.equal(query(page).get('head_dim'), '128');
  // A large base: the scan takes several paints, and the page still waits for it to finish.
  await page.goto(`${app.server.url}?view=models&head_dim=128&theta=640000`);
  await reveal(page, 'base-bound');
  assert.equal(await check(128, 640000), 27685);
  assert.match(await page.locator('[data-panel="base-bound"] .readout').innerText(), /first drops below 0 at Δ = 27,685/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the smallest-base CSV: each base keeps B(Δ) ≥ 0 below its context, and a little less does not', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=models&head_dim=64`);
  await reveal(page, 'base-bound-min');
  const text = (await downloadText(page, 'base-bound-min', 'CSV')).trim().split('\n');
  assert.equal(text[0], 'context_length,min_base');
  const rows = text.slice(1).map((r) => r.split(',').map(Number));
  assert.ok(rows.length >= 10);
  for (const [l, b] of rows.filter(([l]) => l <= 4096)) {
    for (let k = 0; k < l; k++) assert.ok(bSum(64, b, k) >= 0, `L ${l}: B(${k}) at base ${b}`);
    const lower = b * (1 - 1e-5);
    let fails = false;
    for (let k = 0; k < l && !fails; k++) fails = bSum(64, lower, k) < 0;
    assert.ok(fails, `L ${l}: base ${lower} should fail`);
  }
  // The released models' table has every RoPE model's own crossing once the scans finish.
  const cells = page.locator('[data-panel="base-bound-min"] [data-model-first]');
  assert.ok((await cells.count()) >= 10);
  const llama2 = await page.locator('[data-panel="base-bound-min"] [data-model-first="llama-2-7b"]').innerText();
  assert.equal(llama2, '1,707');
  assert.equal(await page.locator('[data-panel="base-bound-min"] [data-model-scaled-first="llama-2-7b"]').innerText(), 'no scaling');
  // Llama 3.1 with its llama3 scaling (transformers' rule, written out here): the sum of cosines
  // first goes negative much later than at its bare base.
  const inv = [];
  for (let i = 0; i < 64; i++) {
    const w = 500000 ** (-(2 * i) / 128);
    const wl = (2 * Math.PI) / w;
    if (wl < 8192 / 4) inv.push(w);
    else if (wl > 8192) inv.push(w / 8);
    else {
      const smooth = (8192 / wl - 1) / (4 - 1);
      inv.push((1 - smooth) * (w / 8) + smooth * w);
    }
  }
  let scaledFirst = -1;
  for (let d = 0; scaledFirst < 0 && d < 1e6; d++) {
    let s = 0;
    for (const w of inv) s += Math.cos(d * w);
    if (s < 0) scaledFirst = d;
  }
  const shown = await page.locator('[data-panel="base-bound-min"] [data-model-scaled-first="llama-3.1-8b"]').innerText();
  assert.equal(shown, scaledFirst.toLocaleString('en-US'));
  await context.close();
});

test('unknown or position-less models in the URL are ignored with a notice; a panel embeds alone', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=models&models=gpt2,nope,qwen2.5-7b`);
  await settle(page);
  assert.equal(query(page).get('models'), 'qwen2.5-7b');
  const notices = await page.locator('.notices').innerText();
  assert.match(notices, /“gpt2” is not a RoPE model of the gallery/);
  assert.match(notices, /“nope” is not a RoPE model of the gallery/);
  await page.goto(`${app.server.url}?view=models&embed=1&panel=base-bound&head_dim=96&theta=500000`);
  // The view's chunk may still be on its way when the page is idle: wait for the panel.
  await page.waitForSelector('[data-panel="base-bound"] canvas.chart[data-plot]', { timeout: 20000 });
  await settle(page);
  assert.equal(await page.locator('[data-panel]').count(), 1);
  const m = await firstNegative(page);
  assert.ok(bSum(96, 500000, m) < 0 && bSum(96, 500000, m - 1) >= 0);
  assert.deepEqual(errors, []);
  await context.close();
});
