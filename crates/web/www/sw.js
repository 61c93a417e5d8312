// Offline after the first visit: the page's few files are kept in a cache
// named after the build, and served from it first. scripts/web.sh writes
// the build's name (a digest of the files) and the file list in place of
// the placeholders; a new build gets a new cache and the old one is
// deleted when the new worker takes over.

const CACHE = 'sudoku-snap-__BUILD__';
const FILES = __FILES__;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (event) => {
  if (event.request.method !== 'GET') return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page itself under any query, and every file, from the cache.
    const url = new URL(event.request.url);
    const key = url.origin === self.location.origin && url.pathname.endsWith('/') ? './' : event.request;
    const hit = await cache.match(key, { ignoreSearch: true });
    return hit || fetch(event.request);
  })());
});
