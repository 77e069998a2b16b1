// End-to-end specs for Train it yourself (`view=train`): a run from the URL, what its charts,
// CSVs and sentences say, the same URL giving the same run bit for bit, Stop, and a page that
// stays alive while it trains.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useApp, openApp, settle, downloadText, slide, query } from './support.mjs';

const app = useApp();

// A small run (a few seconds): three encodings, short lengths, narrow model.
const SMALL = '?view=train&task=offset&mask=causal&enc=nope,learned,rope&train_len=8&test_len=24&layers=1&width=16&heads=2&steps=40&lr=0.01&seed=7&att_enc=learned';

async function runToEnd(page) {
  const setup = page.locator('[data-panel="train-setup"]');
  assert.equal(await setup.getAttribute('data-run'), 'idle');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'done', null, { timeout: 120000 });
  await settle(page);
  return Number(await setup.getAttribute('data-run-ms'));
}

function parseCsv(text) {
  const [head, ...rows] = text.trimEnd().split('\n');
  return { names: head.split(','), rows: rows.map((r) => r.split(',')) };
}

async function download(page, panel, label) {
  const button = page.locator(`[data-panel="${panel}"] .exports button`, { hasText: label }).first();
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return fs.readFileSync(await dl.path());
}

test('a run from the URL: curves, lengths, maps and sentences agree with its CSVs; the same URL gives the same run, bit for bit', async () => {
  const results = [];
  for (let round = 0; round < 2; round++) {
    const { page, context, errors } = await openApp(app.browser, app.server.url + SMALL);
    // The URL's settings are the controls' values, and the URL keeps them.
    assert.equal(await page.locator('#ctl-train_len').inputValue(), '8');
    assert.equal(await page.locator('input[name="task"][value="offset"]').isChecked(), true);
    assert.deepEqual(await page.$$eval('input[name="enc"]:checked', (els) => els.map((e) => e.value)), ['nope', 'learned', 'rope']);
    assert.equal(query(page).get('enc'), 'nope,learned,rope');
    const ms = await runToEnd(page);
    assert.ok(ms > 0, `data-run-ms ${ms}`);

    const loss = parseCsv(await downloadText(page, 'train-loss', 'CSV'));
    assert.deepEqual(loss.names, ['step', 'nope_loss', 'nope_acc', 'learned_loss', 'learned_acc', 'rope_loss', 'rope_acc']);
    assert.equal(loss.rows.length, 40);
    assert.deepEqual(loss.rows.map((r) => Number(r[0])), Array.from({ length: 40 }, (_, i) => i + 1));
    for (const r of loss.rows) for (const v of r.slice(1)) assert.ok(Number.isFinite(Number(v)) && v !== '', `loss row ${r}`);

    const length = parseCsv(await downloadText(page, 'train-length', 'CSV'));
    assert.deepEqual(length.names, ['length', 'nope', 'learned', 'rope']);
    const lens = length.rows.map((r) => Number(r[0]));
    assert.equal(lens.at(-1), 24);
    assert.ok(lens.includes(8));
    for (const r of length.rows) {
      const len = Number(r[0]);
      // A learned table of 8 rows: no accuracy past length 8, and an accuracy up to it.
      assert.equal(r[2] === '', len > 8, `learned at ${len}: "${r[2]}"`);
      for (const v of [r[1], r[3]]) assert.ok(Number(v) >= 0 && Number(v) <= 1 && v !== '', `accuracy ${v} at ${len}`);
    }

    // The sentences above the panels say what the CSV says.
    const summary = await page.locator('[data-run-summary]').innerText();
    const pct = (v) => `${Number((100 * Number(v)).toPrecision(3))} %`;
    const at = (len, col) => length.rows.find((r) => Number(r[0]) === len)[col];
    assert.ok(summary.includes(`RoPE: ${pct(at(8, 3))} at length 8, ${pct(at(24, 3))} at 24.`), summary);
    assert.ok(summary.includes(`learned: ${pct(at(8, 2))} at length 8; no vectors past position 7`), summary);
    assert.ok(summary.includes('Kazemnejad et al. (2023)'), summary);

    // The attention maps: the learned table has one inside training and none past it.
    const maps = page.locator('[data-panel="train-attention"] canvas.chart');
    assert.equal(await maps.count(), 1);
    assert.match(await page.locator('[data-panel="train-attention"] figcaption').innerText(), /learned has no vectors past position 7/);
    await page.locator('input[name="att_enc"][value="rope"]').check();
    await settle(page);
    assert.equal(await maps.count(), 2);
    assert.equal(query(page).get('att_enc'), 'rope');

    const weights = await download(page, 'train-setup', 'Weights (NPZ)');
    assert.equal(weights.subarray(0, 4).toString('binary'), 'PK\x03\x04');
    for (const name of ['nope/tok.npy', 'learned/pos.npy', 'rope/blocks.0.wq.npy']) assert.ok(weights.includes(Buffer.from(name)), name);
    const settings = JSON.parse((await download(page, 'train-setup', 'Settings (JSON)')).toString('utf8'));
    assert.equal(settings.task, 'offset');
    assert.deepEqual(settings.enc, ['nope', 'learned', 'rope']);
    assert.equal(settings.steps, 40);
    results.push({ loss: loss.rows, length: length.rows, weights: weights.toString('base64') });
    assert.deepEqual(errors, []);
    await context.close();
  }
  assert.deepEqual(results[1].loss, results[0].loss, 'the same URL gives the same learning curves');
  assert.deepEqual(results[1].length, results[0].length, 'and the same test accuracies');
  assert.equal(results[1].weights, results[0].weights, 'and the same weights, bit for bit');
});

test('Stop stops a run; the page answers while it trains; changed settings are said to differ from the run shown', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=train&steps=2000&enc=rope,t5`);
  const setup = page.locator('[data-panel="train-setup"]');
  // Long tasks while training: none should hold the page for long.
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'running');
  await page.waitForTimeout(1500);
  // A control moved during the run takes effect at once (the URL follows it).
  // (Not `settle`: while a run goes its curves keep changing, so charts below the fold wait.)
  await slide(page, '#ctl-seed', 42);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('seed') === '42');
  assert.equal(await setup.getAttribute('data-run'), 'running');
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'stopped');
  const longest = await page.evaluate(() => window.__longest);
  assert.ok(longest < 250, `the longest task while training took ${longest} ms`);
  const summary = await page.locator('[data-run-summary]').innerText();
  assert.match(summary, /stopped before it finished/);
  assert.match(summary, /testing starts once every encoding has trained/);
  assert.match(summary, /its settings differ from the ones above/);
  const loss = (await downloadText(page, 'train-loss', 'CSV')).trimEnd().split('\n');
  assert.ok(loss.length > 2 && loss.length < 2001, `${loss.length - 1} steps before Stop`);
  assert.equal(await setup.getAttribute('data-run-ms'), null, 'a stopped run has no run time');
  assert.deepEqual(errors, []);
  await context.close();
});

test('before a run the view says how long it will take, and the length chart shows the training range', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=train`);
  const estimate = await page.locator('[data-panel="train-setup"] .run-bar .readout').innerText();
  assert.match(estimate, /^6 models × 400 steps: about \d+(\.\d)? s \(/);
  // The attention panel has nothing to choose before a run.
  assert.equal(await page.locator('[data-panel="train-attention"] input').count(), 0);
  const before = await page.evaluate(() => document.querySelector('[data-panel="train-length"] canvas').toDataURL());
  await slide(page, '#ctl-train_len', 12);
  await settle(page);
  assert.equal(query(page).get('test_len'), '48', 'the longest test length follows 4 × the training length');
  assert.notEqual(await page.evaluate(() => document.querySelector('[data-panel="train-length"] canvas').toDataURL()), before);
  // The test lengths start at the training length: the slider's range and the number box say so.
  assert.equal(await page.locator('#ctl-test_len').getAttribute('min'), '12');
  const box = page.locator('[data-control="test_len"] input.num');
  await box.fill('2');
  await box.press('Enter');
  await settle(page);
  assert.equal(await page.locator('[data-control="test_len"] .control-msg').innerText(), 'Longest test length ranges from 12 to 48; used 12.');
  assert.equal(query(page).get('test_len'), '12');
  assert.deepEqual(errors, []);
  await context.close();
});

test('every setting of the setup reaches the run: moved, it changes the URL and the settings the run is made with', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=train`);
  const settings = async () => JSON.parse((await download(page, 'train-setup', 'Settings (JSON)')).toString('utf8'));
  const sliders = await page.$$eval('[data-panel="train-setup"] input[type=range]', (els) => els.map((e) => e.id));
  assert.deepEqual(sliders.map((id) => id.replace('ctl-', '')), ['train_len', 'test_len', 'layers', 'steps', 'lr', 'seed']);
  for (const id of sliders) {
    const name = id.replace('ctl-', '');
    const before = await settings();
    await page.evaluate((id) => {
      const el = document.getElementById(id);
      const min = Number(el.min), max = Number(el.max), step = Number(el.step) || 1;
      let target = min + Math.round(((max - min) * 0.37) / step) * step;
      if (String(target) === el.value) target = max;
      el.value = String(target);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }, id);
    await settle(page);
    const after = await settings();
    assert.notEqual(after[name], before[name], name);
    assert.equal(Number(query(page).get(name)), after[name], `${name} in the URL`);
  }
  for (const [name, value] of [['task', 'copy'], ['mask', 'causal'], ['width', '48'], ['heads', '4']]) {
    await page.locator(`input[name="${name}"][value="${value}"]`).check();
    await settle(page);
    assert.equal(String((await settings())[name]), value, name);
    assert.equal(query(page).get(name), value);
  }
  await page.locator('input[name="enc"][value="t5"]').uncheck();
  await settle(page);
  assert.deepEqual((await settings()).enc, ['nope', 'sinusoidal', 'learned', 'rope', 'alibi']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the shipped run: shipped=1 shows it at once, and it is what this page trains from the default settings, bit for bit', async () => {
  // The shipped run, read from lessons/train-run.npz.
  const shipped = await openApp(app.browser, `${app.server.url}?view=train&shipped=1&att_enc=alibi`);
  let page = shipped.page;
  const setup = () => page.locator('[data-panel="train-setup"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'done', null, { timeout: 30000 });
  await settle(page);
  assert.equal(await setup().getAttribute('data-run-source'), 'shipped');
  assert.equal(await setup().getAttribute('data-run-ms'), null, 'the shipped run was not timed here');
  const summary = await page.locator('[data-run-summary]').innerText();
  assert.match(summary, /^This is the shipped run/);
  assert.match(summary, /ALiBi: 100 % at length 16, 96\.9 % at 64\./);
  const fromFile = {
    loss: await downloadText(page, 'train-loss', 'CSV'),
    length: await downloadText(page, 'train-length', 'CSV'),
    weights: await download(page, 'train-setup', 'Weights'),
  };
  assert.equal(fromFile.loss.trimEnd().split('\n').length, 401);
  // The map chosen keeps the shipped run (and the URL keeps asking for it); a setting of the
  // run takes it away, with the URL.
  assert.equal(await page.locator('[data-panel="train-attention"] canvas.chart').count(), 2);
  await page.locator('input[name="att_enc"][value="learned"]').check();
  await settle(page);
  assert.equal(query(page).get('shipped'), '1');
  assert.equal(await setup().getAttribute('data-run'), 'done');
  await page.locator('input[name="task"][value="copy"]').check();
  await settle(page);
  assert.equal(query(page).get('shipped'), null);
  assert.equal(await setup().getAttribute('data-run'), 'idle');
  assert.deepEqual(shipped.errors, []);
  await shipped.context.close();

  // Asked for with other settings: said so, and not shown.
  const other = await openApp(app.browser, `${app.server.url}?view=train&shipped=1&steps=100`);
  page = other.page;
  await page.locator('.notices').waitFor({ timeout: 30000 });
  assert.match(await page.locator('.notices').innerText(), /shipped run is of the view's default settings/);
  await settle(page);
  assert.equal(query(page).get('shipped'), null);
  assert.equal(await setup().getAttribute('data-run'), 'idle');
  await other.context.close();

  // The same settings trained here: the same file, byte for byte.
  const fresh = await openApp(app.browser, `${app.server.url}?view=train`);
  page = fresh.page;
  const ms = await runToEnd(page);
  assert.equal(await setup().getAttribute('data-run-source'), 'page');
  const trained = {
    loss: await downloadText(page, 'train-loss', 'CSV'),
    length: await downloadText(page, 'train-length', 'CSV'),
    weights: await download(page, 'train-setup', 'Weights'),
  };
  assert.equal(trained.loss, fromFile.loss, 'learning curves');
  assert.equal(trained.length, fromFile.length, 'test accuracies');
  assert.ok(trained.weights.equals(fromFile.weights), 'trained weights');
  console.log(`# default run trained in this page in ${ms} ms: the shipped run, bit for bit`);
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
});

test('the train lesson asks before it shows: no run while a question waits, the shipped run once revealed, and its causal step trains what it says', async () => {
  const lesson = JSON.parse(fs.readFileSync(new URL('../dist/lessons/train.json', import.meta.url), 'utf8'));
  assert.ok(lesson.steps.length >= 5 && lesson.steps.filter((s) => s.question).length >= 2);
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=train&step=1`);
  const atStep = (n) => page.waitForFunction((n) => document.querySelector('[data-lesson="train"]')?.dataset.step === String(n) && document.querySelector('.lesson-step'), n, { timeout: 20000 });
  const source = (panel) => page.locator(`[data-panel="${panel}"]`).getAttribute('data-run-source');
  const shipped = (panel) => page.waitForFunction((p) => document.querySelector(`[data-panel="${p}"]`)?.dataset.runSource === 'shipped', panel, { timeout: 30000 });
  const answer = async (n) => {
    const q = lesson.steps[n - 1].question;
    assert.equal(await page.locator('.lesson-panels').getAttribute('inert'), '', 'locked until answered');
    await page.locator('[data-question] button.choice').nth(q.answer - 1).click();
    await page.getByRole('button', { name: 'Check' }).click();
    await page.waitForFunction(() => document.querySelector('[data-question]')?.dataset.revealed === 'true');
    assert.equal(await page.locator('.explain').innerText(), q.explain);
  };
  const next = async (n) => {
    await page.getByRole('button', { name: /Next/ }).click();
    await atStep(n);
    await settle(page);
  };
  await atStep(1);
  await settle(page);
  assert.equal(await source('train-length'), null);
  // Step 2 asks which will learn: no run is shown until it is answered.
  await next(2);
  assert.equal(await source('train-loss'), null);
  await answer(2);
  await shipped('train-loss');
  // Step 3 shows the shipped run; step 4 asks again, with the run taken away until answered.
  await next(3);
  await shipped('train-loss');
  await next(4);
  assert.equal(await source('train-length'), null);
  await answer(4);
  await shipped('train-length');
  // Step 5: the attention maps of the shipped run, at both lengths.
  await next(5);
  await shipped('train-attention');
  await page.waitForFunction(() => document.querySelectorAll('[data-panel="train-attention"] canvas.chart[data-plot]').length === 2, null, { timeout: 20000 });
  assert.equal(await page.locator('input[name="att_enc"][value="alibi"]').isChecked(), true);
  // Step 6: the causal mask. Answered, Run trains NoPE and ALiBi here, and the run says what
  // the explanation says (NoPE right at every length, ALiBi 85.9 % at 64).
  await next(6);
  assert.equal(await source('train-length'), null);
  await answer(6);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('[data-panel="train-setup"]').dataset.run === 'done', null, { timeout: 120000 });
  await settle(page);
  assert.equal(await source('train-length'), 'page');
  const rows = (await downloadText(page, 'train-length', 'CSV')).trimEnd().split('\n');
  assert.equal(rows[0], 'length,nope,alibi');
  for (const r of rows.slice(1)) assert.equal(r.split(',')[1], '1', r);
  assert.equal(Number(rows.at(-1).split(',')[2]).toFixed(3), '0.859');
  assert.match(lesson.steps[5].question.explain, /NoPE answers 100 % right at every length from 4 to 64, ALiBi 85\.9 % at 64/);
  assert.deepEqual(errors, []);
  await context.close();
});
