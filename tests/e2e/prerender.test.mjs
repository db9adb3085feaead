// The default page written at build time (crates/roofline-prerender): its
// chart and numbers are in the first paint, equal to what the app computes;
// the app takes over in place, with nothing moving outside the chart; a
// link holds the layout and the chart's place; without JavaScript the page
// still shows its chart and numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serveAndLaunch, watchPage, waitForDraw, seriousAxeViolations, screenshot } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

/**
 * A page at `query` whose wasm is held back until `release()`: what it
 * shows until then is the page index.html holds.
 */
async function heldPage(query, options = {}) {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const problems = watchPage(page);
  let release;
  const held = new Promise((go) => { release = go; });
  await page.route('**/*_bg.wasm', async (route) => { await held; await route.continue(); });
  await page.goto(server.url + query, { waitUntil: 'load' });
  return { page, context, problems, release };
}

/** Waits until the app has drawn its chart and the prerendered page is gone. */
async function takenOver(page) {
  await waitForDraw(page, 'roofline-canvas');
  await page.waitForFunction(() => !document.getElementById('pre'));
}

/** Every value the prerendered page shows (`data-pre` → value), or the app's (`data-testid`). */
const values = (page, attr) => page.evaluate((a) => {
  const out = {};
  const root = a === 'data-pre' ? document.getElementById('pre') : document.getElementById('app');
  for (const e of root.querySelectorAll(`[${a}]`)) {
    const key = e.getAttribute(a);
    if (!/^(result-|field-|chip-select|op-shortcut|level1-select|compute-select|unit-select|link-select|shard-select|collective-select|line-|roof-)/.test(key)) continue;
    if (e.tagName === 'FIELDSET') continue;
    out[key] = e.tagName === 'INPUT' && e.type === 'checkbox' ? e.checked
      : e.tagName === 'INPUT' ? e.value
        : e.tagName === 'SELECT' ? `${e.value}|${e.selectedOptions[0]?.textContent}`
          : `${e.getAttribute('data-value')}|${e.textContent}`;
  }
  return out;
}, attr);

/**
 * 0 when two screenshots of the same size are the same outside the
 * rectangles `masks` ({x, y, width, height}, CSS pixels); else how many
 * pixels differ, and where the first do.
 */
const differing = (page, a, b, masks) => page.evaluate(async ([a, b, masks]) => {
  const load = async (b64) => createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
  const [ia, ib] = await Promise.all([load(a), load(b)]);
  if (ia.width !== ib.width || ia.height !== ib.height) return -1;
  const read = (img) => {
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    return g.getImageData(0, 0, img.width, img.height).data;
  };
  const [da, db] = [read(ia), read(ib)];
  const masked = (x, y) => masks.some((m) => x >= m.x - 1 && x < m.x + m.width + 1 && y >= m.y - 1 && y < m.y + m.height + 1);
  let n = 0;
  const at = [];
  for (let y = 0; y < ia.height; y++) {
    for (let x = 0; x < ia.width; x++) {
      const i = (y * ia.width + x) * 4;
      // A level or two of a channel is anti-aliasing (a rounded corner at
      // a fraction of a pixel), not a change anyone sees.
      if ([0, 1, 2].every((c) => Math.abs(da[i + c] - db[i + c]) <= 2)) continue;
      if (!masked(x, y)) {
        n++;
        if (at.length < 5) at.push([x, y, [...da.slice(i, i + 3)].join(), [...db.slice(i, i + 3)].join()]);
      }
    }
  }
  return n ? `${n} pixels changed outside the chart, first at ${JSON.stringify(at)}` : 0;
}, [a.toString('base64'), b.toString('base64'), masks]);

test('the first paint holds the default chart and numbers, and they are the app\'s own', async () => {
  const { page, context, problems, release } = await heldPage('?v=1');
  try {
    // Before any wasm: the chart drawn and the numbers shown.
    const chart = page.locator('#pre .pre-chart.wide');
    assert.ok(await chart.isVisible(), 'the prerendered chart is on screen');
    assert.ok(await page.evaluate(() => performance.getEntriesByName('roofline:prerendered').length === 1));
    assert.ok(await page.evaluate(() => document.querySelectorAll('#pre .pre-chart.wide path, #pre .pre-chart.wide polyline, #pre .pre-chart.wide line').length > 10));
    assert.equal(await page.locator('#pre [data-pre="result-t-math"]').textContent(), '43.6 µs');
    const before = await values(page, 'data-pre');
    assert.ok(Object.keys(before).length >= 25, `the page shows its values: ${Object.keys(before).join(', ')}`);
    assert.equal(await page.locator('#app main').count(), 0, 'the app has not started');
    release();
    await takenOver(page);
    const after = await values(page, 'data-testid');
    assert.deepEqual(before, after, 'every prerendered value and field equals the app\'s');
    assert.deepEqual(problems, []);
  } finally {
    release();
    await context.close();
  }
});

// The prerendered page and the app's page are compared element by element:
// the same tags, classes and text in the same order, down to the roofline's
// figure (the app has more below it, which comes after the first chart).
test('the prerendered page is the app\'s page, element by element', async () => {
  const { page, context, release } = await heldPage('?v=1');
  const shape = (root) => page.evaluate((r) => {
    const out = [];
    const walk = (e) => {
      if (e.matches('canvas, .pre-canvas')) {
        out.push('<chart>');
        return;
      }
      // A closed choice shows its chosen option only (the prerendered
      // page holds no other).
      if (e.matches('select')) {
        out.push(`<select>${e.selectedOptions[0]?.textContent}`);
        return;
      }
      // The prerendered page's own classes: pre-*, and its swatches' schemes.
      const cls = [...e.classList].filter((c) => !c.startsWith('pre-') && c !== 'light' && c !== 'dark').sort().join('.');
      out.push(`<${e.tagName.toLowerCase()}${cls ? `.${cls}` : ''}>`);
      for (const n of e.childNodes) {
        if (n.nodeType === Node.TEXT_NODE && n.textContent.trim()) out.push(n.textContent);
        else if (n.nodeType === Node.ELEMENT_NODE && !n.matches('.swatch.dark')) walk(n);
      }
      out.push(`</${e.tagName.toLowerCase()}>`);
    };
    const rootEl = document.getElementById(r);
    for (const e of rootEl.children) {
      walk(e);
      if (e.tagName === 'MAIN') break;
    }
    // Down to the end of the roofline's figure.
    const end = out.indexOf('</figure>');
    return out.slice(0, end + 1);
  }, root);
  try {
    const pre = await shape('pre');
    release();
    await takenOver(page);
    const app = await shape('app');
    // The prerendered status line is the page's own; the app's is empty.
    const status = pre.indexOf('Starting: editable in a moment.');
    assert.ok(status > 0, 'the prerendered page says it is starting');
    pre.splice(status, 1);
    assert.deepEqual(pre, app.slice(0, pre.length));
  } finally {
    release();
    await context.close();
  }
});

for (const [label, viewport, colorScheme] of [
  ['wide, light', { width: 1280, height: 1700 }, 'light'],
  ['a phone, dark', { width: 390, height: 844 }, 'dark'],
]) {
  test(`the app takes over in place, nothing moving outside the chart (${label})`, async () => {
    const { page, context, problems, release } = await heldPage('?v=1', { viewport, colorScheme });
    try {
      const box = async (sel) => page.locator(sel).boundingBox();
      const preChart = await box('#pre .pre-canvas');
      const status = await box('#pre-status');
      const before = await page.screenshot();
      release();
      await takenOver(page);
      const appChart = await box('[data-testid="roofline-canvas"]');
      assert.deepEqual(appChart, preChart, 'the chart is where the prerendered one was, at its size');
      const after = await page.screenshot();
      const n = await differing(page, before, after, [preChart, status]);
      assert.equal(n, 0, `${n} (masked: ${JSON.stringify([preChart, status])})`);
      assert.deepEqual(problems, []);
    } finally {
      release();
      await context.close();
    }
  });
}

test('the prerendered page can be read, not edited, and says so after a moment', async () => {
  const { page, context, release } = await heldPage('?v=1');
  try {
    assert.equal(await page.locator('#pre [data-pre="field-op"]').getAttribute('readonly'), '');
    assert.equal(await page.locator('#pre [data-pre="field-size-B"]').inputValue(), '256');
    // A click on a field of the prerendered page changes nothing.
    await page.locator('#pre [data-pre="field-size-B"]').click({ force: true });
    await page.keyboard.type('9');
    assert.equal(await page.locator('#pre [data-pre="field-size-B"]').inputValue(), '256');
    const status = page.locator('#pre-status');
    assert.equal(await status.getAttribute('role'), 'status');
    await page.waitForFunction(() => Number(getComputedStyle(document.getElementById('pre-status')).opacity) === 1);
    assert.equal(await page.locator('#boot').isVisible(), false, 'no loading line over the page');
    assert.deepEqual(await seriousAxeViolations(page), []);
    await screenshot(page, 'prerendered-default');
  } finally {
    release();
    await context.close();
  }
});

// A link's own values can make the results longer or shorter than the
// default's, so the chart may sit lower or higher than its held place; the
// page's layout shift (what the browser counts as one, on screen) stays 0.
test('a link holds the layout and the chart\'s place, without the default\'s values', async () => {
  const { page, context, problems, release } = await heldPage('?v=1&chip=h100&sz=B:512');
  try {
    await page.evaluate(() => {
      window.shifts = [];
      new PerformanceObserver((list) => window.shifts.push(...list.getEntries().map((e) => e.value)))
        .observe({ type: 'layout-shift', buffered: true });
    });
    assert.match(await page.evaluate(() => document.documentElement.className), /\blinked\b/);
    assert.equal(await page.locator('#pre [data-pre="result-t-math"]').isVisible(), false, 'the default\'s numbers are not shown');
    assert.equal(await page.locator('#pre .pre-chart.wide').isVisible(), false, 'nor its chart');
    const held = await page.locator('#pre .pre-canvas').boundingBox();
    assert.ok(held.width > 700 && held.height > 400, `the chart's place is held: ${JSON.stringify(held)}`);
    assert.equal(await page.evaluate(() => performance.getEntriesByName('roofline:prerendered').length), 0);
    release();
    await takenOver(page);
    const drawn = await page.locator('[data-testid="roofline-canvas"]').boundingBox();
    assert.deepEqual([drawn.x, drawn.width, drawn.height], [held.x, held.width, held.height], 'the chart has the place held for it');
    assert.deepEqual(await page.evaluate(() => window.shifts), [], 'no layout shift');
    assert.match(await page.locator('[data-testid="chip-select"]').inputValue(), /^h100$/);
    // A link's page is the app's: its wasm was asked for at once, before
    // the first paint.
    const t = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      wasm: performance.getEntriesByType('resource').find((r) => r.name.endsWith('_bg.wasm'))?.startTime,
    }));
    assert.ok(t.wasm > 0 && t.wasm <= t.paint, `wasm requested at ${t.wasm} ms, first paint at ${t.paint} ms`);
    assert.deepEqual(problems, []);
  } finally {
    release();
    await context.close();
  }
});

test('a link to another page shows the loading line, not the calculator', async () => {
  const { page, context, problems, release } = await heldPage('?v=1&view=quiz');
  try {
    assert.equal(await page.locator('#pre').isVisible(), false);
    assert.equal(await page.locator('#boot').textContent(), 'Loading…');
    assert.ok(await page.locator('#boot').isVisible());
    release();
    await page.locator('[data-testid="question"]').first().waitFor();
    assert.equal(await page.locator('#pre').count(), 0);
    assert.equal(await page.locator('#boot').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    release();
    await context.close();
  }
});

// The wasm is requested once the first paint (the prerendered page) is on
// screen: requested before it, Lighthouse's model counts the download
// towards that paint (docs/build.md §3).
test('the wasm download starts after the first contentful paint', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    const t = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      wasm: performance.getEntriesByType('resource').find((r) => r.name.endsWith('_bg.wasm'))?.startTime,
    }));
    assert.ok(t.paint > 0 && t.wasm > 0, `both are recorded: ${JSON.stringify(t)}`);
    assert.ok(t.wasm >= t.paint, `wasm requested at ${t.wasm} ms, first paint at ${t.paint} ms`);
  } finally {
    await context.close();
  }
});

test('without JavaScript the default page still shows its chart and numbers', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    assert.ok(await page.locator('#pre .pre-chart.wide').isVisible());
    assert.equal(await page.locator('#pre [data-pre="result-flops"]').textContent(), '8.59 GFLOP');
    assert.match(await page.locator('#pre [data-pre="result-regime"]').textContent(), /^Compute-bound/);
    assert.match(await page.locator('.noscript').textContent(), /needs JavaScript/);
    assert.equal(await page.locator('#boot').isVisible(), false);
    await screenshot(page, 'prerendered-no-js');
  } finally {
    await context.close();
  }
});
