// Takes screenshots of views for looking at: node scripts/screenshot.mjs [query] [out.png] [dark]
import { startServer, launch, openApp, settle } from '../e2e/support.mjs';

// Optional fifth argument: a CSS selector to shoot one element (e.g. '[data-panel=pe-heatmap]').
const [query = '', out = 'screenshot.png', scheme = 'light', width = '1400', selector = ''] = process.argv.slice(2);
const server = await startServer();
const browser = await launch();
const { page, errors } = await openApp(browser, server.url + query, { colorScheme: scheme, viewport: { width: Number(width), height: 900 } });
await settle(page);
await page.waitForTimeout(300);
if (selector) await page.locator(selector).first().screenshot({ path: out });
else await page.screenshot({ path: out, fullPage: process.env.FULL_PAGE !== '0' });
console.log('errors:', errors);
await browser.close();
await server.close();
