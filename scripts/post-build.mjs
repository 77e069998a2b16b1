// Trunk post-build hook (Trunk.toml), for every build. In order:
//
// 1. Code splitting. trunk builds with the cargo feature `split` (index.html): every view but
//    the default one is a `wasm_split` split point. trunk 0.21 cannot split, so this takes the raw
//    cargo artifact (linked with --emit-relocs, see .cargo/config.toml), splits it with
//    `wasm-split-cli` (crates.io `wasm_split_cli_support`, installed by scripts/setup.sh), runs
//    wasm-bindgen (--keep-lld-exports) and wasm-opt on every output, and puts the result over
//    the files trunk staged, keeping trunk's hashed names.
// 2. Release builds only: wasm-opt (trunk's own pass is off, data-wasm-opt="0": it would
//    optimise a module that is about to be replaced) and minification of the JavaScript glue
//    (trunk's own minifier cannot parse it) and of the CSS.
// 3. Chunk URLs versioned by a hash of the build's chunks and a content-hashed loader, so a
//    browser never pairs a cached chunk with a newer main module; Subresource Integrity hashes
//    recomputed for what changed.
// 4. Release builds only: the service worker (assets/sw.js) stamped with a hash of the build.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { minify } from 'terser';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) process.exit(0);
const release = process.env.TRUNK_PROFILE === 'release';

const run = (cmd, args) => execFileSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const sri = (bytes) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');
const shortHash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 8);
const htmlPath = path.join(dir, 'index.html');
let html = fs.readFileSync(htmlPath, 'utf8');

/** Replaces the content of a staged file and the SRI hash index.html holds for it. */
function replaceStaged(name, bytes) {
  const file = path.join(dir, name);
  const old = sri(fs.readFileSync(file));
  fs.writeFileSync(file, bytes);
  if (html.includes(old)) html = html.split(old).join(sri(bytes));
}

// ---- 1. Split -------------------------------------------------------------------------------
const jsName = fs.readdirSync(dir).find((f) => /^pe-lab-[0-9a-f]+\.js$/.test(f));
if (!jsName) throw new Error('post-build: no pe-lab-<hash>.js in the staging directory');
const stem = jsName.slice(0, -3);
const targetDir = process.env.CARGO_TARGET_DIR || path.join(process.env.TRUNK_SOURCE_DIR || '.', 'target');
const raw = path.join(targetDir, 'wasm32-unknown-unknown', release ? 'release' : 'debug', 'pe-lab.wasm');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-lab-split-'));
const splitDir = path.join(work, 'split');
const pkgDir = path.join(work, 'pkg');
run('wasm-split-cli', [raw, splitDir, '--out-name', stem]);
run('wasm-bindgen', [
  path.join(splitDir, `${stem}.wasm`), '--target', 'web', '--no-typescript', '--keep-lld-exports',
  '--no-demangle', '--out-dir', pkgDir, '--out-name', stem,
  // PE_LAB_PROFILE=1 keeps function names, for reading a profile (bigger files).
  ...(process.env.PE_LAB_PROFILE ? ['--keep-debug'] : []),
]);
const chunks = fs.readdirSync(splitDir).filter((f) => f.endsWith('.wasm') && f !== `${stem}.wasm`);
// The main module is the first download, so it gets the settings that make it smallest after
// gzip, as measured on this build (wasm-opt 132): -Os, inlining a function with one caller only
// when it is at most 29 bytes and any function of at most 3 bytes, run to a fixed point, and
// assuming memory starts zeroed. That is 2.4 KB gzip less than -Oz (219,475 against 221,833
// bytes, at 25 and wasm-opt's default 2), which is smaller before gzip but compresses worse;
// 29 and 3 took 199 bytes more off (220,753 → 220,554; 25, 30 and 4 were each worse). The
// chunks share its memory, so they get no assumption about memory contents (plain -Oz).
const wasmOpt = (file, level, extra) => release && run('wasm-opt', [level, ...(process.env.PE_LAB_PROFILE ? ['-g'] : []), ...extra, file, '-o', file]);
// The `producers` and `target_features` sections (toolchain names, about 200 bytes gzip) are
// dropped: no browser reads them.
const strip = ['--strip-producers', '--strip-target-features'];
wasmOpt(path.join(pkgDir, `${stem}_bg.wasm`), '-Os', ['--one-caller-inline-max-function-size=29', '--always-inline-max-function-size=3', '--converge', '--low-memory-unused', '--zero-filled-memory', ...strip]);
for (const c of chunks) wasmOpt(path.join(splitDir, c), '-Oz', strip);

replaceStaged(`${stem}_bg.wasm`, fs.readFileSync(path.join(pkgDir, `${stem}_bg.wasm`)));
let mainJs = fs.readFileSync(path.join(pkgDir, `${stem}.js`), 'utf8');
let loaderJs = fs.readFileSync(path.join(splitDir, '__wasm_split.js'), 'utf8');
// The loader spells out the same fetch function for every module (over a hundred): one shared
// `fetcher(name)` instead makes the first download about half a kilobyte smaller. Same code,
// same order of events (the fetch starts when the module is asked for).
{
  const each = /makeLoad\(\(\) => \{\s*const src = fetch\(new URL\(("\.\/[\w-]+\.wasm"), import\.meta\.url\)\);\s*src\.catch\(\(\) => \{\}\);\s*return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);\s*\}\s*,/g;
  const loads = (loaderJs.match(/makeLoad\(/g) || []).length - 1; // less its definition
  const shared = loaderJs.replace(each, 'makeLoad(fetcher($1),');
  if ((shared.match(/makeLoad\(fetcher\(/g) || []).length !== loads) {
    throw new Error('post-build: the loader no longer has the shape this script shortens; update the pattern');
  }
  loaderJs = shared.replace(
    'function makeLoad(',
    'function fetcher(name) {\n    return () => {\n        const src = fetch(new URL(`./${name}.wasm?v=__PE_LAB_CHUNKS__`, import.meta.url));\n        src.catch(() => {});\n        return async (imports) => WebAssembly.instantiateStreaming(src, imports);\n    };\n}\nfunction makeLoad(',
  );
}
// wasm-bindgen imports the loader once per split point (`import * as import7 from
// "./__wasm_split.js"`, fifteen times) and lists each under the same key of the wasm's import
// object, where the last one wins. One import and one key do the same (about 40 bytes gzip).
{
  const star = /import \* as (import\d+) from "\.\/__wasm_split\.js";?\n/g;
  const names = [...mainJs.matchAll(star)].map((m) => m[1]);
  const [kept, ...others] = names;
  mainJs = mainJs.replace(star, (line, name) => (name === kept ? line : ''));
  for (const name of others) mainJs = mainJs.replace(new RegExp(`\\s*"\\./__wasm_split\\.js": ${name},`), '');
  if (!kept || others.some((n) => new RegExp(`\\b${n}\\b`).test(mainJs))) {
    throw new Error('post-build: the glue\'s imports of the loader no longer have the shape this script merges; update the pattern');
  }
}
// The glue imports the loader (`from "./__wasm_split.js"`) and also names it as the wasm's
// import module; only the import specifier is renamed below.
const loaderImport = /(from\s*)(["'])\.\/__wasm_split\.js\2/g;
if (!loaderImport.test(mainJs)) throw new Error('post-build: the glue does not import ./__wasm_split.js');

// ---- 2. Minify ------------------------------------------------------------------------------
// `unsafe_methods`: `{ m: function () {} }` becomes `{ m() {} }`, which cannot be called with
// `new`; wasm-bindgen's import object (about 90 bytes gzip of the first download) only calls.
const terse = async (code) =>
  release ? (await minify(code, { module: true, ecma: 2020, toplevel: true, compress: { passes: 3, unsafe_methods: true }, mangle: true })).code : code;

// ---- 3. Versioned chunks, a content-hashed loader ------------------------------------------
// Every chunk is fetched as `chunk_14.wasm?v=<hash of all the chunks>`: a new build is a new
// URL for each, so no cache pairs an old chunk with a new main module; one hash in the loader
// instead of one per chunk (over a hundred) keeps the first download smaller. (The service
// worker keeps one build's files in one cache, so per-chunk hashes would save nothing there.)
const chunksVersion = shortHash(Buffer.concat(chunks.map((c) => fs.readFileSync(path.join(splitDir, c)))));
for (const c of chunks) {
  if (!loaderJs.includes(`"./${c}"`)) throw new Error(`post-build: the loader does not name ${c}`);
  fs.copyFileSync(path.join(splitDir, c), path.join(dir, c));
  console.log(`post-build: chunk ${c} ${fs.statSync(path.join(dir, c)).size} bytes`);
}
// `fetcher("./chunk_14.wasm")` → `fetcher("chunk_14")`; the version goes in once, in `fetcher`.
loaderJs = loaderJs.replace(/fetcher\("\.\/([\w-]+)\.wasm"\)/g, 'fetcher("$1")');
// The shared modules (`chunk_N`, code that several split points use; over a hundred) are each
// declared as `const __chunk_N = makeLoad(fetcher("chunk_N"), []);` and named in the split
// points' lists. One table made by a loop instead, and the lists as numbers, make the first
// download about half a kilobyte smaller (gzip). Same modules, same loads, same order.
{
  const decl = /(?:\/\*[^*]*\*\/\s*)?const __chunk_(\d+) = makeLoad\(fetcher\("chunk_\1"\),\s*\[\]\);\s*/g;
  const numbers = [...loaderJs.matchAll(decl)].map((m) => Number(m[1]));
  const declared = (loaderJs.match(/const __chunk_\d+ =/g) || []).length;
  const deps = 'const parallelStuff = deps.map(d => d());';
  const firstExport = loaderJs.indexOf('export const __wasm_split_load_');
  if (numbers.length !== declared || !loaderJs.includes(deps) || firstExport < 0) {
    throw new Error('post-build: the loader\'s shared modules no longer have the shape this script shortens; update the pattern');
  }
  loaderJs = loaderJs.replace(decl, '');
  loaderJs = loaderJs.replace(deps, 'const parallelStuff = deps.map(d => shared[d]());');
  loaderJs = loaderJs.replace(/__chunk_(\d+)/g, '$1');
  const at = loaderJs.indexOf('export const __wasm_split_load_');
  // Numbered one after another (as wasm-split numbers them): a range; otherwise the list.
  const consecutive = numbers.every((n, i) => n === numbers[0] + i);
  const each = consecutive && numbers.length > 0
    ? `for (let n = ${numbers[0]}; n <= ${numbers.at(-1)}; n++)`
    : `for (const n of [${numbers.join(',')}])`;
  loaderJs = `${loaderJs.slice(0, at)}const shared = {};\n${each} shared[n] = makeLoad(fetcher("chunk_" + n), []);\n${loaderJs.slice(at)}`;
}
loaderJs = loaderJs.replace('__PE_LAB_CHUNKS__', chunksVersion);
loaderJs = await terse(loaderJs);
const loaderName = `__wasm_split-${shortHash(loaderJs)}.js`;
fs.writeFileSync(path.join(dir, loaderName), loaderJs);
mainJs = mainJs.replace(loaderImport, (_, from, q) => `${from}${q}./${loaderName}${q}`);
const before = fs.readFileSync(path.join(dir, jsName), 'utf8').length;
replaceStaged(jsName, await terse(mainJs));
console.log(`post-build: ${jsName} ${before} -> ${fs.statSync(path.join(dir, jsName)).size} bytes; loader ${loaderName}`);

// CSS: only changes that never alter meaning (no space is removed before a colon, where
// `a :hover` and `a:hover` differ, nor around + and - inside calc()).
for (const name of fs.readdirSync(dir).filter((f) => release && f.endsWith('.css'))) {
  const file = path.join(dir, name);
  const css = fs.readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
  replaceStaged(name, css);
}
// wasm-bindgen's inline snippets (the canvas batch calls, `src/ui/canvas.rs`), in the first
// download: minified like the glue.
const snippetRoot = path.join(dir, 'snippets');
const walkJs = (d) => fs.existsSync(d) ? fs.readdirSync(d).flatMap((n) => {
  const f = path.join(d, n);
  return fs.statSync(f).isDirectory() ? walkJs(f) : f.endsWith('.js') ? [f] : [];
}) : [];
for (const file of walkJs(snippetRoot)) {
  replaceStaged(path.relative(dir, file), await terse(fs.readFileSync(file, 'utf8')));
}
// The page's comments are for its readers, not its visitors (release).
if (release) html = html.replace(/<!--[\s\S]*?-->\s*/g, '');
// trunk's start-up script, reduced to the call itself: it also binds the glue's exports to
// `window.wasmBindings` and fires a `TrunkApplicationStarted` event, which nothing here uses
// (release; a change in trunk's script fails the build rather than keeping it).
if (release) {
  const start = /<script type="module">\s*import init, \* as bindings from '(\.\/pe-lab-[0-9a-f]+\.js)';\s*const wasm = await init\(\{ module_or_path: '(\.\/pe-lab-[0-9a-f]+_bg\.wasm)' \}\);\s*window\.wasmBindings = bindings;\s*dispatchEvent\(new CustomEvent\("TrunkApplicationStarted", \{detail: \{wasm\}\}\)\);\s*<\/script>/;
  if (!start.test(html)) throw new Error("post-build: trunk's start-up script is not the one expected");
  html = html.replace(start, (_, js, wasm) => `<script type="module">import init from"${js}";init({module_or_path:"${wasm}"})</script>`);
  // Indentation: for the readers of index.html. trunk's leftover `data-integrity` and the
  // default value of `crossorigin`: no meaning in the page.
  html = html.replace(/\n[ \t]+/g, '\n').replace(/ data-integrity="none"/g, '').replace(/ crossorigin="anonymous"/g, ' crossorigin');
}
fs.writeFileSync(htmlPath, html);
fs.rmSync(work, { recursive: true, force: true });

// ---- 4. The service worker's build stamp (release) ------------------------------------------
// A hash of every file of the build (names and contents): the cache's name (assets/sw.js); and
// the list of the build's files, cached when the worker installs.
const swPath = path.join(dir, 'sw.js');
if (release && fs.existsSync(swPath)) {
  const hash = createHash('sha256');
  const walk = (d) => {
    for (const name of fs.readdirSync(d).sort()) {
      const file = path.join(d, name);
      if (fs.statSync(file).isDirectory()) walk(file);
      else if (file !== swPath) hash.update(path.relative(dir, file)).update(fs.readFileSync(file));
    }
  };
  walk(dir);
  const build = hash.digest('hex').slice(0, 16);
  // Every file of the build but the worker itself; the page as its directory.
  const files = ['./'];
  const list = (d) => {
    for (const name of fs.readdirSync(d).sort()) {
      const file = path.join(d, name);
      const rel = path.relative(dir, file).split(path.sep).join('/');
      if (fs.statSync(file).isDirectory()) list(file);
      else if (file !== swPath && rel !== 'index.html') files.push(rel);
    }
  };
  list(dir);
  // Chunks are cached under the URL the loader asks for (with the build's version).
  const precache = files.map((f) => (chunks.includes(f) ? `${f}?v=${chunksVersion}` : f));
  const sw = fs.readFileSync(swPath, 'utf8');
  for (const mark of ["'__PE_LAB_BUILD__'", "'__PE_LAB_CHUNKS__'", "const PRECACHE = ['./'];"]) {
    if (!sw.includes(mark)) throw new Error(`post-build: sw.js has no ${mark}`);
  }
  fs.writeFileSync(swPath, sw.replace("'__PE_LAB_BUILD__'", `'${build}'`).replace("'__PE_LAB_CHUNKS__'", `'${chunksVersion}'`).replace("const PRECACHE = ['./'];", `const PRECACHE = ${JSON.stringify(precache)};`));
  console.log(`post-build: service worker build ${build}, ${files.length} files to cache`);
}
