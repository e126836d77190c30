// barhub's service worker (scope "/"): keeps the guest app's shell so the page opens
// offline, and shows Web Push notifications (docs/PUSH.md).
//
// Caching: the shell's pages and assets are fetched from the network first (a new
// release shows on the next load) and answered from the cache when the network fails or
// is slower than SHELL_TIMEOUT. The API and the live socket are never cached: orders
// need the bar, and the app says so with its offline banner.
const CACHE = "barhub-shell-v1";
const SHELL = [
  "/",
  "/login",
  "/manifest.webmanifest",
  "/static/css/app.css",
  "/static/css/rsvp.css",
  "/static/css/bar.css",
  "/static/css/ai.css",
  "/static/js/api.js",
  "/static/js/live.js",
  "/static/js/page.js",
  "/static/js/events.js",
  "/static/js/home.js",
  "/static/js/rsvp.js",
  "/static/js/menu.js",
  "/static/js/bar-common.js",
  "/static/js/reco.js",
  "/static/js/announcements.js",
  "/static/js/push.js",
  "/static/js/push-subscribe.js",
  "/static/js/login.js",
  "/static/js/hold-submit.js",
  "/static/js/forms.js",
  "/static/img/icon.svg",
  "/static/img/icon-192.png",
];
const SHELL_TIMEOUT = 2500;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function inShell(url) {
  if (url.origin !== self.location.origin) return false;
  return SHELL.includes(url.pathname) || url.pathname.startsWith("/static/");
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (!inShell(url)) return;
  // Pages are cached without their query (?order=…), which only the page's script reads.
  const key = url.pathname;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const network = fetch(req).then((resp) => {
      if (resp.ok) cache.put(key, resp.clone());
      return resp;
    });
    const timeout = new Promise((resolve) => setTimeout(resolve, SHELL_TIMEOUT));
    try {
      const first = await Promise.race([network, timeout]);
      if (first) return first;
    } catch {
      // Offline: the cache answers below.
    }
    const cached = await cache.match(key);
    return cached || network;
  })());
});

// A push is shown only when no page of barhub is on screen: an open, visible page has
// already shown the change through its live connection.
self.addEventListener("push", (event) => {
  let n = {};
  try {
    n = event.data ? event.data.json() : {};
  } catch {
    n = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    if (windows.some((w) => w.visibilityState === "visible" && w.focused)) return;
    await self.registration.showNotification(n.title || "barhub", {
      body: n.body || "",
      tag: n.tag || undefined,
      renotify: !!n.tag,
      icon: "/static/img/icon-192.png",
      badge: "/static/img/icon-192.png",
      vibrate: [200, 100, 200],
      data: { url: n.url || "/", event: n.event || "" },
    });
  })());
});

// A tap opens the order (or the page the notification names) in an open window of the
// app when there is one, else in a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  // With several events, the page opens in the one the notification is about
  // (docs/EVENTS.md): the page switches to it when it holds another's sign-in.
  if (event.notification.data?.event) target.searchParams.set("event", event.notification.data.event);
  const url = target.href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const w of windows) {
      if (new URL(w.url).origin === self.location.origin && "focus" in w) {
        await w.focus();
        return w.navigate ? w.navigate(url) : undefined;
      }
    }
    return self.clients.openWindow(url);
  })());
});
