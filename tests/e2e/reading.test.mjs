// Reading the roofline as a learner from the chapter's discussion would:
// open each "Why?", switch the chart to linear axes and back, read the
// regions' legend against the canvas, split the matmul over chips and see
// the link's line, and have the exact count of a matmul called close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, seriousAxeViolations, openPage, waitForDraw, canvasStats, screenshot,
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const canvas = '[data-testid="roofline-canvas"]';
const attr = (page, sel, name) => page.getAttribute(sel, name);

test('every question of the discussion has its answer beside what raises it', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=matmul&n=2`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    // Where each answer sits: the chart's next to the chart, and so on.
    const places = {
      origin: '.chart', slopes: '.chart', bend: '.chart', roof: '.chart', marks: '.chart',
      'lower-bound': '[aria-labelledby="results-title"]', 'flops-rate': '[aria-labelledby="results-title"]',
      'intensity-test': '[aria-labelledby="results-title"]', tokens: '[aria-labelledby="results-title"]',
      'small-b': '[aria-labelledby="results-title"]', 'per-chip': '[aria-labelledby="results-title"]',
      link: '[aria-labelledby="results-title"]', hbm: '[aria-labelledby="results-title"]',
      contract: '.inputs', 'dtype-flops': '.inputs',
    };
    for (const [key, place] of Object.entries(places)) {
      const why = page.locator(`${place} [data-testid="why-${key}"]`);
      assert.equal(await why.count(), 1, `why-${key} inside ${place}`);
      assert.equal(await why.evaluate((d) => d.open), false, `why-${key} starts closed`);
      await why.locator('summary').click();
      assert.equal(await why.evaluate((d) => d.open), true);
      const text = await why.locator('p').first().textContent();
      assert.ok(text.length > 60, `why-${key} answers: ${text}`);
    }
    assert.match(await page.textContent('[data-testid="why-origin"]'), /logarithmic/);
    assert.match(await page.textContent('[data-testid="why-lower-bound"]'), /max\(T_math, T_comms\)/);
    assert.match(await page.textContent('[data-testid="why-dtype-flops"]'), /2 FLOPs/);
    assert.match(await page.textContent('[data-testid="why-per-chip"]'), /X₀·Y₀ \+ X₁·Y₁/);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'why-open-1280');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the roofline switches to linear axes and back, and the link keeps the choice', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await attr(page, canvas, 'data-scale'), 'log');
    assert.equal(await attr(page, canvas, 'data-lines'), 'hbm,vmem');
    const log = await canvasStats(page, 'roofline-canvas');
    const draws = Number(await attr(page, canvas, 'data-draws'));
    await page.uncheck('[data-testid="roofline-log"]');
    await waitForDraw(page, 'roofline-canvas', draws);
    assert.equal(await attr(page, canvas, 'data-scale'), 'lin');
    assert.notEqual((await canvasStats(page, 'roofline-canvas')).hash, log.hash, 'the picture changes');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('rs') === 'lin');

    // On linear axes the origin is the plot's bottom-left corner: the
    // hover readout there reads an intensity near zero.
    const box = await page.locator(canvas).boundingBox();
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5);
    assert.match(await page.textContent('[data-testid="roofline-readout"]'), /^Intensity \d/);

    // Reopened from the address, the chart is linear again.
    const url = page.url();
    const again = await context.newPage();
    await again.goto(url);
    await waitForDraw(again, 'roofline-canvas');
    assert.equal(await attr(again, canvas, 'data-scale'), 'lin');
    assert.equal(await again.isChecked('[data-testid="roofline-log"]'), false);
    await screenshot(again, 'roofline-linear-1280');
    await again.check('[data-testid="roofline-log"]');
    await again.waitForFunction(() => !new URLSearchParams(location.search).has('rs'));
    assert.equal(await attr(again, canvas, 'data-scale'), 'log');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the regions legend names each shaded region in the canvas colour', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, context, problems } = await openPage(browser, server.url, { colorScheme });
    try {
      await waitForDraw(page, 'roofline-canvas');
      const entries = page.locator('[data-testid="region-entry"]');
      assert.equal(await entries.count(), 3, 'two lines: three regions');
      const texts = await entries.allTextContents();
      assert.match(texts[0], /^Below 10\.9 FLOPs\/byte: bandwidth-bound/);
      assert.match(texts[1], /^10\.9 FLOPs\/byte to 240 FLOPs\/byte: compute-bound from VMEM/);
      assert.match(texts[2], /^Above 240 FLOPs\/byte: compute-bound/);
      // Each swatch is the colour the canvas fills its region with: read
      // the canvas in the middle of each region, just under the top edge.
      const match = await page.evaluate(() => {
        const c = document.querySelector('[data-testid="roofline-canvas"]');
        const ctx = c.getContext('2d');
        const sw = [...document.querySelectorAll('[data-testid="region-entry"] .swatch')]
          .map((s) => getComputedStyle(s).backgroundColor.match(/\d+/g).slice(0, 3).map(Number));
        // Scan one row near the top of the plot for runs of the swatch colours.
        const y = Math.round(c.height * 0.12);
        const row = ctx.getImageData(0, y, c.width, 1).data;
        const found = sw.map((rgb) => {
          for (let x = 0; x < c.width; x += 1) {
            const i = x * 4;
            if (Math.abs(row[i] - rgb[0]) <= 1 && Math.abs(row[i + 1] - rgb[1]) <= 1 && Math.abs(row[i + 2] - rgb[2]) <= 1) return x;
          }
          return -1;
        });
        return found;
      });
      assert.ok(match.every((x) => x >= 0), `every swatch colour is in the canvas: ${match}`);
      assert.ok(match[0] < match[1] && match[1] < match[2], `regions left to right: ${match}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test('across chips the chart draws the link and its network intensity', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=matmul&n=2&link=ici&shard=D`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await attr(page, canvas, 'data-lines'), 'hbm,vmem,ici');
    // "How it is computed" gains the network steps, with the chapter's numbers.
    const steps = await page.textContent('[data-testid="derivation"]');
    assert.match(steps, /Network intensity/);
    assert.match(steps, /Critical intensity of ICI/);
    assert.match(steps, /4378 FLOPs\/byte/, '1.97e14 / 4.5e10');
    // One chip again: the link's line goes.
    const draws = Number(await attr(page, canvas, 'data-draws'));
    await page.fill('[data-testid="field-chips"]', '1');
    await waitForDraw(page, 'roofline-canvas', draws);
    assert.equal(await attr(page, canvas, 'data-lines'), 'hbm,vmem');
    assert.doesNotMatch(await page.textContent('[data-testid="derivation"]'), /Network intensity/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the reading aids hold up on a phone, in the dark', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=matmul&n=2&rs=lin`, {
    viewport: { width: 390, height: 844 }, colorScheme: 'dark', deviceScaleFactor: 2,
  });
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="why-slopes"] summary');
    assert.deepEqual(await seriousAxeViolations(page), []);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scroll (${overflow} px)`);
    await screenshot(page, 'reading-390-dark');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the exact count of a matmul is called close in the quiz', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q1`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="q1"]');
    await page.fill('[data-testid="answer-b"]', 'BF(2D - 1)');
    await page.click('[data-testid="check-b"]');
    const v = page.locator('[data-testid="part-b"] .verdict');
    assert.match(await v.textContent(), /^Close\. .*The book counts 2BDF, dropping the −BF/);
    assert.equal(await v.getAttribute('class'), 'verdict close');
    assert.equal(await page.$('[data-testid="part-b"] .solution'), null, 'close is not a wrong try');
    await page.fill('[data-testid="answer-b"]', '2BDF');
    await page.click('[data-testid="check-b"]');
    assert.match(await v.textContent(), /^Right/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('practice question 3 draws the plot it asks for once answered', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q3`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="q3"]');
    assert.equal(await page.$('[data-testid="quiz-batch-canvas"]'), null, 'no chart before an answer');
    await page.click('[data-testid="reveal-a"]');
    await waitForDraw(page, 'quiz-batch-canvas');
    const stats = await canvasStats(page, 'quiz-batch-canvas');
    assert.ok(stats.colours > 20, `the chart is drawn (${stats.colours} colours)`);
    await page.locator('[data-testid="quiz-batch-canvas"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'quiz-q3-chart');
    // Another question has no chart.
    await page.click('[data-testid="question-q2"]');
    await page.waitForSelector('[data-testid="question"][data-question="q2"]');
    assert.equal(await page.$('[data-testid="quiz-batch-canvas"]'), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
