// The service worker (issue 54), served at /sw.js so that its scope is the whole site
// (server/ops/pages.py; its cache's VERSION is written in as it is served: a digest of
// the static files, so that a new release makes a new worker and a new cache).
//
// - It keeps a copy of the pages' static files (/static/...) as they are fetched (the
//   network first, the copy when it cannot be reached) and the offline page, fetched as
//   it installs. Never an API answer, a WebSocket, or a page (a page may show a player's
//   data): those go to the network untouched, and so does a game's board.js (offline
//   play is not offered, and a page's own handling of it stays the page's).
// - A navigation that fails (the server or the network is down) shows offline.html.
// - A push message (server/push/sending.py) becomes a notification; a click on it
//   focuses a tab of the site on its page, or opens one.

const VERSION = "dev";
const CACHE = `stairgames-static-${VERSION}`;
const OFFLINE = "/static/offline.html";
const PRECACHED = [OFFLINE, "/static/style.css", "/static/icons/icon-192.png"];

/** @type {any} */
const worker = self;

/**
 * Whether a request's answer may be kept: a GET of a static file of this site.
 *
 * @param {Request} request
 */
function cacheable(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return false;
  return url.pathname.startsWith("/static/");
}

worker.addEventListener("install", (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHED))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("stairgames-") && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => worker.clients.claim()),
  );
});

/**
 * A static file: the network's answer (kept), else the kept copy.
 *
 * @param {Request} request
 * @returns {Promise<Response>}
 */
async function staticFile(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") await cache.put(request, answer.clone());
    return answer;
  } catch (failure) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw failure;
  }
}

/**
 * A page: the network's answer, never kept; the offline page when it cannot be reached.
 *
 * @param {Request} request
 * @returns {Promise<Response>}
 */
async function page(request) {
  try {
    return await fetch(request);
  } catch {
    const offline = await caches.match(OFFLINE);
    return offline ?? new Response("offline", { status: 503, statusText: "offline" });
  }
}

worker.addEventListener("fetch", (/** @type {any} */ event) => {
  const request = /** @type {Request} */ (event.request);
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (cacheable(request)) event.respondWith(staticFile(request));
  // anything else (the API, WebSockets, other sites) goes to the network as it would
});

/**
 * What a push message carries (server/push/sending.py).
 *
 * @typedef {{type?: string, title?: string, body?: string, url?: string, tag?: string}} Pushed
 */

/**
 * A path of this site for ``url`` (a push message's), or "/" for anything else: another
 * site's address, "//host/..." included, is never opened.
 *
 * @param {unknown} url
 * @returns {string}
 */
function ownPath(url) {
  if (typeof url !== "string" || !url.startsWith("/")) return "/";
  try {
    const resolved = new URL(url, worker.location.origin);
    if (resolved.origin !== worker.location.origin) return "/";
    return resolved.pathname + resolved.search;
  } catch {
    return "/";
  }
}

worker.addEventListener("push", (/** @type {any} */ event) => {
  /** @type {Pushed} */
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const url = ownPath(message.url);
  event.waitUntil(
    worker.registration.showNotification(message.title || "stairgames", {
      body: message.body || "",
      tag: message.tag || undefined,
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png",
      data: { url },
    }),
  );
});

worker.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  const url = new URL(ownPath(event.notification.data?.url), worker.location.origin);
  event.waitUntil(
    worker.clients
      .matchAll({ type: "window", includeUncontrolled: true })
      .then((/** @type {any[]} */ windows) => {
        const same = windows.find((client) => new URL(client.url).pathname === url.pathname);
        if (same) return same.focus();
        return worker.clients.openWindow(url.href);
      }),
  );
});

worker.addEventListener("pushsubscriptionchange", (/** @type {any} */ event) => {
  // the push service renewed the subscription: tell the server of the new one (the old
  // endpoint answers 410 from now on, and the server forgets it then)
  const options = event.oldSubscription?.options;
  if (!options) return;
  event.waitUntil(
    worker.registration.pushManager.subscribe(options).then((/** @type {any} */ renewed) =>
      fetch("/api/push/subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(renewed.toJSON()),
      }),
    ),
  );
});
