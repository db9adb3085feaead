// The calculator as a learner uses it: change chip and operation, read the
// results and both charts, make mistakes, hover, export, and pass axe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  serveAndLaunch, seriousAxeViolations, openPage, waitForDraw, canvasStats, screenshot, artifacts,
  lowContrastControls,
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const value = async (page, key) => Number(await page.getAttribute(`[data-testid="result-${key}"]`, 'data-value'));

async function ready(page) {
  await waitForDraw(page, 'roofline-canvas');
  await waitForDraw(page, 'batch-canvas');
}

test('results are computed from the inputs and follow every change', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await ready(page);
    // Default: bf16[B,D] * int8[D,F] -> bf16[B,F], B=256, D=F=4096 on TPU v5e, by hand.
    const [B, D, F] = [256, 4096, 4096];
    assert.equal(await value(page, 'flops'), 2 * B * D * F);
    assert.equal(await value(page, 'bytes-read'), 2 * B * D + D * F);
    assert.equal(await value(page, 'bytes-written'), 2 * B * F);
    const intensity = (2 * B * D * F) / (2 * B * D + D * F + 2 * B * F);
    assert.ok(Math.abs(await value(page, 'intensity') - intensity) < 1e-9);
    assert.ok(Math.abs(await value(page, 'critical-intensity') - 1.97e14 / 8.2e11) < 1e-9);
    assert.ok(Math.abs(await value(page, 't-math') - (2 * B * D * F) / 1.97e14) < 1e-15);
    assert.equal(await page.getAttribute('[data-testid="result-regime"]', 'data-value'), 'compute');
    for (const key of ['flops', 'bytes-read', 'bytes-written', 'intensity', 'intensity-approx',
      'critical-intensity', 't-math', 't-comms', 't-lower', 't-upper', 'attained-flops',
      'peak-fraction', 'critical-batch']) {
      assert.ok(await page.$(`[data-testid="result-${key}"]`), `result-${key} is on the page`);
    }

    const roof0 = await canvasStats(page, 'roofline-canvas');
    const batch0 = await canvasStats(page, 'batch-canvas');
    const rDraws = Number(await page.getAttribute('[data-testid="roofline-canvas"]', 'data-draws'));
    const bDraws = Number(await page.getAttribute('[data-testid="batch-canvas"]', 'data-draws'));

    // Type a smaller batch: bandwidth-bound; the roofline's marker moves.
    // (The batch chart sweeps B itself, so it has nothing to redraw.)
    await page.fill('[data-testid="field-size-B"]', '64');
    await waitForDraw(page, 'roofline-canvas', rDraws);
    assert.equal(await page.getAttribute('[data-testid="result-regime"]', 'data-value'), 'bandwidth');
    assert.equal(await value(page, 'flops'), 2 * 64 * D * F);
    assert.notEqual((await canvasStats(page, 'roofline-canvas')).hash, roof0.hash);

    // Another chip: H100 at bf16 (dense 9.89e14) against 3.35e12 B/s.
    await page.selectOption('[data-testid="chip-select"]', 'h100');
    await waitForDraw(page, 'batch-canvas', bDraws);
    await page.waitForFunction(() =>
      Math.abs(Number(document.querySelector('[data-testid="result-critical-intensity"]').dataset.value) - 9.89e14 / 3.35e12) < 1e-9);
    assert.notEqual((await canvasStats(page, 'batch-canvas')).hash, batch0.hash);

    // Another operation by shortcut: the per-example batched matmul is never compute-bound.
    await page.selectOption('[data-testid="op-shortcut"]', 'batched');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="field-op"]').value.includes('int8[B,D,F]'));
    assert.equal(await page.getAttribute('[data-testid="result-regime"]', 'data-value'), 'bandwidth');
    assert.match(await page.textContent('[data-testid="result-critical-batch"]'), /never/i);
    await screenshot(page, 'calculator-h100-batched');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a bad notation or size shows its error next to the field and keeps the last results', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await ready(page);
    const flops = await value(page, 'flops');
    await page.fill('[data-testid="field-op"]', 'bf16[B,D * int8[D,F] -> bf16[B,F]');
    await page.waitForSelector('[data-testid="error-op"]:not(:empty)');
    assert.match(await page.textContent('[data-testid="error-op"]'), /character/);
    assert.equal(await value(page, 'flops'), flops, 'last valid results stay');
    await page.fill('[data-testid="field-op"]', 'bf16[B,D] * int8[D,F] -> bf16[B,F]');
    await page.waitForSelector('[data-testid="error-op"]:empty', { state: 'attached' });

    await page.fill('[data-testid="field-size-D"]', '-5');
    await page.waitForSelector('[data-testid="error-size-D"]:not(:empty)');
    assert.match(await page.textContent('[data-testid="error-size-D"]'), /D/);
    assert.equal(await page.getAttribute('[data-testid="field-size-D"]', 'aria-invalid'), 'true');
    const text = await page.textContent('body');
    assert.ok(!/NaN|Infinity/.test(text), 'no NaN or Infinity on the page');
    await screenshot(page, 'calculator-errors');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('hover readout, exports and the comparison table', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await ready(page);
    const canvas = page.locator('[data-testid="roofline-canvas"]');
    const box = await canvas.boundingBox();
    await canvas.hover({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
    await page.waitForSelector('[data-testid="roofline-readout"]:not(:empty)');
    assert.match(await page.textContent('[data-testid="roofline-readout"]'), /Intensity .* FLOPs\/byte.*HBM: .*FLOP\/s/);

    fs.mkdirSync(artifacts, { recursive: true });
    const save = async (testid) => {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${testid}"]`)]);
      const file = path.join(artifacts, dl.suggestedFilename());
      await dl.saveAs(file);
      return fs.readFileSync(file);
    };
    const png = await save('roofline-png');
    assert.ok(png.length > 1000 && png.subarray(1, 4).toString() === 'PNG', 'roofline PNG');
    const svg = (await save('roofline-svg')).toString();
    assert.match(svg, /^<svg[\s\S]*<\/svg>\s*$/);
    assert.match(svg, /Arithmetic intensity \(FLOPs\/byte\)/);
    const bpng = await save('batch-png');
    assert.ok(bpng.subarray(1, 4).toString() === 'PNG');
    const bsvg = (await save('batch-svg')).toString();
    assert.match(bsvg, /^<svg[\s\S]*<\/svg>\s*$/);
    // Well-formed: the browser's XML parser accepts both SVGs.
    for (const doc of [svg, bsvg]) {
      const ok = await page.evaluate((s) => !new DOMParser().parseFromString(s, 'image/svg+xml').querySelector('parsererror'), doc);
      assert.ok(ok, 'SVG parses as XML');
    }
    const csv = (await save('batch-csv')).toString().trim().split('\n');
    assert.match(csv[0], /^B,/);
    assert.ok(csv.length > 100);

    // Add and remove a (D, F) pair.
    const before = await page.locator('[data-testid="batch-pair"]').count();
    await page.fill('[data-testid="pair-d"]', '8192');
    await page.fill('[data-testid="pair-f"]', '8192');
    await page.click('[data-testid="pair-add"]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="batch-pair"]').length === n + 1, before);
    await page.locator('[data-testid="batch-pair"] button').last().click();
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="batch-pair"]').length === n, before);

    // The comparison table loads a chip.
    await page.click('.compare summary');
    await page.waitForSelector('[data-testid="compare-table"]');
    const rows = await page.locator('[data-testid="compare-load"]').count();
    assert.ok(rows > 40, `${rows} rows`);
    await page.locator('[data-testid="compare-load"]', { hasText: 'B200' }).first().click();
    await page.waitForFunction(() => document.querySelector('[data-testid="chip-select"]').value === 'b200');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('on a short window every input stays in reach beside the results, chip numbers open', async () => {
  const { page, context, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 720 } });
  try {
    await ready(page);
    await page.click('details.chip-numbers summary');
    await page.waitForSelector('[data-testid="field-bw-hbm"]', { state: 'visible' });
    // Read down to the batch chart: the inputs stay beside it, within the window.
    await page.locator('[data-testid="batch-canvas"]').scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => scrollY);
    assert.ok(scrolled > 300, `the page scrolled down (${scrolled} px)`);
    const column = await page.evaluate(() => {
      const r = document.querySelector('.inputs').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, height: innerHeight };
    });
    assert.ok(column.top >= 0 && column.bottom <= column.height, `the inputs fit the window: ${JSON.stringify(column)}`);
    // The last input is reached by scrolling the inputs themselves, and it
    // can be used there.
    await page.mouse.move(150, 400);
    await page.mouse.wheel(0, 3000);
    await page.waitForFunction(() => {
      const r = document.querySelector('[data-testid="shard-select"]').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    });
    assert.equal(await page.evaluate(() => scrollY), scrolled, 'the page itself did not move');
    await page.uncheck('[data-testid="line-vmem"]');
    await page.waitForFunction(() => /[?&]l2=none\b/.test(location.search));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('axe finds no serious or critical violation, in light and dark, at phone width', async () => {
  for (const [scheme, width] of [['light', 1280], ['dark', 375]]) {
    const { page, context, problems } = await openPage(browser, server.url, {
      colorScheme: scheme, viewport: { width, height: 900 },
    });
    try {
      await ready(page);
      await page.click('.compare summary');
      await page.click('.chip-numbers summary');
      // The numbers' fields are built when they are first opened.
      await page.waitForSelector('[data-testid="field-bw-hbm"]', { state: 'visible' });
      assert.deepEqual(await seriousAxeViolations(page), [], `${scheme} ${width}px`);
      // axe files text on a transparent control under "incomplete"; measure
      // every visible button and link against the colour behind it.
      assert.deepEqual(await lowContrastControls(page), [], `${scheme} ${width}px: readable controls`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `no horizontal scroll (${overflow}px)`);
      await screenshot(page, `calculator-${scheme}-${width}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

// Release builds erase component types (scripts/build.sh): an
// element that is rebuilt then re-sets every attribute, and the chart draws
// that follow pay for the style recalculation. An edit that changes only
// numbers must therefore write only text, the changed data-value attributes
// and the charts' draw counters, never re-create or re-attribute elements.
test('an edit that changes only numbers writes only text and changed values', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?n=4`);
  try {
    await ready(page);
    await page.click('.chip-numbers summary');
    await page.waitForSelector('[data-testid="field-bw-hbm"]', { state: 'visible' });
    const writes = await page.evaluate(async () => {
      const seen = [];
      const name = (n) => (n.nodeType === 1 ? `${n.tagName.toLowerCase()}[data-testid=${n.dataset.testid ?? ''}]` : n.nodeName);
      const observer = new MutationObserver((list) => {
        for (const m of list) {
          if (m.type === 'characterData') continue;
          if (m.type === 'attributes' && (m.attributeName === 'data-value' || m.attributeName === 'data-draws')) continue;
          seen.push(`${m.type} ${m.attributeName ?? ''} on ${name(m.target)}`);
        }
      });
      observer.observe(document.querySelector('main'), { subtree: true, attributes: true, childList: true, characterData: true });
      const field = document.querySelector('[data-testid="field-bw-hbm"]');
      for (const v of ['9e11', '1e12', '1.1e12']) {
        field.value = v;
        field.dispatchEvent(new Event('input', { bubbles: true }));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
      }
      observer.disconnect();
      return seen;
    });
    // The chip summary gains its "(edited)" note once: the only element added.
    const other = writes.filter((w) => !/^childList {2}on #text|^childList {2}on summary/.test(w));
    assert.deepEqual(other, []);
    assert.ok(Number(await page.getAttribute('[data-testid="result-net-t-math"]', 'data-value')) > 0);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
