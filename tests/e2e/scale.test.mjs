// The Scale page as a user meets it: opened from a link, every input
// changed, the link written and read back, bad input answered beside its
// field, and the crossings to the Model page and the calculator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, seriousAxeViolations, screenshot, waitForDraw } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const LINK = '?v=1&view=scale&chip=v5p&mesh=X:16,Y:16,Z:16&model=llama3-70b&strat=mixed&tokens=4194304';
const value = (page, id) => page.getAttribute(`[data-testid="${id}"]`, 'data-value');
const text = (page, id) => page.textContent(`[data-testid="${id}"]`);
const query = (page) => new URL(page.url()).searchParams;

/** Waits until the address holds `key` = `want`. */
async function inLink(page, key, want) {
  await page.waitForFunction(([k, w]) => new URLSearchParams(location.search).get(k) === w, [key, want], { timeout: 5000 })
    .catch(() => assert.fail(`the link has ${key}=${new URL(page.url()).searchParams.get(key)}, not ${want}`));
}

/** Waits until the result `id`'s value is no longer `before`. */
async function changed(page, id, before, what) {
  await page.waitForFunction(([i, b]) => document.querySelector(`[data-testid="${i}"]`)?.getAttribute('data-value') !== b, [id, before], { timeout: 5000 })
    .catch(() => assert.fail(`${what}: ${id} stayed ${before}`));
}

test('a link opens the page with its mesh, model and plan, every result a number', async () => {
  const { page, context, problems } = await openPage(browser, server.url + LINK);
  try {
    await page.locator('[data-testid="train-days"]').waitFor();
    assert.equal(await page.getAttribute('[data-testid="tab-scale"]', 'aria-pressed'), 'true');
    assert.equal(await page.locator('[data-testid="scale-axis"]').count(), 3);
    assert.match(await text(page, 'scale-layout'), /^4096 chips as X:16,Y:16,Z:16: a 3-D torus \(ICI\)/);
    for (const id of ['scale-coll-bytes', 'scale-coll-time', 'train-params', 'train-flops', 'train-days', 'train-step-time', 'train-memory', 'train-min-chips', 'train-tokens-per-chip', 'train-threshold', 'train-x-opt']) {
      const v = Number(await value(page, id));
      assert.ok(Number.isFinite(v) && v > 0, `${id} = ${await value(page, id)}`);
      assert.match(await text(page, id), /\d/, `${id} is shown`);
    }
    assert.match(await value(page, 'scale-coll-bound'), /^(latency|bandwidth)$/);
    assert.match(await value(page, 'train-bound'), /^(compute|comms)$/);
    assert.match(await value(page, 'train-fits'), /^(yes|no)$/);
    // 6 · P · tokens: the page's FLOPs over its own parameters and budget.
    const params = Number(await value(page, 'train-params'));
    assert.ok(Math.abs(Number(await value(page, 'train-flops')) / (6 * params * 15e12) - 1) < 1e-9);
    // X_opt = sqrt((B / F) · (M_X / M_Y) · N), the chapter's, is a number
    // of chips between 1 and N.
    const xopt = Number(await value(page, 'train-x-opt'));
    assert.ok(xopt >= 1 && xopt <= 4096, `X_opt ${xopt}`);
    assert.ok((await page.locator('[data-testid="train-split"]').count()) >= 5, 'every split is listed');
    // A "Why?" beside each surprise: AllGather's time and the axis size,
    // AllReduce's 2, which bandwidth, TP's limit and the batch, FSDP and DP.
    assert.equal(await page.locator('[data-testid="scale-page"] details.why').count(), 8);
    await page.click('[data-testid="why-allreduce-twice"] summary');
    assert.match(await page.textContent('[data-testid="why-allreduce-twice"] .answer'), /\S/);
    // The charts are drawn: the collective's and the training roofline.
    for (const id of ['scale-coll-canvas', 'scale-train-canvas']) {
      await page.waitForFunction((s) => Number(document.querySelector(`[data-testid="${s}"]`)?.getAttribute('data-draws') ?? 0) > 0, id);
    }
    assert.doesNotMatch(await page.textContent('main'), /NaN|\binf\b|Infinity/);
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every input changes the results and the link, which reads back the same', async () => {
  const { page, context, problems } = await openPage(browser, server.url + LINK);
  try {
    await page.locator('[data-testid="train-days"]').waitFor();
    // Each edit and a result it moves (an AllGather's time does not depend
    // on its axis's size: a new mesh moves the bytes each chip sends).
    const edits = [
      ['mesh', 'X:8,Y:16', 'scale-coll-bytes'],
      ['wrap', 'none', 'scale-coll-time'],
      ['cax', 'XY', 'scale-coll-time'],
      ['arr', 'bf16[B_X,D_Y]', 'scale-coll-bytes'],
      ['tokens', '8388608', 'train-tokens-per-chip'],
      ['seq', '8192', null],
      ['x', '32', null],
      ['y', '4', null],
      ['mx', '2', 'train-threshold'],
      ['my', '1', null],
      ['ckpt', '8', 'train-memory'],
      ['mfu', '0.5', 'train-days'],
      ['budget', '3e13', 'train-days'],
    ];
    const draws = {};
    for (const id of ['scale-coll-canvas', 'scale-train-canvas']) draws[id] = await waitForDraw(page, id);
    for (const [key, typed, result] of edits) {
      const before = result ? await value(page, result) : null;
      await page.fill(`[data-testid="field-scale-${key}"]`, typed);
      await inLink(page, key, typed);
      if (result) await changed(page, result, before, `${key} = ${typed}`);
      assert.equal(await page.textContent(`[data-testid="error-scale-${key}"]`), '', `${key} has no error`);
    }
    // The charts were drawn again.
    for (const [id, n] of Object.entries(draws)) await waitForDraw(page, id, n);
    // The choices: the collective, the strategy, the ZeRO stage, the model.
    await page.selectOption('[data-testid="field-scale-cop"]', 'allreduce');
    await inLink(page, 'cop', 'allreduce');
    await page.selectOption('[data-testid="field-scale-strat"]', 'fsdp');
    await inLink(page, 'strat', null);
    const zero = await value(page, 'train-memory');
    await page.fill('[data-testid="field-scale-zero"]', '1');
    await inLink(page, 'zero', '1');
    await changed(page, 'train-memory', zero, 'zero = 1');
    await page.selectOption('[data-testid="field-scale-model"]', 'llama3-8b');
    await inLink(page, 'model', null);
    await page.fill('[data-testid="field-scale-pods"]', '2');
    await inLink(page, 'pods', '2');
    // The link reads back the same page.
    const shown = {};
    for (const id of ['scale-coll-time', 'scale-coll-bytes', 'train-days', 'train-memory', 'train-step-time']) shown[id] = await value(page, id);
    const link = page.url();
    const again = await openPage(browser, link);
    try {
      await again.page.locator('[data-testid="train-days"]').waitFor();
      for (const [id, v] of Object.entries(shown)) assert.equal(await value(again.page, id), v, id);
      assert.equal(await again.page.inputValue('[data-testid="field-scale-mesh"]'), 'X:8,Y:16');
      assert.equal(again.page.url(), link, 'the link is written back as it was');
    } finally {
      await again.context.close();
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('bad input is answered beside its field, and nothing reads NaN', async () => {
  const { page, context, problems } = await openPage(browser, server.url + LINK);
  try {
    await page.locator('[data-testid="train-days"]').waitFor();
    for (const [key, typed, says] of [
      ['mesh', 'X:0', /X/],
      ['tokens', '-5', /batch/],
      ['mfu', '1e30', /MFU|mfu|utili/i],
      ['cax', 'Q', /Q/],
      ['x', '0', /X|FSDP/],
    ]) {
      await page.fill(`[data-testid="field-scale-${key}"]`, typed);
      await page.waitForFunction((k) => document.querySelector(`[data-testid="error-scale-${k}"]`)?.textContent.length > 0, key);
      assert.match(await page.textContent(`[data-testid="error-scale-${key}"]`), says, key);
      assert.doesNotMatch(await page.textContent('main'), /NaN|\binf\b|Infinity/);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the page crosses to the Model page with its model, and to the calculator with its matmul', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}${LINK}&op=bf16%5BB_X,D%5D*bf16%5BD,F_Y%5D-%3Ebf16%5BB_X,F_Y%5D`);
  try {
    await page.locator('[data-testid="scale-case"]').waitFor();
    assert.equal(await value(page, 'scale-case'), '1');
    // A sharded operation's sizes are read without its axes: the
    // collective's array finds its D.
    assert.equal(await page.textContent('[data-testid="error-scale-arr"]'), '');
    assert.ok(Number(await value(page, 'scale-coll-bytes')) > 0);
    assert.match(await value(page, 'scale-bound'), /^(compute|comms)$/);
    await page.click('[data-testid="scale-to-model"]');
    await page.locator('[data-testid="model-step-time"]').waitFor();
    assert.equal(query(page).get('model'), 'llama3-70b');
    assert.equal(query(page).get('chip'), 'v5p');
    await page.click('[data-testid="tab-scale"]');
    await page.locator('[data-testid="scale-to-calc"]').click();
    await page.locator('[data-testid="result-flops"]').waitFor();
    // The calculator reads the book's sharded notation: the op keeps its
    // axes, its sizes are B, D and F, it counts the whole matmul (2BDF)
    // and says which axes split what.
    assert.equal(await page.inputValue('[data-testid="field-op"]'), 'bf16[B_X,D] * bf16[D,F_Y] -> bf16[B_X,F_Y]');
    assert.match(await text(page, 'op-sharded'), /^Sharded \(B over X, F over Y\): counted here whole/);
    const size = async (d) => Number(await page.inputValue(`[data-testid="field-size-${d}"]`));
    const [b, d, f] = [await size('B'), await size('D'), await size('F')];
    assert.equal(Number(await value(page, 'result-flops')), 2 * b * d * f);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the page at a phone\'s width and in the dark scheme', async () => {
  for (const [name, viewport, colorScheme] of [['scale-1280-light', { width: 1280, height: 900 }, 'light'], ['scale-390-dark', { width: 390, height: 844 }, 'dark']]) {
    const { page, context, problems } = await openPage(browser, server.url + LINK, { viewport, colorScheme });
    try {
      await page.locator('[data-testid="train-days"]').waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no horizontal scroll (${overflow}px)`);
      await screenshot(page, name);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
