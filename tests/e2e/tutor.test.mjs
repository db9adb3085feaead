// The tutor issue (#38), as a learner and a practitioner meet it: the
// network case compares each chip's own HBM time with the link's, peaks
// and memories say which they are, every Learn step states its sizes, the
// batch chart carries the operation on screen, an elementwise operation
// takes its FLOPs per element, and a size typed as 4k says what it became.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, waitForDraw, seriousAxeViolations, screenshot } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const value = async (page, key) => Number(await page.getAttribute(`[data-testid="result-${key}"]`, 'data-value'));
const text = (page, sel) => page.textContent(sel);
// A Why? answer: open it and wait for its words (they come with the why chunk).
async function answer(page, id, re) {
  const sel = `[data-testid="why-${id}"]`;
  await page.click(`${sel} summary`);
  await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(s)?.textContent ?? ''), [sel, re.source], { timeout: 15000 }).catch(() => {});
  assert.match(await text(page, sel), re);
}
const near = (got, want, rel, what) => assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `${what}: ${got} against ${want}`);

test('network case: each chip\'s HBM time (about 24 us) is set against the link\'s 46.6 us, in the rows, the derivation and the answer', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=matmul&n=2`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.waitForSelector('[data-testid="result-net-t-memory"]');
    const [B, D, F] = [256, 4096, 4096];
    // Each chip reads X[B, D/2] and Y[D/2, F] and writes its partial Z, all bf16.
    const own = 2 * (B * D / 2 + D / 2 * F + B * F);
    near(await value(page, 'net-memory-bytes'), own, 1e-12, 'HBM bytes per chip');
    near(await value(page, 'net-t-memory'), own / 8.2e11, 1e-9, 'T_HBM per chip');
    near(await value(page, 'net-t-memory') * 1e6, 24.3, 0.01, 'about 24 us');
    near(await value(page, 'net-t-comms') * 1e6, 46.6, 0.01, 'over ICI');
    near(await value(page, 'net-t-lower'), await value(page, 'net-t-comms'), 1e-12, 'the slowest binds');
    assert.equal(await page.getAttribute('[data-testid="result-net-regime"]', 'data-value'), 'bandwidth');
    assert.equal(await page.getAttribute('[data-testid="result-net-binding"]', 'data-value'), 'link');
    assert.match(await text(page, '[data-testid="result-net-binding"]'), /the send over ICI is the slowest: 46\.6 µs, against 21\.8 µs for math and 24\.3 µs for HBM/);
    // The threshold reads the right way round.
    const critical = await page.locator('[data-testid="result-net-critical"]').locator('xpath=..').textContent();
    assert.match(critical, /D > 8756/);
    assert.match(critical, /Above it each chip's math takes longer than its send/);
    // The shaded regions include the link's bend: 2048 sits where ICI still binds.
    const regions = await page.locator('[data-testid="region-entry"]').allTextContents();
    assert.ok(regions.some((r) => /240 FLOPs\/byte to 4378 FLOPs\/byte: compute-bound from VMEM and from HBM, still bandwidth-bound over ICI/.test(r)), regions.join('\n'));
    // The answers: the HBM question points at the per-chip row; the all-gather one exists.
    await answer(page, 'hbm', /T_HBM per chip/);
    await answer(page, 'gather', /a reduction .* not an all-gather/);
    await answer(page, 'per-chip', /X₁ holds only the columns d ≥ D\/2 while Y₀ holds only the rows d < D\/2/);
    await answer(page, 'link', /1,600 ÷ 8 = 200 GB\/s/);
    // The derivation compares the three times.
    await page.waitForSelector('[data-testid="derivation"] li');
    const steps = await text(page, '[data-testid="derivation"]');
    assert.match(steps, /Network: HBM bytes per chip/);
    assert.match(steps, /Network: the slowest per chip binds/);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'tutor-network-1280');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the link\'s collective: a ring all-reduce sends 2(N-1)/N partials, says so, and travels in the link', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=matmul&n=4`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.waitForSelector('[data-testid="result-net-bytes"]');
    const once = await value(page, 'net-bytes');
    assert.equal(once, 2 * 256 * 4096);
    await page.selectOption('[data-testid="collective-select"]', 'ring');
    await page.waitForFunction((b) => Number(document.querySelector('[data-testid="result-net-bytes"]').dataset.value) > b, once);
    near(await value(page, 'net-bytes'), 1.5 * once, 1e-12, 'ring over 4 chips');
    assert.match(await page.textContent('.panel[aria-labelledby="results-title"]'), /ring all-reduce: a reduce-scatter and then an all-gather/);
    await page.waitForFunction(() => location.search.includes('coll=ring'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('every Learn step states its sizes, names its roof, and keeps one number format', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=learn&step=2`);
  try {
    const words = async () => (await page.locator('[data-testid="learn-words"]').allTextContents()).join('\n');
    await page.waitForSelector('[data-testid="learn-step"][data-step="2"]');
    const options = await page.locator('[data-testid="learn-control-op"] option').allTextContents();
    assert.ok(options.some((o) => /Batched matmul, all int8 \(int8 peak\)/.test(o)), options.join(' | '));
    assert.ok(options.some((o) => /int8 weights, bf16 activations and output, B = 256, D = F = 4096/.test(o)));
    // The dot product: its roof is the vector unit's, beside the chapter's 240.
    await page.selectOption('[data-testid="learn-control-op"]', '0');
    await page.waitForFunction(() => document.querySelector('[data-testid="learn-words"]').parentElement.textContent.includes('vector unit'));
    const dot = await words();
    assert.match(dot, /the roof here is its peak, 6\.1 TFLOP\/s, not the matrix unit’s 197 TFLOP\/s/);
    assert.match(dot, /197 TFLOP\/s ÷ 820 GB\/s = 240 FLOPs\/byte/);
    for (const [step, sizes] of [[3, 'B = 256, D = F = 4096'], [4, 'D = F = 4096'], [8, 'B = 256, D = 8192, F = 4096']]) {
      await page.click(`[data-testid="learn-goto-${step}"]`);
      await page.waitForSelector(`[data-testid="learn-step"][data-step="${step}"]`);
      const w = await words();
      assert.ok(w.includes(sizes), `step ${step} states ${sizes}: ${w}`);
      assert.doesNotMatch(w, /\de\d/, `step ${step}: one number format`);
    }
    // Step 8: each chip's HBM time against the link's.
    assert.match(await words(), /T_HBM = /);
    // Steps 5 and 6: the same all-bf16 matmul, the same critical batch.
    await page.click('[data-testid="learn-goto-5"]');
    await page.waitForSelector('[data-testid="learn-step"][data-step="5"]');
    assert.match(await words(), /B > 272\.2/);
    await page.click('[data-testid="learn-goto-6"]');
    await page.waitForSelector('[data-testid="learn-step"][data-step="6"]');
    await page.selectOption('[data-testid="learn-control-weights"]', '0');
    await page.waitForFunction(() => document.querySelector('[data-testid="learn-step"]').textContent.includes('bf16 weights, bf16 activations'));
    assert.match(await words(), /B > 272\.2/);
    await page.selectOption('[data-testid="learn-control-weights"]', '1');
    await page.selectOption('[data-testid="learn-control-math"]', '1');
    await page.waitForFunction(() => document.querySelector('[data-testid="learn-step"]').textContent.includes('a bf16 output Z'));
    const six = await words();
    assert.match(six, /int8 weights, int8 activations and a bf16 output Z/);
    // Above the all-bf16 batch, and why: the words follow the two numbers.
    assert.match(six, /the critical batch is above the all-bf16 one/);
    assert.match(six, /291\.5 ÷ 272\.2 = 1\.07: a little more than the shortcut, because the bf16 output Z still takes 2 bytes per element/);
    // Step 4 at the largest batch says X, Y and Z no longer fit in VMEM.
    await page.click('[data-testid="learn-goto-4"]');
    await page.waitForSelector('[data-testid="learn-step"][data-step="4"]');
    await page.selectOption('[data-testid="learn-control-level"]', '1');
    await page.$eval('[data-testid="learn-control-b"]', (el) => {
      el.value = '10';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await page.waitForFunction(() => document.querySelector('[data-testid="learn-step"]').textContent.includes('cannot all sit in VMEM'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('peaks and memories say which they are: the vector unit beside the chapter\'s comparison, the RTX 3090\'s sparse figure and GDDR6X', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=dot`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    const row = page.locator('[data-testid="result-critical-intensity"]').locator('xpath=..');
    assert.match(await row.textContent(), /The vector unit's peak ÷ HBM bandwidth/);
    near(await value(page, 'critical-intensity-matrix'), 1.97e14 / 8.2e11, 1e-12, 'the chapter\'s 240');
    await page.selectOption('[data-testid="chip-select"]', 'rtx3090');
    await page.selectOption('[data-testid="op-shortcut"]', 'matmul');
    await page.waitForSelector('[data-testid="peak-note"]');
    const note = await text(page, '[data-testid="peak-note"]');
    assert.match(note, /RTX 3090 bf16: 71 TFLOP\/s dense, used here \(the sheet’s 142 TFLOP\/s is with sparsity\)/);
    assert.match(await page.textContent('.panel[aria-labelledby="results-title"]'), /GDDR6X/);
    assert.doesNotMatch(await page.textContent('.panel[aria-labelledby="results-title"]'), /HBM/);
    await answer(page, 'sparse', /2:4 structured sparsity/);
    // fp16 math: the discussion's number came from the sparse peak.
    await page.selectOption('[data-testid="compute-select"]', 'fp16');
    await page.waitForFunction(() => document.querySelector('[data-testid="peak-note"]').textContent.includes('fp16'));
    assert.match(await text(page, '[data-testid="peak-note"]'), /Critical intensity: 152 FLOPs\/byte, not 303 FLOPs\/byte/);
    await screenshot(page, 'tutor-rtx3090-1280');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the batch chart carries the operation on screen, its crossing as in the results', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&sz=B:256,D:8192,F:1024`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await waitForDraw(page, 'batch-canvas');
    const mine = page.locator('[data-testid="batch-pair"][data-current="true"]');
    assert.equal(await mine.count(), 1);
    const label = await mine.textContent();
    assert.match(label, /this operation \(D = 8192, F = 1024\)/);
    const critical = await text(page, '[data-testid="result-critical-batch"]');
    assert.ok(label.includes(critical.trim()), `${label} has ${critical}`);
    assert.equal(await mine.locator('button').count(), 0, 'the operation\'s own curve has no Remove button');
    assert.equal(await page.locator('[data-testid="batch-pair"]').count(), 3);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('an elementwise operation takes its FLOPs per element, in the field and the link, and never shows an empty chart', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-op"]', 'bf16[N] -> bf16[N]');
    await page.waitForSelector('[data-testid="field-flops-per-element"]');
    const n = await value(page, 'flops') / 1;
    assert.equal(await page.inputValue('[data-testid="field-flops-per-element"]'), '1');
    const N = Number(await page.inputValue('[data-testid="field-size-N"]'));
    assert.equal(n, N, 'one operation per element by default');
    await page.fill('[data-testid="field-flops-per-element"]', '8');
    await page.waitForFunction((want) => Number(document.querySelector('[data-testid="result-flops"]').dataset.value) === want, 8 * N);
    await page.waitForFunction(() => location.search.includes('fpe=8'));
    await waitForDraw(page, 'batch-canvas');
    const pairs = await page.locator('[data-testid="batch-pair"]').allTextContents();
    assert.equal(pairs.length, 1);
    assert.match(pairs[0], /^this operation: /);
    assert.doesNotMatch(await page.textContent('.charts'), /no valid range/);
    await page.fill('[data-testid="field-flops-per-element"]', '0');
    assert.match(await text(page, '[data-testid="error-flops-per-element"]'), /FLOPs per element/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a size typed as 4k says what it became, in the field and in a link', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-size-B"]', '4k');
    await page.waitForFunction(() => document.querySelector('[data-testid="result-flops"]').dataset.value === String(2 * 4000 * 4096 * 4096));
    assert.match(await page.locator('[data-testid="field-size-B"]').locator('xpath=..').textContent(), /4k read as 4000 \(k = 1000; for 4,096 write 4096 or 4Ki\)/);
    await page.fill('[data-testid="field-size-B"]', '4Ki');
    await page.waitForFunction(() => document.querySelector('[data-testid="result-flops"]').dataset.value === String(2 * 4096 * 4096 * 4096));
    const linked = await openPage(browser, `${server.url}?v=1&sz=B:4k,D:4096,F:4096`);
    try {
      await waitForDraw(linked.page, 'roofline-canvas');
      assert.match(await linked.page.textContent('[data-testid="link-notices"]'), /sz: B:4k read as 4000/);
      assert.equal(await value(linked.page, 'flops'), 2 * 4000 * 4096 * 4096);
    } finally {
      await linked.context.close();
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
