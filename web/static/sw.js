// The page's service worker: keeps this version of the site's files in the
// browser's cache, so that a page opened once opens and plays without the
// network, and gives every response of the site the two headers that make
// the page cross-origin isolated (COOP and COEP) where the host sent none,
// so that the engine may search on every core even on a host that cannot
// send headers. web/build.sh writes the version and the file list below;
// a new version served is a new script to the browser, which installs it
// (its files cached afresh), and the page reloads onto it (tab.js).

const VERSION = "unbuilt";
const FILES = [];
const CACHE = `oddity-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the HTTP cache: the files of this version, not older copies.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("oddity-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(answer(request, url));
});

// The scope's own address and its index.html are the page.
function cacheKey(request, url) {
  const scope = new URL(self.registration.scope);
  if (request.mode === "navigate" && (url.pathname === scope.pathname || url.pathname === `${scope.pathname}index.html`)) {
    return new URL("index.html", scope).href;
  }
  return request;
}

async function answer(request, url) {
  const cache = await caches.open(CACHE);
  let response = await cache.match(cacheKey(request, url), { ignoreSearch: true });
  if (!response) response = await fetch(request);
  return isolated(response);
}

// `response` with COOP and COEP where the host sent no COEP.
function isolated(response) {
  if (response.status === 0 || response.headers.has("Cross-Origin-Embedder-Policy")) return response;
  const headers = new Headers(response.headers);
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  headers.set("Cross-Origin-Embedder-Policy", "require-corp");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
