// Offline after one visit: the service worker (assets/sw.js) caches the shell when it installs
// and everything else when it is first fetched; with the network gone, every view, every lesson
// step, the learned table and the exports still work. A new build is served on the next online
// visit (deploy.test.mjs: no page ever mixes two builds).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, openApp, settle, DIST } from './support.mjs';

const read = (name) => JSON.parse(fs.readFileSync(path.join(DIST, 'lessons', `${name}.json`), 'utf8'));
const LESSONS = { seed: read('seed'), precision: read('precision'), train: read('train') };

/** Every chart on the page has painted (at least `min`), and no alert says something failed
 *  to load. */
async function painted(page, min = 1) {
  try {
    await page.waitForFunction((min) => {
      const charts = [...document.querySelectorAll('canvas.chart')];
      return charts.length >= min && charts.every((c) => c.hasAttribute('data-plot'));
    }, min, { timeout: 20000 });
  } catch (e) {
    const seen = await page.evaluate(() => ({ url: location.href, charts: document.querySelectorAll('canvas.chart').length, plotted: document.querySelectorAll('canvas[data-plot]').length, main: document.querySelector('main')?.innerText.slice(0, 300) }));
    throw new Error(`not painted: ${JSON.stringify(seen)}`);
  }
  await settle(page);
  const alerts = await page.locator('[role="alert"]').allInnerTexts();
  assert.deepEqual(alerts.filter((t) => /could not|not load|failed/i.test(t)), []);
}

test('after one visit every view, lesson step, the learned table and the exports work offline; a new build replaces the cache', async () => {
  // A copy of the build, so that a second build can be served from the same place later.
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-lab-offline-'));
  fs.cpSync(DIST, root, { recursive: true });
  const server = await startServer({ root, prefix: '/course/pe-lab/' });
  const browser = await launch();
  try {
    const sw = fs.readFileSync(path.join(root, 'sw.js'), 'utf8');
    const build = sw.match(/const BUILD = '([0-9a-f]{16})'/)?.[1];
    assert.ok(build, 'the release stamps the worker with the build');
    const { page, context, errors } = await openApp(browser, server.url, { serviceWorkers: 'allow' });
    // Registered after the first chart; it installs (caching the shell) and takes control.
    await page.waitForFunction(() => navigator.serviceWorker?.controller, null, { timeout: 20000 });
    assert.deepEqual(await page.evaluate(() => caches.keys()), [`pe-lab-${build}`]);
    assert.equal(await page.locator('link[rel="manifest"]').count(), 1);
    const views = (await page.evaluate(() => window.__peLab.views)).map((v) => v.name);
    assert.ok(views.length >= 8);
    // One visit: every view, the lesson list and both lessons (their files and views).
    for (const v of views) {
      await page.goto(`${server.url}?view=${v}`);
      await painted(page);
    }
    for (const name of Object.keys(LESSONS)) {
      await page.goto(`${server.url}?lesson=${name}&step=1`);
      await page.waitForSelector(`[data-lesson="${name}"] .lesson-step`);
      await painted(page);
    }
    await page.goto(`${server.url}?lesson=`);
    await page.locator('.lesson-picker li h3', { hasText: LESSONS.precision.title }).waitFor();
    const served = new Set(server.log);

    await context.setOffline(true);
    const before = server.log.length;
    for (const v of views) {
      await page.goto(`${server.url}?view=${v}&theme=dark`);
      await painted(page);
    }
    // The learned table itself (the real MiniLM rows, not a fallback).
    await page.goto(`${server.url}?view=learned`);
    await painted(page);
    assert.equal(await page.locator('.wall-notice, [role="alert"]').filter({ hasText: /could not|unavailable/i }).count(), 0);
    // Every step of both lessons.
    for (const [name, lesson] of Object.entries(LESSONS)) {
      for (let n = 1; n <= lesson.steps.length; n++) {
        await page.goto(`${server.url}?lesson=${name}&step=${n}`);
        const panels = lesson.steps[n - 1].panels;
        await page.waitForFunction(([name, n, panels]) => document.querySelector(`[data-lesson="${name}"]`)?.dataset.step === String(n)
          && [...document.querySelectorAll('.lesson [data-panel]')].map((p) => p.dataset.panel).join() === panels.join(), [name, n, panels]);
        // A step's panels are there, each with its content (a table-only panel has no chart).
        await painted(page, 0);
        assert.equal(await page.locator('.lesson .panel').filter({ hasText: /could not be loaded|did not arrive/ }).count(), 0, `${name} ${n}`);
      }
    }
    // Exports are made in the page: a CSV and a PNG download (NPY is offered for matrices over
    // a million cells, made the same way).
    await page.goto(`${server.url}?view=sinusoidal`);
    await painted(page);
    for (const kind of ['CSV', 'PNG']) {
      const [dl] = await Promise.all([
        page.waitForEvent('download'),
        page.locator('[data-panel="pe-heatmap"] .exports button', { hasText: new RegExp(`^${kind}$`) }).click(),
      ]);
      assert.ok(fs.statSync(await dl.path()).size > 0, kind);
    }
    assert.equal(server.log.length, before, 'nothing reached the server while offline');
    assert.ok(served.size > 10);

    // A second build: its page and its worker differ. Online, the next visit gets it; its
    // worker keeps the newest two builds' caches (a page of the old one may still be open:
    // deploy.test.mjs); offline again, it is the new build that is served.
    await context.setOffline(false);
    const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
    fs.writeFileSync(path.join(root, 'index.html'), html.replace('<head>', '<head><meta name="pe-lab-build" content="second">'));
    const next = 'abcdefabcdef0123';
    fs.writeFileSync(path.join(root, 'sw.js'), sw.replace(`'${build}'`, `'${next}'`));
    await page.goto(`${server.url}?view=rope`);
    await painted(page);
    assert.equal(await page.locator('meta[name="pe-lab-build"]').count(), 1);
    await page.waitForFunction((names) => caches.keys().then((k) => k.sort().join() === names), [`pe-lab-${build}`, `pe-lab-${next}`].sort().join(), { timeout: 20000, polling: 250 });
    // The new worker caches as the app fetches: visit once more, then go offline.
    await page.goto(`${server.url}?view=rope`);
    await painted(page);
    await context.setOffline(true);
    await page.goto(`${server.url}?view=rope`);
    await painted(page);
    assert.equal(await page.locator('meta[name="pe-lab-build"]').count(), 1);
    // Nothing was asked of another origin.
    assert.ok(errors.every((e) => !/https?:\/\/(?!127\.0\.0\.1)/.test(e)), errors.join('\n'));
    await context.close();
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
