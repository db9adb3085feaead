// The Learn page as a learner uses it: open it from its tab, walk every
// step, move each step's controls and see the figure redraw and the words
// change, reopen a step from its link, open a step in the calculator, keep
// progress across a reload, and check accessibility and the look at
// desktop and phone widths in both colour schemes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, seriousAxeViolations, openPage, waitForDraw, canvasStats, screenshot,
  lowContrastControls, chooseLearnControl as choose
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const canvas = '[data-testid="learn-canvas"]';
const stepSel = '[data-testid="learn-step"]';
/** The step's paragraphs (above and under the figure). */
const text = (page) => page.$$eval('[data-testid="learn-words"]', (es) => es.map((e) => e.textContent).join('\n'));
const draws = async (page) => Number(await page.getAttribute(canvas, 'data-draws'));


test('the Learn tab opens the first step; every step draws, and each control redraws its figure', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="tab-learn"]');
    await page.waitForSelector(stepSel);
    assert.equal(await page.getAttribute(stepSel, 'data-step'), '1');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('view') === 'learn');
    const items = page.locator('[data-testid="learn-step-list"] > li');
    assert.equal(await items.count(), 10);

    for (let n = 1; n <= 10; n++) {
      await page.click(`[data-testid="learn-goto-${n}"]`);
      await page.waitForSelector(`${stepSel}[data-step="${n}"]`);
      await waitForDraw(page, 'learn-canvas');
      const figure = await page.getAttribute(canvas, 'data-figure');
      assert.equal(figure, n === 7 ? 'batch' : 'roofline', `step ${n}'s figure`);
      const stats = await canvasStats(page, 'learn-canvas');
      assert.ok(stats.colours > 20, `step ${n} draws a picture (${stats.colours} colours)`);
      const words = await text(page);
      assert.ok(words.length > 300, `step ${n} explains: ${words}`);
      assert.doesNotMatch(words, /NaN|\binf\b|—/, `step ${n}`);
      // Every control of the step changes the figure and the words.
      const keys = await page.$$eval('[data-testid^="learn-control-"]',
        (es) => es.map((e) => [e.getAttribute('data-testid').slice('learn-control-'.length),
          e.tagName === 'SELECT' ? e.options.length : Number(e.max) + 1, Number(e.value)]));
      assert.ok(keys.length >= 1 && keys.length <= 2, `step ${n} has one or two controls`);
      for (const [key, count, now] of keys) {
        const before = { d: await draws(page), hash: (await canvasStats(page, 'learn-canvas')).hash, words: await text(page) };
        const other = now === count - 1 ? 0 : count - 1;
        await choose(page, key, other);
        await waitForDraw(page, 'learn-canvas', before.d);
        assert.notEqual(await text(page), before.words, `step ${n}: ${key} changes the words`);
        assert.notEqual((await canvasStats(page, 'learn-canvas')).hash, before.hash, `step ${n}: ${key} changes the picture`);
        await choose(page, key, now);
      }
      assert.equal(await page.getAttribute(`[data-testid="learn-goto-${n}"]`, 'data-seen'), 'true');
      await page.waitForFunction((k) => new URLSearchParams(location.search).get('step') === (k === 1 ? null : String(k)), n);
    }
    assert.match(await page.textContent('[data-testid="learn-progress"]'), /^10 of 10 steps opened/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a step link reopens that step; a bad step says so and opens step 1', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=8`);
  try {
    await page.waitForSelector(`${stepSel}[data-step="8"]`);
    await waitForDraw(page, 'learn-canvas');
    // The network step: the link's line on the chart, the chapter's numbers in the words.
    assert.equal(await page.getAttribute(canvas, 'data-lines'), 'hbm,ici');
    const words = await text(page);
    assert.match(words, /4378 FLOPs\/byte/);
    assert.match(words, /D > 8756/);
    assert.match(words, /X₀·Y₀ \+ X₁·Y₁/);
    // Next and Previous walk the steps; the address follows.
    await page.click('[data-testid="learn-prev"]');
    await page.waitForSelector(`${stepSel}[data-step="7"]`);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('step') === '7');
    assert.equal(await page.isDisabled('[data-testid="learn-next"]'), false);
    await page.goBack();
    await page.waitForSelector(`${stepSel}[data-step="8"]`);
    // Step 9 is the whole model; the last (Part 3's AllReduce) has no Next.
    await page.click('[data-testid="learn-next"]');
    await page.waitForSelector(`${stepSel}[data-step="9"]`);
    assert.match(await text(page), /LLaMA-3-8B/);
    await page.click('[data-testid="learn-next"]');
    await page.waitForSelector(`${stepSel}[data-step="10"]`);
    assert.equal(await page.isDisabled('[data-testid="learn-next"]'), true);
    assert.match(await text(page), /AllReduce/);
    assert.deepEqual(problems, []);

    await page.goto(`${server.url}?v=1&view=learn&step=11`);
    await page.waitForSelector(`${stepSel}[data-step="1"]`);
    assert.match(await page.textContent('[data-testid="link-notices"]'), /step = '11' is not a step from 1 to 10; using 1/);
  } finally {
    await context.close();
  }
});

test('the axes switch on a step draws the roofline on linear axes', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=3`);
  try {
    await page.waitForSelector(`${stepSel}[data-step="3"]`);
    const d = await waitForDraw(page, 'learn-canvas');
    assert.equal(await page.getAttribute(canvas, 'data-scale'), 'log');
    await page.uncheck('[data-testid="learn-log"]');
    await waitForDraw(page, 'learn-canvas', d);
    assert.equal(await page.getAttribute(canvas, 'data-scale'), 'lin');
    // Moving the bandwidth moves the bend: the words give the new critical intensity.
    await choose(page, 'bw', 3);
    assert.match(await text(page), /= 120 FLOPs\/byte: the critical intensity/);
    assert.match(await page.textContent('[data-testid="learn-value-bw"]'), /2 × the chip’s/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('"Open in the calculator" opens the step’s state in the calculator', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=5`);
  try {
    await page.waitForSelector(`${stepSel}[data-step="5"]`);
    await choose(page, 'seqs', 4); // 16 sequences
    await choose(page, 'len', 4); // 16 tokens each
    assert.match(await text(page), /16 sequences × 16 tokens each gives B = 256/);
    await page.click('[data-testid="learn-open-calc"]');
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.inputValue('[data-testid="field-size-B"]'), '256');
    // Step 5 uses the same matmul as step 6: D = F = 4096.
    assert.equal(await page.inputValue('[data-testid="field-size-D"]'), '4096');
    assert.equal(await page.getAttribute('[data-testid="tab-calc"]', 'aria-pressed'), 'true');
    assert.equal(new URL(page.url()).searchParams.get('view'), null);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('progress survives a reload, offers to continue, and resets', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=2`);
  try {
    await page.waitForSelector(`${stepSel}[data-step="2"]`);
    await page.click('[data-testid="learn-goto-6"]');
    await page.waitForSelector(`${stepSel}[data-step="6"]`);
    // A fresh visit to the Learn page (step 1) remembers steps 2 and 6.
    await page.goto(`${server.url}?v=1&view=learn`);
    await page.waitForSelector(`${stepSel}[data-step="1"]`);
    assert.equal(await page.getAttribute('[data-testid="learn-goto-6"]', 'data-seen'), 'true');
    assert.equal(await page.getAttribute('[data-testid="learn-goto-3"]', 'data-seen'), 'false');
    assert.match(await page.textContent('[data-testid="learn-progress"]'), /^3 of 10/);
    await page.click('[data-testid="learn-resume"]');
    await page.waitForSelector(`${stepSel}[data-step="6"]`);
    assert.equal(await page.$('[data-testid="learn-resume"]'), null);
    await page.click('[data-testid="learn-reset"]');
    assert.match(await page.textContent('[data-testid="learn-progress"]'), /^1 of 10/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('blocked storage: the Learn page works from memory and says so', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new Error('blocked'); } });
  });
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}?v=1&view=learn&step=4`);
    await page.waitForSelector(`${stepSel}[data-step="4"]`);
    await waitForDraw(page, 'learn-canvas');
    assert.match(await page.textContent('.learn .note[role="status"]'), /does not let the page store data/);
    await page.click('[data-testid="learn-goto-5"]');
    assert.equal(await page.getAttribute('[data-testid="learn-goto-5"]', 'data-seen'), 'true');
  } finally {
    await context.close();
  }
});

test('axe finds nothing serious on the Learn page; screenshots at 1280 and 390, light and dark', async () => {
  for (const [scheme, width, n] of [['light', 1280, 4], ['dark', 1280, 7], ['light', 390, 8], ['dark', 390, 3]]) {
    const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=${n}`, {
      colorScheme: scheme, viewport: { width, height: 900 },
    });
    try {
      await page.waitForSelector(`${stepSel}[data-step="${n}"]`);
      await waitForDraw(page, 'learn-canvas');
      const stats = await canvasStats(page, 'learn-canvas');
      assert.ok(stats.cssWidth <= width, `the figure fits the width (${stats.cssWidth} at ${width})`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `nothing wider than the window at ${width} (${overflow}px over)`);
      assert.deepEqual(await seriousAxeViolations(page), [], `${scheme} ${width}`);
      assert.deepEqual(await lowContrastControls(page), [], `${scheme} ${width}`);
      await screenshot(page, `learn-step${n}-${width}-${scheme}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
