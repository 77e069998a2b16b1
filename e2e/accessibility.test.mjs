// Accessibility: an axe-core audit of every view in both themes, and a whole view driven by
// the keyboard alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { useApp, openApp, settle, revealAll, query, viewNames } from './support.mjs';

const app = useApp();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

for (const scheme of ['light', 'dark']) {
  test(`axe finds no serious or critical violation on any view (${scheme})`, async () => {
    const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=sinusoidal`, { colorScheme: scheme });
    const found = [];
    for (const view of await viewNames(app)) {
      await page.goto(`${app.server.url}?view=${view}`);
      await page.waitForFunction(() => [...document.querySelectorAll('canvas.chart')].length > 0 && [...document.querySelectorAll('canvas.chart')].every((c) => c.hasAttribute('data-plot')), null, { timeout: 20000 });
      // Every panel is audited, those fetched when scrolled near included.
      await revealAll(page);
      // Open one data table per view, so that the tables are audited too.
      await page.locator('details.data-table summary').first().click();
      await settle(page);
      await page.addScriptTag({ path: AXE });
      const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
      for (const v of result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        found.push(`${view}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
      }
    }
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

/** Presses Tab until the focused element matches `selector`; fails after `max` presses. */
async function tabTo(page, selector, max = 120, text = null) {
  for (let i = 0; i < max; i++) {
    const here = await page.evaluate(([s, t]) => {
      const a = document.activeElement;
      return !!a && a.matches(s) && (t === null || a.textContent.trim() === t);
    }, [selector, text]);
    if (here) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached ${selector}`);
}

async function focusRing(page) {
  return page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  });
}

test('the relative-bias view is fully operable by keyboard alone, with a visible focus ring', async () => {
  const { page, context, errors } = await openApp(app.browser, `${app.server.url}?view=bias`);
  await page.locator('body').focus();
  // The skip link comes first.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to content');
  assert.ok(await focusRing(page));
  // A slider: arrow keys move it, the URL and the chart follow; aria-valuetext says the value.
  const heads = '[data-control="heads"] input[type=range]';
  await tabTo(page, heads);
  assert.ok(await focusRing(page));
  const before = await page.evaluate(() => document.querySelector('[data-panel="alibi-slopes"] canvas').toDataURL());
  await page.keyboard.press('ArrowRight');
  await settle(page);
  assert.equal(query(page).get('heads'), '9');
  assert.equal(await page.getAttribute(heads, 'aria-valuetext'), '9 heads');
  assert.notEqual(await page.evaluate(() => document.querySelector('[data-panel="alibi-slopes"] canvas').toDataURL()), before);
  // Its exact-value box: type a number and press Enter.
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement.matches('[data-control="heads"] input.num')));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('12');
  await page.keyboard.press('Enter');
  await settle(page);
  assert.equal(query(page).get('heads'), '12');
  // Radio buttons: arrow keys choose.
  await tabTo(page, '[data-control="bidirectional"] input[type=radio]');
  await page.keyboard.press('ArrowDown');
  await settle(page);
  assert.equal(query(page).get('bidirectional'), 'false');
  // A chart's data table opens with Enter; an export button works with Enter.
  await tabTo(page, '[data-panel="t5-buckets"] details.data-table summary');
  assert.ok(await focusRing(page));
  await page.keyboard.press('Enter');
  await page.locator('[data-panel="t5-buckets"] table.data').waitFor();
  await tabTo(page, '[data-panel="t5-buckets"] .exports button', 120, 'CSV');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(download.suggestedFilename(), /^t5-buckets.*\.csv$/);
  // The view switcher and the theme toggle are buttons too.
  await page.keyboard.press('Shift+Tab');
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('body').focus();
  await tabTo(page, 'nav button', 120, 'RoPE');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-panel="rope-rotation"]');
  assert.equal(query(page).get('view'), 'rope');
  assert.deepEqual(errors, []);
  await context.close();
});
