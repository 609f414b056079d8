// The offline app's service worker: every file of the app in one cache,
// named by the app's version (build.sh writes VERSION and FILES, a hash of
// every file, so that any change makes a new cache). Files are answered from
// the cache, so the app opens with no network after its first load; the
// games themselves are in IndexedDB, never here.
//
// A new version is installed beside the old one and waits until the page
// says so ("Reload" in local.mjs), so that an open game never runs half old,
// half new files; the old cache is deleted when the new version takes over.
const VERSION = '@VERSION@';
const FILES = '@FILES@'.split(' ');
const CACHE = `sleuth-${VERSION}`;

self.addEventListener('install', (event) => {
  // The files of this version, fetched anew (not from the HTTP cache).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((n) => n.startsWith('sleuth-') && n !== CACHE).map((n) => caches.delete(n)))));
});

self.addEventListener('message', (event) => {
  if (event.data === 'activate') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page itself under any of its addresses (/, /index.html, /?source=pwa).
    const page = request.mode === 'navigate' ? await cache.match('./') : null;
    return page || await cache.match(request, { ignoreSearch: true }) || fetch(request);
  })());
});
