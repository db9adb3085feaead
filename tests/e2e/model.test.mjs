// The Model page (#39) as a practitioner uses it: open it from a link,
// read every result against the formulas by hand, change every input and
// see the charts redraw and the link follow, open an operation in the
// calculator, and pass axe in both colour schemes and at a phone's width.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, waitForDraw, seriousAxeViolations, screenshot } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const value = async (page, key) => Number(await page.getAttribute(`[data-testid="model-${key}"]`, 'data-value'));
const near = (got, want, rel, what) => assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: ${got} against ${want}`);
const param = (page, k) => new URL(page.url()).searchParams.get(k);

async function ready(page) {
  await page.waitForSelector('[data-testid="model-step-time"]', { timeout: 20000 });
  await waitForDraw(page, 'model-roofline-canvas');
  await waitForDraw(page, 'model-latency-canvas');
}

test('a link opens the Model page with the book\'s numbers: LLaMA-3-70B on eight v5e', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=model&n=8&model=llama3-70b&b=16&ctx=8192`);
  try {
    await ready(page);
    const P = 70_553_698_304;
    near(await value(page, 'params'), P, 1e-12, 'P');
    near(await value(page, 'active-params'), P, 1e-12, 'dense: P_act = P');
    // The input table (D·V) is a lookup: a token multiplies P − D·V.
    const Pmm = P - 8192 * 128_256;
    near(await value(page, 'matmul-params'), Pmm, 1e-12, 'P_mm');
    near(await value(page, 'weight-bytes'), P, 1e-12, 'int8 weights: one byte each');
    const kvpt = 2 * 80 * 8 * 128 * 2;
    assert.equal(await value(page, 'kv-per-token'), kvpt);
    assert.equal(await value(page, 'kv-bytes'), 16 * 8193 * kvpt);
    near(await value(page, 'memory'), P + 16 * 8193 * kvpt, 1e-12, 'memory');
    assert.equal(await value(page, 'hbm'), 8 * 16e9);
    assert.equal(await page.getAttribute('[data-testid="model-fits"]', 'data-value'), 'yes');
    assert.equal(await value(page, 'max-batch'), Math.floor((8 * 16e9 - P) / (8193 * kvpt)));
    // The book's decode step: B·S·KV ÷ W + max(2·B·P_mm ÷ C, P_mm·1 ÷ W).
    const [C, W] = [8 * 1.97e14, 8 * 8.2e11];
    const step = 16 * 8192 * kvpt / W + Math.max(2 * 16 * Pmm / C, Pmm / W);
    near(await value(page, 'step-time'), step, 1e-9, 'step');
    near(await value(page, 'tokens-per-s'), 16 / step, 1e-9, 'tokens/s');
    near(await value(page, 'tokens-per-s-chip'), 16 / step / 8, 1e-9, 'per chip');
    near(await value(page, 'critical-batch'), 1.97e14 / 8.2e11 / 2, 1e-12, 'int8 weights, bf16 math: 120');
    // Loading the weights (10.6 ms) is the longest term, ahead of the KV
    // read (6.5 ms); the headline names it with its time.
    assert.equal(await page.getAttribute('[data-testid="model-regime"]', 'data-value'), 'weights');
    assert.match(await page.textContent('[data-testid="model-regime"]'), /^Loading the weights takes the longest: 10\.6 ms of the 17\.1 ms step\. The weight matmuls alone are bandwidth-bound/);
    // Every operation of a layer, with its intensity and time.
    const ops = await page.$$eval('[data-testid="model-op"]', (rs) => rs.map((r) => ({ op: r.dataset.op, i: Number(r.dataset.intensity), t: Number(r.dataset.time) })));
    assert.deepEqual(ops.map((o) => o.op), ['q', 'kv', 'qk', 'av', 'o', 'mlp-up', 'mlp-down', 'unembed']);
    assert.ok(ops.every((o) => o.i > 0 && o.t > 0));
    // QK groups 8 query heads per KV head: intensity about 8 at best.
    assert.ok(ops.find((o) => o.op === 'qk').i < 8);
    assert.match(await page.textContent('[data-testid="model-layout"]'), /^Layout: tensor parallelism over 8 chips\..*The K = 8 KV heads and their cache are split evenly/);
    assert.match(await page.textContent('[data-testid="model-link"]'), /^The ICI: .* per step, 2 all-reduces a layer .*The book's sketch.*hides behind/);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'model-70b-1280');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every input changes the results, redraws both charts and is kept in the link', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=model`);
  try {
    await ready(page);
    const draws = async () => [
      Number(await page.getAttribute('[data-testid="model-roofline-canvas"]', 'data-draws')),
      Number(await page.getAttribute('[data-testid="model-latency-canvas"]', 'data-draws')),
    ];
    const redrawn = async (before, charts) => {
      if (charts.includes('roofline')) await waitForDraw(page, 'model-roofline-canvas', before[0]);
      if (charts.includes('latency')) await waitForDraw(page, 'model-latency-canvas', before[1]);
    };
    // `charts`: the charts the change moves. The latency curve counts
    // weights and KV cache, not the activations' type; the operations'
    // intensities and rates are per layer, so L moves only the latency
    // curve; custom starts as the preset shown, so nothing moves.
    const edit = async (what, act, key, want, charts = 'roofline latency') => {
      const before = await draws();
      const t0 = await value(page, 'step-time');
      await act();
      await redrawn(before, charts);
      await page.waitForFunction(([k, w]) => new URL(location.href).searchParams.get(k) === w, [key, want]);
      return t0;
    };
    // The default: LLaMA-3-8B, int8 weights, B = 8, S = 2048, one v5e.
    near(await value(page, 'critical-batch'), 1.97e14 / 8.2e11 / 2, 1e-12, 'default critical batch');
    await edit('batch', () => page.fill('[data-testid="field-model-b"]', '64'), 'b', '64');
    await edit('context', () => page.fill('[data-testid="field-model-ctx"]', '4096'), 'ctx', '4096');
    await edit('weights', () => page.selectOption('[data-testid="model-w"]', 'bf16'), 'w', 'bf16');
    near(await value(page, 'critical-batch'), 1.97e14 / 8.2e11, 1e-12, 'bf16 weights: 240');
    await edit('kv', () => page.selectOption('[data-testid="model-kv"]', 'int8'), 'kv', 'int8');
    assert.equal(await value(page, 'kv-per-token'), 2 * 32 * 8 * 128);
    // fp32 activations would make the matmuls fp32, which v5e does not
    // list: the page runs them at bf16, says so beside the control, and
    // shows results and charts (as the calculator falls back).
    await edit('act', () => page.selectOption('[data-testid="model-act"]', 'fp32'), 'act', 'fp32', 'roofline');
    assert.match(await page.textContent('[data-testid="model-math-note"]'), /TPU v5e lists no fp32 peak, so the matmuls run at bf16 here; choose a type it lists/);
    assert.equal(await page.locator('[data-testid="model-error"]').count(), 0);
    await edit('math', () => page.selectOption('[data-testid="model-math"]', 'bf16'), 'math', 'bf16', '');
    assert.equal(await page.textContent('[data-testid="model-math-note"]'), '');
    assert.equal(param(page, 'act'), 'fp32');
    await edit('eff', () => page.fill('[data-testid="field-model-eff-flops"]', '40%'), 'eff.flops', '0.4');
    await edit('eff bw', () => page.fill('[data-testid="field-model-eff-bw"]', '0.8'), 'eff.bw', '0.8');
    await edit('phase', () => page.selectOption('[data-testid="model-phase"]', 'prefill'), 'phase', 'prefill');
    assert.match(await page.textContent('.model-page'), /Time to first token/);
    await edit('prompt', () => page.fill('[data-testid="field-model-prompt"]', '512'), 'prompt', '512');
    await edit('chips', () => page.fill('[data-testid="field-model-chips"]', '4'), 'n', '4');
    await edit('chip', () => page.selectOption('[data-testid="model-chip"]', 'h100'), 'chip', 'h100');
    // Comms not overlapped: the link's time adds to the step.
    const overlapped = await value(page, 'step-time');
    const comm = await value(page, 'comm');
    await edit('overlap', () => page.uncheck('[data-testid="model-overlap"]'), 'overlap', '0', 'latency');
    near(await value(page, 'step-time'), overlapped + comm, 1e-9, 'the link adds');
    await edit('model', () => page.selectOption('[data-testid="model-select"]', 'mixtral-8x7b'), 'model', 'mixtral-8x7b');
    near(await value(page, 'active-params'), 12_879_921_152, 1e-12, 'Mixtral P_act');
    // Custom: starts from the model shown, every number editable.
    await edit('custom', () => page.selectOption('[data-testid="model-select"]', 'custom'), 'model', 'custom', '');
    assert.equal(await value(page, 'active-params'), 12_879_921_152, 'custom starts from the model shown');
    assert.equal(param(page, 'm.experts'), '8');
    await edit('custom layers', () => page.fill('[data-testid="field-m-layers"]', '16'), 'm.layers', '16', 'latency');
    // A bad field: a message beside it, the last valid results kept.
    await page.fill('[data-testid="field-m-kvheads"]', '5');
    await page.waitForSelector('[data-testid="model-error"]');
    assert.match(await page.textContent('[data-testid="model-error"]'), /must divide the query heads/);
    await page.fill('[data-testid="field-m-kvheads"]', '8');
    await page.fill('[data-testid="field-model-b"]', '0');
    assert.match(await page.textContent('[data-testid="error-model-b"]'), /Batch B: a whole number from 1 to 1e9/);
    await page.fill('[data-testid="field-model-b"]', '1e30');
    assert.match(await page.textContent('[data-testid="error-model-b"]'), /Batch B: a whole number from 1 to 1e9/);
    await page.fill('[data-testid="field-model-ctx"]', '-1');
    assert.match(await page.textContent('[data-testid="error-model-ctx"]'), /Context S: a whole number from 0 to 1e9/);
    await page.fill('[data-testid="field-model-ctx"]', '4096');
    assert.doesNotMatch(await page.textContent('.model-page'), /NaN|\binf\b/);
    // The link reopens the same page.
    await page.fill('[data-testid="field-model-b"]', '16');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('b') === '16');
    const url = page.url();
    const t = await value(page, 'step-time');
    const again = await openPage(browser, url);
    try {
      await ready(again.page);
      assert.equal(await value(again.page, 'step-time'), t);
      assert.equal(await again.page.inputValue('[data-testid="field-m-layers"]'), '16');
    } finally {
      await again.context.close();
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an operation opens in the calculator as one chip\'s part of it', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=model&model=llama3-70b&n=8`);
  try {
    await ready(page);
    const href = async (op) => page.locator(`[data-testid="model-op"][data-op="${op}"] [data-testid="model-op-open"]`).getAttribute('href');
    const up = await href('mlp-up');
    const down = await href('mlp-down');
    const time = Number(await page.getAttribute('[data-testid="model-op"][data-op="mlp-up"]', 'data-time'));
    // The MLP's up matrix split by its columns: one chip's F is 28672 ÷ 8,
    // on one chip. Its time is the page's but for the input X, which each
    // chip reads whole and the page's one run over all chips counts once.
    await page.goto(server.url + up);
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.inputValue('[data-testid="field-op"]'), 'bf16[BT,D] * int8[D,F] -> bf16[BT,F]');
    assert.equal(await page.inputValue('[data-testid="field-size-F"]'), '3584');
    assert.equal(await page.inputValue('[data-testid="field-size-BT"]'), '8');
    const chipTime = Number(await page.getAttribute('[data-testid="result-t-lower"]', 'data-value'));
    assert.ok(chipTime >= time && chipTime <= 1.01 * time, `one chip's part: ${chipTime} against ${time}`);
    // The down matrix sums over F: it opens split over the 8 chips, with
    // their ring all-reduce (the calculator's network case).
    await page.goto(server.url + down);
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.inputValue('[data-testid="field-size-F"]'), '28672');
    const q = new URL(page.url()).searchParams;
    assert.equal(q.get('n'), '8');
    assert.equal(q.get('shard'), 'F');
    assert.equal(q.get('coll'), 'ring');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the headline names what takes the longest, and the link is weighed against the whole step (#46)', async () => {
  const open = async (query) => {
    const o = await openPage(browser, `${server.url}?v=1&view=model&${query}`);
    await ready(o.page);
    return o;
  };
  const headline = async (page) => [await page.getAttribute('[data-testid="model-regime"]', 'data-value'), await page.textContent('[data-testid="model-regime"]')];
  // 105 of the 110 ms step reads the KV cache: not "Compute-bound".
  let o = await open('model=llama3-70b&chip=v5e&n=16&b=128&ctx=32768&w=int8');
  try {
    const [key, text] = await headline(o.page);
    assert.equal(key, 'kv');
    assert.match(text, /^Reading the KV cache takes the longest: .* ms of the .* ms step\. The weight matmuls alone are compute-bound/);
    assert.ok(await value(o.page, 't-kv') > 0.9 * await value(o.page, 'step-time'));
    // 16 chips, 8 KV heads: the cache is held twice, and said so.
    assert.match(await o.page.textContent('[data-testid="model-layout"]'), /hold the KV cache 2 times over/);
    near(await value(o.page, 'kv-held'), 2 * await value(o.page, 'kv-bytes'), 1e-12, 'held twice');
    assert.deepEqual(o.problems, []);
  } finally {
    await o.context.close();
  }
  // Prefill on 8 H100s: the math's step, with NVLink hidden behind it.
  o = await open('model=llama3-70b&chip=h100&n=8&w=bf16&phase=prefill&b=1&ctx=0&prompt=2048');
  try {
    const [key, text] = await headline(o.page);
    assert.equal(key, 'math');
    assert.match(text, /^The math takes the longest/);
    const link = await o.page.textContent('[data-testid="model-link"]');
    assert.match(link, /^The NVLink: .* hides behind/);
    assert.doesNotMatch(link, /binds|bigger batch/);
    assert.ok(await value(o.page, 'comm') < await value(o.page, 'step-time'));
  } finally {
    await o.context.close();
  }
  // Decode on 16 v5e at B = 256: the headline's term is the largest of
  // the rows beside it.
  o = await open('model=llama3-70b&chip=v5e&n=16&w=int8&b=256&ctx=1024');
  try {
    const terms = { math: await value(o.page, 't-weight-math'), weights: await value(o.page, 't-weight-load'), kv: await value(o.page, 't-kv'), link: await value(o.page, 'comm') };
    const [key] = await headline(o.page);
    assert.ok(Object.values(terms).every((t) => terms[key] >= t), `${key} named: ${JSON.stringify(terms)}`);
    assert.doesNotMatch(await o.page.textContent('[data-testid="model-link"]'), /bigger batch/);
  } finally {
    await o.context.close();
  }
  // At B = 1 the link is mostly latency, and its derivation's numbers are
  // the formula's (no factor of 2 the numbers do not use).
  o = await open('model=llama3-70b&chip=v5e&n=16&b=1');
  try {
    assert.match(await o.page.textContent('[data-testid="model-link"]'), /of it is latency, at about 1 µs a hop on ICI \(the book's Part 3\)\./);
    assert.ok(await value(o.page, 'comm') > 1e-3, 'L × 2 all-reduces of 16 hops of 1 µs');
    assert.match(await o.page.textContent('[data-testid="model-derivation"]'), /The book.s sketchL × tokens·D × bytes ÷ one-way bandwidth80 × [^÷]+ ÷ 4\.5e10/);
  } finally {
    await o.context.close();
  }
});

test('at 1280×900 the chip, the chip count, the fractions and the overlap box are above the fold', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=model`, { viewport: { width: 1280, height: 900 } });
  try {
    await ready(page);
    for (const id of ['model-chip', 'field-model-chips', 'field-model-eff-flops', 'field-model-eff-bw', 'model-overlap']) {
      const box = await page.locator(`[data-testid="${id}"]`).boundingBox();
      assert.ok(box && box.y + box.height <= 900, `${id} ends at ${box && box.y + box.height}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the page reads well at a phone\'s width and in the dark scheme; a bad link says which parameter', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=model&model=qwen3-235b-a22b&b=0`, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  try {
    await ready(page);
    assert.match(await page.textContent('[data-testid="link-notices"]'), /b = '0' is not a whole number from 1 to 1e9; using 8/);
    assert.equal(await page.getAttribute('[data-testid="model-fits"]', 'data-value'), 'no');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `no sideways scroll: ${overflow}`);
    // The operations' table says it scrolls; the math select fits its panel.
    assert.ok(await page.isVisible('.scroll-cue'), 'a cue that the table scrolls');
    const select = await page.locator('[data-testid="model-math"]').boundingBox();
    const form = await page.locator('form[aria-label="Model inputs"]').boundingBox();
    assert.ok(select.x + select.width <= form.x + form.width + 0.5, `the math select (${select.x + select.width}) within its panel (${form.x + form.width})`);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'model-qwen-390-dark');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
