// Every ceiling (the every-ceiling issue): where the work runs (matrix or
// vector unit) and a vector-unit peak typed where none is published, the
// chips added to the catalogue, more lines and roofs, the comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, openPage, waitForDraw } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const value = async (page, key) => Number(await page.getAttribute(`[data-testid="result-${key}"]`, 'data-value'));
const notices = (page) => page.$$eval('[data-testid="link-notices"] li', (ls) => ls.map((l) => l.textContent));

test('an elementwise add on TPU v5e is timed on the vector unit; the matrix unit can be chosen, and the link keeps it', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=add`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    assert.deepEqual(await notices(page), []);
    // fp32[N] + fp32[N] -> fp32[N], N = 1e6: N FLOPs, 12N bytes; v5e's
    // vector unit 6.1e12 FLOP/s (derived from Google's figures), HBM 8.2e11 B/s.
    const N = 1e6;
    assert.equal(await value(page, 'flops'), N);
    assert.ok(Math.abs(await value(page, 't-math') - N / 6.1e12) < 1e-18);
    assert.ok(Math.abs(await value(page, 'critical-intensity') - 6.1e12 / 8.2e11) < 1e-9);
    assert.equal(await page.inputValue('[data-testid="unit-select"]'), 'auto');
    assert.match(await page.textContent('[data-testid="unit-note"]'), /vector unit/);
    assert.match(await page.textContent('[data-testid="result-regime"]'), /Bandwidth-bound: the HBM line binds.*vector unit's peak/);
    // On the matrix unit it needs an fp32 peak, which v5e does not list.
    await page.selectOption('[data-testid="unit-select"]', 'matrix');
    await page.waitForFunction(() => /no fp32 peak/.test(document.querySelector('[data-testid="error-compute"]').textContent));
    // Back to the vector unit, by name: the address says so, and a reload keeps it.
    await page.selectOption('[data-testid="unit-select"]', 'vector');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('unit') === 'vector');
    await page.reload();
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.inputValue('[data-testid="unit-select"]'), 'vector');
    assert.ok(Math.abs(await value(page, 't-math') - N / 6.1e12) < 1e-18);
    // A matmul still runs on the matrix unit, at its bf16 peak.
    await page.goto(`${server.url}?v=1&op=matmul`);
    await waitForDraw(page, 'roofline-canvas');
    assert.match(await page.textContent('[data-testid="unit-note"]'), /matrix unit/);
    assert.ok(Math.abs(await value(page, 'critical-intensity') - 1.97e14 / 8.2e11) < 1e-9);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a chip with no published vector figure says so and runs the add on the matrix unit', async () => {
  const { page, context } = await openPage(browser, `${server.url}?v=1&chip=v6e&op=add&dt=bf16`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    assert.deepEqual(await notices(page), []);
    assert.match(await page.textContent('[data-testid="unit-note"]'), /TPU v6e lists no vector-unit peak/);
    assert.ok(Math.abs(await value(page, 'critical-intensity') - 9.2e14 / 1.6e12) < 1e-9);
    // Its numbers offer an empty vector-unit field that says why; a figure
    // typed there moves the add onto the vector unit, timed by it, and the
    // link keeps it (peak.vector).
    await page.click('.chip-numbers summary');
    const field = '[data-testid="field-peak-vector"]';
    await page.waitForSelector(field, { state: 'visible' });
    assert.equal(await page.inputValue(field), '');
    assert.match(await page.textContent('.chip-numbers'), /publishes no vector-unit figure/);
    await page.fill(field, '2e13');
    await page.waitForFunction(() => /vector unit/.test(document.querySelector('[data-testid="unit-note"]').textContent)
      && !/lists no vector-unit peak/.test(document.querySelector('[data-testid="unit-note"]').textContent));
    const N = 1e6;
    assert.ok(Math.abs(await value(page, 't-math') - N / 2e13) < 1e-18);
    assert.ok(Math.abs(await value(page, 'critical-intensity') - 2e13 / 1.6e12) < 1e-9);
    await page.waitForFunction(() => document.querySelector('[data-testid="roofline-canvas"]').dataset.roofs.startsWith('vector'));
    await page.waitForFunction(() => new URL(location.href).searchParams.get('peak.vector') === '2e13');
    await page.reload();
    await waitForDraw(page, 'roofline-canvas');
    assert.deepEqual(await notices(page), []);
    assert.ok(Math.abs(await value(page, 't-math') - N / 2e13) < 1e-18);
    assert.match(await page.textContent('.chip-numbers summary'), /edited/);
    // A figure that is not one gets its message beside the field.
    await page.click('.chip-numbers summary');
    await page.fill(field, 'fast');
    await page.waitForFunction(() => /vector unit peak/.test(document.querySelector('[data-testid="error-peak-vector"]')?.textContent ?? ''));
  } finally {
    await context.close();
  }
});

test('every new chip opens from its link with no notice, its numbers from its sources', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  // Dense bf16 peak and HBM bandwidth as the vendors print them.
  const chips = {
    mi300x: [1307.4e12, 5.3e12], mi325x: [1307.4e12, 6.0e12], mi355x: [2516.6e12, 8.0e12],
    b300: [2.25e15, 7.7e12], gb200: [2.5e15, 8.0e12], trn2: [667e12, 2.9e12], gaudi3: [1835e12, 3.67e12],
  };
  try {
    for (const [id, [bf16, hbm]] of Object.entries(chips)) {
      await page.goto(`${server.url}?v=1&chip=${id}&op=matmul`);
      await waitForDraw(page, 'roofline-canvas');
      assert.deepEqual(await notices(page), [], id);
      assert.equal(await page.inputValue('[data-testid="chip-select"]'), id);
      assert.ok(Math.abs(await value(page, 'critical-intensity') / (bf16 / hbm) - 1) < 1e-9, id);
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('lines and roofs are added and removed, the canvas says which are drawn, and the link reopens them', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=h100&op=matmul`);
  const attr = (name) => page.getAttribute('[data-testid="roofline-canvas"]', name);
  const drawnWith = (what, key) => page.waitForFunction(([w, k]) => document.querySelector('[data-testid="roofline-canvas"]').dataset[w].split(',').includes(k), [what, key]);
  try {
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(await attr('data-lines'), 'hbm');
    assert.equal(await attr('data-roofs'), 'bf16');
    // H100 lists HBM, NVLink, PCIe and DCN: add three lines.
    // Each waits for the canvas to say it drew the new line: a count of
    // draws alone can be met by a redraw for another reason (the panels
    // below arriving and moving the page) just before the click.
    for (const k of ['nvlink', 'pcie', 'dcn']) {
      await page.check(`[data-testid="line-${k}"]`);
      await drawnWith('lines', k);
    }
    assert.equal(await attr('data-lines'), 'hbm,nvlink,pcie,dcn');
    assert.equal(new URL(page.url()).searchParams.get('lv'), 'hbm,nvlink,pcie,dcn');
    // Roofs: fp8 above, the vector unit (CUDA cores) below.
    for (const k of ['fp8', 'vector', 'int8']) {
      await page.check(`[data-testid="roof-${k}"]`);
      await drawnWith('roofs', k);
    }
    assert.equal(await attr('data-roofs'), 'bf16,fp8,int8,vector');
    await page.uncheck('[data-testid="roof-int8"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="roofline-canvas"]').dataset.roofs === 'bf16,fp8,vector');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('roofs') === 'fp8,vector');
    // Results still use the first level.
    assert.ok(Math.abs(await value(page, 'critical-intensity') - 9.89e14 / 3.35e12) < 1e-9);
    // The readout names what binds under each roof (the chart scrolled
    // into view first: the mouse moves within the viewport).
    await page.locator('[data-testid="roofline-canvas"]').scrollIntoViewIfNeeded();
    const box = await page.locator('[data-testid="roofline-canvas"]').boundingBox();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
    await page.waitForFunction(() => /under the fp8 roof/.test(document.querySelector('[data-testid="roofline-readout"]').textContent));
    assert.match(await page.textContent('[data-testid="roofline-readout"]'), /under the vector roof: .* \((HBM bandwidth|the vector roof) binds\)/);
    // The link reopens the same chart.
    const url = page.url();
    await page.goto('about:blank');
    await page.goto(url);
    await waitForDraw(page, 'roofline-canvas');
    assert.deepEqual(await notices(page), []);
    assert.equal(await attr('data-lines'), 'hbm,nvlink,pcie,dcn');
    assert.equal(await attr('data-roofs'), 'bf16,fp8,vector');
    assert.ok(await page.isChecked('[data-testid="line-pcie"]'));
    assert.ok(await page.isChecked('[data-testid="roof-vector"]'));
    // Removing lines down to one.
    for (const k of ['nvlink', 'pcie', 'dcn']) await page.uncheck(`[data-testid="line-${k}"]`);
    await page.waitForFunction(() => document.querySelector('[data-testid="roofline-canvas"]').dataset.lines === 'hbm');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the comparison lists each chip against every level and roof, the vector unit included, and a row loads it', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&op=add`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('.compare summary');
    await page.waitForSelector('[data-testid="compare-table"]');
    const rows = page.locator('[data-testid="compare-table"] tbody tr', { hasText: 'TPU v5e' });
    // v5e: bf16, int8 and the vector unit, each against HBM, VMEM, ICI, PCIe and DCN.
    assert.equal(await rows.count(), 15);
    const vector = page.locator('[data-testid="compare-table"] tbody tr', { hasText: 'MI355X' }).filter({ hasText: 'vector unit' }).filter({ hasText: 'HBM' });
    assert.equal(await vector.count(), 1);
    assert.match(await vector.textContent(), /19\.7/, '1.573e14 / 8e12 = 19.7 FLOPs/byte');
    await vector.locator('[data-testid="compare-load"]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="chip-select"]').value === 'mi355x');
    assert.equal(await page.inputValue('[data-testid="unit-select"]'), 'vector');
    await page.waitForFunction(() => Math.abs(Number(document.querySelector('[data-testid="result-critical-intensity"]').dataset.value) - 1.573e14 / 8e12) < 1e-9);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
