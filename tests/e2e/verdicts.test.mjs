// Issue #46 (items 7-12): every verdict agrees with the numbers beside it,
// as the learner sees it: one verdict over chips with the unsplit results
// labelled, Learn's words following their controls and axes, the quiz
// telling a byte slip from an operations slip, the book's *_D, int8 rates
// in OP/s, and the sparse question only where a chip has a sparse figure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, waitForDraw, chooseLearnControl as choose } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const learnText = (page) =>
  page.$$eval('[data-testid="learn-words"]', (es) => es.map((e) => e.textContent).join('\n'));


test('split over chips: one verdict, and the unsplit results say what they are', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=matmul&n=2&link=ici&shard=D`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.waitForSelector('[data-testid="result-net-binding"]');
    assert.match(await page.textContent('[data-testid="results-whole"]'), /^The whole operation on one chip/);
    assert.match(await page.textContent('[data-testid="results-per-chip"]'), /^Per chip/);
    assert.equal(await page.locator('[data-testid="result-regime"]').count(), 0, 'no verdict on the unsplit operation');
    assert.doesNotMatch(await page.textContent('[data-testid="result-net-regime"]'), /-bound/i);
    assert.match(await page.textContent('[data-testid="result-net-binding"]'), /The split operation is bound by/);
    // One chip again: the verdict is back, the labels go.
    await page.fill('[data-testid="field-chips"]', '1');
    await page.waitForSelector('[data-testid="result-regime"]');
    assert.equal(await page.locator('[data-testid="results-whole"]').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the sparse-headline question shows only for a chip with a sparse figure', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.locator('[data-testid="why-sparse"]').count(), 0, 'not on TPU v5e');
    await page.selectOption('[data-testid="chip-select"]', 'h100');
    await page.waitForSelector('[data-testid="why-sparse"]');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("the operation field reads the book's *_D, and says when D is not the summed one", async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-op"]', 'bf16[B,D] *_D bf16[D,F] -> bf16[B,F]');
    await page.waitForSelector('[data-testid="error-op"]:empty', { state: 'attached' });
    await page.fill('[data-testid="field-op"]', 'bf16[B,D] *_F bf16[D,F] -> bf16[B,F]');
    await page.waitForSelector('[data-testid="error-op"]:not(:empty)');
    const error = await page.textContent('[data-testid="error-op"]');
    assert.match(error, /sums over D/);
    assert.doesNotMatch(error, /data type/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('int8 math reads in OP/s', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&dt=int8`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    const attained = await page.textContent('[data-testid="result-attained-flops"]');
    assert.match(attained, /OP\/s$/);
    assert.doesNotMatch(attained, /FLOP/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("Learn's words follow the numbers and the axes beside them", async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=3`);
  try {
    await page.waitForSelector('[data-testid="learn-step"][data-step="3"]');
    assert.match(await learnText(page), /axes are logarithmic/);
    await page.uncheck('[data-testid="learn-log"]');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="learn-words"]')].some((e) => e.textContent.includes('axes are linear')));
    assert.doesNotMatch(await learnText(page), /logarithmic/);

    // Step 6, bf16 weights and int8 math: twice the all-bf16 batch, not "a little".
    await page.click('[data-testid="learn-goto-6"]');
    await page.waitForSelector('[data-testid="learn-step"][data-step="6"]');
    await choose(page, 'weights', 0);
    await choose(page, 'math', 1);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="learn-words"]')].some((e) => e.textContent.includes('2 × 1 = 2')));
    const six = await learnText(page);
    assert.doesNotMatch(six, /a little further/);
    assert.match(six, /the critical batch is above the all-bf16 one/);

    // Step 9 at B = 64: the step grows, and says so with its own times.
    await page.click('[data-testid="learn-goto-9"]');
    await page.waitForSelector('[data-testid="learn-step"][data-step="9"]');
    await choose(page, 'seqs', 3);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="learn-words"]')].some((e) => e.textContent.includes('From B = 1 to B = 64')));
    const nine = await learnText(page);
    assert.doesNotMatch(nine, /hardly grows/);
    assert.match(nine, /the KV read grows with B/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the quiz tells a byte slip from an operations slip', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q4`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="q4"]');
    await page.fill('[data-testid="answer-b"]', '2BDF/(BD+BDF+DF)');
    await page.click('[data-testid="check-b"]');
    await page.waitForSelector('[data-testid="part-b"] .verdict');
    const said = await page.textContent('[data-testid="part-b"]');
    assert.match(said, /on top, 2BDF, are right/);
    assert.match(said, /DF where BF belongs/);
    assert.doesNotMatch(said, /OPs are/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
