// Prediction checkpoints in lessons: a step asks, with its panels locked, and reveals when
// answered (right or wrong), when "Show me" is pressed, or by keys; the URL says whether the
// step is revealed. Presenter mode fits every step on the screen at 1920 × 1080 and
// 1280 × 720, without the site header. "▶ Lesson" lists the lessons PE Lab ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useApp, openApp, query, idle, DIST } from './support.mjs';

const app = useApp();
const read = (name) => JSON.parse(fs.readFileSync(path.join(DIST, 'lessons', `${name}.json`), 'utf8'));
const LESSONS = { seed: read('seed'), precision: read('precision'), train: read('train') };
const SEED = LESSONS.seed;
/** The 1-based number of the seed step titled `title`. */
const stepTitled = (title) => SEED.steps.findIndex((s) => s.title === title) + 1;
const MATRIX = stepTitled('The encoding is a matrix');

/** Waits until step `n` of the open lesson shows its question (or its panels) painted. */
async function atStep(page, n) {
  await page.waitForFunction((n) => {
    const frame = document.querySelector('[data-lesson]');
    if (!frame || frame.dataset.step !== String(n) || !document.querySelector('.lesson-step')) return false;
    const charts = [...document.querySelectorAll('.lesson canvas.chart')];
    return charts.length > 0 && charts.every((c) => c.hasAttribute('data-plot'));
  }, n, { timeout: 20000 });
  await idle(page);
}

/** Waits until the step's question is revealed. */
const untilRevealed = (page) => page.waitForFunction(() => document.querySelector('[data-question]')?.dataset.revealed === 'true');
const revealedAttr = (page) => page.locator('[data-question]').getAttribute('data-revealed');
const seqLen = (page) => page.locator('[data-control="seq_len"] input.num').inputValue();

test('a right answer is marked right, explained, and reveals the step\'s state', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=${MATRIX}`);
  await atStep(page, MATRIX);
  const step = SEED.steps[MATRIX - 1];
  assert.equal(await revealedAttr(page), 'false');
  // Unanswered: the panels are locked, no prompt, no explanation, the state before.
  assert.equal(await page.locator('.lesson-panels').getAttribute('inert'), '');
  assert.equal(await page.locator('.lesson-try').count(), 0);
  assert.equal(await page.locator('.explain').count(), 0);
  assert.equal(await seqLen(page), '50');
  const choices = page.locator('[data-question] button.choice');
  assert.equal(await choices.count(), step.question.choices.length);
  assert.ok(await page.getByRole('button', { name: 'Check' }).isDisabled());
  await choices.nth(step.question.answer - 1).click();
  assert.equal(await choices.nth(step.question.answer - 1).getAttribute('aria-pressed'), 'true');
  await page.getByRole('button', { name: 'Check' }).click();
  await untilRevealed(page);
  await idle(page);
  assert.equal(query(page).get('revealed'), '1');
  assert.equal(await page.locator('.verdict').innerText(), 'Right.');
  assert.ok(await page.getByRole('button', { name: 'Check' }).isHidden());
  assert.equal(await page.locator('.explain').innerText(), step.question.explain);
  assert.match(await choices.nth(step.question.answer - 1).innerText(), /✓/);
  assert.equal(await page.locator('button.choice.wrong').count(), 0);
  assert.equal(await page.locator('.lesson-try').count(), 1);
  assert.equal(await page.locator('.lesson-panels').getAttribute('inert'), null);
  // The reveal state: 100 positions, and the control is live again.
  await page.waitForFunction(() => document.querySelector('[data-control="seq_len"] input.num')?.value === '100');
  assert.ok(await page.locator('.lesson #ctl-seq_len').isEnabled());
  // "Reset step" asks again.
  await page.getByRole('button', { name: 'Reset step' }).click();
  await page.waitForFunction(() => document.querySelector('[data-question]')?.dataset.revealed === 'false');
  await page.waitForFunction(() => document.querySelector('[data-control="seq_len"] input.num')?.value === '50');
  await idle(page);
  assert.equal(query(page).get('revealed'), null);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a wrong answer is marked wrong beside the right one; "Show me" reveals without an answer', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=${MATRIX}`);
  await atStep(page, MATRIX);
  const q = SEED.steps[MATRIX - 1].question;
  const wrong = q.answer === 1 ? 1 : 0;
  const choices = page.locator('[data-question] button.choice');
  await choices.nth(wrong).click();
  await page.getByRole('button', { name: 'Check' }).click();
  await untilRevealed(page);
  assert.equal(await page.locator('.verdict').innerText(), 'Not quite: the right answer is marked ✓.');
  assert.match(await choices.nth(wrong).innerText(), /✗/);
  assert.ok((await choices.nth(wrong).getAttribute('class')).includes('wrong'));
  assert.ok((await choices.nth(q.answer - 1).getAttribute('class')).includes('right'));
  assert.ok(await choices.nth(0).isDisabled());
  // "Show me" on a fresh visit: the answer, no verdict on a choice.
  await page.goto(`${app.server.url}?lesson=seed&step=${MATRIX}`);
  await atStep(page, MATRIX);
  await page.getByRole('button', { name: 'Show me' }).click();
  await untilRevealed(page);
  assert.equal(await page.locator('.verdict').innerText(), 'The right answer is marked ✓.');
  assert.match(await page.locator('[data-question] button.choice').nth(q.answer - 1).innerText(), /✓/);
  assert.equal(await page.locator('button.choice.wrong').count(), 0);
  assert.equal(await page.locator('.explain').innerText(), q.explain);
  assert.deepEqual(errors, []);
  await context.close();
});

test('digits choose and Enter checks; a number question takes a typed answer', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=${MATRIX}`);
  await atStep(page, MATRIX);
  const q = SEED.steps[MATRIX - 1].question;
  await page.locator('body').focus();
  await page.keyboard.press(String(q.answer));
  assert.equal(await page.locator('[data-question] button.choice').nth(q.answer - 1).getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Enter');
  await untilRevealed(page);
  assert.equal(await page.locator('.verdict').innerText(), 'Right.');
  // Enter with nothing chosen shows the answer (the presenter's one key).
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await atStep(page, MATRIX);
  await page.waitForFunction(() => document.querySelector('[data-question]')?.dataset.revealed === 'false');
  await page.locator('body').focus();
  await page.keyboard.press('Enter');
  await untilRevealed(page);
  assert.equal(await page.locator('.verdict').innerText(), 'The right answer is marked ✓.');
  // A number, in the precision lesson (what bfloat16 stores for 257): typed, then Enter.
  const n = LESSONS.precision.steps[0].question;
  await page.goto(`${app.server.url}?lesson=precision&step=1`);
  await atStep(page, 1);
  const field = page.locator('[data-question] input[type=number]');
  await field.fill(String(n.answer));
  await field.press('Enter');
  await untilRevealed(page);
  assert.equal(await page.locator('.verdict').innerText(), `Right: ${n.answer}.`);
  await page.waitForFunction(() => document.querySelector('[data-control="pos"] input.num')?.value === '257');
  // Wrong: 258.
  await page.goto(`${app.server.url}?lesson=precision&step=1`);
  await atStep(page, 1);
  await page.locator('[data-question] input[type=number]').fill('258');
  await page.getByRole('button', { name: 'Check' }).click();
  await untilRevealed(page);
  assert.equal(await page.locator('.verdict').innerText(), `Not quite: the answer is ${n.answer}.`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link opens a step revealed or not, and the next step starts unrevealed', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=${MATRIX}&revealed=1`);
  await atStep(page, MATRIX);
  assert.equal(await revealedAttr(page), 'true');
  await page.waitForFunction(() => document.querySelector('[data-control="seq_len"] input.num')?.value === '100');
  assert.equal(await page.locator('.verdict').innerText(), 'The right answer is marked ✓.');
  await page.getByRole('button', { name: 'Next' }).click();
  await atStep(page, MATRIX + 1);
  assert.equal(query(page).get('revealed'), null);
  await page.goto(`${app.server.url}?lesson=seed&step=${MATRIX}`);
  await atStep(page, MATRIX);
  assert.equal(await revealedAttr(page), 'false');
  assert.equal(await seqLen(page), '50');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Whether the whole step is on screen: its text column, and every chart's bottom. */
async function fits(page) {
  return page.evaluate(() => {
    const vh = innerHeight;
    const charts = [...document.querySelectorAll('.lesson canvas.chart')].map((c) => c.getBoundingClientRect());
    const stepEl = document.querySelector('.lesson-step');
    const step = stepEl.getBoundingClientRect();
    const header = document.querySelector('.site-header');
    return {
      ok: charts.length > 0 && charts.every((r) => r.bottom <= vh + 0.5 && r.height >= 150)
        && step.bottom <= vh + 0.5 && stepEl.scrollHeight <= stepEl.clientHeight + 1
        && (!header || header.offsetParent === null) && scrollY === 0,
      charts: charts.map((r) => [Math.round(r.top), Math.round(r.bottom)]),
      step: [Math.round(step.bottom), stepEl.scrollHeight, stepEl.clientHeight],
      vh,
    };
  });
}

for (const [w, h] of [[1920, 1080], [1280, 720]]) {
  test(`presenter mode shows every step whole at ${w} × ${h}, without the site header`, async () => {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=1&present=1`, { viewport: { width: w, height: h } });
    const bad = [];
    for (const [name, lesson] of Object.entries(LESSONS)) {
      for (let n = 1; n <= lesson.steps.length; n++) {
        const states = lesson.steps[n - 1].question ? ['', '&revealed=1'] : [''];
        for (const extra of states) {
          await page.goto(`${app.server.url}?lesson=${name}&step=${n}&present=1${extra}`);
          await page.waitForFunction(([name, n]) => document.querySelector(`[data-lesson="${name}"]`)?.dataset.step === String(n), [name, n]);
          await atStep(page, n);
          const r = await fits(page);
          if (!r.ok) bad.push(`${name} ${n}${extra}: ${JSON.stringify(r)}`);
        }
      }
    }
    assert.deepEqual(bad, []);
    // Two-panel steps side by side.
    const two = SEED.steps.findIndex((s) => s.panels.length === 2) + 1;
    await page.goto(`${app.server.url}?lesson=seed&step=${two}&present=1`);
    await atStep(page, two);
    const tops = await page.locator('.lesson .panel').evaluateAll((ps) => ps.map((p) => Math.round(p.getBoundingClientRect().top)));
    assert.equal(tops.length, 2);
    assert.equal(tops[0], tops[1]);
    // The choices are large enough to vote from.
    await page.goto(`${app.server.url}?lesson=seed&step=${MATRIX}&present=1`);
    await atStep(page, MATRIX);
    const size = await page.locator('button.choice').first().evaluate((b) => [parseFloat(getComputedStyle(b).fontSize), b.getBoundingClientRect().height]);
    assert.ok(size[0] >= 17 && size[1] >= 32, JSON.stringify(size));
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('"▶ Lesson" lists the shipped lessons with their titles and step counts, and opens one', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope`);
  await page.getByRole('button', { name: '▶ Lesson' }).click();
  const picker = page.locator('.lesson-picker');
  await picker.waitFor();
  for (const [name, lesson] of Object.entries(LESSONS)) {
    const item = picker.locator(`[data-lesson-name="${name}"]`);
    await item.locator('h3', { hasText: lesson.title }).waitFor();
    const questions = lesson.steps.filter((s) => s.question).length;
    assert.equal(await item.locator('.lesson-about').innerText(), `${lesson.steps.length} steps, ${questions} questions to predict`.replace(', 1 questions', ', 1 question'));
  }
  assert.equal(query(page).get('lesson'), '');
  await picker.locator('[data-lesson-name="precision"]').getByRole('button', { name: 'Start' }).click();
  await atStep(page, 1);
  assert.equal(query(page).get('lesson'), 'precision');
  assert.equal(query(page).get('step'), '1');
  // A course's own file still opens by path (the malformed-file spec covers its messages).
  await page.goto(`${app.server.url}?lesson=`);
  await picker.waitFor();
  await picker.locator('[data-lesson-name="seed"]').getByRole('button', { name: 'Present' }).click();
  await atStep(page, 1);
  assert.equal(query(page).get('present'), '1');
  assert.deepEqual(errors, []);
  await context.close();
});
