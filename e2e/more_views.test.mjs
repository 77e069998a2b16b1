// End-to-end specs for the learned, relative-bias, "why position?" and compare views, and the
// figure presets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useApp, openApp, settle, canvasData, slide, query, viewNames } from './support.mjs';

const app = useApp();

async function csvOf(page, panel) {
  const button = page.locator(`[data-panel="${panel}"] .exports button`, { hasText: /^CSV$/ }).first();
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const [head, ...rows] = fs.readFileSync(await dl.path(), 'utf8').trimEnd().split('\n');
  return { names: head.split(','), rows: rows.map((r) => r.split(',').map(Number)) };
}

function f16(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

/** transformers' T5 `_relative_position_bucket`, in JS. */
function t5Bucket(rel, bidirectional, numBuckets, maxDistance) {
  let buckets = numBuckets;
  let result = 0;
  let n;
  if (bidirectional) {
    buckets = Math.floor(buckets / 2);
    if (rel > 0) result += buckets;
    n = Math.abs(rel);
  } else {
    n = Math.max(-Math.min(rel, 0), 0);
  }
  const maxExact = Math.floor(buckets / 2);
  if (n < maxExact) return result + n;
  const f = Math.fround;
  const large = maxExact + Math.trunc(f(f(Math.log(f(n / maxExact))) / f(Math.log(f(maxDistance / maxExact)))) * (buckets - maxExact));
  return result + Math.min(large, buckets - 1);
}

test('relative-bias controls move the charts and the URL, and the CSVs equal the formulas', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=bias`);
  for (const [sel, value, param, expected, panel] of [
    ['#ctl-heads', 12, 'heads', '12', 'alibi-slopes'],
    ['#ctl-head', 5, 'head', '5', 'alibi-bias'],
    ['#ctl-seq_len', 40, 'seq_len', '40', 'alibi-bias'],
    ['#ctl-buckets', 64, 'buckets', '64', 't5-buckets'],
    ['#ctl-max_distance', 256, 'max_distance', '256', 't5-buckets'],
  ]) {
    const before = await canvasData(page, panel);
    await slide(page, sel, value);
    await settle(page);
    assert.ok((await canvasData(page, panel)) !== before, `${param} repaints ${panel}`);
    assert.equal(query(page).get(param), expected);
  }
  const slopes = await csvOf(page, 'alibi-slopes');
  assert.deepEqual(slopes.names, ['head', 'slope']);
  const want = [...Array.from({ length: 8 }, (_, k) => 2 ** (-(k + 1))), ...Array.from({ length: 16 }, (_, k) => 2 ** (-(k + 1) / 2)).filter((_, k) => k % 2 === 0).slice(0, 4)];
  slopes.rows.forEach((r, h) => assert.ok(Math.abs(r[1] - want[h]) <= 1e-12 * want[h], `slope ${h}`));
  for (const bidirectional of [true, false]) {
    if (!bidirectional) {
      await page.getByLabel('Causal (decoder)').check();
      await settle(page);
      assert.equal(query(page).get('bidirectional'), 'false');
    }
    const t5 = await csvOf(page, 't5-buckets');
    assert.deepEqual(t5.names, ['relative_position', 'bucket']);
    for (const [rel, bucket] of t5.rows) assert.equal(bucket, t5Bucket(rel, bidirectional, 64, 256), `bucket of ${rel}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('the MiniLM table loads only on the learned view, and its CSV equals the asset', async () => {
  const { page, context, requests } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`);
  await page.getByRole('button', { name: 'Relative biases' }).click();
  await settle(page);
  assert.equal(requests.filter((u) => u.endsWith('.f16')).length, 0, 'not fetched by other views');
  await page.getByRole('button', { name: 'Learned', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-panel="learned-heatmap"] canvas')?.hasAttribute('data-plot'), null, { timeout: 10000 });
  await page.waitForFunction(() => !document.querySelector('.status')?.textContent.includes('Loading'));
  assert.equal(requests.filter((u) => u.endsWith('minilm_l6_v2_position_embeddings.f16')).length, 1);
  await slide(page, '#ctl-seq_len', 8);
  await settle(page);
  const { names, rows } = await csvOf(page, 'learned-heatmap');
  assert.equal(names.length, 384);
  assert.equal(rows.length, 8);
  const asset = fs.readFileSync('assets/minilm_l6_v2_position_embeddings.f16');
  for (let p = 0; p < 8; p++) for (let c = 0; c < 384; c += 37) assert.equal(rows[p][c], Math.fround(f16(asset.readUInt16LE(2 * (384 * p + c)))), `${p},${c}`);
  assert.match(await page.locator('.provenance').innerText(), /Apache License 2\.0/);
  await context.close();
});

test('past the table the view shows the wall', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=learned&table=random&rows=100&cols=16&seq_len=150`);
  assert.match(await page.locator('.wall-notice').innerText(), /positions 0–99 only/);
  const panels = ['learned-heatmap', 'learned-similarity'];
  const before = await Promise.all(panels.map((p) => canvasData(page, p)));
  await slide(page, '#ctl-seq_len', 100);
  await settle(page);
  const after = await Promise.all(panels.map((p) => canvasData(page, p)));
  panels.forEach((p, i) => assert.ok(after[i] !== before[i], `seq_len repaints ${p}`));
  assert.equal(query(page).get('seq_len'), '100');
  const pca = await canvasData(page, 'learned-pca');
  await slide(page, '#ctl-seq_len', 50);
  await settle(page);
  assert.ok((await canvasData(page, 'learned-pca')) !== pca, 'seq_len within the table repaints the PCA path');
  const offset = await canvasData(page, 'learned-offset');
  await slide(page, '#ctl-seed', 9);
  await settle(page);
  assert.ok((await canvasData(page, 'learned-offset')) !== offset, 'seed draws a new table');
  assert.equal(query(page).get('seed'), '9');
  assert.equal((await page.locator('.wall-notice').innerText()).trim(), '');
  await context.close();
});

test('a malformed local file shows an error and keeps the last table', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-lab-'));
  const good = path.join(dir, 'table.csv');
  fs.writeFileSync(good, 'a,b,c\n' + Array.from({ length: 20 }, (_, i) => `${Math.sin(i)},${Math.cos(i)},${i / 20}`).join('\n'));
  const bad = path.join(dir, 'broken.npy');
  fs.writeFileSync(bad, 'this is not an npy file');
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=learned&table=random&rows=20&cols=3&seq_len=20`);
  await page.getByLabel('Local file').check();
  await page.locator('#ctl-file').setInputFiles(good);
  await page.waitForFunction(() => document.querySelector('[data-control="file"] .control-msg')?.textContent.includes('20 positions × 3 dims'));
  await settle(page);
  const before = await canvasData(page, 'learned-heatmap');
  await page.locator('#ctl-file').setInputFiles(bad);
  await page.waitForFunction(() => document.querySelector('[data-control="file"] .control-msg')?.textContent.includes('was not used'));
  assert.match(await page.locator('[data-control="file"] .control-msg').innerText(), /not an NPY file/);
  await settle(page);
  assert.equal(await canvasData(page, 'learned-heatmap'), before, 'the last table stays');
  await context.close();
});

test('without positions the shuffled outputs are the same vectors; with them they change', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=attention&order=4,3,2,1,0`);
  const statuses = async (cond) => page.locator(`table[data-condition="${cond}"] tbody td:last-child`).allInnerTexts();
  // Identical outputs under a shuffle are the failure: "order invisible", not a tick.
  assert.ok((await statuses('none')).every((t) => t.startsWith('order invisible')), 'no PE: every output unchanged');
  assert.ok((await statuses('pe')).some((t) => t.startsWith('order visible')), 'with PE: outputs change');
  // The precise word (only the set of outputs is invariant), and the case it holds in (no
  // causal mask).
  const about = await page.locator('[data-panel="permutation-demo"] p.about').innerText();
  assert.match(about, /attention is permutation-equivariant\. /);
  assert.match(about, /only the set of outputs is permutation-invariant/);
  assert.match(about, /no causal mask/);
  const colour = (cls) => page.locator(`tr.${cls} td:last-child`).first().evaluate((td) => getComputedStyle(td).color);
  assert.notEqual(await colour('order-invisible'), await colour('order-visible'));
  // The all-zero series is drawn as a labelled zero line (the chart's summary names it).
  assert.match(await page.locator('[data-panel="permutation-demo"] p.chart-summary').innerText(), /without PE: change = 0 for every token \(order invisible\)/);
  await page.getByLabel('RoPE (rotates q, k)').check();
  await settle(page);
  assert.equal(query(page).get('pe'), 'rope');
  assert.ok((await statuses('pe')).some((t) => t.startsWith('order visible')));
  await page.getByRole('button', { name: 'Shuffle' }).click();
  await settle(page);
  assert.notEqual(query(page).get('order'), '4,3,2,1,0');
  await page.getByRole('button', { name: 'Original order' }).click();
  await settle(page);
  assert.ok((await statuses('none')).every((t) => t.startsWith('original order')), 'nothing shuffled, nothing claimed');
  await page.getByRole('button', { name: 'Move dog left' }).click();
  await settle(page);
  assert.equal(query(page).get('order'), '1,0,2,3,4');
  assert.deepEqual(errors, []);
  await context.close();
});

test('compare: the table lists five schemes and the similarity CSV equals the formulas', async () => {
  const { page, context, requests } = await openApp(app.browser, `${app.server.url}?view=compare&k_max=50`);
  assert.equal(await page.locator('.compare-table tbody tr').count(), 5);
  const chart = await canvasData(page, 'compare-similarity');
  await slide(page, '#ctl-k_max', 60);
  await settle(page);
  assert.ok((await canvasData(page, 'compare-similarity')) !== chart, 'k_max repaints');
  assert.equal(query(page).get('k_max'), '60');
  await slide(page, '#ctl-k_max', 50);
  await settle(page);
  const { names, rows } = await csvOf(page, 'compare-similarity');
  assert.deepEqual(names, ['offset', 'sinusoidal', 'rope', 'alibi']);
  const omega = Array.from({ length: 64 }, (_, i) => 10000 ** (-(2 * i) / 128));
  for (const k of [0, 1, 7, 50]) {
    const want = omega.reduce((a, w) => a + Math.cos(k * w), 0) / 64;
    assert.ok(Math.abs(rows[k][1] - want) < 1e-12 && Math.abs(rows[k][2] - want) < 1e-12, `k ${k}`);
    assert.ok(Math.abs(rows[k][3] - Math.exp(-(2 ** -4) * k)) < 1e-12);
  }
  assert.equal(requests.filter((u) => u.endsWith('.f16')).length, 0);
  await page.getByRole('button', { name: 'Load it' }).click();
  await page.waitForFunction(() => !document.querySelector('[data-panel="compare-similarity"] .readout'));
  const withLearned = await csvOf(page, 'compare-similarity');
  assert.deepEqual(withLearned.names, ['offset', 'sinusoidal', 'rope', 'alibi', 'learned_minilm']);
  assert.ok(Math.abs(withLearned.rows[1][4] - 0.851) < 1e-3, 'MiniLM mean cosine at offset 1');
  // A scheme's name opens its view.
  await page.getByRole('button', { name: 'ALiBi bias' }).click();
  await page.waitForSelector('[data-panel="alibi-slopes"]');
  assert.equal(query(page).get('view'), 'bias');
  await context.close();
});

test('figure presets reproduce published settings and name their source', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope`);
  await page.locator('.figures select').selectOption('TensorFlow tutorial: 2048 × 512');
  await settle(page);
  const q = query(page);
  assert.deepEqual([q.get('view'), q.get('seq_len'), q.get('d_model'), q.get('layout'), q.get('p0')], ['sinusoidal', '2048', '512', 'concat', '1000']);
  assert.match(await page.locator('.figure-source').innerText(), /TensorFlow/);
  await page.locator('.figures select').selectOption('Illustrated Transformer (2020)');
  await settle(page);
  assert.equal(query(page).get('cmap'), 'viridis');
  await context.close();
});

test('no view logs an error or requests another origin', async () => {
  for (const view of await viewNames(app)) {
    const { page, context, errors, requests } = await openApp(app.browser, `${app.server.url}?view=${view}`);
    await settle(page);
    assert.deepEqual(errors, [], view);
    const foreign = requests.filter((u) => !u.startsWith(app.server.origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
    assert.deepEqual(foreign, [], view);
    await context.close();
  }
});

test('the learned captions describe the table shown: trained or random', async () => {
  const about = (page, panel) => page.locator(`[data-panel="${panel}"] p.about`).innerText();
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=learned`);
  await settle(page);
  assert.match(await about(page, 'learned-heatmap'), /training found it/);
  assert.match(await about(page, 'learned-similarity'), /^Training discovered order/);
  // Switching the source to a random table changes what the captions say of it.
  await page.locator('[data-control="table"] input[value="random"]').check();
  await settle(page);
  const heat = await about(page, 'learned-heatmap');
  assert.match(heat, /drawn at random/);
  assert.doesNotMatch(heat, /training found it/);
  const sim = await about(page, 'learned-similarity');
  assert.match(sim, /^A random table has no structure/);
  assert.doesNotMatch(sim, /Training discovered/);
  assert.deepEqual(errors, []);
  await context.close();
});
