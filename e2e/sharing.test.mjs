// Sharing and embedding: the Share dialog, panels embedded cross-origin in a sandboxed iframe
// that report their height, the release build under a sub-path, and "show data as table".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { useApp, openApp, startServer, settle, slide, revealAll, query, viewNames, plainPage } from './support.mjs';

const app = useApp();

test('the Share dialog gives the permalink, an embed link and an iframe snippet for the chosen panel', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope&head_dim=32&theta=500`);
  await page.click('button.share');
  // The dialog is fetched the first time Share is pressed (its own chunk), then opens.
  await page.waitForFunction(() => document.querySelector('dialog.share-dialog')?.open, null, { timeout: 5000 });
  const permalink = await page.inputValue('#share-permalink');
  const p = new URL(permalink).searchParams;
  assert.equal(p.get('head_dim'), '32');
  assert.equal(p.get('theta'), '500');
  assert.equal(p.get('embed'), null);
  // The chooser lists panel titles (values are the IDs).
  const options = await page.locator('#share-panel option').allInnerTexts();
  assert.ok(options.includes('Long-term decay, and what it depends on'), options.join(' | '));
  assert.ok(!options.includes('rope-decay'));
  await page.selectOption('#share-panel', 'rope-decay');
  await page.uncheck('#share-controls');
  const embed = new URL(await page.inputValue('#share-embed')).searchParams;
  assert.deepEqual([embed.get('embed'), embed.get('panel'), embed.get('controls'), embed.get('head_dim')], ['1', 'rope-decay', '0', '32']);
  const snippet = await page.inputValue('#share-snippet');
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?view=rope&amp;head_dim=32/);
  assert.match(snippet, /title="PE Lab: Long-term decay, and what it depends on"/);
  assert.match(snippet, /pe-lab:resize/);
  // The copy buttons say so.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('button[data-copy="share-embed"]');
  assert.equal(await page.textContent('button[data-copy="share-embed"]'), 'Copied ✓');
  // The embed link opens that panel alone, without controls.
  const embedded = await openApp(app.browser, await page.inputValue('#share-embed'));
  assert.deepEqual(await embedded.page.$$eval('[data-panel]', (s) => s.map((e) => e.dataset.panel)), ['rope-decay']);
  assert.equal(await embedded.page.locator('.controls').count(), 0);
  assert.equal(await embedded.page.locator('.site-header').count(), 0);
  await embedded.context.close();
  await page.click('.share-dialog .close');
  assert.equal(await page.locator('dialog.share-dialog').evaluate((d) => d.open), false);
  // Pressed again, it opens again (made anew, one dialog in the page).
  await page.click('button.share');
  await page.waitForFunction(() => document.querySelector('dialog.share-dialog')?.open, null, { timeout: 5000 });
  assert.equal(await page.locator('dialog.share-dialog').count(), 1);
  assert.equal(new URL(await page.inputValue('#share-permalink')).searchParams.get('view'), 'rope');
  assert.deepEqual(errors, []);
  await context.close();
});

test('panels embedded on another origin in a sandboxed iframe render and size their frames', async () => {
  const panels = [['sinusoidal', 'pe-heatmap', ''], ['rope', 'rope-score-distance', '&controls=0'], ['bias', 'alibi-slopes', '']];
  const frames = panels
    .map(([view, panel, extra], i) => `<iframe id="f${i}" sandbox="allow-scripts" style="width:700px;height:150px;border:0" src="${app.server.url}?view=${view}&embed=1&panel=${panel}${extra}"></iframe>`)
    .join('\n');
  const host = `<!doctype html><meta charset="utf-8"><title>Course page</title>
<p>A course page on another origin.</p>
${frames}
<script>
  window.resizes = [];
  addEventListener('message', (e) => {
    if (!e.data || e.data.type !== 'pe-lab:resize') return;
    for (const f of document.querySelectorAll('iframe')) {
      if (f.contentWindow === e.source) { f.style.height = e.data.height + 'px'; window.resizes.push([f.id, e.data.height]); }
    }
  });
</script>`;
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(host));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  // "localhost" is a different origin from "127.0.0.1" on the same machine.
  const hostUrl = `http://localhost:${server.address().port}/`;
  assert.notEqual(new URL(hostUrl).origin, app.server.origin);
  const { context, page, errors } = await plainPage(app.browser);
  await page.goto(hostUrl);
  for (let i = 0; i < panels.length; i++) {
    // Chromium pauses rendering in cross-origin frames that are off screen, so a frame
    // reports its height when it is scrolled into view, as a reader would do.
    await page.locator(`#f${i}`).scrollIntoViewIfNeeded();
    const frame = page.frameLocator(`#f${i}`);
    await frame.locator('canvas.chart[data-plot]').first().waitFor({ timeout: 20000 });
    await page
      .waitForFunction((id) => window.resizes.some((r) => r[0] === id), `f${i}`, { timeout: 20000 })
      .catch(async (e) => assert.fail(`resize messages: ${JSON.stringify(await page.evaluate(() => window.resizes))}; errors: ${errors}; ${e}`));
  }
  for (let i = 0; i < panels.length; i++) {
    const h = await page.$eval(`#f${i}`, (f) => f.getBoundingClientRect().height);
    // Sized to the panel's content, not left at the 150 px the page gave it.
    assert.ok(h > 250, `frame ${i} height ${h}`);
    const inner = await page.frames().find((f) => f.url().includes(panels[i][1]))
      .evaluate(() => document.documentElement.scrollHeight);
    assert.ok(Math.abs(inner - h) <= 2, `frame ${i}: ${inner} vs ${h}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
  await new Promise((r) => server.close(r));
});

test('the release build works under a sub-path (/course/pe-lab/), learned asset included', async () => {
  const server = await startServer({ prefix: '/course/pe-lab/' });
  const { page, context, errors, requests } = await openApp(app.browser, `${server.url}?view=learned`);
  await page.waitForSelector('[data-panel="learned-heatmap"] canvas[data-plot]');
  assert.ok(requests.some((r) => r.includes('/course/pe-lab/minilm_l6_v2_position_embeddings.f16')));
  // The view's code is a chunk loaded on demand, fetched relative to the page too.
  assert.ok(requests.some((r) => /\/course\/pe-lab\/split_learned_view\.wasm\?v=[0-9a-f]{8}$/.test(r)), requests.join('\n'));
  assert.ok(requests.every((r) => r.startsWith(server.origin + '/course/pe-lab/') || r.startsWith('data:') || r.startsWith('blob:')), requests.join('\n'));
  assert.deepEqual(server.log.filter((p) => !p.startsWith('/course/pe-lab/')), []);
  // Moving a control keeps the sub-path in the URL.
  await slide(page, '[data-control="seq_len"] input[type=range]', 100);
  await settle(page);
  assert.equal(new URL(page.url()).pathname, '/course/pe-lab/');
  assert.equal(query(page).get('seq_len'), '100');
  assert.deepEqual(errors, []);
  await context.close();
  await server.close();
});

test('"show data as table" shows the first rows of exactly the CSV, and follows the controls', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal&seq_len=64&d_model=16`);
  const panel = page.locator('[data-panel="pe-heatmap"]');
  await panel.locator('details.data-table summary').click();
  const table = panel.locator('table.data');
  await table.waitFor();
  assert.match(await table.locator('caption').textContent(), /50 of 64 rows, 12 of 16 columns/);
  const row1 = await table.locator('tbody tr').nth(1).locator('td').allTextContents();
  // Position 1: PE[1, 0] = sin(1), PE[1, 1] = cos(1).
  assert.ok(Math.abs(Number(row1[0]) - Math.sin(1)) < 1e-12 && Math.abs(Number(row1[1]) - Math.cos(1)) < 1e-12);
  // Headers in words, each with the CSV's name under it.
  const head = await table.locator('thead th').allTextContents();
  assert.equal(head[0], 'column 0: sin, pair 0col0_sin_i0');
  assert.equal(await table.locator('thead th').nth(3).locator('code').textContent(), 'col3_cos_i1');
  // Several quick moves: the table follows once the controls rest.
  for (const d of [12, 10, 8]) await slide(page, '[data-control="d_model"] input[type=range]', d);
  await page.waitForFunction(() => /50 of 64 rows, 8 of 8 columns/.test(document.querySelector('[data-panel="pe-heatmap"] table.data caption')?.textContent ?? ''));
  // On every view, every chart has a summary line and a table toggle (the two charts of
  // scaling-frequencies, frequency and wavelength, share one CSV and so one table).
  for (const view of await viewNames(app)) {
    await page.goto(`${app.server.url}?view=${view}`);
    await page.waitForFunction(() => document.querySelectorAll('canvas.chart').length > 0);
    await revealAll(page);
    const charts = await page.locator('canvas.chart').count();
    assert.equal(await page.locator('p.chart-summary').count(), charts, view);
    const missing = await page.$$eval('[data-panel]', (panels) =>
      panels
        .filter((p) => {
          const charts = p.querySelectorAll('canvas.chart').length;
          const tables = p.querySelectorAll('details.data-table').length;
          return tables < (p.dataset.panel === 'scaling-frequencies' ? 1 : charts);
        })
        .map((p) => p.dataset.panel));
    assert.deepEqual(missing, [], view);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
