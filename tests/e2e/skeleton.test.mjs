// The walking skeleton as a user meets it: the page opens with no error,
// draws its roofline, and redraws when the chip changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, watchPage, waitForDraw, canvasStats, screenshot } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

test('page opens, draws a sharp roofline and follows the chip', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { deviceScaleFactor: 2 });
  try {
    assert.equal(await page.title(), 'Roofline Lab');
    assert.match(await page.textContent('h1'), /Roofline Lab/);
    const draws = await waitForDraw(page, 'roofline-canvas');
    const first = await canvasStats(page, 'roofline-canvas');
    assert.ok(first.colours > 20, `canvas is drawn (${first.colours} colours)`);
    assert.equal(first.width, first.cssWidth * 2, 'backing store follows devicePixelRatio');
    assert.match(await page.textContent('[data-testid="result-critical-intensity"]'), /^240 FLOPs\/byte$/);
    await screenshot(page, 'skeleton-v5e');

    await page.selectOption('[data-testid="chip-select"]', 'h100');
    await waitForDraw(page, 'roofline-canvas', draws);
    const second = await canvasStats(page, 'roofline-canvas');
    assert.notEqual(second.hash, first.hash, 'the chart changes with the chip');
    assert.match(await page.textContent('[data-testid="result-critical-intensity"]'), /^295 FLOPs\/byte$/);
    await screenshot(page, 'skeleton-h100');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// A link to a page other than the calculator (which index.html holds,
// prerendered: tests/e2e/prerender.test.mjs) says it is loading until the
// app mounts (on a slow link that is a second or more); once it mounts the
// line is gone; and if the app cannot start, the line says so instead of
// leaving a bare header.
test('the page says it is loading until the app is there', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = watchPage(page);
  let release;
  const held = new Promise((go) => { release = go; });
  // The wasm is held back until the line has been read.
  await page.route('**/*_bg.wasm', async (route) => { await held; await route.continue(); });
  try {
    await page.goto(`${server.url}?v=1&view=learn`, { waitUntil: 'load' });
    const boot = page.locator('#boot');
    await boot.waitFor({ state: 'visible' });
    assert.equal(await boot.textContent(), 'Loading…');
    assert.equal(await boot.getAttribute('role'), 'status');
    release();
    await waitForDraw(page, 'learn-canvas');
    assert.equal(await page.locator('#boot').count(), 0, 'the line is gone once the app is there');
    assert.deepEqual(problems, []);
  } finally {
    release();
    await context.close();
  }
});

for (const [what, answer, files = '**/*_bg.wasm'] of [
  ['did not download', (route) => route.abort('failed')],
  ['is not WebAssembly', (route) => route.fulfill({ status: 200, contentType: 'application/wasm', body: 'not wasm' })],
  // The app's start fails after the wasm has run: every timer of the app's
  // script throws, so the task that mounts the page never runs.
  ['runs but its start fails', async (route) => {
    const glue = await (await route.fetch()).text();
    await route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: `${glue}\nconst later = setTimeout;\nglobalThis.setTimeout = (f, t) => later(() => { throw new Error('the start failed (test)'); }, t);\n`,
    });
  }, '**/roofline-lab.js'],
]) {
  test(`the page says the app could not start when its wasm ${what}`, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.route(files, answer);
    try {
      await page.goto(server.url, { waitUntil: 'load' });
      const boot = page.locator('#boot');
      await page.waitForFunction(() => /could not start/.test(document.getElementById('boot')?.textContent ?? ''));
      assert.match(await boot.textContent(), /Check the connection and reload the page/);
      assert.ok(await boot.isVisible());
      assert.equal(await page.locator('#app main').count(), 0);
      // The prerendered page stays, and its status line says what it is.
      assert.match(await page.locator('#pre-status').textContent(), /Could not start/);
    } finally {
      await context.close();
    }
  });
}

test('with JavaScript off, the page says what needs it and does not say it is loading', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    assert.ok(await page.locator('.noscript').isVisible());
    assert.match(await page.locator('.noscript').textContent(), /needs JavaScript/);
    assert.equal(await page.locator('#boot').isVisible(), false);
  } finally {
    await context.close();
  }
});

test('dark scheme and phone width render without error', async () => {
  const { page, context, problems } = await openPage(browser, server.url, {
    colorScheme: 'dark',
    viewport: { width: 375, height: 800 },
  });
  try {
    await waitForDraw(page, 'roofline-canvas');
    const stats = await canvasStats(page, 'roofline-canvas');
    assert.ok(stats.cssWidth <= 375 && stats.colours > 20);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scroll at 375 px (overflow ${overflow}px)`);
    await screenshot(page, 'skeleton-dark-phone');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('charts redraw at their new size when the window is resized', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
  try {
    const draws = await waitForDraw(page, 'roofline-canvas');
    const wide = await canvasStats(page, 'roofline-canvas');
    await page.setViewportSize({ width: 700, height: 900 });
    await waitForDraw(page, 'roofline-canvas', draws);
    const narrow = await canvasStats(page, 'roofline-canvas');
    assert.ok(narrow.cssWidth < wide.cssWidth, 'the canvas got narrower');
    assert.equal(narrow.width, narrow.cssWidth, 'the backing store follows the new CSS width');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
