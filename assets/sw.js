// PE Lab's service worker: after one visit the app keeps working with the network gone.
//
// What is cached: every file of the build (listed in PRECACHE: the page, its code and style,
// every view's chunk, the lessons, the Notation table, the learned table, the icons), fetched in
// the background when this worker installs, which the page asks for once its first chart is
// drawn (about 3.1 MB, 2.0 MB gzipped, once per build). After that one visit every view and lesson works
// offline, even those never opened. Anything else the app fetches from its directory is cached
// when first fetched.
// - Files whose names carry a content hash (trunk's and the chunk loader's) and chunks fetched
//   with their build's version (`chunk_14.wasm?v=…`, cached under that whole URL) are served
//   from any cache first: such a URL never changes meaning.
// - Everything else (the page itself, lessons, notation.json, the learned table) goes to the
//   network first and falls back to the cache, so an online visit always gets the newest build.
// - The cache is named after the build: scripts/post-build.mjs writes a hash of every file of
//   the release into BUILD.
//
// A new deploy, and no page ever runs a mix of two builds (e2e/deploy.test.mjs):
// - The next visit (a reload, a new tab) gets the new page from the network; its files have new
//   names or new versions, so nothing of the old build is served to it, whichever worker is in
//   control. Its sw.js replaces this worker at once (skipWaiting, clients.claim).
// - A page of the old build still open keeps working until reloaded: the new worker keeps the
//   previous build's cache (the newest two builds are kept, older ones deleted), and the old
//   page's chunks are found there by their versioned URLs. A chunk of an older build missing
//   from its cache is refused (503), never fetched: the server now has the new build's bytes at
//   that URL, and the old page shows its "could not be loaded" notice instead. (A newer build's
//   chunk, asked for by its page before its own worker took over, is fetched.)
// - Offline after the new build's visit, the new build is served (its own cache).
// A debug build (trunk serve) is not stamped, and this worker then does nothing.
// No request ever goes to another origin: requests outside the app's directory are not handled.
const BUILD = '__PE_LAB_BUILD__';
// The version the build's loader puts on its chunk URLs (`?v=`).
const CHUNKS = '__PE_LAB_CHUNKS__';
const PRECACHE = ['./'];
const STAMPED = !BUILD.startsWith('__');
const CACHE = `pe-lab-${BUILD}`;
const HASHED = /-[0-9a-f]{8,}\.|\?v=[0-9a-f]{8}$/;
const VERSIONED = /^\?v=([0-9a-f]{8})$/;
const KEEP = 2;

/** The cache key of a request: the app's directory for the page, whatever its query; the
 *  whole URL for a versioned chunk; else the URL without its query. */
function keyOf(url, navigate, scope) {
  if (navigate) return scope;
  return url.origin + url.pathname + (VERSIONED.test(url.search) ? url.search : '');
}

self.addEventListener('install', (event) => {
  self.skipWaiting();
  if (!STAMPED) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const scope = self.registration.scope;
    await Promise.all(PRECACHE.map(async (file) => {
      const url = new URL(file, scope);
      const response = await fetch(url);
      if (response.ok) await cache.put(keyOf(url, file === './', scope), response);
    }));
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // The newest builds are kept (caches.keys() lists caches in the order they were made): a
    // page of the previous build still open keeps its files.
    const builds = (await caches.keys()).filter((name) => name.startsWith('pe-lab-') && name !== CACHE);
    for (const name of builds.slice(0, Math.max(0, builds.length - (KEEP - 1)))) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!STAMPED || request.method !== 'GET') return;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  const key = keyOf(url, request.mode === 'navigate', scope.href);
  event.respondWith(HASHED.test(url.pathname + url.search) ? cacheFirst(request, key, url) : networkFirst(request, key));
});

async function cacheFirst(request, key, url) {
  const cache = await caches.open(CACHE);
  const hit = (await cache.match(key)) || (await caches.match(key));
  if (hit) return hit;
  const version = url.search.match(VERSIONED)?.[1];
  const foreign = version && version !== CHUNKS;
  if (foreign && (await cachedVersion(version))) {
    return new Response('this chunk belongs to an older build of PE Lab: reload the page', { status: 503 });
  }
  const response = await fetch(request);
  // Another build's chunk is that build's worker's to keep, not this cache's.
  if (response.ok && !foreign) await cache.put(key, response.clone());
  return response;
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw error;
  }
}

/** Whether another build's cache holds chunks of version `v`: then `v` is an older build's (a
 *  newer build's chunks, asked for by its page before its own worker took over, are in no
 *  cache yet: this worker does not keep them). */
async function cachedVersion(v) {
  for (const name of await caches.keys()) {
    if (!name.startsWith('pe-lab-') || name === CACHE) continue;
    const keys = await (await caches.open(name)).keys();
    if (keys.some((r) => r.url.endsWith(`?v=${v}`))) return true;
  }
  return false;
}
