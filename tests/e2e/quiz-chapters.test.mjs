// The quiz's chapters after Part 1: one question of Part 4 and one of
// Part 7 answered through the real page, the chapter's progress counted,
// and each question's link opening the Model page with the question's
// numbers, which it computes to the same answer.
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

const modelValue = async (page, key) => Number(await dataValue(page, `model-${key}`));

test('Part 4: the book rounded answer passes with a note, and the link opens the model it counts', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p4-q1`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p4-q1"]');
    assert.match(await page.textContent('[data-testid="chapter-p4"] h3'), /Part 4/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p4"]'), /^0\/18$/);
    // The book prints 16e9: it rounds D and F to thousands.
    await page.fill('[data-testid="answer-a"]', '16e9');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /^Right.*rounded/s);
    // A KV cache counted in bf16 gets its concept.
    await page.fill('[data-testid="answer-c"]', '1 MiB');
    await page.click('[data-testid="check-c"]');
    assert.match(await verdict(page, 'c'), /bf16/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p4"]'), /^1\/18$/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p1"]'), /^0\//);
    assert.match(await page.textContent('[data-testid="chapter-progress-p8"]'), /^0\/30$/);
    await screenshot(page, 'quiz-p4-q1');

    // The Model page with the question's model: its numbers are the answers.
    assert.match(await page.textContent('[data-testid="open-a"]'), /Model page/);
    await page.click('[data-testid="open-a"]');
    await page.waitForSelector('[data-testid="model-step-time"]');
    assert.match(page.url(), /view=model/);
    assert.match(page.url(), /m\.layers=64/);
    near(await modelValue(page, 'params'), 64 * (3 * 4096 * 16384 + 4 * 4096 * 4096 + 2 * 4096) + 2 * 4096 * 32000, 'parameters');
    near(await modelValue(page, 'kv-per-token'), 2 * 64 * 4096, 'KV bytes per token');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Part 7: a worked problem answered, and its link opens the Model page on 16 chips', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p7-q3`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p7-q3"]');
    // One chip's bandwidth instead of sixteen.
    await page.fill('[data-testid="answer-a"]', '22.4 ms');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /one chip/);
    await page.fill('[data-testid="answer-a"]', '1.4ms');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /^Right/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p7"]'), /^1\//);
    // Another chapter's question, then back: the list keeps both chapters.
    await page.click('[data-testid="question-q1"]');
    await page.waitForSelector('[data-testid="question"][data-question="q1"]');
    await page.click('[data-testid="question-p7-q3"]');
    await page.waitForSelector('[data-testid="question"][data-question="p7-q3"]');

    await page.click('[data-testid="open-a"]');
    await page.waitForSelector('[data-testid="model-step-time"]');
    assert.match(page.url(), /view=model/);
    assert.match(page.url(), /n=16/);
    // The chapter's model: 64·4096·(3·16384 + 2·256·40) + 4096·32128 + 64·2·4096.
    const p = 64 * 4096 * (3 * 16384 + 2 * 256 * 40) + 4096 * 32128 + 64 * 2 * 4096;
    near(await modelValue(page, 'params'), p, 'parameters');
    near(await modelValue(page, 't-weight-load'), p / (16 * 8.2e11), 'weights load time');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Part 8: the KV cache of LLaMA 3-70B, and its link opens the preset with the batch and context', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p8-pop1`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p8-pop1"]');
    // Grouped-query attention counted as full attention.
    await page.fill('[data-testid="answer-a"]', '1.31 MB');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /grouped-query/);
    await page.fill('[data-testid="answer-a"]', '160 kB');
    await page.click('[data-testid="check-a"]');
    assert.match(await verdict(page, 'a'), /^Right/);
    await page.click('[data-testid="open-a"]');
    await page.waitForSelector('[data-testid="model-step-time"]');
    assert.match(page.url(), /model=llama3-70b/);
    assert.match(page.url(), /b=240/);
    assert.match(page.url(), /ctx=32768/);
    near(await modelValue(page, 'kv-per-token'), 2 * 8 * 128 * 80, 'KV bytes per token');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
