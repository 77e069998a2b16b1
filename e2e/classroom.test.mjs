// What a teacher needs in class: controls hidden or locked (URL, Share dialog, lesson steps),
// SVG figures of every chart, the example course page from another origin, and the causal
// mask of the Why position? demo.
import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { useApp, openApp, revealAll, settle, registeredViews, startServer, plainPage } from './support.mjs';

const app = useApp();

/** The names of the controls on the page, in page order. */
const controlNames = (page) => page.$$eval('main [data-control]', (els) => [...new Set(els.map((e) => e.dataset.control))]);

/** Tries to change control `name` with the mouse and the keyboard, as a student would. */
async function tryToChange(page, name, { keys = true } = {}) {
  const input = page.locator(`[data-control="${name}"] :is(input, select, textarea, button)`).first();
  const box = await input.boundingBox();
  if (box) await page.mouse.click(box.x + box.width * 0.8, box.y + box.height / 2);
  await input.evaluate((e) => e.focus());
  // (A lesson moves between steps with the arrow keys: there, only the mouse.)
  if (keys) for (const key of ['ArrowRight', 'ArrowRight', 'End', 'Space', '9']) await page.keyboard.press(key);
  await settle(page);
}

test('hide= and lock= hide and lock the named controls on every view, and say which names are unknown', async () => {
  for (const view of await registeredViews(app)) {
    const registered = view.controls.split(' ');
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=${view.name}`);
    await revealAll(page);
    const names = await controlNames(page);
    // The registry names every control the page shows (the Share dialog and the parser use it).
    for (const n of names) assert.ok(registered.includes(n), `${view.name}: ${n} is not in the registry (${view.controls})`);
    await context.close();

    const [hidden, locked] = names;
    const q = `?view=${view.name}&hide=${hidden}${locked ? `&lock=${locked}` : ''}&hide=nope`;
    const opened = await openApp(app.browser, `${app.server.url}${q}`);
    const p = opened.page;
    await revealAll(p);
    assert.equal(await p.locator(`[data-control="${hidden}"]:visible`).count(), 0, `${view.name}: ${hidden} is visible`);
    for (const n of names.slice(2)) {
      assert.ok(await p.locator(`[data-control="${n}"]`).first().isVisible(), `${view.name}: ${n} should stay visible`);
    }
    if (locked) {
      const el = p.locator(`[data-control="${locked}"]`).first();
      assert.ok(await el.isVisible(), `${view.name}: locked ${locked} is shown`);
      assert.equal(await el.getAttribute('inert'), '', `${view.name}: ${locked} is inert`);
      assert.match(await el.locator(':scope > :is(label, legend):first-child').evaluate((l) => getComputedStyle(l, '::after').content), /locked/);
      const before = p.url();
      await tryToChange(p, locked);
      assert.equal(p.url(), before, `${view.name}: the locked ${locked} changed the state`);
      assert.equal(await p.evaluate((n) => !!document.activeElement?.closest(`[data-control="${n}"]`), locked), false);
    }
    assert.deepEqual(opened.errors, []);
    await opened.context.close();
    assert.deepEqual(errors, []);
  }
});

test('an unknown control name is ignored with a notice that lists the view\'s controls', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=rope&hide=theta,base&lock=head_dim`);
  const notice = await page.locator('.notices').innerText();
  assert.match(notice, /“base” is not a control of this view; ignored\./);
  assert.equal(await page.locator('[data-control="theta"]:visible').count(), 0);
  // The URL keeps what was used, not the unknown name.
  await settle(page);
  const params = new URL(page.url()).searchParams;
  assert.deepEqual([params.get('hide'), params.get('lock')], ['theta', 'head_dim']);
  // Choosing another view clears them: they named this view's controls.
  await page.click('nav button:has-text("Precision")');
  await page.waitForSelector('[data-control="theta"]');
  assert.ok(await page.locator('[data-control="theta"]').isVisible());
  assert.equal(await page.locator('[data-control][inert]').count(), 0);
  await context.close();
});

test('the Share dialog hides and locks controls in both links, and the links do it', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope&head_dim=32`);
  await page.click('button.share');
  await page.waitForFunction(() => document.querySelector('dialog.share-dialog')?.open, null, { timeout: 5000 });
  // One row per control of the view, labelled as on the page.
  const rows = await page.locator('.control-option').allInnerTexts();
  assert.ok(rows.some((r) => /^theta\s+Base/.test(r)), rows.join(' | '));
  await page.check('[data-hide="theta"]');
  await page.check('[data-lock="head_dim"]');
  await page.check('[data-lock="layout"]');
  const permalink = new URL(await page.inputValue('#share-permalink')).searchParams;
  assert.deepEqual([permalink.get('hide'), permalink.get('lock'), permalink.get('head_dim')], ['theta', 'head_dim,layout', '32']);
  const embed = await page.inputValue('#share-embed');
  assert.equal(new URL(embed).searchParams.get('lock'), 'head_dim,layout');
  const embedded = await openApp(app.browser, embed);
  assert.equal(await embedded.page.locator('[data-control="theta"]:visible').count(), 0);
  assert.equal(await embedded.page.locator('[data-control="head_dim"]').getAttribute('inert'), '');
  assert.equal(await embedded.page.locator('[data-control="layout"]').getAttribute('inert'), '');
  assert.deepEqual(embedded.errors, []);
  await embedded.context.close();
  // Unticked, the links drop them again.
  await page.uncheck('[data-hide="theta"]');
  assert.equal(new URL(await page.inputValue('#share-permalink')).searchParams.get('hide'), null);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lesson step locks and hides controls of its own', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?lesson=seed&step=20`);
  await page.waitForSelector('[data-control="method"]');
  assert.equal(await page.locator('[data-control="method"]').getAttribute('inert'), '');
  assert.equal(await page.locator('[data-control="preset"]:visible').count(), 0);
  assert.equal(await page.locator('[data-control="factor"]').getAttribute('inert'), null);
  const before = await page.$$eval('[data-control="method"] input', (i) => i.map((e) => e.checked));
  await tryToChange(page, 'method', { keys: false });
  assert.equal(await page.evaluate(() => !!document.activeElement?.closest('[data-control="method"]')), false);
  assert.deepEqual(await page.$$eval('[data-control="method"] input', (i) => i.map((e) => e.checked)), before);
  // A step that names none locks nothing.
  await page.goto(`${app.server.url}?lesson=seed&step=17`);
  await page.waitForSelector('[data-control="theta"]');
  assert.equal(await page.locator('[data-control][inert]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Clicks `button` and returns the downloaded file's name and text. */
async function download(page, button) {
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), button.click()]);
  return { name: dl.suggestedFilename(), text: fs.readFileSync(await dl.path(), 'utf8') };
}

/** What a browser's XML parser reads in an SVG file (an error if it is not well-formed). */
const readSvg = (page, text) => page.evaluate((t) => {
  const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
  if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
  const svg = doc.documentElement;
  return {
    root: svg.localName,
    ns: svg.namespaceURI,
    width: parseFloat(svg.getAttribute('width')),
    height: parseFloat(svg.getAttribute('height')),
    viewBox: svg.getAttribute('viewBox'),
    title: doc.querySelector('title')?.textContent,
    texts: [...doc.querySelectorAll('text')].map((t) => t.textContent),
    images: doc.querySelectorAll('image').length,
    rects: doc.querySelectorAll('rect').length,
    paths: doc.querySelectorAll('path').length,
    background: doc.querySelector('rect')?.getAttribute('fill'),
  };
}, text);

test('every chart exports SVG: well-formed, its title and axis labels as text, the panel\'s aspect', async () => {
  for (const view of await registeredViews(app)) {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=${view.name}`);
    await revealAll(page);
    for (const { id, title } of view.panels) {
      const panel = page.locator(`[data-panel="${id}"]`);
      const canvases = await panel.locator('canvas.chart').count();
      const buttons = panel.locator('.exports button', { hasText: /SVG$/ });
      // One SVG button per chart of the panel.
      assert.equal(await buttons.count(), canvases, `${id}: ${canvases} charts`);
      const boxes = await panel.locator('canvas.chart').evaluateAll((cs) => cs.map((c) => ({ w: c.getBoundingClientRect().width, h: c.getBoundingClientRect().height, pw: c.width, ph: c.height })));
      const drawn = [];
      for (let k = 0; k < canvases; k++) {
        const { name, text } = await download(page, buttons.nth(k));
        assert.match(name, /\.svg$/);
        const svg = await readSvg(page, text);
        assert.equal(svg.error, undefined, `${id}: ${svg.error}`);
        assert.equal(svg.root, 'svg');
        assert.equal(svg.ns, 'http://www.w3.org/2000/svg');
        assert.equal(svg.title, title, id);
        // Tick labels and axis titles are text, not pixels.
        const words = svg.texts.filter((t) => /[a-zA-Zα-ωΔ]/.test(t));
        assert.ok(svg.texts.length >= 4 && words.length >= 1, `${id}: texts ${JSON.stringify(svg.texts)}`);
        // The size of one of the panel's charts on the page: its aspect, its pixels as the viewBox.
        const box = boxes.find((b) => svg.viewBox === `0 0 ${b.pw} ${b.ph}`);
        assert.ok(box, `${id}: viewBox ${svg.viewBox} is no chart's (${JSON.stringify(boxes)})`);
        assert.ok(Math.abs(svg.width / svg.height - box.w / box.h) < 0.01, `${id}: ${svg.width}×${svg.height} vs ${box.w}×${box.h}`);
        drawn.push(box);
      }
      // Each chart once.
      assert.equal(new Set(drawn).size, canvases, `${id}: every chart exported`);
    }
    assert.deepEqual(errors, [], view.name);
    await context.close();
  }
});

test('SVG: a small heatmap\'s cells are rectangles, a large one an embedded image; labels name the axes; the theme in use', async () => {
  const small = await openApp(app.browser, `${app.server.url}?view=sinusoidal&seq_len=50&d_model=8&panel=pe-heatmap&embed=1`);
  let svg = await readSvg(small.page, (await download(small.page, small.page.locator('.exports button', { hasText: /^SVG$/ }))).text);
  assert.equal(svg.images, 0);
  assert.ok(svg.rects >= 400, `${svg.rects} rectangles for 50 × 8 cells`);
  for (const label of ['position', 'column (embedding dimension)', 'PE value']) assert.ok(svg.texts.includes(label), `${label} in ${svg.texts}`);
  await small.context.close();

  const large = await openApp(app.browser, `${app.server.url}?view=sinusoidal&seq_len=2048&d_model=512&panel=pe-heatmap&embed=1&theme=dark`);
  svg = await readSvg(large.page, (await download(large.page, large.page.locator('.exports button', { hasText: /^SVG$/ }))).text);
  assert.equal(svg.images, 1, 'the cells as one embedded PNG');
  assert.ok(svg.texts.includes('PE value'), 'the colour bar\'s label stays text');
  // The dark theme's background, as on the page.
  const bg = await large.page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--panel').trim());
  assert.notEqual(svg.background, 'rgb(255,255,255)', `dark background, page ${bg}`);
  await large.context.close();

  const lines = await openApp(app.browser, `${app.server.url}?view=rope&panel=rope-decay&embed=1`);
  svg = await readSvg(lines.page, (await download(lines.page, lines.page.locator('.exports button', { hasText: /^SVG$/ }))).text);
  assert.ok(svg.paths >= 3, 'curves are paths');
  assert.ok(svg.texts.some((t) => /distance/.test(t)), svg.texts.join(' | '));
  await lines.context.close();
});

test('the example course page, served from another origin: every frame renders, is sized by its messages, and stays within the page', async () => {
  const pages = await startServer({ root: path.resolve('examples') });
  // "localhost" and "127.0.0.1" are different origins.
  const host = pages.url.replace('127.0.0.1', 'localhost');
  assert.notEqual(new URL(host).origin, app.server.origin);
  const { context, page, errors } = await plainPage(app.browser);
  // Every file is found (the host's own favicon aside: a course site has its own).
  const missing = [];
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) missing.push(r.url()); });
  await page.goto(`${host}course-page.html?lab=${encodeURIComponent(app.server.url)}`);
  const frames = await page.locator('iframe.pe-lab').count();
  assert.equal(frames, 4);
  for (let i = 0; i < frames; i++) {
    const el = page.locator('iframe.pe-lab').nth(i);
    // Chromium renders a cross-origin frame once it is on screen, as a reader scrolls.
    await el.scrollIntoViewIfNeeded();
    const frame = page.frameLocator('iframe.pe-lab >> nth=' + i);
    await frame.locator('canvas.chart[data-plot]').first().waitFor({ timeout: 20000 });
    // Sized by its messages: the frame's height becomes its content's (not the page's 480 px).
    await page.waitForFunction((k) => {
      const f = document.querySelectorAll('iframe.pe-lab')[k];
      return f.style.height && f.style.height !== '480px';
    }, i, { timeout: 20000 });
  }
  const inside = [];
  for (let i = 0; i < frames; i++) {
    const el = page.locator('iframe.pe-lab').nth(i);
    const box = await el.evaluate((f) => ({ src: f.src, right: f.getBoundingClientRect().right, h: f.getBoundingClientRect().height }));
    const f = await (await el.elementHandle()).contentFrame();
    inside.push(f);
    const inner = await f.evaluate(() => ({ h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth, vw: innerWidth }));
    assert.ok(Math.abs(inner.h - box.h) <= 2, `${box.src}: frame ${box.h} px, content ${inner.h} px`);
    // Nothing wider than its frame, and no frame wider than the page's column.
    assert.ok(inner.w <= inner.vw + 1, `${box.src}: content ${inner.w} px in ${inner.vw} px`);
    assert.ok(box.right <= 1000, `${box.src} ends at ${box.right}`);
  }
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true);
  // Each frame shows what the page asked for.
  const frame = (part) => inside.find((f) => f.url().includes(part));
  assert.equal(await frame('controls=0').locator('.controls').count(), 0);
  assert.equal(await frame('hide=').locator('[data-control="seq_len"]:visible').count(), 0);
  assert.ok(await frame('hide=').locator('[data-control="base"]').isVisible());
  assert.equal(await frame('lock=head_dim').locator('[data-control="head_dim"]').getAttribute('inert'), '');
  assert.match(await frame('lesson=seed').locator('.lesson-step h2').innerText(), /^2\. The encoding is a matrix/);
  assert.deepEqual(missing, []);
  assert.deepEqual(errors.filter((e) => !/404 \(Not Found\)/.test(e)), []);
  await context.close();
  await pages.close();
});

test('Why position? with a causal mask: without positions the outputs change where the preceding words changed, and the text names the case', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=attention&order=4,3,2,1,0`);
  const none = page.locator('.demo-table[data-condition="none"]');
  assert.match(await none.locator('caption').innerText(), /Without positional encoding, no mask/);
  assert.equal(await none.locator('tr.order-visible').count(), 0);
  assert.match(await page.locator('[data-panel="permutation-demo"] .about').innerText(), /no causal mask/);
  await page.check('[data-control="causal"] input[value="1"]');
  await settle(page);
  assert.equal(new URL(page.url()).searchParams.get('causal'), '1');
  assert.match(await none.locator('caption').innerText(), /Without positional encoding, causal mask/);
  // "man the bit dog the": every token has other words before it than in "the dog bit the man"
  // (the two "the" are numbered in the order they appear: the URL's 4,3,2,1,0 is 4,0,2,1,3).
  const rows = await none.locator('tbody tr').evaluateAll((rs) => rs.map((r) => [r.querySelector('th').textContent, r.className]));
  assert.deepEqual(rows, [['man (#4)', 'order-visible'], ['the (#0)', 'order-visible'], ['bit (#2)', 'order-visible'], ['dog (#1)', 'order-visible'], ['the (#3)', 'order-visible']]);
  assert.equal(new URL(page.url()).searchParams.get('order'), '4,0,2,1,3');
  assert.match(await page.locator('[data-panel="permutation-demo"] .about').innerText(), /with a causal mask/);
  // Back to no mask: the parameter goes.
  await page.check('[data-control="causal"] input[value="0"]');
  await settle(page);
  assert.equal(new URL(page.url()).searchParams.get('causal'), null);
  // "the man bit the dog" (the default) under a causal mask: the front "the" sees only itself,
  // which did not move; with positions too its output is unchanged, and not called invisible.
  await page.goto(`${app.server.url}?view=attention&causal=1`);
  const pe = page.locator('.demo-table[data-condition="pe"]');
  await pe.locator('caption', { hasText: 'causal mask' }).waitFor({ state: 'attached' });
  await settle(page);
  // textContent: a panel out of sight while the page settles is not rendered (innerText '').
  const front = await pe.locator('tbody tr').first().evaluate((r) => [r.querySelector('th').textContent, r.querySelector('td:last-child').textContent, r.className]);
  assert.equal(front[0], 'the (#0)');
  assert.match(front[1], /^nothing it attends to moved \(change 0\)/);
  assert.equal(front[2], '');
  assert.deepEqual(errors, []);
  await context.close();
});
