// Shared helpers for the end-to-end specs and the benchmark: a loopback static server over
// dist/ (optionally under a sub-path) and a Chromium launched from Debian's package.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { RECORDER } from './engines.mjs';

export const DIST = path.resolve(process.env.PE_LAB_DIST || 'dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.f16': 'application/octet-stream',
  '.json': 'application/json',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

// Each file's gzip body, made once per content (as a static host or CDN keeps it): compressing
// the 585 KB wasm at level 9 took 16–74 ms per request, which every page load (and the
// benchmark's first chart) paid before the first byte. A file changed in place (the deploy
// spec) is compressed again.
const gzipCache = new Map();
function gzipped(file, body) {
  const hit = gzipCache.get(file);
  if (hit && hit.body.equals(body)) return hit.gz;
  const gz = zlib.gzipSync(body, { level: 9 });
  gzipCache.set(file, { body, gz });
  return gz;
}

/**
 * Serves `root` on 127.0.0.1 at a free port, under `prefix` ("/" or "/course/pe-lab/").
 * `recordErrors`: every HTML page gets the error recorder of engines.mjs first in its head.
 */
export async function startServer({ root = DIST, prefix = '/', recordErrors = false } = {}) {
  const log = [];
  const requests = [];
  const state = { down: false };
  // Large headers: the robustness spec loads query strings of hundreds of kilobytes.
  const server = http.createServer({ maxHeaderSize: 4 << 20 }, (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    // Down: the network is gone (a connection that closes without an answer).
    if (state.down) {
      req.socket.destroy();
      return;
    }
    log.push(url.pathname);
    requests.push(url.pathname + url.search);
    if (!url.pathname.startsWith(prefix)) {
      res.writeHead(404).end('not found');
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    let body = fs.readFileSync(file);
    if (recordErrors && file.endsWith('.html')) body = Buffer.from(String(body).replace('<head>', `<head>${RECORDER}`));
    // CORS for everything: a page embedded in a sandboxed iframe (opaque origin) fetches its own
    // module script, wasm and assets cross-origin (the README says the same of any host).
    const headers = {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'cache-control': 'no-store',
      'access-control-allow-origin': '*',
    };
    if ((req.headers['accept-encoding'] || '').includes('gzip')) {
      headers['content-encoding'] = 'gzip';
      res.writeHead(200, headers).end(gzipped(file, body));
    } else {
      res.writeHead(200, headers).end(body);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}${prefix}`,
    log,
    /** Every path asked for, with its query. */
    requests,
    /** Takes the network away (true) or gives it back. */
    setDown: (down) => {
      state.down = down;
      if (down) server.closeAllConnections();
    },
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }),
  };
}

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/**
 * Opens a page that records console errors, page errors and every request.
 * Resolves when the app has painted at least one chart.
 */
// The service worker is blocked unless asked for (`serviceWorkers: 'allow'`): specs that route
// or count requests see every one of them (a worker's own fetches bypass page.route).
export async function openApp(browser, url, { viewport = { width: 1280, height: 900 }, colorScheme = 'light', deviceScaleFactor = 1, serviceWorkers = 'block' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor, acceptDownloads: true, serviceWorkers });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  page.on('request', (req) => requests.push(req.url()));
  await page.goto(url);
  await waitForPaint(page);
  // Every chart on the page has painted once (each records its plotting area).
  await page.waitForFunction(() => [...document.querySelectorAll('canvas.chart')].every((c) => c.hasAttribute('data-plot')), null, { timeout: 20000 });
  return { page, context, errors, requests };
}

/** A page without the app (a course page, another site), recording console and page errors. */
export async function plainPage(browser, viewport = { width: 1000, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

/** Waits until the app has painted at least `min` charts. */
export async function waitForPaint(page, min = 1) {
  await page.waitForFunction((n) => (window.__peLab?.paints ?? 0) >= n, min, { timeout: 20000 });
}

/** Paint count so far. */
export async function paints(page) {
  return page.evaluate(() => window.__peLab?.paints ?? 0);
}

/**
 * Waits until the app shows the state of the last action everywhere: charts on screen paint in
 * the next frame, charts off screen and the URL once the controls rest (`__peLab.pending` is
 * what is still waiting).
 */
export async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  await idle(page);
}

/** Waits until nothing is left to paint or write (off-screen charts, the URL). */
export async function idle(page) {
  await page.waitForFunction(() => (window.__peLab?.pending ?? 0) === 0, null, { timeout: 20000 });
}

/**
 * Scrolls a panel into view, as a user would before reading it, and waits until it is there:
 * panels below the fold of the Sinusoidal view are fetched when they near the viewport (a
 * placeholder with their heading until then), and every chart has painted the current state.
 */
export async function reveal(page, panel) {
  // The placeholder may be replaced by the panel while it is being scrolled to: scroll to
  // whichever is there then.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.locator(`[data-panel="${panel}"]`).scrollIntoViewIfNeeded();
      break;
    } catch (e) {
      if (attempt >= 3 || !/not attached/.test(String(e))) throw e;
    }
  }
  await page.waitForFunction((p) => {
    const s = document.querySelector(`[data-panel="${p}"]`);
    return s && !s.classList.contains('panel-loading') && [...s.querySelectorAll('canvas.chart')].every((c) => c.hasAttribute('data-plot'));
  }, panel, { timeout: 20000 });
  await settle(page);
}

/** Reveals every panel still waiting below the fold (see `reveal`), then scrolls back up. */
export async function revealAll(page) {
  for (const panel of await page.$$eval('.panel-loading', (s) => s.map((e) => e.dataset.panel))) {
    await reveal(page, panel);
  }
  await page.evaluate(() => scrollTo(0, 0));
  await settle(page);
}

/** The canvas pixels of a panel's first chart, as a data URL (to compare before and after). */
export async function canvasData(page, panel, index = 0) {
  return page.evaluate(([p, i]) => document.querySelectorAll(`[data-panel="${p}"] canvas`)[i].toDataURL(), [panel, index]);
}

/** Clicks a panel's export button named `label` (e.g. "CSV") and returns the file's text. */
export async function downloadText(page, panel, label) {
  const button = page.locator(`[data-panel="${panel}"] .exports button`, { hasText: new RegExp(`^${label}$`) }).first();
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return fs.readFileSync(await dl.path(), 'utf8');
}

/** Sets a range input to a value and fires `input`, as a user dragging it would. */
export async function slide(page, selector, value) {
  await page.evaluate(([sel, v]) => {
    const el = document.querySelector(sel);
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, [selector, value]);
}

/**
 * The view registry as the app publishes it (`window.__peLab.views`: name, title, panels with
 * id and title), so that the specs cover every registered view without a copy of the list.
 */
export async function registeredViews(app) {
  if (!app.views) {
    const page = await app.browser.newPage();
    await page.goto(app.server.url);
    await page.waitForFunction(() => Array.isArray(window.__peLab?.views));
    app.views = await page.evaluate(() => window.__peLab.views);
    await page.close();
  }
  return app.views;
}

/** The names of the registered views (`view=` values), in navigation order. */
export async function viewNames(app) {
  return (await registeredViews(app)).map((v) => v.name);
}

export function query(page) {
  return new URL(page.url()).searchParams;
}

/**
 * Starts a loopback server over dist/ and one Chromium for the calling spec file, and stops
 * both when it ends. Read `app.server` and `app.browser` inside tests.
 */
export function useApp() {
  const app = {};
  before(async () => {
    app.server = await startServer();
    app.browser = await launch();
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.close();
  });
  return app;
}
