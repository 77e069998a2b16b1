// PE Lab's service worker: after one visit the app keeps working with the network gone.
//
// What is cached: every file of the build (listed in PRECACHE: the page, its code and style,
// every view's chunk, the lessons, the Notation table, the learned table, the icons), fetched in
// the background when this worker installs, which the page asks for once its first chart is
// drawn (about 1.9 MB, once per build). After that one visit every view and lesson works
// offline, even those never opened. Anything else the app fetches from its directory is cached
// when first fetched.
// - Files whose names carry a content hash (trunk's and the chunk loader's) and chunks fetched
//   with the build's version (`chunk_14.wasm?v=…`) are served from the cache first: such a URL
//   never changes meaning.
// - Everything else (the page itself, lessons, notation.json, the learned table) goes to the
//   network first and falls back to the cache, so an online visit always gets the newest build.
// - The cache is named after the build: scripts/post-build.mjs writes a hash of every file of
//   the release into BUILD. A new deploy is a new sw.js, which replaces this one on the next
//   visit and deletes the old cache, so a build's files are never mixed with another's.
// A debug build (trunk serve) is not stamped, and this worker then does nothing.
// No request ever goes to another origin: requests outside the app's directory are not handled.
const BUILD = '__PE_LAB_BUILD__';
const PRECACHE = ['./'];
const STAMPED = !BUILD.startsWith('__');
const CACHE = `pe-lab-${BUILD}`;
const HASHED = /-[0-9a-f]{8,}\.|\?v=[0-9a-f]{8}$/;

self.addEventListener('install', (event) => {
  self.skipWaiting();
  if (!STAMPED) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const scope = self.registration.scope;
    await Promise.all(PRECACHE.map(async (file) => {
      const url = new URL(file, scope);
      const response = await fetch(url);
      if (response.ok) await cache.put(file === './' ? scope : url.origin + url.pathname, response);
    }));
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('pe-lab-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (!STAMPED || request.method !== 'GET') return;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  // The page, whatever its query: one entry, the app's directory.
  const key = request.mode === 'navigate' ? scope.href : url.origin + url.pathname;
  event.respondWith(HASHED.test(url.pathname + url.search) ? cacheFirst(request, key) : networkFirst(request, key));
});

async function cacheFirst(request, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(key, response.clone());
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
