// Shared end-to-end harness: serves dist/ on a free loopback port, launches
// Debian's Chromium through playwright-core, and records every console error
// and uncaught page error so each test can fail on them.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { gzipCopy } from '../../scripts/build/precompress.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..', '..');
export const artifacts = path.join(root, 'tests', 'artifacts');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json']);
const gzipCache = new Map();
/**
 * The gzip of `body`, read from `file`: the build's copy, FILE.gz, if it
 * inflates to `body` (as tests/sizes.mjs counts it), else zlib at level 9;
 * cached per file and content.
 */
function gzipped(file, body) {
  const hit = gzipCache.get(file);
  if (hit && hit.raw.equals(body)) return hit.gz;
  let gz = null;
  try {
    gz = gzipCopy(file, body);
  } catch {
    // A stale copy: serve what a host compressing on the fly would.
  }
  gz ??= zlib.gzipSync(body, { level: 9 });
  gzipCache.set(file, { raw: body, gz });
  return gz;
}

/**
 * The build the tests open: dist/ (the release build), or the folder that
 * ROOFLINE_DIST names (dist-plain for the plain build, scripts/build.sh).
 */
export const distDir = path.resolve(root, process.env.ROOFLINE_DIST ?? 'dist');

/** Serves `dir` (default: `distDir`) on 127.0.0.1 at a free port, gzipping when the client accepts it. */
export async function startServer(dir = distDir) {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir}/index.html is missing: run the release build first (bash scripts/build.sh)`);
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.normalize(path.join(dir, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, body) => {
      if (err) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const ext = path.extname(file);
      const headers = {
        'content-type': TYPES[ext] ?? 'application/octet-stream',
        // Revalidated on every load, but (unlike no-store) the page may enter the
        // back/forward cache, as it would on a real host.
        'cache-control': 'no-cache',
        vary: 'accept-encoding',
      };
      // Like a static host, send text and wasm gzipped to a client that
      // accepts it, so Lighthouse's simulated network sees real transfer
      // sizes: the build's own gzip copy (FILE.gz, scripts/build/precompress.mjs)
      // when there is one, as a host with precompressed files does.
      if (COMPRESSIBLE.has(ext) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
        body = gzipped(file, body);
        headers['content-encoding'] = 'gzip';
      }
      headers['content-length'] = body.length;
      res.writeHead(200, headers);
      res.end(body);
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

/**
 * For one test file: before its tests, serves `dir` (default dist/) and
 * launches Chromium, then calls `ready(server, browser)` (which may be async,
 * for more setup); after them, closes both.
 */
export function serveAndLaunch(ready, dir) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(dir);
    browser = await launchBrowser();
    await ready(server, browser);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** Launches headless Debian Chromium with flags that keep it off the network. */
export async function launchBrowser() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  // Service workers are blocked unless a test asks for them
  // (`serviceWorkers: 'allow'`, tests/e2e/offline.test.mjs): the page's
  // worker, once installed, would answer the chunks' requests from its
  // cache, where `page.route` cannot see them, and each test here starts
  // as a first visit.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers: 'block', ...options });
  const newPage = browser.newPage.bind(browser);
  browser.newPage = (options = {}) => newPage({ serviceWorkers: 'block', ...options });
  return browser;
}

/**
 * Opens `url` in a fresh context and records problems: console errors,
 * uncaught exceptions and dialogs (a dialog means script ran that should not).
 */
export async function openPage(browser, url, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    deviceScaleFactor: options.deviceScaleFactor ?? 1,
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const problems = watchPage(page);
  await page.goto(url, { waitUntil: 'load' });
  return { page, context, problems };
}

/**
 * Records `page`'s problems from now on: console errors, uncaught
 * exceptions, dialogs (dismissed) and failed requests. Returns the list,
 * which fills as they happen.
 */
export function watchPage(page) {
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('dialog', async (d) => { problems.push(`dialog opened: ${d.message()}`); await d.dismiss(); });
  // A request the browser cancelled (ERR_ABORTED: the page navigated away
  // while the icon was loading, say) is not a failure of the page.
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  return problems;
}

/** Waits until the canvas `testid` has drawn more than `after` times; returns the count. */
/** Moves the Learn page's control `key` to option `i` (a range input or a select). */
export async function chooseLearnControl(page, key, i) {
  const sel = `[data-testid="learn-control-${key}"]`;
  const tag = await page.$eval(sel, (e) => e.tagName);
  if (tag === 'SELECT') {
    await page.selectOption(sel, String(i));
  } else {
    await page.$eval(sel, (e, v) => {
      e.value = String(v);
      e.dispatchEvent(new Event('input', { bubbles: true }));
    }, i);
  }
}

export async function waitForDraw(page, testid, after = 0) {
  const sel = `[data-testid="${testid}"]`;
  await page.waitForFunction(
    ([s, n]) => Number(document.querySelector(s)?.getAttribute('data-draws') ?? 0) > n,
    [sel, after],
    { timeout: 15000 },
  );
  return Number(await page.getAttribute(sel, 'data-draws'));
}

/** Pixel statistics of a canvas: distinct colours and a cheap hash of its pixels. */
export async function canvasStats(page, testid) {
  return page.evaluate((s) => {
    const c = document.querySelector(s);
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let hash = 2166136261;
    for (let i = 0; i < data.length; i += 4) {
      const v = (data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3];
      if (colours.size < 5000) colours.add(v);
      hash = Math.imul(hash ^ v, 16777619) >>> 0;
    }
    return { width: c.width, height: c.height, cssWidth: c.clientWidth, colours: colours.size, hash };
  }, `[data-testid="${testid}"]`);
}

let axeSource;

/**
 * Runs axe-core on `page` as it is now; returns its serious and critical
 * violations as "rule: count × first target" (empty when there are none).
 */
export async function seriousAxeViolations(page) {
  axeSource ??= fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
}

/** Saves a screenshot to tests/artifacts/NAME.png (git-ignored). */
export async function screenshot(page, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Visible buttons and links whose text has a WCAG contrast below 4.5 against
 * the first non-transparent background behind them, as "testid/text ratio".
 */
export const lowContrastControls = (page) => page.evaluate(() => {
  const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  // Translucent backgrounds are laid over what is behind them, down to the
  // first opaque one (or white).
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      const alpha = c.length >= 4 ? c[3] : 1;
      if (alpha > 0) layers.push([c[0], c[1], c[2], alpha]);
      if (alpha >= 1) break;
    }
    let out = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse()) {
      out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
    }
    return out;
  };
  const out = [];
  for (const el of document.querySelectorAll('button, a')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || !el.textContent.trim()) continue;
    const a = lum(rgb(getComputedStyle(el).color));
    const b = lum(backdrop(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) out.push(`${el.dataset.testid ?? el.className}/${el.textContent.trim().slice(0, 20)} ${ratio.toFixed(2)}`);
  }
  return out;
});
