// The quiz's TPU chapter (Part 2) and GPU chapter (Part 12): one question
// of each answered through the real page, a known mistake given its
// concept, the chapter's progress counted, and the part's link opening the
// calculator with the question's numbers, which it computes to the same
// answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, screenshot } from './harness.mjs';
import { verdict, dataValue, near } from './quiz-helpers.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const result = async (page, key) => Number(await dataValue(page, `result-${key}`));

test('Part 2: the int8 matmul on a v5e, the book rounded crossing noted, and the calculator finds the same batch', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p2-q4`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p2-q4"]');
    assert.match(await page.textContent('[data-testid="chapter-p2"] h3'), /Part 2/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p2"]'), /^0\/25$/);
    // The small-B approximation given for the exact crossing.
    await page.fill('[data-testid="answer-a"]', '240');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /approximation/);
    // The book's 267 rounds the counts: right, with a note.
    await page.fill('[data-testid="answer-a"]', '267');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /^Right.*1\.3e8/s);
    assert.match(await page.textContent('[data-testid="chapter-progress-p2"]'), /^1\/25$/);
    await screenshot(page, 'quiz-p2-q4');

    // The calculator with the question's matmul: its critical batch is the answer.
    await page.click('[data-testid="open-a"]');
    await page.waitForSelector('[data-testid="roofline-canvas"][data-draws]');
    assert.match(page.url(), /int8/);
    const [d, f, peak, bw] = [4096, 16384, 3.94e14, 8.2e11];
    const crossing = (d * f / bw) / (2 * d * f / peak - (d + f) / bw);
    near(await result(page, 'critical-batch'), crossing, 'critical batch');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Part 12: two matmuls on a B200, overlap named, and the link opens the B200 with the same times', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p12-q1-4`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p12-q1-4"]');
    assert.match(await page.textContent('[data-testid="chapter-p12"] h3'), /Part 12/);
    // The two times added.
    await page.fill('[data-testid="answer-b"]', '25.2us');
    await page.click('[data-testid="check-b"]');
    assert.match(await verdict(page, 'b'), /adds the two times/);
    // The book's 15 µs (it rounds the peak to 2.3e15).
    await page.fill('[data-testid="answer-b"]', '15 us');
    await page.click('[data-testid="check-b"]');
    assert.match(await verdict(page, 'b'), /^Right/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p12"]'), /^1\/80$/);

    await page.click('[data-testid="open-b"]');
    await page.waitForSelector('[data-testid="roofline-canvas"][data-draws]');
    assert.match(page.url(), /chip=b200/);
    const [b, d, f] = [512, 4096, 8192];
    near(await result(page, 't-math'), 2 * b * d * f / 2.25e15, 'T_math');
    near(await result(page, 't-comms'), 2 * (b * d + d * f + b * f) / 8e12, 'T_comms');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
