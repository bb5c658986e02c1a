// The service worker: keeps the site's shell (the home page and what it loads, the offline page)
// so that the installed app opens without a connection, and this release's other static files
// as they are first used. The server writes this release's VERSION and SHELL in
// (boneyard.server.pwa): a new release is a new worker, whose cache replaces the old one. Never
// kept: /api/ (a person's data), the sockets, /join/ links, /metrics, and any page but the home
// page and the rules.
const VERSION = "dev";
const SHELL = [];
const CACHE = `boneyard-${VERSION}`;
const OFFLINE = "/static/offline.html";
// Pages without personal data, kept as they are fetched so that they open offline too.
const PUBLIC_PAGES = /^\/(rules(\/[a-z-]+)?)?$/;
const NEVER = /^\/(api|ws|join|metrics|sw\.js)(\/|$)/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // (past the browser's HTTP cache: this release's files, not the last one's)
    await cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("boneyard-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A page: from the network (kept when it is a public page), else the kept copy, else the
// offline page.
async function page(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && PUBLIC_PAGES.test(url.pathname)) await cache.put(url.pathname, response.clone());
    return response;
  } catch (err) {
    const kept = PUBLIC_PAGES.test(url.pathname) ? await cache.match(url.pathname) : null;
    return kept || (await cache.match(OFFLINE)) || Response.error();
  }
}

// A static file of this release: the kept copy, else the network (kept for next time).
async function asset(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === "navigate") event.respondWith(page(request, url));
  else if (url.pathname.startsWith("/static/")) event.respondWith(asset(request));
});
