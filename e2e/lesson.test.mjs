// The guided lesson: walked by buttons and by keyboard, opened at a step by deep link and
// embedded, presenter mode sized for a projector, and lesson files that are broken or missing.
// Questions, the presenter's fit and the lesson list: questions.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { useApp, openApp, query, idle, DIST } from './support.mjs';

const app = useApp();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SEED = JSON.parse(fs.readFileSync(path.join(DIST, 'lessons', 'seed.json'), 'utf8'));
/** The 1-based number of the first seed step whose prompt names `control`. */
const stepWith = (control) => SEED.steps.findIndex((s) => s.control === control) + 1;
const BASE_STEP = stepWith('base');
const OFFSET_STEP = stepWith('offset');
const LAST = SEED.steps.length;

/** Waits until step `n` shows its panels, painted, and its highlight if it has one. */
async function atStep(page, n) {
  const step = SEED.steps[n - 1];
  await page.waitForFunction(([n, panels]) => {
    const frame = document.querySelector('[data-lesson]');
    if (!frame || frame.dataset.step !== String(n)) return false;
    const shown = [...document.querySelectorAll('.lesson [data-panel]')].map((e) => e.dataset.panel);
    if (shown.join() !== panels.join()) return false;
    const charts = [...document.querySelectorAll('.lesson canvas.chart')];
    return charts.every((c) => c.hasAttribute('data-plot'));
  }, [n, step.panels], { timeout: 20000 });
  await idle(page);
  assert.equal(query(page).get('step'), String(n));
  assert.equal(await page.locator('.lesson-step h2').innerText(), `${n}. ${step.title}`);
  assert.equal(await page.locator('.lesson-text').innerText(), step.text);
  if (step.highlight?.cols && step.panels.includes('pe-heatmap')) {
    await page.waitForFunction((k) => document.querySelectorAll('[data-panel="pe-heatmap"] .chart-overlay .mark-hl').length === k, step.highlight.cols.length + (step.highlight.positions?.length ?? 0));
  }
  if (step.highlight?.positions && step.panels.includes('pe-heatmap')) {
    await page.waitForFunction(() => document.querySelectorAll('[data-panel="pe-heatmap"] .chart-overlay .mark-hl').length > 0);
  }
}

test('the seed lesson walks by its Back and Next buttons, the URL following', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed`);
  const frame = page.locator('[data-lesson="seed"]');
  assert.equal(await frame.getAttribute('data-steps'), String(SEED.steps.length));
  assert.ok(SEED.steps.length >= 12);
  await atStep(page, 1);
  assert.ok(await page.getByRole('button', { name: 'Back' }).isDisabled());
  for (let n = 2; n <= SEED.steps.length; n++) {
    await page.getByRole('button', { name: 'Next' }).click();
    await atStep(page, n);
  }
  assert.ok(await page.getByRole('button', { name: 'Next' }).isDisabled());
  await page.getByRole('button', { name: 'Back' }).click();
  await atStep(page, SEED.steps.length - 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the seed lesson walks by the arrow keys alone, and a control stays live', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed`);
  await atStep(page, 1);
  await page.locator('body').focus();
  for (let n = 2; n <= SEED.steps.length; n++) {
    await page.keyboard.press('ArrowRight');
    await atStep(page, n);
  }
  await page.keyboard.press('ArrowRight');
  await atStep(page, SEED.steps.length);
  for (let n = SEED.steps.length - 1; n >= 1; n--) {
    await page.keyboard.press('ArrowLeft');
    await atStep(page, n);
  }
  // Step 2 (once its question is revealed): moving its control changes the chart; arrows on
  // a slider move the slider, not the lesson; "Reset step" restores the step's state.
  await page.keyboard.press('ArrowRight');
  await atStep(page, 2);
  await page.getByRole('button', { name: 'Show me' }).click();
  await page.waitForFunction(() => document.querySelector('[data-control="seq_len"] input.num')?.value === '100');
  await idle(page);
  const slider = page.locator('.lesson #ctl-seq_len');
  const before = await page.locator('[data-panel="pe-heatmap"] canvas').evaluate((c) => c.toDataURL());
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-control="seq_len"] input.num')?.value !== '100');
  await idle(page);
  assert.equal(await page.locator('[data-lesson]').getAttribute('data-step'), '2');
  assert.notEqual(await page.locator('[data-panel="pe-heatmap"] canvas').evaluate((c) => c.toDataURL()), before);
  await page.getByRole('button', { name: 'Reset step' }).click();
  await page.waitForFunction(() => document.querySelector('[data-control="seq_len"] input.num')?.value === '50');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a step opens by deep link and embedded, without the site header', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=6`);
  await atStep(page, 6);
  assert.equal(await page.locator('.site-header').count(), 1);
  await page.goto(`${app.server.url}?lesson=seed&step=3&embed=1`);
  await atStep(page, 3);
  assert.equal(await page.locator('.site-header').count(), 0);
  assert.equal(query(page).get('embed'), '1');
  // The last step's scheme links leave the lesson for that view.
  await page.goto(`${app.server.url}?lesson=seed&step=${LAST}`);
  await atStep(page, LAST);
  await page.locator('.compare-table button[data-view="rope"]').click();
  await page.waitForSelector('[data-panel="rope-decay"] canvas[data-plot]', { timeout: 20000 });
  await idle(page);
  assert.equal(query(page).get('lesson'), null);
  assert.equal(query(page).get('view'), 'rope');
  // The navigation leaves a loaded lesson for the chosen view, too.
  await page.goto(`${app.server.url}?lesson=seed&step=4`);
  await atStep(page, 4);
  await page.getByRole('button', { name: 'Relative biases', exact: true }).click();
  await page.waitForSelector('[data-panel="alibi-slopes"] canvas[data-plot]', { timeout: 20000 });
  await idle(page);
  assert.equal(query(page).get('view'), 'bias');
    // A step past the end is brought within the lesson.
  await page.goto(`${app.server.url}?lesson=seed&step=99`);
  await atStep(page, SEED.steps.length);
  assert.deepEqual(errors, []);
  await context.close();
});

test('presenter mode is readable from the back of a classroom at 1920 × 1080', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=${BASE_STEP}&present=1`, { viewport: { width: 1920, height: 1080 } });
  await atStep(page, BASE_STEP);
  const sizes = await page.evaluate(() => {
    const px = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
    const canvas = document.querySelector('.lesson canvas.chart').getBoundingClientRect();
    const panelTexts = [...document.querySelectorAll('.lesson .panel p, .lesson .panel .chart-summary, .lesson .panel summary')].map((e) => parseFloat(getComputedStyle(e).fontSize));
    const controls = [...document.querySelectorAll('.lesson .controls > [data-control]')].filter((e) => e.offsetParent !== null).map((e) => e.dataset.control);
    const sticky = [...document.querySelectorAll('.lesson .controls')].some((e) => getComputedStyle(e).position === 'sticky');
    return { text: px('.lesson-text'), tryThis: px('.lesson-try'), panelMin: Math.min(...panelTexts), w: canvas.width, h: canvas.height, controls, sticky };
  });
  assert.ok(sizes.text >= 24 && sizes.tryThis >= 24, JSON.stringify(sizes));
  assert.ok(sizes.panelMin >= 18, JSON.stringify(sizes));
  assert.ok(sizes.w >= 1100 && sizes.h >= 500, JSON.stringify(sizes));
  assert.deepEqual(sizes.controls, ['base']);
  assert.equal(sizes.sticky, false);
  // A step whose control sits in its panel shows no empty controls box.
  await page.goto(`${app.server.url}?lesson=seed&step=${OFFSET_STEP}&present=1`);
  await atStep(page, OFFSET_STEP);
  assert.equal(await page.locator('.lesson .controls').evaluateAll((els) => els.filter((e) => e.offsetParent !== null).length), 0);
  assert.ok(await page.locator('.lesson [data-control="offset"] input[type=range]').isVisible());
  await page.goto(`${app.server.url}?lesson=seed&step=${BASE_STEP}&present=1`);
  await atStep(page, BASE_STEP);
  // Chart text scales with it: the canvas is drawn with larger type (its plot area starts
  // further in than at normal size).
  const insetPresent = Number((await page.locator('.lesson canvas.chart').getAttribute('data-plot')).split(',')[0]);
  await page.getByRole('button', { name: 'Leave presenter mode' }).click();
  await page.waitForFunction(() => !document.querySelector('.lesson.present') && [...document.querySelectorAll('.lesson canvas.chart')].every((c) => c.hasAttribute('data-plot')));
  await idle(page);
  assert.equal(query(page).get('present'), null);
  const insetNormal = Number((await page.locator('.lesson canvas.chart').getAttribute('data-plot')).split(',')[0]);
  assert.ok(insetPresent > insetNormal * 1.3, `${insetPresent} vs ${insetNormal}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a malformed or missing lesson file gives one clear message and the app stays usable', async () => {
  const dir = path.join(DIST, 'e2e-lessons');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'broken.json'), JSON.stringify({ title: 'Broken', steps: [SEED.steps[0], { ...SEED.steps[1], panels: ['no-such-panel'] }] }));
  fs.writeFileSync(path.join(dir, 'question.json'), JSON.stringify({ title: 'Asks', steps: [{ ...SEED.steps[1], question: { ask: 'Which?', choices: ['only one'], answer: 1, explain: 'e' } }] }));
  fs.writeFileSync(path.join(dir, 'html.json'), JSON.stringify({ title: 'Text', steps: [{ ...SEED.steps[1], text: '<img src=x onerror="window.__xss=1">bold' }] }));
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const p = await context.newPage();
  const errors = [];
  p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  p.on('pageerror', (e) => errors.push(String(e)));
  try {
    await p.goto(`${app.server.url}?lesson=e2e-lessons/broken.json`);
    const alert = p.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /step 2, field “panels”: unknown panel “no-such-panel”/);
    assert.equal(await p.locator('.panic-banner').count(), 0);
    await p.goto(`${app.server.url}?lesson=e2e-lessons/question.json`);
    await p.getByRole('alert').waitFor();
    assert.match(await p.getByRole('alert').innerText(), /step 1, field “question\.choices”: must hold 2 to 5 choices/);
    await p.goto(`${app.server.url}?lesson=e2e-lessons/missing.json`);
    await p.getByRole('alert').waitFor();
    assert.match(await p.getByRole('alert').innerText(), /Could not load the lesson “e2e-lessons\/missing\.json”: the server answered 404/);
    // Still usable: the navigation leaves the lesson.
    await p.getByRole('button', { name: 'RoPE', exact: true }).click();
    await p.waitForSelector('[data-panel="rope-decay"] canvas[data-plot]', { timeout: 20000 });
    assert.equal(query(p).get('lesson'), null);
    // Lesson text is text, never HTML.
    await p.goto(`${app.server.url}?lesson=e2e-lessons/html.json`);
    await p.waitForSelector('.lesson-text');
    assert.match(await p.locator('.lesson-text').innerText(), /<img src=x/);
    assert.equal(await p.evaluate(() => window.__xss ?? null), null);
    // Another origin is refused before anything is fetched.
    await p.goto(`${app.server.url}?lesson=https://example.org/l.json`);
    await p.waitForSelector('.notices');
    assert.match(await p.locator('.notices').innerText(), /lesson/);
    assert.equal(await p.locator('.panic-banner').count(), 0);
    assert.ok(errors.every((e) => /404|Failed to load/.test(e)), errors.join('\n'));
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const scheme of ['light', 'dark']) {
  test(`axe finds no serious or critical violation in the lesson (${scheme}, presenter included)`, async () => {
    const { page, context } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=4`, { colorScheme: scheme });
    const found = [];
    for (const q of ['lesson=seed&step=4', `lesson=seed&step=${BASE_STEP}&present=1`, `lesson=seed&step=${LAST - 1}`]) {
      await page.goto(`${app.server.url}?${q}`);
      await page.waitForFunction(() => document.querySelector('[data-lesson]') && [...document.querySelectorAll('.lesson canvas.chart')].every((c) => c.hasAttribute('data-plot')), null, { timeout: 20000 });
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      for (const v of result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        found.push(`${q}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      }
    }
    assert.deepEqual(found, []);
    await context.close();
  });
}
