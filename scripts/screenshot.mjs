// Takes screenshots of views for looking at: node scripts/screenshot.mjs [query] [out.png] [dark]
import { startServer, launch, openApp, settle } from '../e2e/support.mjs';

// Optional fifth argument: a CSS selector to shoot one element (e.g. '[data-panel=pe-heatmap]').
const [query = '', out = 'screenshot.png', scheme = 'light', width = '1400', selector = ''] = process.argv.slice(2);
const server = await startServer();
const browser = await launch();
const { page, errors } = await openApp(browser, server.url + query, { colorScheme: scheme, viewport: { width: Number(width), height: 900 } });
await settle(page);
await page.waitForTimeout(300);
if (selector) {
  // Scrolled near first (panels below the fold load then), then shot from the full page, in
  // page coordinates: an element shot in the viewport would sit under the sticky controls.
  const target = page.locator(selector).first();
  await target.scrollIntoViewIfNeeded();
  await settle(page);
  const clip = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
  });
  await page.screenshot({ path: out, fullPage: true, clip });
}
else await page.screenshot({ path: out, fullPage: process.env.FULL_PAGE !== '0' });
console.log('errors:', errors);
await browser.close();
await server.close();
