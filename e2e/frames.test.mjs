// Painting in frames, on screen first (issue 10): whatever the order and speed of the inputs,
// once the controls rest every chart shows exactly what a fresh load of the final URL shows;
// an off-screen chart scrolled into view or exported is current; many inputs in one frame
// paint once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useApp, openApp, settle, reveal, revealAll, registeredViews, slide } from './support.mjs';

const app = useApp();

/** Every chart's pixels, in page order. */
const allCanvases = (page) => page.evaluate(() => [...document.querySelectorAll('main canvas.chart')].map((c) => c.toDataURL()));
/** Every panel's text (tables, notes and captions that follow the controls once they rest), as
 *  its text content: a panel far from the viewport is not rendered (`content-visibility: auto`)
 *  and has no `innerText`, so pages scrolled to different places would compare unequal. */
const allPanelTexts = (page) => page.evaluate(() => [...document.querySelectorAll('main section.panel')].map((p) => p.textContent));

/** Once the controls rest, every chart equals what a fresh load of the page's URL draws, and
 *  neither page logged an error. */
async function assertEqualsFreshLoad(page, errors, what) {
  await settle(page);
  const moved = await allCanvases(page);
  const fresh = await openApp(app.browser, page.url());
  await settle(fresh.page);
  const expected = await allCanvases(fresh.page);
  assert.equal(moved.length, expected.length);
  moved.forEach((d, i) => assert.ok(d === expected[i], `${what}: chart ${i} differs from a fresh load of ${page.url()}`));
  assert.deepEqual([...errors, ...fresh.errors], []);
  await fresh.context.close();
}

/** Drags a slider with the mouse through `steps` positions without waiting, then lets go. */
async function drag(page, id, from, to, steps = 8) {
  const slider = page.locator(`#${id}`);
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  const y = box.y + box.height / 2;
  const x = (f) => box.x + 8 + f * (box.width - 16);
  await page.mouse.move(x(from), y);
  await page.mouse.down();
  for (let k = 1; k <= steps; k++) await page.mouse.move(x(from + ((to - from) * k) / steps), y);
  await page.mouse.up();
}

test('after any drags, every canvas equals a fresh load of the final URL, pixel for pixel, and so does every panel\'s text', async () => {
  for (const { name } of await registeredViews(app)) {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=${name}`);
    // Every panel is compared, those fetched when scrolled near included.
    await revealAll(page);
    const sliders = await page.$$eval('main input[type=range]', (els) => els.filter((e) => e.offsetParent !== null).map((e) => e.id));
    if (sliders.length === 0) {
      await context.close();
      continue;
    }
    // Two sliders, each dragged one way and back part of the way, with no pause.
    for (const id of sliders.slice(0, 2)) {
      await drag(page, id, 0.2, 0.8);
      await drag(page, id, 0.8, 0.45, 5);
    }
    await settle(page);
    const finalUrl = page.url();
    const moved = await allCanvases(page);
    const movedTexts = await allPanelTexts(page);
    const fresh = await openApp(app.browser, finalUrl);
    await revealAll(fresh.page);
    assert.equal(fresh.page.url(), finalUrl, `${name}: a fresh load keeps the URL`);
    const expected = await allCanvases(fresh.page);
    assert.equal(moved.length, expected.length, `${name}: same charts`);
    moved.forEach((d, i) => assert.ok(d === expected[i], `${name}: chart ${i} after the drags differs from a fresh load of ${finalUrl}`));
    assert.deepEqual(movedTexts, await allPanelTexts(fresh.page), `${name}: the panels' text after the drags differs from a fresh load of ${finalUrl}`);
    assert.deepEqual([...errors, ...fresh.errors], [], name);
    await fresh.context.close();
    await context.close();
  }
});

test('a heatmap painted coarse during a drag is refined to exactly what a fresh load draws', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal&seq_len=8192&d_model=4096`);
  await settle(page);
  const before = await page.evaluate(() => window.__peLab.coarsePaints ?? 0);
  await drag(page, 'ctl-base', 0.3, 0.7, 10);
  const coarse = (await page.evaluate(() => window.__peLab.coarsePaints ?? 0)) - before;
  assert.ok(coarse > 0, 'the 8192 × 4096 heatmap painted coarse while dragging');
  await assertEqualsFreshLoad(page, errors, 'after the drag');
  await context.close();
});

// A heatmap's axes are copied for reuse when the same axes are drawn a second time and copied
// back while only the data moves: drags that change the axes (seq_len, d_model) and drags that
// keep them (base), in turn, must end on exactly the picture a fresh load draws.
// A line chart's frame (axes, labels, bands, legend) is copied back the same way.
for (const [name, view, moves] of [
  ['heatmap axes', 'sinusoidal', [['ctl-seq_len', 0.1, 0.4], ['ctl-base', 0.3, 0.7], ['ctl-base', 0.7, 0.5], ['ctl-d_model', 0.1, 0.3], ['ctl-base', 0.5, 0.6]]],
  ['scaling: line-chart frames', 'scaling', [['ctl-beta_slow', 0.2, 0.6], ['ctl-beta_slow', 0.6, 0.4], ['ctl-factor', 0.1, 0.3], ['ctl-beta_fast', 0.3, 0.6], ['ctl-theta', 0.4, 0.5]]],
  ['rope: line-chart frames', 'rope', [['ctl-theta', 0.3, 0.6], ['ctl-theta', 0.6, 0.5], ['ctl-max_dist', 0.2, 0.4], ['ctl-theta', 0.5, 0.7]]],
]) {
  test(`${name} reused across drags that keep and change them equal a fresh load`, async () => {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=${view}`);
    await settle(page);
    for (const [id, from, to] of moves) {
      await drag(page, id, from, to, 6);
      await settle(page);
    }
    await assertEqualsFreshLoad(page, errors, `${name}, after the drags`);
    await context.close();
  });
}

// Charts whose data is too slow for a frame draw from fewer samples while a slider moves
// (Painter::quick) and are painted again from the full data once the controls rest.
for (const [query, slider, panel] of [
  ['view=learned&table=random&rows=2048&cols=768&seq_len=2048', 'ctl-seed', 'learned-similarity'],
  // A new random table's sampled rows only, while its size moves.
  ['view=learned&table=random&rows=2048&cols=768&seq_len=4096', 'ctl-rows', 'learned-heatmap'],
  ['view=precision&head_dim=512&pos=63095734&m=63095734&max_dist=65536', 'ctl-max_dist', 'precision-score'],
  ['view=rope&head_dim=512&max_dist=131072', 'ctl-theta', 'rope-decay'],
]) {
  test(`${panel}, drawn from fewer samples during a drag, ends equal to a fresh load`, async () => {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?${query}`);
    await settle(page);
    await page.evaluate((p) => document.querySelector(`[data-panel="${p}"] canvas`).scrollIntoView({ block: 'end' }), panel);
    await settle(page);
    const before = await page.evaluate(() => window.__peLab.coarsePaints ?? 0);
    await drag(page, slider, 0.3, 0.7, 10);
    const quick = (await page.evaluate(() => window.__peLab.coarsePaints ?? 0)) - before;
    assert.ok(quick > 0, `${panel} painted quick while dragging`);
    await assertEqualsFreshLoad(page, errors, `${panel}, after the drag`);
    await context.close();
  });
}

// A chart that knows its work (Painter::quick_for) predicts a paint's cost from it: after a
// rest at a slider's smallest value, one input to its largest is known to be costly, and that
// very frame draws quick data (marked `data-reduced`) instead of missing the frame; at rest
// the chart is painted in full, equal to a fresh load.
for (const [query, slider, panel] of [
  ['view=precision&head_dim=512&pos=63095734&m=63095734', 'ctl-max_dist', 'precision-score'],
  ['view=rope&head_dim=512', 'ctl-max_dist', 'rope-decay'],
  ['view=rope&head_dim=512', 'ctl-max_dist', 'rope-score-distance'],
  ['view=scaling', 'ctl-factor', 'scaling-score-distance'],
  ['view=learned&table=random&cols=768&seq_len=4096', 'ctl-rows', 'learned-heatmap'],
  ['view=learned&table=random&cols=768&seq_len=4096', 'ctl-rows', 'learned-similarity'],
]) {
  test(`${panel}: a jump of ${slider} from its smallest to its largest value draws quick in that frame`, async () => {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?${query}`);
    const canvas = `[data-panel="${panel}"] canvas.chart`;
    await page.evaluate((c) => document.querySelector(c).scrollIntoView({ block: 'end' }), canvas);
    await settle(page);
    const end = (which) => page.evaluate(([id, w]) => document.getElementById(id)[w], [slider, which]);
    await slide(page, `#${slider}`, await end('min'));
    await settle(page);
    const reduced = () => page.evaluate((c) => document.querySelector(c).hasAttribute('data-reduced'), canvas);
    assert.equal(await reduced(), false, `${panel} at rest is the full picture`);
    const before = await page.evaluate((c) => document.querySelector(c).toDataURL(), canvas);
    // One input, then the frame that applies it and paints.
    const shown = await page.evaluate(([id, c]) => new Promise((resolve) => {
      const el = document.getElementById(id);
      el.value = el.max;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      requestAnimationFrame(() => setTimeout(() => {
        const canvasEl = document.querySelector(c);
        resolve({ reduced: canvasEl.hasAttribute('data-reduced'), data: canvasEl.toDataURL() });
      }, 0));
    }), [slider, canvas]);
    assert.ok(shown.data !== before, `${panel} shows the jump in its frame`);
    assert.ok(shown.reduced, `${panel} drew quick data in the jump's frame`);
    await assertEqualsFreshLoad(page, errors, `${panel}, after the jump`);
    assert.equal(await reduced(), false, `${panel} refined at rest`);
    await context.close();
  });
}

test('an off-screen chart scrolled into view right after a move shows the new state', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`);
  // The panels below the fold are fetched when first scrolled near; then back to the top.
  await reveal(page, 'pe-offset');
  await page.evaluate(() => scrollTo(0, 0));
  await settle(page);
  // pe-offset sits far below the first screen at 1280 × 900.
  const below = await page.evaluate(() => document.querySelector('[data-panel="pe-offset"]').getBoundingClientRect().top > innerHeight * 1.5);
  assert.ok(below, 'pe-offset starts off screen');
  const before = await page.evaluate(() => document.querySelector('[data-panel="pe-offset"] canvas').toDataURL());
  await page.evaluate(() => {
    const el = document.querySelector('#ctl-base');
    el.value = '3.3';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  // Scrolled in at once. The browser first lays the panel out (it was skipped off screen),
  // then the observer reports it, then it paints (coarse if its full paint is slow): what it
  // shows over the next eight frames, less than the controls' rest time after which off-screen
  // charts repaint anyway. One input, so any new picture is of the current state.
  await page.evaluate(() => document.querySelector('[data-panel="pe-offset"]').scrollIntoView());
  const frames = await page.evaluate(async () => {
    const shown = [];
    for (let k = 0; k < 8; k++) {
      await new Promise((r) => requestAnimationFrame(r));
      shown.push(document.querySelector('[data-panel="pe-offset"] canvas').toDataURL());
    }
    return shown;
  });
  await settle(page);
  const fresh = await openApp(app.browser, page.url());
  await reveal(fresh.page, 'pe-offset');
  const expected = await fresh.page.evaluate(() => document.querySelector('[data-panel="pe-offset"] canvas').toDataURL());
  assert.ok(frames.some((f) => f !== before), 'the scrolled-in chart repaints within eight frames, before the controls rest');
  assert.ok(frames.at(-1) !== before);
  const final = await page.evaluate(() => document.querySelector('[data-panel="pe-offset"] canvas').toDataURL());
  assert.ok(final === expected, 'once the controls rest it is exactly what a fresh load draws');
  await fresh.context.close();
  await context.close();
});

test('while a slider moves, panels out of view are not rendered; at rest they are again', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`);
  await reveal(page, 'pe-offset');
  await page.evaluate(() => scrollTo(0, 0));
  await settle(page);
  const rendering = () => page.evaluate(() => Object.fromEntries(['pe-heatmap', 'pe-offset'].map((id) => [id, getComputedStyle(document.querySelector(`[data-panel="${id}"]`)).contentVisibility])));
  // Skipped only while nothing moves off screen: the browser's own "auto" keeps them
  // findable and readable by screen readers.
  assert.deepEqual(await rendering(), { 'pe-heatmap': 'auto', 'pe-offset': 'auto' });
  const during = await page.evaluate(async () => {
    const el = document.querySelector('#ctl-base');
    el.value = '3.3';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((r) => requestAnimationFrame(r));
    return Object.fromEntries(['pe-heatmap', 'pe-offset'].map((id) => [id, getComputedStyle(document.querySelector(`[data-panel="${id}"]`)).contentVisibility]));
  });
  assert.deepEqual(during, { 'pe-heatmap': 'auto', 'pe-offset': 'hidden' }, 'in the input frame the panel out of view is skipped, the one in view is not');
  await settle(page);
  await page.waitForFunction(() => !document.documentElement.classList.contains('moving'));
  assert.deepEqual(await rendering(), { 'pe-heatmap': 'auto', 'pe-offset': 'auto' }, 'once the controls rest');
  assert.deepEqual(errors, []);
  await context.close();
});

test('the PNG of an off-screen chart exported right after a move is the current state', async () => {
  // Clicked without scrolling (a keyboard user, or a script): the chart is still off screen.
  // Two moments: before the frame that applies the move, and within that frame (a click the
  // browser handles between the frame and the next task; the download once never came).
  for (const when of ['before the frame', 'in the frame']) {
    const { page, context } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`);
    await reveal(page, 'pe-offset');
    await page.evaluate(() => scrollTo(0, 0));
    await settle(page);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 10000 }),
      page.evaluate((when) => {
        const el = document.querySelector('#ctl-d_model');
        el.value = '200';
        el.dispatchEvent(new Event('input', { bubbles: true }));
        const click = () => [...document.querySelectorAll('[data-panel="pe-offset"] .exports button')].find((b) => b.textContent === 'PNG').click();
        if (when === 'before the frame') click();
        // Registered after the app's own frame callback: runs right after it, in that frame.
        else requestAnimationFrame(click);
      }, when),
    ]);
    const fs = await import('node:fs');
    const png = fs.readFileSync(await download.path()).toString('base64');
    await settle(page);
    const fresh = await openApp(app.browser, page.url());
    await reveal(fresh.page, 'pe-offset');
    // The panel has two charts; the PNG is one of them, as a fresh load draws it.
    const expected = await fresh.page.evaluate(() => [...document.querySelectorAll('[data-panel="pe-offset"] canvas')].map((c) => c.toDataURL()));
    assert.ok(expected.includes(`data:image/png;base64,${png}`), `the PNG exported ${when} shows the current state`);
    await fresh.context.close();
    await context.close();
  }
});

test('many inputs before a frame paint each chart on screen once, and the URL holds the last', async () => {
  const { page, context } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`);
  await settle(page);
  const { painted, onScreen, frameMs, elapsed } = await page.evaluate(async () => {
    const el = document.querySelector('#ctl-seq_len');
    const before = window.__peLab.paints;
    const t0 = performance.now();
    // Twenty inputs in one task: all before the next frame.
    for (let n = 0; n < 20; n++) {
      el.value = String(200 + n * 10);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const onScreen = [...document.querySelectorAll('main canvas.chart')].filter((c) => {
      const r = c.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    }).length;
    return { painted: window.__peLab.paints - before, onScreen, frameMs: window.__peLab.framePaintMs, elapsed: performance.now() - t0 };
  });
  assert.ok(painted >= 1 && painted <= onScreen, `one paint per chart on screen: ${painted} paints, ${onScreen} charts on screen`);
  // The benchmark's breakdown: what this frame's paints cost, not a total since the page loaded.
  assert.ok(frameMs > 0 && frameMs <= elapsed, `framePaintMs ${frameMs} is within the ${elapsed.toFixed(1)} ms this frame took`);
  await settle(page);
  assert.equal(new URL(page.url()).searchParams.get('seq_len'), '390');
  await context.close();
});

// A chart in the viewport but wholly under the sticky control bar is not seen: a slider's
// frame does not paint it (Slot::check_seen), and it is brought up to date at rest.
test('charts hidden under the stuck control bar wait for rest; the chart in view paints in the input frame', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=rope`, { viewport: { width: 1280, height: 800 } });
  await settle(page);
  await page.evaluate(() => document.querySelector('[data-panel="rope-decay"] canvas.chart').scrollIntoView({ block: 'end' }));
  await settle(page);
  // The layout this test is about: the score matrix lies wholly under the stuck bar.
  const hidden = await page.evaluate(() => {
    const bar = document.querySelector('main .controls').getBoundingClientRect();
    const m = document.querySelector('[data-panel="rope-score-matrix"] canvas.chart').getBoundingClientRect();
    return Math.abs(bar.top) < 1 && m.bottom > 0 && m.bottom <= bar.bottom;
  });
  assert.ok(hidden, 'rope-score-matrix is in the viewport, under the stuck bar');
  const drawn = await page.evaluate(() => new Promise((resolve) => {
    const seen = new Set();
    const proto = CanvasRenderingContext2D.prototype;
    const originals = ['fillText', 'fill', 'putImageData', 'drawImage'].map((m) => [m, proto[m]]);
    for (const [m, f] of originals) proto[m] = function (...a) { seen.add(this.canvas.closest('[data-panel]')?.dataset.panel); return f.apply(this, a); };
    const el = document.getElementById('ctl-max_dist');
    el.value = '3000';
    el.dispatchEvent(new Event('input', { bubbles: true }));
    // The frame that applies the value, and its paints.
    requestAnimationFrame(() => setTimeout(() => {
      for (const [m, f] of originals) proto[m] = f;
      resolve([...seen]);
    }, 0));
  }));
  assert.ok(drawn.includes('rope-decay'), `the decay chart painted in the input's frame: ${drawn}`);
  assert.ok(!drawn.includes('rope-score-matrix'), `the hidden score matrix did not: ${drawn}`);
  assert.ok(!drawn.includes('rope-score-distance'), `nor the hidden score-distance chart: ${drawn}`);
  await assertEqualsFreshLoad(page, errors, 'after the move, at rest');
  await context.close();
});
