// The quiz's chapters on a mesh of chips (Parts 3, 5 and 6): one question
// of each answered through the real page, a known mistake answered with
// its concept, and each question's link opening the Scale page with the
// question's numbers, whose results are the question's answers.
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


/** Types `answer` into part `part` and checks it. */
async function answer(page, part, text) {
  await page.fill(`[data-testid="answer-${part}"]`, text);
  await page.click(`[data-testid="check-${part}"]`);
}

test('Part 3: an AllGather on a v4p cube, and its link opens the Scale page on the same mesh', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p3-q2`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p3-q2"]');
    assert.match(await page.textContent('[data-testid="chapter-p3"] h3'), /Part 3/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p3"]'), /^0\/47$/);
    // One direction's bandwidth on an axis that wraps around.
    await answer(page, 'a', '46.6us');
    assert.match(await verdict(page, 'a'), /both ways/);
    await answer(page, 'a', '23us');
    assert.match(await verdict(page, 'a'), /^Right/);
    // An AllReduce taken as one AllGather.
    await answer(page, 'c', '5.83 us');
    assert.match(await verdict(page, 'c'), /ReduceScatter then an AllGather/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p3"]'), /^1\/47$/);
    await screenshot(page, 'quiz-p3-q2');

    assert.match(await page.textContent('[data-testid="open-a"]'), /Scale page/);
    await page.click('[data-testid="open-a"]');
    await page.waitForSelector('[data-testid="scale-coll-time"]');
    const url = decodeURIComponent(page.url());
    for (const key of ['view=scale', 'chip=v4p', 'mesh=X:4,Y:4,Z:4', 'arr=bf16[B_X,D_Y]']) {
      assert.ok(url.includes(key), `${key} in ${url}`);
    }
    // V = 2·1024·4096/4 bytes; each chip receives 3/4 of it at 9e10 bytes/s
    // (both ways), after 2 hops of 1 µs.
    const v = (2 * 1024 * 4096) / 4;
    near(Number(await dataValue(page, 'scale-coll-bytes')), (3 / 4) * v, 'bytes a chip');
    near(Number(await dataValue(page, 'scale-coll-time')), ((3 / 4) * v) / 9e10 + 2e-6, 'time');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Part 5: the step time of FSDP + TP, and its link opens the plan on a v5p slice', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p5-q3`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p5-q3"]');
    // 2 FLOPs per parameter for training instead of 6.
    await answer(page, 'f', '104ms');
    assert.match(await verdict(page, 'f'), /6 in all/);
    await answer(page, 'f', '300ms');
    assert.match(await verdict(page, 'f'), /^Right/);
    assert.match(await page.textContent('[data-testid="chapter-progress-p5"]'), /^1\/11$/);

    await page.click('[data-testid="open-f"]');
    await page.waitForSelector('[data-testid="train-step-time"]');
    const url = page.url();
    for (const key of ['view=scale', 'model=llama2-13b', 'strat=mixed', 'tokens=3e6', 'seq=32768']) {
      assert.ok(url.includes(key), `${key} in ${url}`);
    }
    const p = 40 * (3 * 5120 * 13824 + 4 * 5120 * 40 * 128 + 2 * 5120) + 2 * 32000 * 5120;
    near(Number(await dataValue(page, 'train-params')), p, 'parameters');
    near(Number(await dataValue(page, 'train-step-time')), (6 * 3e6 * p) / (4096 * 4.59e14 * 0.4), 'step time');
    near(Number(await dataValue(page, 'train-x-opt')), Math.sqrt((3e6 * 2 * 4096) / 13824), 'X_opt');
    assert.equal(await dataValue(page, 'train-bound'), 'compute');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('Part 6: four pods over DCN, and the Scale page computes the app\'s answer', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p6-q1`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p6-q1"]');
    // The DCN inequality turned round, then the takeaways' 71,000 (noted).
    await answer(page, 'a', '1.36e-5');
    assert.match(await verdict(page, 'a'), /turns the inequality round/);
    await answer(page, 'a', '71000');
    assert.match(await verdict(page, 'a'), /^Right.*71,000/s);
    assert.match(await page.textContent('[data-testid="chapter-progress-p6"]'), /^1\/27$/);

    await page.click('[data-testid="open-c"]');
    await page.waitForSelector('[data-testid="train-days"]');
    const url = page.url();
    for (const key of ['view=scale', 'model=llama3-70b', 'strat=pods', 'pods=4', 'mesh=X%3A16%2CY%3A20%2CZ%3A28']) {
      assert.ok(url.includes(key) || decodeURIComponent(url).includes(decodeURIComponent(key)), `${key} in ${url}`);
    }
    const days = await dataValue(page, 'train-days');
    assert.ok(Number(days) > 1 && Number(days) < 100, `days ${days}`);
    // Back in the quiz, the page's own days are the right answer.
    await page.goBack();
    await page.waitForSelector('[data-testid="question"][data-question="p6-q1"]');
    await answer(page, 'c', days);
    assert.match(await verdict(page, 'c'), /^Right/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a later chapter\'s question gets new numbers from its chunk, keeps them in the link, and goes back to the book\'s', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=p3-q2`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="p3-q2"][data-seed="0"]');
    const book = await page.textContent('.setup');
    await page.click('[data-testid="new-numbers"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="question"]')?.dataset.seed !== '0');
    const seed = await page.getAttribute('[data-testid="question"]', 'data-seed');
    const varied = await page.textContent('.setup');
    assert.notEqual(varied, book, 'a variant shows other numbers');
    assert.match(page.url(), new RegExp(`seed=${seed}`));
    // The variant's worked solution shows for its own numbers.
    await page.click('[data-testid="reveal-a"]');
    await page.waitForSelector('[data-testid="solution-1"]');
    await page.click('[data-testid="book-numbers"]');
    await page.waitForSelector('[data-testid="question"][data-question="p3-q2"][data-seed="0"]');
    assert.equal(await page.textContent('.setup'), book);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
