// Offline use as a learner meets it: visit once (from a sub-path, as a host
// might serve it), lose the network, and open a shared link, every tab and
// every chunk from a cold start; see a newly published build announced,
// with the open page keeping its own files until "Reload"; and a worker
// whose cache throws leaves the page working online.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startServer, launchBrowser, root, waitForDraw, watchPage, screenshot, seriousAxeViolations,
} from './harness.mjs';

let browser;
const cleanup = [];
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  for (const c of cleanup) await c();
});

/** A copy of dist/ in a fresh folder (under `sub` in it), served; `{ url, dir }`. */
async function serveCopy(sub = '') {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'roofline-offline-'));
  const dir = path.join(tmp, sub);
  fs.cpSync(path.join(root, 'dist'), dir, { recursive: true });
  // The host's own page at its root, the app in a folder of it.
  if (sub) fs.writeFileSync(path.join(tmp, 'index.html'), '<a href="sub/">Roofline Lab</a>');
  const server = await startServer(tmp);
  cleanup.push(() => server.close(), () => fs.rmSync(tmp, { recursive: true, force: true }));
  return { url: server.url + (sub ? `${sub}/` : ''), dir };
}

/** A context where service workers run. */
const swContext = () => browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 900 } });

/** Waits until a service worker controls `page` (it has cached every file by then). */
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });

/** The cache names of the page's origin. */
const cacheNames = (page) => page.evaluate(() => caches.keys());

test('after one visit, a shared link, every tab and every chunk work with no network, from a sub-path', async () => {
  const { url } = await serveCopy('sub');
  const context = await swContext();
  try {
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(`${url}?v=1&view=quiz&q=q1`);
    await page.waitForSelector('[data-testid="question"][data-question="q1"]');
    // Solve a part online: its progress must be there offline.
    await page.fill('[data-testid="answer-b"]', '2BDF');
    await page.click('[data-testid="check-b"]');
    assert.equal(await page.textContent('[data-testid="part-b"] .verdict'), 'Right.');
    await controlled(page);
    assert.equal((await cacheNames(page)).length, 1);
    assert.equal(await page.$('[data-testid="update-ready"]'), null, 'a first visit announces no update');
    // The manifest reads cleanly, with the icons an install needs.
    const cdp = await context.newCDPSession(page);
    const manifest = await cdp.send('Page.getAppManifest');
    assert.deepEqual(manifest.errors, [], 'the manifest parses without errors');
    const parsed = JSON.parse(manifest.data);
    assert.equal(parsed.name, 'Roofline Lab');
    assert.deepEqual(parsed.icons.map((i) => i.sizes).sort(), ['192x192', '512x512', 'any']);
    for (const icon of parsed.icons) {
      const res = await page.request.get(new URL(icon.src, manifest.url).href);
      assert.equal(res.status(), 200, icon.src);
    }
    assert.deepEqual(problems, []);
    await page.close();

    await context.setOffline(true);
    // A cold start of a link never opened before.
    const off = await context.newPage();
    const offProblems = watchPage(off);
    await off.goto(`${url}?v=1&chip=h100&op=matmul&sz=B:512,D:4096,F:4096&n=2`);
    await waitForDraw(off, 'roofline-canvas');
    assert.equal(await off.inputValue('[data-testid="field-size-B"]'), '512');
    assert.equal(await off.getAttribute('[data-testid="roofline-canvas"]', 'data-lines'), 'hbm,nvlink');
    // The comparison and the SVG export are chunks.
    await off.click('.compare summary');
    await off.waitForSelector('[data-testid="compare-table"]');
    const [svg] = await Promise.all([off.waitForEvent('download'), off.click('[data-testid="roofline-svg"]')]);
    assert.match(svg.suggestedFilename(), /\.svg$/);
    // The quiz, with the part solved online.
    await off.click('[data-testid="tab-quiz"]');
    await off.waitForSelector('[data-testid="question"]');
    assert.match(await off.textContent('[data-testid="question-q1"]'), /1\/\d/);
    // The Learn page and its figure.
    await off.click('[data-testid="tab-learn"]');
    await off.waitForSelector('[data-testid="learn-step"]');
    await waitForDraw(off, 'learn-canvas');
    // A reload, still offline.
    await off.reload();
    await off.waitForSelector('[data-testid="learn-step"]');
    assert.deepEqual(offProblems, []);
    await screenshot(off, 'offline-learn');
  } finally {
    await context.close();
  }
});

test('a new build is announced; the open page keeps its own files until it reloads into the new one', async () => {
  const { url, dir } = await serveCopy();
  const context = await swContext();
  try {
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(url);
    await waitForDraw(page, 'roofline-canvas');
    await controlled(page);
    const [before] = await cacheNames(page);

    // Publish a second build: the app under a new folder, the page and the
    // worker pointed at it. The old folder is gone from the server.
    const old = fs.readdirSync(dir).find((f) => /^app-[0-9a-f]+$/.test(f));
    const next = old.slice(0, -1) + (old.endsWith('0') ? '1' : '0');
    fs.renameSync(path.join(dir, old), path.join(dir, next));
    for (const f of ['index.html', 'sw.js']) {
      const file = path.join(dir, f);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll(old, next));
      fs.rmSync(`${file}.gz`, { force: true });
    }
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const notice = page.locator('[data-testid="update-ready"]');
    await notice.waitFor({ timeout: 30000 });
    assert.match(await notice.textContent(), /A new version of Roofline Lab is ready/);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'offline-update-ready');
    // Until then the open page is of its build: its quiz chunk comes from its cache.
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');

    await Promise.all([page.waitForEvent('load', { timeout: 30000 }), notice.locator('button').click()]);
    await page.waitForSelector('[data-testid="question"]');
    const app = await page.$eval('link[rel="modulepreload"]', (l) => l.href);
    assert.ok(app.includes(next), `the page now runs the new build: ${app}`);
    // The old build's cache goes once no page uses it.
    let names = [];
    for (let i = 0; i < 50; i++) {
      names = await cacheNames(page);
      if (names.length === 1) break;
      await page.waitForTimeout(200);
    }
    assert.equal(names.length, 1, `one cache left: ${names}`);
    assert.notEqual(names[0], before);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a worker whose cache throws: the page still works online and says it cannot work offline', async () => {
  const { url, dir } = await serveCopy();
  const sw = path.join(dir, 'sw.js');
  fs.writeFileSync(sw, `self.caches.open = () => Promise.reject(new DOMException("full", "QuotaExceededError"));
self.caches.match = () => Promise.reject(new Error("broken"));
${fs.readFileSync(sw, 'utf8')}`);
  fs.rmSync(`${sw}.gz`, { force: true });
  const context = await swContext();
  try {
    const page = await context.newPage();
    const problems = watchPage(page);
    await page.goto(url);
    await waitForDraw(page, 'roofline-canvas');
    const note = page.locator('[data-testid="offline-failed"]');
    await note.waitFor({ timeout: 30000 });
    assert.match(await note.textContent(), /could not be saved for use offline/);
    // Online, everything still works: an edit redraws, a chunk downloads.
    const draws = await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-size-B"]', '2048');
    await waitForDraw(page, 'roofline-canvas', draws);
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');
    await page.reload();
    await page.waitForSelector('[data-testid="question"]');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
