{% load static %}/* The service worker (issue #24): keeps what a scorer needs to record their table with no
   signal, through Workbox (vendored under static/vendor/workbox/, no CDN).
   - The site's own scripts and styles: served from the cache at once, refreshed behind.
   - A table page and its record page: from the network, or from the cache when there is no
     signal (after 4 s of waiting for it). Only pages the server marks "X-Offline-Keep" are kept:
     the record page and the table page of a table the user records for (their own club),
     never a page of another club; the last few tables, for a day.
   - Logging out forgets the kept pages.
   Hands saved without signal are not the worker's business: the page queues them in
   IndexedDB and sends them itself (static/js/record-queue.js), so nothing depends on
   Background Sync, which only Chromium has. */
importScripts("{% static 'vendor/workbox/workbox-sw.js' %}");
workbox.setConfig({ debug: false, modulePathPrefix: "{% static 'vendor/workbox/' %}" });

const STATIC_PREFIX = "{% static '' %}";
const PAGES = "mahjong-tables";
const FILES = "mahjong-files";
const TABLE_PAGE = /^\/clubs\/[^/]+\/sessions\/\d+\/tables\/\d+\/(record\/)?$/;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

const keptOnly = {
  // What the server says may be kept offline, and nothing else (a 200 marked for it).
  cacheWillUpdate: async ({ response }) =>
    response && response.status === 200 && response.headers.get("X-Offline-Keep") === "1"
      ? response : null,
  // One copy per page: "record/?winner=12" (the table page's one-tap links) is kept as, and
  // found offline as, "record/"; the page's script answers the link's question again.
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    url.search = "";
    return url.href;
  },
};

workbox.routing.registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === "GET" &&
    TABLE_PAGE.test(url.pathname),
  new workbox.strategies.NetworkFirst({
    cacheName: PAGES,
    networkTimeoutSeconds: 4,
    plugins: [keptOnly, new workbox.expiration.ExpirationPlugin({
      maxEntries: 8, maxAgeSeconds: 24 * 3600 })],
  }),
);

workbox.routing.registerRoute(
  ({ url, request }) => url.origin === self.location.origin && request.method === "GET" &&
    url.pathname.startsWith(STATIC_PREFIX),
  new workbox.strategies.StaleWhileRevalidate({
    cacheName: FILES,
    plugins: [new workbox.expiration.ExpirationPlugin({ maxEntries: 40 })],
  }),
);

// Logging out (a form POST) forgets every kept page before the request goes on.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method === "POST" && url.pathname === "{% url 'logout' %}") {
    event.respondWith(caches.delete(PAGES).then(() => fetch(event.request)));
  }
});
