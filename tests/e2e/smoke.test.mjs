// Smoke tests: every page and every chunk opens, on whichever build the
// harness serves (dist/, or ROOFLINE_DIST=dist-plain for the plain build,
// scripts/build.sh --plain). One test per row of the chunk table
// (src/chunks/chunks.json), opened as its `open` column says: a new chunk
// is tested here as soon as it has its row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TABLE } from '../sizes.mjs';
import { serveAndLaunch, openPage, waitForDraw } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

test('the calculator opens, computes and redraws after an edit', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    const draws = await waitForDraw(page, 'roofline-canvas');
    assert.equal(await page.getAttribute('[data-testid="result-regime"]', 'data-value'), 'compute');
    await page.fill('[data-testid="field-size-B"]', '16');
    await waitForDraw(page, 'roofline-canvas', draws);
    assert.equal(await page.getAttribute('[data-testid="result-regime"]', 'data-value'), 'bandwidth');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const row of TABLE.chunks) {
  test(`the ${row.name} chunk opens (${row.when})`, async () => {
    const { page, context, problems } = await openPage(browser, server.url + (row.open.path ?? ''));
    const fetched = [];
    page.on('request', (r) => { if (r.url().endsWith(`/split_${row.name}.wasm`)) fetched.push(r.url()); });
    try {
      await waitForDraw(page, 'roofline-canvas');
      for (const sel of row.open.click ?? []) {
        if (row.open.download) {
          const [dl] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
          assert.equal(dl.suggestedFilename(), row.open.download);
        } else {
          await page.click(sel);
        }
      }
      if (row.open.shows) await page.waitForSelector(row.open.shows, { timeout: 15000 });
      const loaded = await page.evaluate(
        (name) => performance.getEntriesByType('resource').some((e) => e.name.endsWith(`/split_${name}.wasm`)),
        row.name,
      );
      assert.ok(loaded || fetched.length > 0, `split_${row.name}.wasm was fetched`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
