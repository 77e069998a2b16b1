// Trunk post-build hook: minifies wasm-bindgen's JavaScript glue in release builds (trunk's own
// JS minifier cannot parse it) and updates the Subresource Integrity hash that trunk already
// wrote into index.html for it. Saves about 3 KB gzip of the initial transfer.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir || process.env.TRUNK_PROFILE !== 'release') process.exit(0);

const sri = (text) => 'sha384-' + createHash('sha384').update(text).digest('base64');
const htmlPath = join(dir, 'index.html');
let html = readFileSync(htmlPath, 'utf8');
for (const name of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
  const path = join(dir, name);
  const before = readFileSync(path, 'utf8');
  const { code } = await minify(before, { module: true, compress: { passes: 2 }, mangle: true });
  writeFileSync(path, code);
  const old = sri(before);
  if (html.includes(old)) html = html.split(old).join(sri(code));
  console.log(`minify-js: ${name} ${before.length} -> ${code.length} bytes`);
}
writeFileSync(htmlPath, html);
