// Viewport screenshots of one query in each engine, for looking at:
//   node scripts/shots.mjs '<query>' <out-prefix> [WIDTHxHEIGHT] [engines, comma-separated]
// writes <out-prefix>-chromium.png, -firefox.png, -webkit.png (e2e/engines.mjs drives them).
import { startServer } from '../e2e/support.mjs';
import { launchEngine, ENGINES } from '../e2e/engines.mjs';

const [query = '', prefix = 'shot', size = '1280x720', names = ENGINES.join(',')] = process.argv.slice(2);
const [width, height] = size.split('x').map(Number);
const server = await startServer({ recordErrors: true });
for (const name of names.split(',')) {
  const engine = await launchEngine(name);
  try {
    const page = await engine.newPage({ width, height });
    await page.goto(server.url + query);
    await page.waitFor(() => (window.__peLab?.pending ?? 1) === 0 && [...document.querySelectorAll('canvas.chart')].every((c) => c.hasAttribute('data-plot')));
    await new Promise((r) => setTimeout(r, 500));
    await page.screenshot(`${prefix}-${name}.png`);
    console.log(name, 'errors:', await page.errors());
    await page.close();
  } finally {
    await engine.close();
  }
}
await server.close();
