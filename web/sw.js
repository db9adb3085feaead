// Roofline Lab's service worker: the app works with no network.
//
// The build (scripts/build/offline.mjs) writes this build's folder and its
// list of files in place of the two placeholders below, so every build has
// a different worker and the browser installs it as an update.
//
// - install: every file of the build (the page, the app, every chunk, the
//   icons) goes into a cache of its own, named after the build. The first
//   worker takes over at once; an update waits until the page asks for it
//   ("A new version is ready" → Reload), so an open page keeps its files.
// - fetch: same-origin GETs are answered from the caches (any build's, so a
//   page of an older build still finds its chunks), then from the network.
//   A page (a navigation, with any query) is this build's index.html. A
//   cache that fails is skipped: the network answers.
// - tidy: a build's cache is deleted once no open page says it is of that
//   build (each page answers "which-build").
const BUILD = "{build}";
const FILES = ["{files}"];
const PREFIX = "roofline-lab-";
const CACHE = PREFIX + BUILD;
const scope = self.registration.scope;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES.map((f) => new Request(new URL(f, scope), { cache: "reload" })));
    // The first worker has no page of an older build to keep.
    if (!self.registration.active) await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim().then(tidy));
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  if (event.data === "tidy") event.waitUntil(tidy());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || !req.url.startsWith(scope)) return;
  event.respondWith(answer(req));
});

/** From the caches if they have it (a page: this build's index.html), else the network. */
async function answer(req) {
  try {
    const page = req.mode === "navigate";
    const hit = page
      ? await (await caches.open(CACHE)).match(new URL("index.html", scope))
      : await caches.match(req, { ignoreVary: true });
    if (hit) return hit;
  } catch {
    // A cache that cannot be read: the network answers.
  }
  return fetch(req);
}

/** The build of each open page, or null when one does not answer in time. */
async function openBuilds() {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return Promise.all(pages.map((page) => new Promise((done) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => done(null), 2000);
    channel.port1.onmessage = (e) => { clearTimeout(timer); done(String(e.data)); };
    page.postMessage("which-build", [channel.port2]);
  })));
}

/** Deletes the caches of builds that no open page uses. */
async function tidy() {
  try {
    const used = await openBuilds();
    // A page that did not answer may be of any build: keep them all.
    if (used.includes(null)) return;
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE && !used.includes(key.slice(PREFIX.length))) {
        await caches.delete(key);
      }
    }
  } catch {
    // Nothing to tidy, or caches cannot be used: nothing to do.
  }
}
