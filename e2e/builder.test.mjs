// The lesson builder (`author=1`): a teacher makes a lesson by doing it — three steps built
// through the UI, previewed, downloaded, and reopened from the file and from the share link as
// the same lesson; a reload loses nothing; the builder's checks are the loader's messages; a
// hostile link runs no script, panics nothing and gets one message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { useApp, openApp, query, idle, settle, slide, DIST } from './support.mjs';

const app = useApp();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Waits until the builder is there. */
async function builderOpen(page) {
  await page.waitForSelector('[data-builder] .builder-head', { timeout: 20000 });
}

/** The step being edited (its editor section). */
const editor = (page) => page.locator('[data-builder] .step-editor');

/** Types into a labelled field of the step editor. */
async function fill(page, label, text) {
  await editor(page).getByLabel(label, { exact: true }).fill(text);
}

/** Waits for the page's view to show its charts after a navigation click. */
async function onView(page, name, panel) {
  await page.getByRole('button', { name, exact: true }).click();
  await page.waitForSelector(`[data-panel="${panel}"] canvas[data-plot]`, { timeout: 20000 });
  await settle(page);
}

/** What a student meets on every step of the lesson open on the page: words, panels, controls
 *  (value, and whether locked), outlines, question; then the same once revealed. */
async function walk(page) {
  const steps = [];
  const total = Number(await page.locator('[data-lesson]').getAttribute('data-steps'));
  for (let n = 1; n <= total; n++) {
    await page.waitForFunction((n) => document.querySelector('[data-lesson]')?.dataset.step === String(n) && document.querySelector('.lesson-step h2')?.textContent.startsWith(`${n}.`), n, { timeout: 20000 });
    // The step's panels are there (a view's chunk may still be loading: no canvas yet) and drawn.
    await page.waitForFunction(() => document.querySelector('.lesson [data-panel]') && !document.querySelector('.panel-loading')
      && [...document.querySelectorAll('.lesson canvas.chart')].every((c) => c.hasAttribute('data-plot')), null, { timeout: 20000 });
    await idle(page);
    const read = () => page.evaluate(() => ({
      title: document.querySelector('.lesson-step h2').textContent,
      text: document.querySelector('.lesson-text').textContent,
      try: document.querySelector('.lesson-try')?.textContent ?? null,
      panels: [...document.querySelectorAll('.lesson [data-panel]')].map((e) => e.dataset.panel),
      controls: [...document.querySelectorAll('.lesson [data-control]:not(.gone)')].map((e) => {
        const input = e.querySelector('input, select');
        return `${e.dataset.control}=${input?.value}${e.classList.contains('locked') ? ' (locked)' : ''}`;
      }),
      outlines: document.querySelectorAll('.lesson .mark-hl').length,
      question: document.querySelector('[data-question]')?.querySelector('.question-ask')?.textContent ?? null,
      choices: [...document.querySelectorAll('[data-question] .choice')].map((c) => c.textContent),
    }));
    const before = await read();
    let after = null;
    if (before.question) {
      await page.getByRole('button', { name: 'Show me' }).click();
      await page.waitForSelector('[data-question][data-revealed="true"]');
      await page.waitForFunction(() => [...document.querySelectorAll('.lesson canvas.chart')].every((c) => c.hasAttribute('data-plot')), null, { timeout: 20000 });
      await idle(page);
      after = await read();
    }
    steps.push({ before, after });
    if (n < total) await page.getByRole('button', { name: 'Next', exact: true }).click();
  }
  return steps;
}

test('a teacher builds a three-step lesson through the UI; the preview, the file and the link are the same lesson', async () => {
  const { page, context, errors } = await openApp(app.browser, app.server.url);
  // ▶ Lesson → Make a lesson.
  await page.getByRole('button', { name: '▶ Lesson' }).click();
  await page.getByRole('button', { name: 'Make a lesson' }).click();
  await builderOpen(page);
  // The URL follows the state once the page is idle (the builder's chunk may still be settling).
  await page.waitForFunction(() => new URLSearchParams(location.search).get('author') === '1');
  const builder = page.locator('[data-builder]');
  await builder.getByLabel('Lesson title').fill('Order in three steps');

  // Step 1: the Sinusoidal view, d_model 16, columns 4 and 5 outlined.
  await onView(page, 'Sinusoidal', 'pe-heatmap');
  await slide(page, '#ctl-d_model', 16);
  await settle(page);
  await builder.locator('summary', { hasText: 'Outlines and controls' }).click();
  await builder.locator('[data-outline="cols"]').fill('4, 5');
  await builder.locator('[data-outline="cols"]').press('Enter');
  await builder.locator('[data-outline="cols"]').blur();
  await page.waitForFunction(() => document.querySelectorAll('[data-panel="pe-heatmap"] .mark-hl').length === 2, null, { timeout: 10000 });
  await builder.getByRole('button', { name: 'Add this as a step' }).click();
  await fill(page, 'Title', 'A pair shares one frequency');
  await fill(page, 'Text: the step\'s one claim', 'Columns 4 and 5 are the sine and cosine of pair 2.');
  await fill(page, 'Try this: what students predict, then do', 'Predict what d_model does to their colours, then move it.');
  await editor(page).locator('select[data-field="control"]').selectOption('d_model');

  // Step 2: RoPE with partial hidden and theta locked.
  await onView(page, 'RoPE', 'rope-decay');
  await slide(page, '#ctl-head_dim', 32);
  await settle(page);
  await builder.locator('label.control-access', { hasText: /^partial/ }).locator('select').selectOption('hidden');
  await builder.locator('label.control-access', { hasText: /^theta/ }).locator('select').selectOption('locked');
  await page.waitForFunction(() => document.querySelector('main [data-control="partial"]')?.classList.contains('gone') && document.querySelector('main [data-control="theta"]')?.classList.contains('locked'), null, { timeout: 10000 });
  await settle(page);
  await builder.getByRole('button', { name: 'Add this as a step' }).click();
  // Its panel: the decay chart instead of the view's first.
  await editor(page).locator('label.panel-choice', { hasText: 'Long-term decay' }).locator('input').check();
  const first = editor(page).locator('label.panel-choice input').first();
  await first.uncheck();
  await page.waitForFunction(() => document.querySelectorAll('[data-builder] .step-editor label.panel-choice input:checked').length === 1);
  await fill(page, 'Title', 'The decay depends on the base');
  await fill(page, 'Text: the step\'s one claim', 'The score falls with distance; theta is fixed here.');
  await fill(page, 'Try this: what students predict, then do', 'Predict what a larger head_dim does, then move it.');
  // The prompt may not name a locked control: the loader's message, beside the step.
  await editor(page).locator('select[data-field="control"]').selectOption('theta');
  await builder.locator('[data-builder-step="2"] .problems li').waitFor();
  assert.equal(await builder.locator('[data-builder-step="2"] .problems li').innerText(),
    'Step 2, “The control the prompt names”: the prompt names “theta”, which the step locks: a student could not move it');
  await editor(page).locator('select[data-field="control"]').selectOption('head_dim');
  await page.waitForFunction(() => !document.querySelector('[data-builder-step="2"] .problems li'));

  // Step 3: a multiple-choice question with a reveal state, on the Sinusoidal view.
  await onView(page, 'Sinusoidal', 'pe-heatmap');
  await slide(page, '#ctl-seq_len', 50);
  await settle(page);
  await builder.getByRole('button', { name: 'Add this as a step' }).click();
  await fill(page, 'Title', 'Longer texts add rows');
  await fill(page, 'Text: the step\'s one claim', 'Row pos depends on pos, not on seq_len.');
  await fill(page, 'Try this: what students predict, then do', 'Move seq_len and watch the first rows.');
  await editor(page).getByLabel('Question', { exact: true }).selectOption('choice');
  await editor(page).locator('textarea[data-field="ask"]').fill('The text grows from 50 to 100 positions. Do rows 0 to 49 change?');
  await editor(page).getByLabel('Choice 1', { exact: true }).fill('Yes');
  await editor(page).getByLabel('Choice 2', { exact: true }).fill('No');
  await editor(page).getByRole('button', { name: 'Add a choice' }).click();
  await editor(page).getByLabel('Choice 3', { exact: true }).fill('Only the last ones');
  // No right answer yet: the loader's message.
  await builder.locator('[data-builder-step="3"] .problems li').waitFor();
  assert.match(await builder.locator('[data-builder-step="3"] .problems li').innerText(), /Step 3, “Explanation”: (missing|is empty)/);
  await editor(page).locator('textarea[data-field="explain"]').fill('No: each row depends only on its own position.');
  assert.equal(await builder.locator('[data-builder-step="3"] .problems li').innerText(),
    'Step 3, “Answer”: mark the right choice');
  await editor(page).getByLabel('Choice 2 is the right one').check();
  // The reveal: the same as the step is refused by the loader; then seq_len 100.
  await editor(page).getByRole('button', { name: 'Use this as the reveal' }).click();
  assert.match(await builder.locator('[data-builder-step="3"] .problems li').innerText(), /Step 3, “Reveal”: is the same as the step's state/);
  await slide(page, '#ctl-seq_len', 100);
  await settle(page);
  await editor(page).getByRole('button', { name: 'Use this as the reveal' }).click();
  await page.waitForFunction(() => document.querySelectorAll('[data-builder] .problems li').length === 0);

  // A reload loses nothing.
  const before = await builder.locator('.builder-steps').innerText();
  await page.reload();
  await builderOpen(page);
  assert.equal(await page.locator('[data-builder] .builder-steps').innerText(), before);
  assert.equal(await page.locator('[data-builder]').getByLabel('Lesson title').inputValue(), 'Order in three steps');
  await page.locator('[data-builder-step="3"] .step-go').click();
  assert.equal(await editor(page).locator('textarea[data-field="ask"]').inputValue(), 'The text grows from 50 to 100 positions. Do rows 0 to 49 change?');

  // Preview: the lesson as a student sees it, from step 1; then back to the builder.
  await page.locator('[data-builder-step="1"] .step-go').click();
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await page.waitForSelector('[data-lesson="draft"]', { timeout: 20000 });
  assert.equal(await page.locator('[data-builder]').count(), 0);
  const previewed = await walk(page);
  await page.getByRole('button', { name: 'Back to the builder' }).click();
  await builderOpen(page);

  // Download.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  assert.equal(dl.suggestedFilename(), 'order-in-three-steps.json');
  const file = fs.readFileSync(await dl.path(), 'utf8');
  const lesson = JSON.parse(file);
  assert.equal(lesson.steps.length, 3);
  assert.deepEqual(lesson.steps.map((s) => s.panels), [['pe-heatmap'], ['rope-decay'], ['pe-heatmap']]);
  assert.match(lesson.steps[0].state, /d_model=16/);
  assert.match(lesson.steps[0].state, /hl_cols=4,5/);
  assert.match(lesson.steps[1].state, /hide=partial/);
  assert.match(lesson.steps[1].state, /lock=theta/);
  assert.equal(lesson.steps[2].question.answer, 2);
  assert.match(lesson.steps[2].question.reveal, /seq_len=100/);

  // Share link.
  await page.getByRole('button', { name: 'Share link' }).click();
  const link = await page.locator('[data-share-link]').inputValue();
  assert.match(link, /\?lesson=link#lesson=v1\./);
  assert.ok(!new URL(link).search.includes('v1.'), 'the lesson is in the fragment only');
  assert.deepEqual(errors, []);
  await context.close();

  // Reopen from the file (served next to the app) and from the link: the same lesson.
  const dir = path.join(DIST, 'e2e-builder');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'mine.json'), file);
  try {
    const fromFile = await openApp(app.browser, `${app.server.url}?lesson=e2e-builder/mine.json`);
    await fromFile.page.waitForSelector('[data-lesson="e2e-builder/mine.json"]');
    const walkedFile = await walk(fromFile.page);
    assert.deepEqual(fromFile.errors, []);
    await fromFile.context.close();
    const fromLink = await openApp(app.browser, link.replace(/^https?:\/\/[^/]+\//, app.server.url));
    await fromLink.page.waitForSelector('[data-lesson="link"]');
    const walkedLink = await walk(fromLink.page);
    // The fragment stays in the address as the student moves through the steps.
    assert.match(fromLink.page.url(), /#lesson=v1\./);
    assert.deepEqual(fromLink.errors, []);
    await fromLink.context.close();
    // A step of a shared-link lesson embeds as a file's does: no site header, the step shown.
    const embedded = await openApp(app.browser, link.replace(/^https?:\/\/[^/]+\//, app.server.url).replace('#', '&step=2&embed=1#'));
    await embedded.page.waitForSelector('[data-lesson="link"][data-step="2"]');
    assert.equal(await embedded.page.locator('.site-header').count(), 0);
    assert.equal(await embedded.page.locator('.lesson-step h2').innerText(), '2. The decay depends on the base');
    assert.deepEqual(embedded.errors, []);
    await embedded.context.close();
    assert.deepEqual(walkedFile, previewed);
    assert.deepEqual(walkedLink, previewed);
    // What was built is what students meet.
    assert.equal(previewed[0].before.outlines, 2);
    assert.ok(previewed[0].before.controls.includes('d_model=16'), previewed[0].before.controls.join());
    assert.ok(!previewed[1].before.controls.some((c) => c.startsWith('partial=')));
    assert.ok(previewed[1].before.controls.some((c) => /^theta=.*\(locked\)$/.test(c)));
    assert.ok(previewed[2].before.controls.includes('seq_len=50'));
    assert.ok(previewed[2].after.controls.includes('seq_len=100'));
    assert.deepEqual(previewed[2].before.choices.map((c) => c.replace(/^\d/, '')), ['Yes', 'No', 'Only the last ones']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A link's fragment for this lesson text, as PE Lab makes it (DEFLATE, base64url). */
const fragmentOf = (text) => `lesson=v1.${zlib.deflateRawSync(Buffer.from(text)).toString('base64url')}`;

test('a hostile lesson link runs no script, panics nothing and gets one message', async () => {
  const script = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
  const valid = {
    title: 'Fine',
    steps: [{ title: 'A step', panels: ['pe-heatmap'], state: 'seq_len=50', text: 'Text.', try: 'Try.', control: 'd_model',
      question: { ask: 'Which?', choices: ['a', 'b'], answer: 1, explain: 'Because.' } }],
  };
  const good = fragmentOf(JSON.stringify(valid));
  const scripted = JSON.parse(JSON.stringify(valid));
  scripted.title = script;
  Object.assign(scripted.steps[0], { title: script, text: script, try: script });
  Object.assign(scripted.steps[0].question, { ask: script, explain: script, choices: [script, script] });
  const cases = [
    ['truncated', good.slice(0, good.length - 9), /damaged/],
    ['corrupted', good.slice(0, 20) + 'zzzz' + good.slice(24), /damaged|cannot be used/],
    ['oversized', `lesson=v1.${'A'.repeat(20000)}`, /longer than any PE Lab makes/],
    ['wrong version', good.replace('v1.', 'v7.'), /another version/],
    ['no lesson', 'main', /carries no lesson/],
    ['not a lesson', fragmentOf('{"title": 3}'), /cannot be used/],
    ['a bomb', `lesson=v1.${zlib.deflateRawSync(Buffer.alloc(8 << 20, 32)).toString('base64url')}`, /damaged|longer than/],
  ];
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    for (const [name, fragment, message] of cases) {
      await page.goto(`${app.server.url}?lesson=link#${fragment}`);
      await page.waitForSelector('.lesson-error', { timeout: 20000 });
      const alerts = page.locator('.lesson-error[role="alert"]');
      assert.equal(await alerts.count(), 1, name);
      assert.match(await alerts.innerText(), message, name);
      assert.equal(await page.locator('.panic-banner').count(), 0, name);
    }
    // Script in every text field is shown as text.
    await page.goto(`${app.server.url}?lesson=link#${fragmentOf(JSON.stringify(scripted))}`);
    await page.waitForSelector('[data-lesson="link"] .lesson-text', { timeout: 20000 });
    assert.equal(await page.locator('.lesson-text').innerText(), script);
    assert.equal(await page.locator('.lesson-title').innerText(), script);
    await page.getByRole('button', { name: 'Show me' }).click();
    await page.waitForSelector('.explain');
    assert.equal(await page.locator('.explain').innerText(), script);
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    assert.equal(await page.locator('.panic-banner').count(), 0);
    // The same hostile lesson opened in the builder as a file: text as text, no script.
    await page.goto(`${app.server.url}?author=1`);
    await builderOpen(page);
    await page.locator('[data-builder] input[type="file"]').setInputFiles({ name: 'hostile.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scripted)) });
    await page.waitForFunction((s) => document.querySelector('[data-builder] .step-go')?.textContent.includes(s), script);
    assert.equal(await page.evaluate(() => window.__pwned ?? null), null);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the builder checks as the loader does: the same problem in both, in the form\'s words', async () => {
  const lesson = { title: 'Checks', steps: [{ title: 'S', panels: ['pe-heatmap'], state: 'seq_len=50', text: ' ', try: 'Try.' }] };
  const dir = path.join(DIST, 'e2e-builder-checks');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'empty-text.json'), JSON.stringify(lesson));
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`${app.server.url}?lesson=e2e-builder-checks/empty-text.json`);
    await page.waitForSelector('.lesson-error');
    const loader = await page.locator('.lesson-error p').first().innerText();
    assert.match(loader, /step 1, field “text”: is empty/);
    await page.goto(`${app.server.url}?author=1`);
    await builderOpen(page);
    await page.locator('[data-builder] input[type="file"]').setInputFiles({ name: 'empty-text.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(lesson)) });
    const said = page.locator('[data-builder-step="1"] .problems li');
    await said.waitFor();
    // The loader names the file's key (`text`), the builder its form's label (“Text”).
    assert.equal(await said.innerText(), 'Step 1, “Text”: is empty');
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

for (const scheme of ['light', 'dark']) {
  test(`axe finds no serious or critical violation in the builder (${scheme}), a step and a question open`, async () => {
    const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope&author=1`, { colorScheme: scheme });
    await builderOpen(page);
    await page.locator('[data-builder] summary').click();
    await page.getByRole('button', { name: 'Add this as a step' }).click();
    await editor(page).getByLabel('Question', { exact: true }).selectOption('choice');
    await page.getByRole('button', { name: 'Share link' }).click();
    await page.locator('[data-share-link]').waitFor();
    await page.addScriptTag({ path: AXE });
    const result = await page.evaluate(() => window.axe.run(document.querySelector('[data-builder]'), { resultTypes: ['violations'] }));
    const found = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    assert.deepEqual(found, []);
    await context.close();
  });
}

test('drafts are kept and named; deleting one asks first; presenter preview and back', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?author=1`);
  await builderOpen(page);
  const builder = page.locator('[data-builder]');
  const names = () => builder.getByLabel('Draft', { exact: true }).locator('option').allInnerTexts();
  await builder.getByLabel('Lesson title').fill('First');
  await builder.getByRole('button', { name: 'Add this as a step' }).click();
  await builder.getByRole('button', { name: 'New lesson' }).click();
  await builder.getByLabel('Name', { exact: true }).fill('Second draft');
  await builder.getByLabel('Name', { exact: true }).press('Enter');
  await builder.getByLabel('Name', { exact: true }).blur();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-builder] select[aria-label="Draft"] option')].some((o) => o.textContent === 'Second draft'));
  assert.deepEqual(await names(), ['Untitled lesson', 'Second draft']);
  // A copy of a shipped lesson is a third draft, with all its steps.
  await builder.getByLabel('Start from a copy of a lesson PE Lab ships').selectOption('precision');
  await page.waitForFunction(() => document.querySelectorAll('[data-builder] .builder-step').length > 0);
  assert.equal((await names()).length, 3);
  assert.match((await names())[2], /^Copy of /);
  // Back to the first: its title and step are there.
  await builder.getByLabel('Draft', { exact: true }).selectOption({ index: 0 });
  assert.equal(await builder.getByLabel('Lesson title').inputValue(), 'First');
  assert.equal(await builder.locator('.builder-step').count(), 1);
  // Deleting asks first; "Keep it" keeps it.
  await builder.getByRole('button', { name: 'Delete this draft' }).click();
  assert.match(await builder.getByRole('alert').first().innerText(), /Delete the draft “Untitled lesson”\? This cannot be undone\./);
  await builder.getByRole('button', { name: 'Keep it' }).click();
  assert.equal((await names()).length, 3);
  await builder.getByRole('button', { name: 'Delete this draft' }).click();
  await builder.getByRole('button', { name: 'Yes, delete it' }).click();
  assert.deepEqual((await names()).slice(0, 1), ['Second draft']);
  assert.equal((await names()).length, 2);
  // Kept across a reload.
  await page.reload();
  await builderOpen(page);
  assert.equal((await names()).length, 2);
  // The presenter preview of the copied lesson, then back.
  await builder.getByLabel('Draft', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Preview in presenter mode' }).click();
  await page.waitForSelector('[data-lesson="draft"].present', { timeout: 20000 });
  assert.ok(await page.evaluate(() => document.querySelector('.site-header')?.offsetParent === null));
  await page.getByRole('button', { name: 'Back to the builder' }).click();
  await builderOpen(page);
  await idle(page);
  assert.equal(query(page).get('lesson'), null);
  assert.equal(query(page).get('author'), '1');
  assert.deepEqual(errors, []);
  await context.close();
});
