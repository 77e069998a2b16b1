// One small driver layer over the three browser engines a classroom has, so that the specs of
// e2e/engines.test.mjs (and scripts/screenshot.mjs) run the same steps in each:
//
// - chromium: Debian's Chromium, headless, through playwright-core (as the other specs);
// - firefox:  Debian's Firefox ESR, headless, over WebDriver BiDi through puppeteer-core;
// - webkit:   WebKitGTK's MiniBrowser (Safari's engine) under Debian's WebKitWebDriver, in a
//             virtual X display (Xvfb); classic WebDriver spoken over HTTP with `fetch`.
//
// A page offers what the specs need and nothing more: goto, run (a function evaluated in the
// page, awaited), waitFor, resize (the viewport, not the window), screenshot, and errors: every
// uncaught error, unhandled rejection and console.error, recorded by a script the test server
// puts first in every HTML page (`startServer({ recordErrors: true })`), the one method that
// works the same in all three engines.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
export const MINIBROWSER = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** The engines to run: all three, or those named in PE_LAB_ENGINES ("firefox,webkit"). */
export function selectedEngines() {
  const named = (process.env.PE_LAB_ENGINES || '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const n of named) if (!ENGINES.includes(n)) throw new Error(`unknown engine "${n}": one of ${ENGINES.join(', ')}`);
  return named.length ? named : ENGINES;
}

/** The error recorder the test server injects (window.__peErrors). */
export const RECORDER = `<script>(()=>{const e=window.__peErrors=[],c=console.error;console.error=function(...a){e.push("console: "+a.map(String).join(" "));return c.apply(this,a)};addEventListener("error",v=>e.push("uncaught: "+(v.error?.message??v.message)));addEventListener("unhandledrejection",v=>e.push("unhandled: "+(v.reason?.message??v.reason)))})()</script>`;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** A function and its arguments as one expression whose value the page awaits. */
const call = (fn, args) => `(${fn})(...${JSON.stringify(args)})`;

/**
 * Launches `name` and returns { name, newPage({ width, height, serviceWorkers }), close() }
 * (and WebKit's `log()`: the browser's last lines of output).
 * Service workers are blocked unless asked for; pages that ask share one profile (Chromium and
 * Firefox; each WebKit page is a browser of its own).
 */
export async function launchEngine(name) {
  if (name === 'chromium') return chromiumEngine();
  if (name === 'firefox') return firefoxEngine();
  if (name === 'webkit') return webkitEngine();
  throw new Error(`unknown engine ${name}`);
}

/** What every page has on top of its engine's few primitives. */
function page(name, prim) {
  const p = {
    engine: name,
    ...prim,
    /** Evaluates `fn(...args)` in the page and returns its (awaited, JSON) value. */
    run: (fn, ...args) => prim.evaluate(call(fn, args)),
    /** Polls `fn(...args)` until it returns a truthy value, which it returns. */
    async waitFor(fn, args = [], { timeout = 30000, what = String(fn).slice(0, 120) } = {}) {
      const end = Date.now() + timeout;
      for (;;) {
        const v = await prim.evaluate(call(fn, args));
        if (v) return v;
        if (Date.now() > end) {
          // What the page showed instead, and what went wrong in it.
          const seen = await prim.evaluate('({ url: location.href, main: document.querySelector("main")?.innerText.slice(0, 300), errors: window.__peErrors })').catch((e) => String(e));
          throw new Error(`${name}: timed out waiting for ${what}; the page: ${JSON.stringify(seen)}`);
        }
        await pause(100);
      }
    },
    /** Everything the recorder caught since the page loaded. */
    errors: () => prim.evaluate('window.__peErrors ?? ["the error recorder is missing"]'),
  };
  return p;
}

async function chromiumEngine() {
  const { launch } = await import('./support.mjs');
  const browser = await launch();
  // Pages that allow service workers share one context (one profile, as tabs do).
  let shared;
  return {
    name: 'chromium',
    async newPage({ width = 1280, height = 900, serviceWorkers = false } = {}) {
      const own = !serviceWorkers;
      const context = own
        ? await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block' })
        : (shared ??= await browser.newContext({ viewport: { width, height }, serviceWorkers: 'allow' }));
      const pg = await context.newPage();
      return page('chromium', {
        goto: (url) => pg.goto(url, { waitUntil: 'load' }),
        evaluate: (expr) => pg.evaluate(expr),
        resize: (w, h) => pg.setViewportSize({ width: w, height: h }),
        screenshot: (path) => pg.screenshot({ path }),
        close: () => (own ? context.close() : pg.close()),
      });
    },
    close: () => browser.close(),
  };
}

async function firefoxEngine() {
  const puppeteer = (await import('puppeteer-core')).default;
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi' });
  return {
    name: 'firefox',
    async newPage({ width = 1280, height = 900 } = {}) {
      const pg = await browser.newPage();
      await pg.setViewport({ width, height });
      return page('firefox', {
        goto: (url) => pg.goto(url, { waitUntil: 'load' }),
        evaluate: (expr) => pg.evaluate(expr),
        resize: (w, h) => pg.setViewport({ width: w, height: h }),
        screenshot: (path) => pg.screenshot({ path }),
        close: () => pg.close(),
      });
    },
    close: () => browser.close(),
  };
}

async function freePort() {
  const srv = net.createServer();
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

async function waitForPort(port, timeout = 15000) {
  const end = Date.now() + timeout;
  for (;;) {
    const ok = await new Promise((r) => {
      const s = net.connect(port, '127.0.0.1', () => { s.end(); r(true); });
      s.on('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on port ${port}`);
    await pause(100);
  }
}

/** Waits for `proc` to exit: SIGTERM, then SIGKILL after `ms`. */
async function stop(proc, ms = 5000) {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill();
  const timer = setTimeout(() => proc.kill('SIGKILL'), ms);
  await exited;
  clearTimeout(timer);
}

/**
 * Xvfb on a display of its own choosing: `-displayfd` has the server take the first free
 * display under its own lock and write its number back, so two servers starting at once (or
 * one starting while the last is still shutting down) never share a display. Picking the number
 * here, by the socket files, once gave a browser a display that another server's exit then
 * removed (#45: "cannot open display: :92"). Its output goes to `output`.
 */
async function startXvfb(output) {
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1920x1200x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (text) => output(text.split('\n').filter(Boolean).map((l) => `Xvfb: ${l}`)));
  proc.on('exit', (code, signal) => output([`Xvfb exited (${signal ?? code})`]));
  const number = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start a display in 10 s')), 10000);
    proc.stdio[3].setEncoding('utf8');
    proc.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(text.trim());
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Xvfb exited (${code}) before it had a display`));
    });
  });
  return { display: `:${number}`, proc };
}

async function webkitEngine() {
  // The driver's output and its browsers' (MiniBrowser and WebKit's processes inherit it), and
  // Xvfb's: the last lines are kept, for a spec to print when the browser died under it.
  const output = [];
  const keep = (lines) => {
    output.push(...lines);
    output.splice(0, Math.max(0, output.length - 80));
  };
  const x = await startXvfb(keep);
  const port = await freePort();
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DISPLAY: x.display } });
  for (const stream of [driver.stdout, driver.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (text) => keep(text.split('\n').filter(Boolean)));
  }
  await waitForPort(port);
  const base = `http://127.0.0.1:${port}`;
  async function wd(method, path, body, timeout) {
    const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), signal: timeout ? AbortSignal.timeout(timeout) : undefined });
    const json = await r.json();
    if (json.value?.error) throw new Error(`webkit: ${json.value.error}: ${json.value.message}`);
    return json.value;
  }
  const sessions = new Set();
  return {
    name: 'webkit',
    async newPage({ width = 1280, height = 900 } = {}) {
      // WebKitWebDriver drives one browser at a time: a page left open (a spec that failed
      // before closing it) is closed first.
      for (const old of sessions) await wd('DELETE', `/session/${old}`, undefined, 10000).catch(() => {});
      sessions.clear();
      if (x.proc.exitCode !== null || x.proc.signalCode !== null) throw new Error(`webkit: the X display ${x.display} is gone (Xvfb exited)`);
      const s = await wd('POST', '/session', { capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } } });
      const id = s.sessionId;
      sessions.add(id);
      const at = (p) => `/session/${id}${p}`;
      // The page's value, awaited, through execute/async (a rejected promise becomes an error).
      const evaluate = async (expr) => {
        const script = `const done = arguments[0]; Promise.resolve().then(() => (${expr})).then((v) => done({ v: v === undefined ? null : v }), (e) => done({ e: String(e && e.stack || e) }));`;
        const out = await wd('POST', at('/execute/async'), { script, args: [] });
        if (out && 'e' in out) throw new Error(`webkit: ${out.e}`);
        return out?.v;
      };
      // The window is sized so that its viewport (what the page sees) is width × height.
      const resize = async (w, h) => {
        await wd('POST', at('/window/rect'), { width: w, height: h });
        const [iw, ih] = await evaluate('[innerWidth, innerHeight]');
        if (iw !== w || ih !== h) await wd('POST', at('/window/rect'), { width: w + (w - iw), height: h + (h - ih) });
      };
      await wd('POST', at('/timeouts'), { script: 60000, pageLoad: 60000 });
      await wd('POST', at('/url'), { url: 'about:blank' });
      await resize(width, height);
      return page('webkit', {
        goto: (url) => wd('POST', at('/url'), { url }),
        evaluate,
        resize,
        async screenshot(path) {
          fs.writeFileSync(path, Buffer.from(await wd('GET', at('/screenshot')), 'base64'));
        },
        async close() {
          sessions.delete(id);
          await wd('DELETE', at(''), undefined, 10000).catch(() => {});
        },
      });
    },
    /** The browser's last lines of output (WebKit only). */
    log: () => output.join('\n'),
    // Returns once the driver and Xvfb have exited; a driver that stopped answering is not
    // waited for.
    async close() {
      for (const id of sessions) await wd('DELETE', `/session/${id}`, undefined, 10000).catch(() => {});
      sessions.clear();
      await stop(driver);
      await stop(x.proc);
    },
  };
}
