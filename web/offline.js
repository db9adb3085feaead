// Offline use, loaded by index.html once the page has drawn: registers the
// service worker (sw.js, beside index.html), answers its "which build?"
// (so it keeps this page's files until the page is gone), and says when a
// new version is ready, with a button to reload into it. Everything here is
// optional: without a worker the page works online as before.

/** This page's build: the app-<hash> folder this script was loaded from. */
const BUILD = new URL(".", import.meta.url).pathname.split("/").filter(Boolean).pop();

/** A line fixed at the bottom of the page, in the page's own colours. */
function banner(testid, text, button) {
  document.querySelector(`[data-testid="${testid}"]`)?.remove();
  const box = document.createElement("div");
  box.setAttribute("role", "status");
  box.dataset.testid = testid;
  box.style.cssText = "position:fixed;left:50%;bottom:1rem;transform:translateX(-50%);z-index:10;" +
    "max-width:calc(100vw - 2rem);display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;" +
    "padding:.6rem .9rem;border:1px solid var(--accent);border-radius:8px;" +
    "background:var(--panel);color:var(--text);box-shadow:0 2px 10px rgba(0,0,0,.25)";
  box.append(text);
  if (button) box.append(button);
  document.body.append(box);
  return box;
}

/** "A new version is ready", with Reload: the waiting worker takes over, then the page reloads. */
function updateReady(worker) {
  const reload = document.createElement("button");
  reload.type = "button";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => {
    reload.disabled = true;
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
    worker.postMessage("skip-waiting");
    // A worker that never takes over: reload anyway (the new one then starts).
    setTimeout(() => location.reload(), 4000);
  });
  banner("update-ready", "A new version of Roofline Lab is ready.", reload);
}

/**
 * Resolves half a second after the page's first chart is drawn (a
 * `NAME:drawn` mark), or a few seconds after load on a page without one, so
 * that the worker's downloads never compete with the start.
 */
function drawn() {
  return new Promise((go) => {
    const later = () => setTimeout(go, 500);
    setTimeout(go, 3000);
    if (!window.PerformanceObserver?.supportedEntryTypes?.includes("mark")) return;
    new PerformanceObserver((list, seen) => {
      if (!list.getEntries().some((e) => e.name.endsWith(":drawn"))) return;
      seen.disconnect();
      later();
    }).observe({ type: "mark", buffered: true });
  });
}

export async function start() {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  await drawn();
  sw.addEventListener("message", (e) => {
    if (e.data === "which-build" && e.ports[0]) e.ports[0].postMessage(BUILD);
  });
  let reg;
  try {
    reg = await sw.register(new URL("sw.js", document.baseURI));
  } catch {
    // No worker (not allowed here): the page works online.
    return;
  }
  // Some browsers and test harnesses block workers by answering nothing.
  if (!reg) return;
  // A worker waiting while another controls this page is an update.
  const installed = (w) => {
    if (w && sw.controller) updateReady(w);
  };
  installed(reg.waiting);
  reg.addEventListener("updatefound", () => {
    const w = reg.installing;
    w?.addEventListener("statechange", () => {
      if (w.state === "installed") installed(w);
      // The install failed (storage full or blocked, a file missing).
      if (w.state === "redundant" && !reg.active && !reg.waiting) {
        banner("offline-failed",
          "Roofline Lab could not be saved for use offline (the browser's storage is full or blocked). It keeps working online.");
      }
    });
  });
  // This page is up: caches of builds no page uses can go.
  reg.active?.postMessage("tidy");
  // A tab left open hears of a new build within the hour.
  setInterval(() => reg.update().catch(() => {}), 3600 * 1000);
}
