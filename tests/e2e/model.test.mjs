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
    near(await value(page, 'weight-bytes'), P, 1e-12, 'int8 weights: one byte each');
    const kvpt = 2 * 80 * 8 * 128 * 2;
    assert.equal(await value(page, 'kv-per-token'), kvpt);
    assert.equal(await value(page, 'kv-bytes'), 16 * 8193 * kvpt);
    near(await value(page, 'memory'), P + 16 * 8193 * kvpt, 1e-12, 'memory');
    assert.equal(await value(page, 'hbm'), 8 * 16e9);
    assert.equal(await page.getAttribute('[data-testid="model-fits"]', 'data-value'), 'yes');
    assert.equal(await value(page, 'max-batch'), Math.floor((8 * 16e9 - P) / (8193 * kvpt)));
    // The book's decode step: B·S·KV ÷ W + max(2·B·P ÷ C, P·1 ÷ W).
    const [C, W] = [8 * 1.97e14, 8 * 8.2e11];
    const step = 16 * 8192 * kvpt / W + Math.max(2 * 16 * P / C, P / W);
    near(await value(page, 'step-time'), step, 1e-9, 'step');
    near(await value(page, 'tokens-per-s'), 16 / step, 1e-9, 'tokens/s');
    near(await value(page, 'tokens-per-s-chip'), 16 / step / 8, 1e-9, 'per chip');
    near(await value(page, 'critical-batch'), 1.97e14 / 8.2e11 / 2, 1e-12, 'int8 weights, bf16 math: 120');
    assert.equal(await page.getAttribute('[data-testid="model-regime"]', 'data-value'), 'bandwidth');
    // Every operation of a layer, with its intensity and time.
    const ops = await page.$$eval('[data-testid="model-op"]', (rs) => rs.map((r) => ({ op: r.dataset.op, i: Number(r.dataset.intensity), t: Number(r.dataset.time) })));
    assert.deepEqual(ops.map((o) => o.op), ['q', 'kv', 'qk', 'av', 'o', 'mlp-up', 'mlp-down', 'unembed']);
    assert.ok(ops.every((o) => o.i > 0 && o.t > 0));
    // QK groups 8 query heads per KV head: intensity about 8 at best.
    assert.ok(ops.find((o) => o.op === 'qk').i < 8);
    assert.match(await page.textContent('[data-testid="model-link"]'), /ICI keeps up/);
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
    // list: the page says which control to change, and that change works.
    await page.selectOption('[data-testid="model-act"]', 'fp32');
    await page.waitForSelector('[data-testid="model-error"]');
    assert.match(await page.textContent('[data-testid="model-error"]'), /TPU v5e has no listed peak for fp32: set "The matmuls run at"/);
    assert.ok(await value(page, 'step-time') > 0, 'the last valid results stay, marked stale');
    await edit('math', () => page.selectOption('[data-testid="model-math"]', 'bf16'), 'math', 'bf16', 'roofline');
    assert.equal(param(page, 'act'), 'fp32');
    await edit('eff', () => page.fill('[data-testid="field-model-eff-flops"]', '40%'), 'eff.flops', '0.4');
    await edit('eff bw', () => page.fill('[data-testid="field-model-eff-bw"]', '0.8'), 'eff.bw', '0.8');
    await edit('phase', () => page.selectOption('[data-testid="model-phase"]', 'prefill'), 'phase', 'prefill');
    assert.match(await page.textContent('.model-page'), /Time to first token/);
    await edit('prompt', () => page.fill('[data-testid="field-model-prompt"]', '512'), 'prompt', '512');
    await edit('chips', () => page.fill('[data-testid="field-model-chips"]', '4'), 'n', '4');
    await edit('chip', () => page.selectOption('[data-testid="model-chip"]', 'h100'), 'chip', 'h100');
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
    assert.match(await page.textContent('[data-testid="error-model-b"]'), /must be greater than zero/);
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

test('an operation opens in the calculator as its einsum', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=model&model=llama3-70b&n=8`);
  try {
    await ready(page);
    const row = page.locator('[data-testid="model-op"][data-op="mlp-up"]');
    const href = await row.locator('[data-testid="model-op-open"]').getAttribute('href');
    await page.goto(server.url + href);
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.inputValue('[data-testid="field-op"]'), 'bf16[BT,D] * int8[D,F] -> bf16[BT,F]');
    assert.equal(await page.inputValue('[data-testid="field-size-F"]'), '28672');
    assert.equal(await page.inputValue('[data-testid="field-size-BT"]'), '8');
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
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'model-qwen-390-dark');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
