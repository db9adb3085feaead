// The quiz is a separate wasm chunk (scripts/build-wasm.sh): the calculator
// opens without it, the quiz downloads it when opened (or when the pointer
// reaches its tab), and a failed download says so without breaking the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, seriousAxeViolations, waitForDraw, lowContrastControls, screenshot,
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const isChunk = (url) => /\/split_[^/]*\.wasm$/.test(url);

/**
 * A page in a fresh context, not yet navigated, recording the quiz chunk's
 * requests (`chunks`) and uncaught errors (`errors`).
 */
async function freshPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const chunks = [];
  const errors = [];
  page.on('request', (r) => { if (isChunk(r.url())) chunks.push(r.url()); });
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, chunks, errors };
}

test('the calculator opens without the quiz chunk; opening the quiz downloads it once', async () => {
  const { context, page, chunks, errors } = await freshPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-size-B"]', '512');
    await page.waitForTimeout(300);
    assert.deepEqual(chunks, [], 'the calculator alone never asks for the quiz');

    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(chunks.length, 1, `one download: ${chunks}`);
    // Back and forth: the chunk is not downloaded again.
    await page.click('[data-testid="tab-calc"]');
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(chunks.length, 1);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('pointing at the Quiz tab starts the download before the click', async () => {
  const { context, page, chunks } = await freshPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.hover('[data-testid="tab-quiz"]');
    await page.waitForTimeout(200);
    assert.equal(chunks.length, 1, 'hovering the tab fetched the chunk');
    assert.ok(await page.$('[data-testid="tab-calc"][aria-pressed="true"]'), 'still on the calculator');
  } finally {
    await context.close();
  }
});

test('a link to a quiz question fetches the chunk alongside the app, once, and opens it', async () => {
  const { context, page, chunks, errors } = await freshPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() !== 'log') warnings.push(m.text()); });
  try {
    await page.goto(`${server.url}?v=1&view=quiz&q=q2&part=b`);
    await page.waitForSelector('[data-testid="question"][data-question="q2"]');
    // Let an unused preload be reported, if it is.
    await page.waitForTimeout(3500);
    assert.equal(chunks.length, 1, `one download, shared by the preload and the loader: ${chunks}`);
    assert.deepEqual(warnings, [], 'no console warning (such as a preload that was not used)');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a failed quiz download says so, the calculator keeps working, and "Try again" loads it', async () => {
  const { context, page, errors } = await freshPage();
  let block = true;
  await page.route(/\/split_[^/]*\.wasm$/, (route) => (block ? route.abort('internetdisconnected') : route.continue()));
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="tab-quiz"]');
    const alert = page.locator('[data-testid="quiz-load-error"]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /could not be downloaded/);
    assert.equal(await alert.getAttribute('role'), 'alert');
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(await lowContrastControls(page), []);
    await screenshot(page, 'quiz-load-error');

    // The page is alive: the calculator still computes.
    await page.click('[data-testid="tab-calc"]');
    const draws = await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-size-B"]', '4096');
    await waitForDraw(page, 'roofline-canvas', draws);

    // Still offline: the quiz tab tries again and says so again.
    await page.click('[data-testid="tab-quiz"]');
    await alert.waitFor();
    // Back online: "Try again" brings the quiz.
    block = false;
    await page.locator('[data-testid="quiz-load-error"] button').click();
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(await page.$('[data-testid="quiz-load-error"]'), null);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});
