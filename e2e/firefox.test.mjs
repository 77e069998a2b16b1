// Firefox (ESR, headless, over WebDriver BiDi with puppeteer-core): every view and the seed
// lesson open and scroll to their last panel without an uncaught error or a console error.
// Firefox delivers observer records queued before `disconnect()`; a callback dropped with its
// chart then threw “closure invoked recursively or after being dropped” (ui::dom::keep_observer).
// The other specs run in Chromium only; this one is the first in a second engine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { startServer } from './support.mjs';

const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi' });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens `query`, waits for the app, scrolls to the bottom in steps, and returns the errors. */
async function visit(query) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message ?? e}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(server.url + query, { waitUntil: 'load' });
  await page.waitForFunction('(window.__peLab?.pending ?? 1) === 0 && document.querySelectorAll("canvas").length > 0', { timeout: 30000 });
  const height = await page.evaluate('document.documentElement.scrollHeight');
  for (let y = 0; y <= height; y += 300) {
    await page.evaluate(`window.scrollTo(0, ${y})`);
    await pause(120);
  }
  await page.waitForFunction('(window.__peLab?.pending ?? 1) === 0', { timeout: 30000 });
  await pause(300);
  const views = await page.evaluate('(window.__peLab?.views ?? []).map((v) => v.name)');
  await page.close();
  return { errors, views };
}

test('every view and a lesson step open and scroll in Firefox without an error', async () => {
  const first = await visit('?view=sinusoidal');
  assert.deepEqual(first.errors, [], 'sinusoidal');
  assert.ok(first.views.length >= 9, `views: ${first.views}`);
  for (const view of first.views.filter((v) => v !== 'sinusoidal')) {
    const { errors } = await visit(`?view=${view}`);
    assert.deepEqual(errors, [], view);
  }
  for (const query of ['?lesson=seed&step=17&present=1', '?lesson=precision&step=5']) {
    const { errors } = await visit(query);
    assert.deepEqual(errors, [], query);
  }
});
