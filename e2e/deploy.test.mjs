// No stale page after a deploy (assets/sw.js): build A is served and visited; then build B is
// put at the same URL, as a host's deploy does (A's hashed files gone, the chunks' bytes
// replaced at the same names, a new loader and chunk version, a new worker). Then:
// - the next visit (a new tab) runs B entirely: B's page, loader and chunk version only; B's
//   worker installs and takes control of every page;
// - the page of A still open keeps working on A's files: a view it never opened loads A's chunk
//   (from A's cache, kept by B's worker), and no request for A's versions reaches the server;
// - with the network gone, a visit is served B, from B's cache.
// In Chromium and Firefox (each WebKit page is a browser of its own: no second tab to share a
// worker with).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, DIST } from './support.mjs';
import { launchEngine, selectedEngines } from './engines.mjs';

const sri = (bytes) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');

/** What a built directory's files say of its build: worker stamp, chunk version, loader. */
function buildOf(root) {
  const sw = fs.readFileSync(path.join(root, 'sw.js'), 'utf8');
  const loader = fs.readdirSync(root).find((f) => /^__wasm_split-[0-9a-f]{8}\.js$/.test(f));
  const loaderJs = fs.readFileSync(path.join(root, loader), 'utf8');
  return {
    build: sw.match(/const BUILD = '([0-9a-f]{16})'/)[1],
    chunks: loaderJs.match(/\?v=([0-9a-f]{8})/)[1],
    precache: JSON.parse(sw.match(/const PRECACHE = (\[.*?\]);/)[1]),
    loader,
    // Every module but the main one is a chunk the loader fetches with `?v=`.
    chunkFiles: fs.readdirSync(root).filter((f) => f.endsWith('.wasm') && !f.endsWith('_bg.wasm')),
    // trunk's hash has no leading zeros: 15 digits at times.
    main: fs.readdirSync(root).find((f) => /^pe-lab-[0-9a-f]{1,16}\.js$/.test(f)),
  };
}

/** Turns the build in `root` into another one, as a new deploy of changed code would. */
function deployB(root) {
  const a = buildOf(root);
  const B = { build: 'b'.repeat(16), chunks: 'bbbbbbbb', loader: '__wasm_split-bbbbbbbb.js', main: 'pe-lab-bbbbbbbbbbbbbbbb.js' };
  // Every chunk's bytes change at the same name: a custom section (ignored by the engine).
  const [label, payload] = [Buffer.from('pe-lab-deploy'), Buffer.from('build B')];
  const section = Buffer.concat([Buffer.from([0, 1 + label.length + payload.length, label.length]), label, payload]);
  assert.ok(a.chunkFiles.length > 10, `chunks: ${a.chunkFiles}`);
  for (const f of a.chunkFiles) fs.appendFileSync(path.join(root, f), section);
  // The loader and the main module name each other.
  const loaderJs = fs.readFileSync(path.join(root, a.loader), 'utf8').replace(`?v=${a.chunks}`, `?v=${B.chunks}`).replaceAll(a.main, B.main);
  assert.ok(loaderJs.includes(`?v=${B.chunks}`), 'the loader names its chunk version');
  fs.writeFileSync(path.join(root, B.loader), loaderJs);
  fs.rmSync(path.join(root, a.loader));
  const oldMain = fs.readFileSync(path.join(root, a.main));
  const main = String(oldMain).replaceAll(a.loader, B.loader);
  fs.writeFileSync(path.join(root, B.main), main);
  fs.rmSync(path.join(root, a.main));
  const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8')
    .replaceAll(a.main, B.main)
    .replace(sri(oldMain), sri(Buffer.from(main)))
    .replace('<head>', '<head><meta name="pe-lab-build" content="B">');
  fs.writeFileSync(path.join(root, 'index.html'), html);
  const sw = fs.readFileSync(path.join(root, 'sw.js'), 'utf8')
    .replace(`'${a.build}'`, `'${B.build}'`)
    .replace(`'${a.chunks}'`, `'${B.chunks}'`)
    .replaceAll(`?v=${a.chunks}`, `?v=${B.chunks}`)
    .replace(a.loader, B.loader)
    .replace(a.main, B.main);
  fs.writeFileSync(path.join(root, 'sw.js'), sw);
  return { a, b: { ...B, precache: a.precache.length } };
}

/** The chunks the page loaded since `since` (ms), and how many of them, fetched again as the
 *  page fetches them (through the worker), carry build B's marker bytes. */
async function chunksSince(since) {
  const urls = performance.getEntriesByType('resource').filter((e) => e.startTime >= since && /\.wasm\?v=/.test(e.name)).map((e) => e.name);
  let b = 0;
  for (const url of urls) {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    if (new TextDecoder('latin1').decode(bytes.subarray(bytes.length - 40)).includes('pe-lab-deploy')) b++;
  }
  return { loaded: urls.length, b };
}

/** Whether the page runs build B (its marker), and the chunk versions and loaders it loaded. */
function whatRuns() {
  const names = performance.getEntriesByType('resource').map((e) => e.name);
  return {
    b: !!document.querySelector('meta[name="pe-lab-build"]'),
    versions: [...new Set(names.map((n) => n.match(/\?v=([0-9a-f]{8})$/)?.[1]).filter(Boolean))],
    loaders: [...new Set(names.map((n) => n.match(/__wasm_split-[0-9a-f]{8}\.js/)?.[0]).filter(Boolean))],
  };
}

function ready() {
  const charts = [...document.querySelectorAll('main canvas.chart')];
  return (window.__peLab?.pending ?? 1) === 0 && charts.length > 0 && charts.every((c) => c.hasAttribute('data-plot'));
}

/** The worker controls the page and its build's cache holds every file of the build. */
function cached(build, files) {
  return navigator.serviceWorker?.controller
    && caches.keys().then(async (keys) => keys.includes(`pe-lab-${build}`) && (await (await caches.open(`pe-lab-${build}`)).keys()).length >= files);
}

for (const name of selectedEngines().filter((e) => e !== 'webkit')) {
  describe(name, () => {
    let engine;
    let root;
    let server;
    before(async () => {
      root = fs.mkdtempSync(path.join(os.tmpdir(), 'pe-lab-deploy-'));
      fs.cpSync(DIST, root, { recursive: true });
      server = await startServer({ root, prefix: '/course/pe-lab/', recordErrors: true });
      engine = await launchEngine(name);
    });
    after(async () => {
      await engine?.close();
      await server?.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test(`${name}: after a deploy, an open page keeps its build, the next visit runs the new one entirely, and offline serves it`, async () => {
      const a = buildOf(root);
      const pageA = await engine.newPage({ serviceWorkers: true });
      await pageA.goto(`${server.url}?view=sinusoidal`);
      await pageA.waitFor(ready);
      await pageA.waitFor(cached, [a.build, a.precache.length], { what: "build A's cache" });
      const views = await pageA.run(() => window.__peLab.views.map((v) => v.title));
      await pageA.run(() => {
        performance.setResourceTimingBufferSize(10000);
        window.__firstWorker = navigator.serviceWorker.controller;
      });
      const deployedAt = await pageA.run(() => performance.now());

      const { b } = deployB(root);
      const asked = server.requests.length;

      // The next visit, in a new tab: B entirely.
      const pageB = await engine.newPage({ serviceWorkers: true });
      await pageB.goto(`${server.url}?view=${encodeURIComponent('scaling')}`);
      await pageB.waitFor(ready);
      assert.deepEqual(await pageB.run(whatRuns), { b: true, versions: [b.chunks], loaders: [b.loader] });
      const chunksB = await pageB.run(chunksSince, 0);
      assert.ok(chunksB.loaded > 0 && chunksB.b === chunksB.loaded, `the page of B got build A's bytes: ${JSON.stringify(chunksB)}`);
      await pageB.waitFor(cached, [b.build, b.precache], { what: "build B's cache" });
      // Then the page of A, still open and now controlled by B's worker, opens a view it never
      // loaded: A's chunk, from A's cache.
      await pageA.waitFor(() => navigator.serviceWorker.controller && navigator.serviceWorker.controller !== window.__firstWorker, [], { what: "B's worker to control the page of A" });
      await pageA.run((title) => [...document.querySelectorAll('.nav-view')].find((e) => e.textContent.trim() === title).click(), views.at(-1));
      await pageA.waitFor(ready);
      const runsA = await pageA.run(whatRuns);
      assert.deepEqual(runsA, { b: false, versions: [a.chunks], loaders: [a.loader] });
      const chunksA = await pageA.run(chunksSince, deployedAt);
      assert.ok(chunksA.loaded > 0 && chunksA.b === 0, `the page of A got build B's bytes: ${JSON.stringify(chunksA)}`);
      const late = server.requests.slice(asked).filter((r) => r.includes(`?v=${a.chunks}`) || r.includes(a.loader));
      assert.deepEqual(late, [], 'no file of build A was asked of the server after the deploy');
      assert.deepEqual(await pageA.errors(), []);

      // A's cache stays while a page of A may be open (the newest two builds are kept).
      assert.deepEqual((await pageB.run(() => caches.keys())).filter((k) => k.startsWith('pe-lab-')).sort(), [`pe-lab-${a.build}`, `pe-lab-${b.build}`].sort());
      assert.deepEqual(await pageB.errors(), []);

      // The network gone: a visit is B's, from B's cache, views never opened included.
      server.setDown(true);
      try {
        for (const view of ['rope', 'precision']) {
          await pageB.goto(`${server.url}?view=${view}`);
          await pageB.waitFor(ready);
          assert.deepEqual(await pageB.run(whatRuns), { b: true, versions: [b.chunks], loaders: [b.loader] }, view);
          assert.deepEqual(await pageB.errors(), [], view);
        }
      } finally {
        server.setDown(false);
      }
      await pageA.close();
      await pageB.close();
    });
  });
}
