// The specs that matter most, in each engine a classroom has: Chromium, Firefox ESR and WebKit
// (Safari's engine), through the one driver layer of engines.mjs. Every page records uncaught
// errors, unhandled rejections and console errors (the test server injects the recorder), and
// every spec fails on any.
//
// Run one engine alone: PE_LAB_ENGINES=webkit node --test e2e/engines.test.mjs
import { test as globalTest, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, DIST } from './support.mjs';
import { launchEngine, selectedEngines } from './engines.mjs';
const test = globalTest;

const read = (name) => JSON.parse(fs.readFileSync(path.join(DIST, 'lessons', `${name}.json`), 'utf8'));
const LESSONS = Object.fromEntries(['seed', 'precision', 'models', 'train'].map((n) => [n, read(n)]));
const SHOTS = process.env.PE_LAB_SHOTS; // a folder: presenter screenshots are written there

let server;
before(async () => {
  server = await startServer({ recordErrors: true });
});
after(() => server?.close());

/** The app shows its panels, every chart has painted, and nothing waits to paint or write. */
function ready() {
  const charts = [...document.querySelectorAll('main canvas.chart')];
  return (window.__peLab?.pending ?? 1) === 0 && document.querySelector('main [data-panel]') && charts.every((c) => c.hasAttribute('data-plot'));
}

/** Two animation frames, then until nothing is pending: the last action shows everywhere. */
async function settle(page) {
  await page.run(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 0)))));
  await page.waitFor(ready, [], { what: 'the app to settle' });
}

async function open(page, query) {
  await page.goto(server.url + query);
  await page.waitFor(ready, [], { what: `${query} to paint` });
}

/** Scrolls to the bottom in steps (panels below the fold load on the way), then to the top. */
async function scrollThrough(page) {
  const height = await page.run(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 400) {
    await page.run((y) => scrollTo(0, y), y);
    await page.run(() => new Promise((r) => setTimeout(r, 100)));
  }
  await page.waitFor(() => !document.querySelector('.panel-loading') && (window.__peLab?.pending ?? 1) === 0, [], { what: 'every panel to load' });
  await page.run(() => scrollTo(0, 0));
  await settle(page);
}

/** A short hash of every canvas's pixels (a change anywhere changes it). */
function canvasHashes() {
  return [...document.querySelectorAll('main canvas')].map((c) => {
    const s = c.toDataURL();
    let h = 0;
    for (let i = 0; i < s.length; i += 7) h = (h * 31 + s.charCodeAt(i)) | 0;
    return `${c.width}x${c.height}:${h}`;
  });
}

for (const name of selectedEngines()) {
  describe(name, () => {
    let engine;
    before(async () => {
      engine = await launchEngine(name);
    });
    after(() => engine?.close());
    // WebKit only: a spec that fails is run again in a fresh browser, and each failure is
    // printed with the browser's last output. Seen in full runs, never when a spec runs alone
    // (over 90 loads): WebKitGTK's web process crashes ("WebProcess CRASHED", "page crash or
    // hang", "Could not parse script result"), or the app's allocator (dlmalloc, in the wasm)
    // finds its heap corrupted, on a page that every other engine, and WebKit alone, loads
    // cleanly (#45; the app has no `unsafe` code). Such a crash gets two re-runs; any other
    // failure one. A failure that repeats still fails.
    const crashed = (e, log) => /page crash|Could not parse script result|dlmalloc|WebProcess CRASHED/.test(`${e?.message ?? e}\n${log}`);
    const test = (title, body) => globalTest(title, async (t) => {
      if (name !== 'webkit') return body(t);
      for (let attempt = 1; ; attempt++) {
        try {
          return await body(t);
        } catch (failure) {
          const log = engine?.log?.() || '(none)';
          const again = attempt === 1 || (attempt === 2 && crashed(failure, log));
          console.log(`# webkit: "${title}" failed (attempt ${attempt})${again ? ', run again in a fresh browser' : ''}. The failure: ${String(failure?.message ?? failure).slice(0, 2000)}`);
          console.log(`# webkit: the browser's last output:\n${log.slice(-4000).replace(/^/gm, '#   ')}`);
          if (!again) throw failure;
          // A driver that stopped answering is not waited for long.
          await Promise.race([engine?.close().catch(() => {}), new Promise((r) => setTimeout(r, 10000))]);
          engine = await launchEngine(name);
        }
      }
    });

    test(`${name}: every view opens, loads every panel and scrolls without an error`, async () => {
      const page = await engine.newPage();
      await open(page, '?view=sinusoidal');
      const views = await page.run(() => window.__peLab.views.map((v) => v.name));
      assert.ok(views.length >= 9, `views: ${views}`);
      for (const view of views) {
        await open(page, `?view=${view}`);
        await scrollThrough(page);
        assert.deepEqual(await page.errors(), [], view);
      }
      await page.close();
    });

    test(`${name}: every visible slider changes a chart, and the URL brings every value back`, async () => {
      const page = await engine.newPage();
      await open(page, '?view=sinusoidal');
      const views = await page.run(() => window.__peLab.views.map((v) => v.name));
      const idle = [];
      for (const view of views) {
        await open(page, `?view=${view}`);
        await scrollThrough(page);
        // A run's settings (Train it yourself) act when Run is pressed, not on a chart at once:
        // e2e/train.test.mjs checks that each reaches the run.
        const sliders = await page.run(() => [...document.querySelectorAll('main input[type=range]')].filter((e) => e.offsetParent !== null && !e.disabled && !e.closest('[data-panel="train-setup"]')).map((e) => e.id));
        for (const id of sliders) {
          // Each from the view's default state (as the Chromium-only clarity spec does).
          await open(page, `?view=${view}`);
          await scrollThrough(page);
          const before = await page.run(canvasHashes);
          let changed = false;
          for (const fraction of [0.37, 0.81, 0.05]) {
            let after;
            try {
              await page.run((id, f) => {
                const el = document.getElementById(id);
                const min = Number(el.min), max = Number(el.max), step = Number(el.step) || 1;
                el.value = String(min + Math.round(((max - min) * f) / step) * step);
                el.dispatchEvent(new Event('input', { bubbles: true }));
                el.dispatchEvent(new Event('change', { bubbles: true }));
              }, id, fraction);
              await settle(page);
              after = await page.run(canvasHashes);
            } catch (e) {
              // Where it happened, for the retry's report (#45: WebKit's web process crashed
              // here once, "Could not parse script result").
              e.message = `${view}: #${id} at ${fraction} of its range: ${e.message}`;
              throw e;
            }
            if (after.some((h, i) => h !== before[i])) {
              changed = true;
              break;
            }
          }
          if (!changed) idle.push(`${view}: #${id}`);
        }
        // Every slider's value (the last moved and the rest at their defaults), from the URL
        // alone.
        const values = () => Object.fromEntries([...document.querySelectorAll('main input[type=range]')].filter((e) => e.offsetParent !== null).map((e) => [e.id, e.value]));
        const moved = await page.run(values);
        const url = await page.run(() => location.search);
        await open(page, url);
        await scrollThrough(page);
        assert.deepEqual(await page.run(values), moved, `${view}: ${url}`);
        assert.deepEqual(await page.errors(), [], view);
      }
      assert.deepEqual(idle, [], 'visible sliders that change no chart');
      await page.close();
    });

    test(`${name}: a lesson asks, takes an answer, explains it and moves on`, async () => {
      const page = await engine.newPage();
      const n = LESSONS.seed.steps.findIndex((s) => s.question?.choices) + 1;
      const q = LESSONS.seed.steps[n - 1].question;
      await open(page, `?lesson=seed&step=${n}`);
      await page.waitFor((n) => document.querySelector('[data-lesson="seed"]')?.dataset.step === String(n), [n]);
      assert.equal(await page.run(() => document.querySelector('[data-question]').dataset.revealed), 'false');
      const wrong = q.choices.findIndex((_, i) => i + 1 !== q.answer);
      await page.run((k) => document.querySelectorAll('button.choice')[k].click(), wrong);
      await page.waitFor((k) => document.querySelectorAll('button.choice')[k].getAttribute('aria-pressed') === 'true', [wrong]);
      await page.run(() => [...document.querySelectorAll('[data-question] button')].find((b) => b.textContent.trim() === 'Check').click());
      await page.waitFor(() => document.querySelector('[data-question]')?.dataset.revealed === 'true');
      const verdict = await page.run(() => document.querySelector('.verdict').textContent);
      assert.match(verdict, /^Not quite/);
      assert.ok(await page.run(() => document.querySelector('.explain')?.textContent.length > 20));
      await page.run(() => [...document.querySelectorAll('.lesson-buttons button')].find((b) => b.textContent.trim() === 'Next').click());
      await page.waitFor((n) => document.querySelector('[data-lesson="seed"]')?.dataset.step === String(n + 1), [n]);
      await settle(page);
      assert.equal(await page.run(() => new URL(location.href).searchParams.get('step')), String(n + 1));
      assert.deepEqual(await page.errors(), []);
      await page.close();
    });

    for (const [w, h] of [[1280, 720], [1920, 1080]]) {
      test(`${name}: presenter mode at ${w} × ${h}: every step whole, every chart at least 360 × 200 with nothing cut`, async () => {
        const page = await engine.newPage({ width: w, height: h });
        const bad = [];
        for (const [lesson, { steps }] of Object.entries(LESSONS)) {
          for (let n = 1; n <= steps.length; n++) {
            for (const extra of steps[n - 1].question ? ['', '&revealed=1'] : ['']) {
              const at = `${lesson} ${n}${extra}`;
              await open(page, `?lesson=${lesson}&step=${n}&present=1${extra}`);
              await page.waitFor(([l, n]) => document.querySelector(`[data-lesson="${l}"]`)?.dataset.step === String(n), [[lesson, n]]);
              await settle(page);
              const r = await page.run(presenterFit);
              if (r.length) bad.push(`${at}: ${r.join('; ')}`);
              if (SHOTS) await page.screenshot(path.join(SHOTS, `${name}-${w}x${h}-${lesson}-${n}${extra ? '-revealed' : ''}.png`));
            }
          }
        }
        assert.deepEqual(bad, []);
        assert.deepEqual(await page.errors(), []);
        await page.close();
      });
    }

    test(`${name}: every panel embeds alone, and a CSV export downloads the panel's data`, async () => {
      const page = await engine.newPage({ width: 900, height: 700 });
      await open(page, '?view=sinusoidal');
      const panels = await page.run(() => window.__peLab.views.flatMap((v) => v.panels.map((p) => [p.id, p.title])));
      for (const [id, title] of panels) {
        await open(page, `?embed=1&panel=${id}`);
        const shown = await page.run(() => [...document.querySelectorAll('[data-panel]')].map((s) => [s.dataset.panel, s.querySelector('h2')?.textContent]));
        assert.deepEqual(shown, [[id, title]]);
        assert.deepEqual(await page.errors(), [], id);
      }
      // The CSV button's file, caught at the anchor it clicks (a download in every engine).
      await open(page, '?view=rope&head_dim=8');
      const csv = await page.run(async () => {
        let caught;
        const click = HTMLAnchorElement.prototype.click;
        HTMLAnchorElement.prototype.click = function () {
          if (this.download) caught = { name: this.download, href: this.href };
          else click.call(this);
        };
        try {
          const panel = document.querySelector('[data-panel="rope-decay"]');
          [...panel.querySelectorAll('.exports button')].find((b) => b.textContent.trim() === 'CSV').click();
          for (let i = 0; i < 50 && !caught; i++) await new Promise((r) => setTimeout(r, 100));
          return { name: caught.name, text: await (await fetch(caught.href)).text() };
        } finally {
          HTMLAnchorElement.prototype.click = click;
        }
      });
      assert.match(csv.name, /\.csv$/);
      const lines = csv.text.trim().split('\n');
      assert.ok(lines.length > 10, csv.text.slice(0, 200));
      assert.ok(lines.slice(1).every((l) => l.split(',').every((c) => c !== '' && !Number.isNaN(Number(c)))), lines.slice(0, 3).join('\n'));
      assert.deepEqual(await page.errors(), []);
      await page.close();
    });
  });
}

/**
 * What a presenter step shows that a room cannot read: the step's text or a panel past the
 * window, a page that scrolls, a chart smaller than 360 × 200 CSS pixels, outside its panel or
 * over another, a chart that cut a legend entry or an axis title (`data-cramped`), a lesson bar
 * wider than the window.
 */
function presenterFit() {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  const box = (e) => e.getBoundingClientRect();
  const inside = (r, o, slack = 1) => r.left >= o.left - slack && r.top >= o.top - slack && r.right <= o.right + slack && r.bottom <= o.bottom + slack;
  const win = { left: 0, top: 0, right: vw, bottom: vh };
  const step = document.querySelector('.lesson-step');
  if (!step || !inside(box(step), win) || step.scrollHeight > step.clientHeight + 1) out.push('the step text does not fit');
  if (document.documentElement.scrollHeight > vh + 1 || document.documentElement.scrollWidth > vw + 1) out.push('the page scrolls');
  const bar = document.querySelector('.lesson-bar');
  if (!bar || !inside(box(bar), win)) out.push('the lesson bar is cut');
  const charts = [];
  const panels = document.querySelectorAll('.lesson-panels .panel');
  if (!panels.length) out.push('no panel');
  for (const panel of panels) {
    const p = box(panel);
    if (!inside(p, win)) out.push(`${panel.dataset.panel} is past the window`);
    for (const c of panel.querySelectorAll('canvas.chart')) {
      const r = box(c);
      const name = `${panel.dataset.panel} chart ${Math.round(r.width)}×${Math.round(r.height)}`;
      if (r.width < 360 || r.height < 200) out.push(`${name} is smaller than 360 × 200`);
      if (!inside(r, p)) out.push(`${name} is outside its panel`);
      if (c.dataset.cramped) out.push(`${name} cut its ${c.dataset.cramped}`);
      for (const o of charts) {
        if (r.left < o.right - 1 && o.left < r.right - 1 && r.top < o.bottom - 1 && o.top < r.bottom - 1) out.push(`${name} overlaps another chart`);
      }
      charts.push(r);
    }
  }
  return out;
}
