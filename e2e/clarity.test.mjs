// What a learner reads: sentences that were wrong or contradicted the lesson, checked as text,
// and embedded panels that do not point at what is not shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, settle, slide, reveal, revealAll, registeredViews } from './support.mjs';

const app = useApp();
const about = (page, panel) => page.locator(`[data-panel="${panel}"] p.about`).first().innerText();

test('rope-decay states RoFormer’s bound in one notation, and what the decay needs', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope`);
  const text = await about(page, 'rope-decay');
  assert.match(text, /Its Figure 2 plots the “relative upper bound”, the mean of \|S_i\| for i = 1 … D\/2 \(blue\)/);
  // Not read as the score's own bound: the blue curve is on its own scale.
  assert.match(text, /so it is not on the score's scale: for q = k = 1 the bound on the rotating dimensions is D times the blue curve/);
  assert.match(text, /independent with mean zero, the expected score is zero at every Δ \(green: the mean of 64 draws, which wobbles around zero\) and the spread of one draw's score \(√head_dim for unit-variance entries\) does not shrink with Δ/);
  // No imaginary unit i, no second pair index j, no k for a pair: i is the pair index.
  assert.doesNotMatch(text, /e\^\{i|Σ_j|θ_j|k<j/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('context extension: α² is the temperature, and the sources are named', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=scaling`);
  const text = await about(page, 'scaling-score-distance');
  assert.match(text, /so the rotary part of every logit is multiplied by α²: for α > 1, as both defaults are for s > 1, a sharper softmax\. That is YaRN's temperature t < 1, with √\(1\/t\) = α = 0\.1·ln s \+ 1 by default/);
  assert.doesNotMatch(text, /lowers YaRN's temperature/);
  const intro = await page.locator('.view-intro').first().innerText();
  assert.match(intro, /only the slow pairs \(wavelength λ_i > L₀\) meet angles/);
  assert.match(intro, /static NTK is bloc97's NTK-aware rule/);
  assert.doesNotMatch(intro, /follows Hugging Face transformers exactly/);
  await context.close();
});

test('the heatmap’s sentence and outlines follow the layout', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal&d_model=8&seq_len=50&hl_cols=0,2,4,6`);
  assert.match(await about(page, 'pe-heatmap'), /left columns oscillate fast/);
  const outlined = async () => {
    const [x0, , x1] = (await page.locator('[data-panel="pe-heatmap"] canvas').getAttribute('data-plot')).split(',').map(Number);
    const xs = await page.$$eval('[data-panel="pe-heatmap"] .chart-overlay .mark-hl', (rs) => rs.map((r) => Number(r.getAttribute('x'))));
    return xs.map((x) => Math.round(((x - x0) / (x1 - x0)) * 8)).sort((a, b) => a - b);
  };
  assert.deepEqual(await outlined(), [0, 2, 4, 6]);
  await page.goto(`${app.server.url}?view=sinusoidal&d_model=8&seq_len=50&hl_cols=0,2,4,6&layout=concat`);
  await page.waitForSelector('[data-panel="pe-heatmap"] canvas[data-plot]');
  const text = await about(page, 'pe-heatmap');
  assert.doesNotMatch(text, /left columns oscillate fast/);
  assert.match(text, /the sines come first \(pair i in column i\)/);
  // The sines of pairs 0–3 sit in columns 0–3 of the concatenated layout.
  assert.deepEqual(await outlined(), [0, 1, 2, 3]);
  assert.deepEqual(errors, []);
  await context.close();
});

test('Notation opens one table of symbols from a view and from a lesson step', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope`);
  await page.locator('.site-header').getByRole('button', { name: 'Notation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notation' });
  await dialog.waitFor();
  await page.waitForSelector('.notation-dialog table.notation');
  const symbols = await page.$$eval('.notation-dialog tbody th', (ths) => ths.map((t) => t.textContent));
  for (const s of ['pos', 'i', 'ω_i', 'Δ', 'm, n', 'L₀', 'α']) assert.ok(symbols.includes(s), `${s} in ${symbols}`);
  assert.equal(new Set(symbols).size, symbols.length);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.goto(`${app.server.url}?lesson=seed&step=3`);
  await page.waitForSelector('[data-lesson] .lesson-step');
  await page.locator('.lesson-bar').getByRole('button', { name: 'Notation' }).click();
  await page.waitForSelector('.notation-dialog table.notation');
  assert.deepEqual(errors, []);
  await context.close();
});

test('pe-curves gives the last pair’s live wavelength; pe-spectrum the exact monotonic rule', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=sinusoidal&d_model=8&seq_len=50`);
  // d_model 8: the last pair is i = 3, wavelength 2π·10000^(6/8) = 6283.2.
  assert.match(await about(page, 'pe-curves'), /up to 2π·base\^\(6\/8\) ≈ 6283\.2 positions for the last \(i = 3\)/);
  await slide(page, '#ctl-d_model', 128);
  await settle(page);
  const last = (await about(page, 'pe-curves')).match(/2π·base\^\(126\/128\) ≈ ([\d.]+) positions for the last \(i = 63\)/);
  assert.ok(last, 'the last pair at d_model 128');
  assert.ok(Math.abs(Number(last[1]) - 2 * Math.PI * 10000 ** (126 / 128)) < 1, last[1]);
  await reveal(page, 'pe-spectrum');
  const spectrum = await about(page, 'pe-spectrum');
  assert.match(spectrum, /that is, λ_i ≥ 4·\(seq_len − 1\)\. /);
  // d_model 128, seq_len 50: a sine rises over positions 0–49 when 2π·10000^(2i/128) ≥ 196.
  const expected = Array.from({ length: 64 }, (_, i) => 2 * Math.PI * 10000 ** ((2 * i) / 128)).filter((w) => w >= 196).length;
  assert.match(spectrum, new RegExp(`Here 4·\\(seq_len − 1\\) = 196, and ${expected} of the 64 pairs have λ_i at least that`));
  await context.close();
});

test('compare reconciles “generalizes” with “degrades past the trained length”', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=compare`);
  const text = await page.locator('[data-panel="compare-table"]').innerText();
  assert.match(text, /Two senses of “generalizes”/);
  assert.match(text, /sinusoidal encoding is said to generalize to unseen lengths and RoPE, being relative, to generalize better/);
  assert.doesNotMatch(text, /generalise poorly/);
  assert.doesNotMatch(await about(page, 'compare-similarity'), /see the t5-buckets panel/);
  await context.close();
});

test('an embedded panel does not point at panels that are not shown', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?embed=1&panel=pe-curves`);
  assert.doesNotMatch(await about(page, 'pe-curves'), /Click columns in the heatmap/);
  await page.goto(`${app.server.url}?embed=1&panel=pe-heatmap`);
  await page.waitForSelector('[data-panel="pe-heatmap"] canvas[data-plot]');
  assert.doesNotMatch(await page.locator('[data-panel="pe-heatmap"]').innerText(), /add its curve below/);
  await page.goto(`${app.server.url}?view=sinusoidal`);
  await page.waitForSelector('[data-panel="pe-heatmap"] canvas[data-plot]');
  assert.match(await page.locator('[data-panel="pe-heatmap"]').innerText(), /add its curve below/);
  assert.match(await about(page, 'pe-curves'), /Click columns in the heatmap/);
  await context.close();
});

test('an embed without view= shows the panel’s own view', async () => {
  for (const panel of ['rope-score-distance', 'alibi-bias', 'learned-pca', 'compare-similarity']) {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?embed=1&panel=${panel}`);
    assert.equal(await page.locator('[data-panel]').count(), 1, panel);
    assert.equal(await page.locator(`[data-panel="${panel}"]`).count(), 1, panel);
    assert.deepEqual(errors, [], panel);
    await context.close();
  }
});

test('an embed with hidden controls states its parameters, and every embed links to the full state', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?embed=1&panel=rope-decay&head_dim=32&theta=500000&controls=0`);
  const caption = await page.locator('.embed-footer .state-caption').innerText();
  assert.match(caption, /^RoPE — head_dim 32 · theta 500000 · /);
  const link = page.getByRole('link', { name: 'Open in PE Lab ↗' });
  assert.equal(await link.getAttribute('target'), '_blank');
  const href = new URL(await link.getAttribute('href'), page.url());
  assert.equal(href.searchParams.get('view'), 'rope');
  assert.equal(href.searchParams.get('head_dim'), '32');
  assert.equal(href.searchParams.get('embed'), null);
  assert.equal(href.searchParams.get('panel'), null);
  // With controls shown there is no caption (the controls say it), but still the link.
  await page.goto(`${app.server.url}?embed=1&panel=pe-heatmap`);
  await page.waitForSelector('[data-panel="pe-heatmap"] canvas[data-plot]');
  assert.equal(await page.locator('.embed-footer .state-caption').count(), 0);
  assert.equal(await page.getByRole('link', { name: 'Open in PE Lab ↗' }).count(), 1);
  // The full page has no such footer.
  await page.goto(`${app.server.url}?view=rope`);
  await page.waitForSelector('[data-panel="rope-decay"] canvas[data-plot]');
  assert.equal(await page.locator('.embed-footer').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('defaults show the lesson’s points on arrival', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`);
  // A sin/cos pair (same frequency, 90° apart) and one slow pair.
  assert.match(await page.locator('[data-panel="pe-curves"] canvas').getAttribute('aria-label'), /PE columns 4, 5 and 32 against/);
  // Learned opens past its 512 rows: the wall is the first thing seen.
  await page.goto(`${app.server.url}?view=learned`);
  await page.waitForSelector('[data-panel="learned-heatmap"] canvas[data-plot]', { timeout: 20000 });
  await page.waitForFunction(() => new URL(location.href).searchParams.get('seq_len') === '640');
  await page.waitForFunction(() => /positions 0–511 only/.test(document.querySelector('.wall-notice')?.textContent ?? ''), null, { timeout: 20000 });
  // RoPE opens with q = k = 1, and no query position puts a key before position 0.
  await page.goto(`${app.server.url}?view=rope`);
  await page.waitForSelector('[data-panel="rope-score-distance"] canvas[data-plot]', { timeout: 20000 });
  const q = new URL(page.url()).searchParams;
  assert.equal(q.get('qk'), 'ones');
  const maxDist = Number(q.get('max_dist'));
  for (const m of q.get('m').split(',').map(Number)) assert.ok(m - (maxDist - 1) >= 0, `m ${m} puts keys below 0`);
  // The lesson's own example is one click away in the Figures menu.
  await page.locator('.figures select').selectOption("The lesson's example: d_model = 8");
  await settle(page);
  const f = new URL(page.url()).searchParams;
  assert.deepEqual([f.get('view'), f.get('d_model'), f.get('cols')], ['sinusoidal', '8', '0,1,2,3,4,5,6,7']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('every visible slider of every view changes a chart in the default state', async () => {
  const views = await registeredViews(app);
  const { page, context, errors } = await openApp(app.browser, app.server.url);
  const idle = [];
  for (const v of views) {
    await page.goto(`${app.server.url}?view=${v.name}`);
    await page.waitForFunction(allPainted, null, { timeout: 20000 });
    await revealAll(page);
    // A run's settings (Train it yourself) act when Run is pressed, not on a chart at once:
    // e2e/train.test.mjs checks that each reaches the run.
    const sliders = await page.$$eval('main input[type=range]', (els) =>
      els.filter((e) => e.offsetParent !== null && !e.disabled && !e.closest('[data-panel="train-setup"]')).map((e) => e.id));
    for (const id of sliders) {
      await page.goto(`${app.server.url}?view=${v.name}`);
      await page.waitForFunction(allPainted, null, { timeout: 20000 });
      await revealAll(page);
      const before = await snapshots(page);
      let changed = false;
      for (const fraction of [0.37, 0.81, 0.05]) {
        await page.evaluate(([id, f]) => {
          const el = document.getElementById(id);
          const min = Number(el.min), max = Number(el.max), step = Number(el.step) || 1;
          const target = min + Math.round(((max - min) * f) / step) * step;
          el.value = String(target);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        }, [id, fraction]);
        await settle(page);
        await page.waitForFunction(allPainted);
        const after = await snapshots(page);
        if (after.some((d, i) => d !== before[i])) {
          changed = true;
          break;
        }
      }
      if (!changed) idle.push(`${v.name}: #${id}`);
    }
  }
  assert.deepEqual(idle, [], 'visible sliders that change no chart');
  assert.deepEqual(errors, []);
  await context.close();
});

async function snapshots(page) {
  return page.$$eval('main canvas', (cs) => cs.map((c) => c.toDataURL()));
}

function allPainted() {
  const charts = [...document.querySelectorAll('main canvas.chart')];
  return charts.length > 0 && charts.every((c) => c.hasAttribute('data-plot'));
}

test('the heatmap read-out has one aligned line per key; hovering marks the cell, its column and the partner column', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal&d_model=8&seq_len=50`);
  const canvas = page.locator('[data-panel="pe-heatmap"] canvas');
  const [x0, y0, x1, y1] = (await canvas.getAttribute('data-plot')).split(',').map(Number);
  await canvas.hover({ position: { x: x0 + (5.5 / 8) * (x1 - x0), y: y0 + (10.5 / 50) * (y1 - y0) } });
  const rows = await page.$$eval('[data-panel="pe-heatmap"] .readout-grid > div', (divs) =>
    divs.map((d) => ({ key: d.querySelector('dt').textContent, value: d.querySelector('dd').textContent, keyLeft: d.querySelector('dt').getBoundingClientRect().left, valueTop: d.querySelector('dd').getBoundingClientRect().top, keyTop: d.querySelector('dt').getBoundingClientRect().top, height: d.getBoundingClientRect().height })));
  assert.deepEqual(rows.map((r) => r.key), ['pos', 'col', 'pair i', 'function', 'ω_i', 'wavelength', 'value']);
  assert.deepEqual(rows.slice(0, 4).map((r) => r.value), ['10', '5', '2', 'cos']);
  for (const r of rows) {
    assert.ok(Math.abs(r.valueTop - r.keyTop) < 2, `${r.key}: key and value on one line`);
    assert.ok(r.height < 30, `${r.key}: one line`);
  }
  // Keys in a column: those that start a grid row share their left edge.
  const lefts = new Set(rows.map((r) => Math.round(r.keyLeft)));
  assert.ok(lefts.size <= 4, `key columns ${[...lefts]}`);
  // The overlay: the cell with a crosshair, its column and its partner (4 and 5) outlined.
  assert.equal(await page.locator('[data-panel="pe-heatmap"] .chart-overlay .mark-cell').count(), 1);
  assert.equal(await page.locator('[data-panel="pe-heatmap"] .chart-overlay .mark-cross').count(), 2);
  const related = await page.$$eval('[data-panel="pe-heatmap"] .chart-overlay .mark-related', (rs) => rs.map((r) => Number(r.getAttribute('x'))));
  const cell = (x1 - x0) / 8;
  assert.deepEqual(related.map((x) => Math.round((x - x0) / cell)).sort(), [4, 5]);
  // At 360 px the read-out lines stay whole.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.waitForTimeout(100);
  const narrow = await page.$$eval('[data-panel="pe-heatmap"] .readout-grid > div', (divs) => divs.map((d) => d.getBoundingClientRect().height));
  assert.ok(narrow.every((h) => h < 30), `${narrow}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('hl_cols and hl_pos outline columns and rows; the column loop shows live values and col - 1', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal&d_model=8&seq_len=50&p0=10&hl_cols=5,4&hl_pos=10`);
  const marks = await page.$$eval('[data-panel="pe-heatmap"] .chart-overlay .mark-hl', (rs) => rs.length);
  assert.equal(marks, 3);
  await reveal(page, 'pe-index');
  // The pair row of the highlighted columns is marked in the table.
  assert.deepEqual(await page.$$eval('.index-table tr.hl', (rs) => rs.map((r) => r.dataset.pair)), ['2']);
  const loop = await page.locator('[data-panel="pe-index"] .column-loop').innerText();
  assert.match(loop, /for col in range\(d_model\):/);
  assert.match(loop, /math\.cos\(pos \/ 10000 \*\* \(\(col - 1\) \/ d_model\)\)/);
  assert.match(loop, /col = 5 is odd: cos, col - 1 = 4, pair i = \(col - 1\) \/ 2 = 2/);
  const angle = 10 / 10000 ** (4 / 8);
  const m = loop.match(/PE\[10\]\[5\] = cos\(([\d.e-]+)\) = ([\d.e-]+)/);
  assert.ok(m, loop);
  assert.ok(Math.abs(Number(m[1]) - angle) < 1e-7 && Math.abs(Number(m[2]) - Math.cos(angle)) < 1e-7);
  // A click on a table row selects that pair: URL, outline and loop follow.
  await page.locator('.index-table tr[data-pair="3"] td').first().click();
  await settle(page);
  assert.equal(new URL(page.url()).searchParams.get('hl_cols'), '7,6');
  assert.match(await page.locator('[data-panel="pe-index"] .column-loop').innerText(), /col = 7 is odd: cos, col - 1 = 6, pair i = \(col - 1\) \/ 2 = 3/);
  assert.deepEqual(await page.$$eval('.index-table tr.hl', (rs) => rs.map((r) => r.dataset.pair)), ['3']);
  // Hovering a heatmap column shows that column in the loop.
  const canvas = page.locator('[data-panel="pe-heatmap"] canvas');
  const [x0, y0, x1, y1] = (await canvas.getAttribute('data-plot')).split(',').map(Number);
  await canvas.hover({ position: { x: x0 + (2.5 / 8) * (x1 - x0), y: (y0 + y1) / 2 } });
  assert.match(await page.locator('[data-panel="pe-index"] .column-loop').innerText(), /col = 2 is even: sin, pair i = col \/ 2 = 1/);
  assert.deepEqual(errors, []);
  await context.close();
  // The concatenated layout: the loop follows its rule, and its live value is the view's.
  // hl_cols names interleaved columns (5: pair 2's cos), which this layout puts at column 6:
  // the heatmap's outline, the loop and the table's marked row all show that one pair.
  const concat = await openApp(app.browser, `${app.server.url}?view=sinusoidal&d_model=8&seq_len=50&p0=10&hl_cols=5&layout=concat`);
  const outline = await concat.page.$$eval('[data-panel="pe-heatmap"] .chart-overlay .mark-hl', (rs) => rs.map((r) => Number(r.getAttribute('x'))));
  const [px0, , px1] = (await concat.page.locator('[data-panel="pe-heatmap"] canvas').getAttribute('data-plot')).split(',').map(Number);
  await reveal(concat.page, 'pe-index');
  const cloop = await concat.page.locator('[data-panel="pe-index"] .column-loop').innerText();
  assert.match(cloop, /if col < half:/);
  assert.match(cloop, /col = 6 ≥ half = 4: cos, pair i = col - half = 2/);
  const cm = cloop.match(/PE\[10\]\[6\] = cos\(([\d.e-]+)\) = ([\d.e-]+)/);
  const cangle = 10 / 10000 ** (4 / 8);
  assert.ok(cm && Math.abs(Number(cm[1]) - cangle) < 1e-7 && Math.abs(Number(cm[2]) - Math.cos(cangle)) < 1e-7, cloop);
  assert.deepEqual(await concat.page.$$eval('.index-table tr.hl', (rs) => rs.map((r) => r.dataset.pair)), ['2']);
  assert.equal(outline.length, 1);
  assert.ok(Math.abs(outline[0] - (px0 + (6 / 8) * (px1 - px0))) < 1, `the outline is on column 6 of 8: x ${outline[0]} in ${px0}…${px1}`);
  // A click on pair 3's row writes its interleaved columns; the loop shows its cos column, 7.
  await concat.page.locator('.index-table tr[data-pair="3"] td').first().click();
  await settle(concat.page);
  assert.equal(new URL(concat.page.url()).searchParams.get('hl_cols'), '7,6');
  assert.match(await concat.page.locator('[data-panel="pe-index"] .column-loop').innerText(), /col = 7 ≥ half = 4: cos, pair i = col - half = 3/);
  assert.match(await concat.page.locator('[data-panel="pe-index"] figcaption').nth(1).innerText(), /col < ⌈d_model\/2⌉ → i = col/);
  assert.deepEqual(concat.errors, []);
  await concat.context.close();
});
