// Measured kernels under the roof, as a practitioner uses them: open the
// panel, paste a table (and the documented example files), check the
// column mapping and each row's problem, apply, read the table against
// hand-derived fractions, sort it, hover a point on the chart, share the
// link and reopen it, save the CSV and read it back, try the example,
// check that bad input is listed, never run, and never loses the text, and
// that a large paste or file is held outside the box and read all the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  serveAndLaunch, seriousAxeViolations, openPage, waitForDraw, canvasStats, screenshot, root,
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const input = '[data-testid="points-input"]';
const rowSel = '[data-testid="point-row"]';
const errSel = '[data-testid="points-errors"] li';
const doc = (name) => fs.readFileSync(path.join(root, 'docs', 'measurements', name), 'utf8');

// TPU v5e, the default chip: bf16 peak 1.97e14 FLOP/s, HBM 8.2e11 B/s
// (the catalogue's Google figures), so the critical intensity is 240.2.
// "half" runs at intensity 100 at half the HBM line (0.5 × 100 × 8.2e11 =
// 4.1e13 FLOP/s); "most" at intensity 1000 at 0.75 of the peak; "over" at
// twice the peak.
const TABLE = [
  'name,flops,bytes,time_ms',
  'half,1e12,1e10,24.390243902439025',
  'most,1e12,1e9,6.768189509306261',
  'over,1e12,1e9,2.5380710659898478',
].join('\n');

/** Moves the pointer onto data point (intensity, FLOP/s) of the points chart; returns the readout. */
async function hoverAt(page, x, y) {
  const canvas = page.locator('[data-testid="points-canvas"]');
  const [l, r, t, b, xlo, xhi, ylo, yhi, scale] = (await canvas.getAttribute('data-frame')).split(',');
  const f = (v, lo, hi) => (scale === 'log'
    ? Math.log10(v / Number(lo)) / Math.log10(Number(hi) / Number(lo))
    : (v - Number(lo)) / (Number(hi) - Number(lo)));
  const px = Number(l) + f(x, xlo, xhi) * (Number(r) - Number(l));
  const py = Number(b) - f(y, ylo, yhi) * (Number(b) - Number(t));
  await canvas.hover({ position: { x: px + 2, y: py - 2 } });
  return page.textContent('[data-testid="points-readout"]');
}

async function openPanel(page) {
  await page.click('[data-testid="points-open"]');
  await page.waitForSelector(input);
}

async function paste(page, text) {
  await page.fill(input, text);
}

const rows = (page) => page.$$eval(rowSel, (rs) => rs.map((r) => ({
  name: r.querySelector('th').textContent,
  fraction: Number(r.dataset.fraction),
  binding: r.dataset.binding,
  text: r.textContent,
})));

test('a pasted table is previewed, applied, and read against the roof with hand-derived fractions', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    await paste(page, TABLE);
    // The preview maps each column before anything is plotted.
    const maps = await page.$$eval('[data-testid="points-map"]', (s) => s.map((e) => [e.dataset.column, e.value]));
    assert.deepEqual(maps, [['name', 'name'], ['flops', 'flops'], ['bytes', 'bytes'], ['time_ms', 'time']]);
    assert.equal(await page.locator(rowSel).count(), 0, 'nothing plotted before Add');
    await page.click('[data-testid="points-apply"]');
    await page.waitForSelector(rowSel);
    await waitForDraw(page, 'points-canvas');
    assert.equal(await page.getAttribute('[data-testid="points-canvas"]', 'data-points'), '3');
    const got = await rows(page);
    const by = Object.fromEntries(got.map((r) => [r.name, r]));
    assert.equal(got.length, 3);
    assert.ok(Math.abs(by.half.fraction - 0.5) < 1e-9, `half: ${by.half.fraction}`);
    assert.equal(by.half.binding, 'hbm');
    assert.ok(Math.abs(by.most.fraction - 0.75) < 1e-9, `most: ${by.most.fraction}`);
    assert.equal(by.most.binding, 'bf16');
    assert.ok(Math.abs(by.over.fraction - 2) < 1e-9, `over: ${by.over.fraction}`);
    assert.match(by.over.text, /above the roof/);
    assert.match(by.half.text, /50%/);
    // The lower bound at the roof: 1e12 FLOPs / 8.2e13 FLOP/s = 12.2 ms.
    assert.match(by.half.text, /12\.2 ms/);
    assert.ok(await page.isVisible('[data-testid="points-above"]'), 'causes listed for a point above the roof');
    // Rings in the HBM line's colour and the roof's: count pixels near each.
    const drawn = await canvasStats(page, 'points-canvas');
    assert.ok(drawn.colours > 20, `a picture: ${drawn.colours} colours`);
    assert.equal(await page.locator(errSel).count(), 0);

    // Sorting by share of the roof, both ways.
    await page.click('[data-testid="points-sort-fraction"]');
    let f = (await rows(page)).map((r) => r.fraction);
    assert.deepEqual(f, [...f].sort((a, b) => b - a), `descending: ${f}`);
    await page.click('[data-testid="points-sort-fraction"]');
    f = (await rows(page)).map((r) => r.fraction);
    assert.deepEqual(f, [...f].sort((a, b) => a - b), `ascending: ${f}`);

    // Hovering the point "half" reads it out: it sits at intensity 100 and
    // 4.1e13 FLOP/s; the pointer sweeps the chart until it is on it.
    // (The canvas says where its plot lies; the pointer goes to the pixel
    // of intensity 100 and 4.1e13 FLOP/s.)
    const found = await hoverAt(page, 100, 4.1e13);
    assert.match(found, /^half: 41 TFLOP\/s at 100 FLOPs\/byte; the roof there is 82 TFLOP\/s \(HBM bandwidth binds\), 50% of it reached; measured 24\.4 ms, at least 12\.2 ms at the roof/);

    // The link carries the points; reopening it shows them, with no notice.
    await page.waitForFunction(() => new URLSearchParams(location.search).has('pts'));
    const url = page.url();
    const again = await openPage(browser, url);
    try {
      await again.page.waitForSelector(rowSel);
      await waitForDraw(again.page, 'points-canvas');
      const back = await rows(again.page);
      assert.deepEqual(back.map((r) => [r.name, r.fraction]).sort(), got.map((r) => [r.name, r.fraction]).sort());
      assert.equal(await again.page.$('[data-testid="link-notices"]'), null);
      assert.deepEqual(again.problems, []);
    } finally {
      await again.context.close();
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('bad input is listed row by row, shown as text, and the pasted text stays', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    const bad = [
      'name,flops,bytes,time_ms',
      '<script>alert(1)</script>,1e12,1e9,5',
      'nan,NaN,1e9,5',
      'negative,1e12,1e9,-5',
      'missing,1e12,,5',
      'absurd,1e40,1e9,5',
      'good,1e12,1e9,5',
    ].join('\n');
    await paste(page, bad);
    await page.click('[data-testid="points-apply"]');
    await page.waitForSelector(rowSel);
    const errors = await page.$$eval(errSel, (es) => es.map((e) => e.textContent));
    assert.ok(errors.length >= 4, errors.join('\n'));
    for (const line of [3, 4, 5, 6]) {
      assert.ok(errors.some((e) => e.startsWith(`line ${line}:`)), `line ${line} is named: ${errors.join(' | ')}`);
    }
    for (const e of errors) assert.doesNotMatch(e, /NaN|inf\b|Infinity/);
    const names = (await rows(page)).map((r) => r.name);
    assert.ok(names.includes('good'));
    // The script-looking name is a name, shown as text, never run.
    assert.ok(names.includes('<script>alert(1)</script>'), names.join(','));
    assert.equal(await page.inputValue(input), bad, 'the text is kept');

    // Missing columns: a whole-input message, nothing plotted from it.
    await paste(page, 'kernel,colour\na,red');
    const whole = await page.$$eval(errSel, (es) => es.map((e) => e.textContent));
    assert.ok(whole.length >= 1 && !whole[0].startsWith('line'), whole.join(' | '));

    // A 17 MB paste (over the 16 MB limit): one message with the size, and
    // the page still answers.
    await page.$eval(input, (e) => {
      e.value = `name,flops,bytes,time_ms\n${'k,1e12,1e9,5\n'.repeat(1300000)}`;
      e.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const big = await page.$$eval(errSel, (es) => es.map((e) => e.textContent));
    assert.ok(big.some((e) => /MB/.test(e)), big.join(' | '));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the documented example files are read, and a column can be mapped by hand', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    for (const file of ['matmuls.csv', 'profile.tsv', 'kernels.json', 'ops.csv']) {
      await paste(page, doc(file));
      await page.click('[data-testid="points-apply"]');
      await page.waitForSelector(rowSel);
      const n = await page.locator(rowSel).count();
      assert.ok(n >= 3, `${file}: ${n} rows`);
      assert.equal(await page.locator(errSel).count(), 0, `${file}: no problems`);
      for (const r of await rows(page)) {
        assert.ok(Number.isFinite(r.fraction) && r.fraction > 0, `${file}: ${r.name} ${r.fraction}`);
        assert.match(r.binding, /^(hbm|bf16|int8|fp8|fp32|vmem|l2|smem)$/);
      }
    }
    // A header the reader does not know, mapped by hand.
    await paste(page, 'kernel,work,traffic,secs\nk1,1e12,1e10,0.02439024390243903');
    assert.equal(await page.$eval('[data-testid="points-map"][data-column="work"]', (e) => e.value), 'ignore');
    await page.selectOption('[data-testid="points-map"][data-column="work"]', 'flops');
    await page.selectOption('[data-testid="points-map"][data-column="traffic"]', 'bytes');
    await page.selectOption('[data-testid="points-map"][data-column="secs"]', 'time');
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 1);
    const [r] = await rows(page);
    assert.ok(Math.abs(r.fraction - 0.5) < 1e-9, `${r.fraction}`);
    // The same as JSON, the time's key first in the second item.
    await paste(page, '[{"kernel": "j1", "work": 1e12, "traffic": 1e10}, {"kernel": "j2", "work": 2e12, "traffic": 2e10, "secs": 0.04878048780487806}]');
    await page.selectOption('[data-testid="points-map"][data-column="work"]', 'flops');
    await page.selectOption('[data-testid="points-map"][data-column="traffic"]', 'bytes');
    await page.selectOption('[data-testid="points-map"][data-column="secs"]', 'time');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="points-errors"] li').length === 1);
    assert.match(await page.locator(errSel).first().textContent(), /^item 1: needs a time/);
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="point-row"]')].some((r) => r.textContent.includes('j2')));
    const j2 = (await rows(page)).find((x) => x.name === 'j2');
    assert.ok(j2 && Math.abs(j2.fraction - 0.5) < 1e-9, JSON.stringify(j2));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the example, more points than a link carries, and the saved CSV read back', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    await page.click('[data-testid="points-example"]');
    await page.waitForSelector(rowSel);
    const ex = await rows(page);
    assert.ok(ex.length >= 5);
    assert.ok(ex.every((r) => r.name.startsWith('example')), 'labelled as an example');
    assert.ok(ex.some((r) => r.binding === 'hbm') && ex.some((r) => r.binding === 'bf16'), 'both sides of the bend');
    assert.ok(ex.every((r) => r.fraction > 0 && r.fraction <= 1), 'all under the roof');

    // 40 kernels: more than a link carries.
    const many = ['name,intensity,flop_s'];
    for (let i = 1; i <= 40; i++) many.push(`k${i},${i * 10},${i * 1e12}`);
    await paste(page, many.join('\n'));
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 40);
    assert.ok(await page.isVisible('[data-testid="points-link-note"]'));
    await page.waitForFunction(() => !new URLSearchParams(location.search).has('pts'));

    // Save, then read the file back: the same kernels at the same fractions.
    const wait = page.waitForEvent('download');
    await page.click('[data-testid="points-save"]');
    const dl = await wait;
    const file = await dl.path();
    const csv = fs.readFileSync(file, 'utf8');
    assert.match(csv.split('\n')[0], /^name,flops,bytes,time_s,intensity,attained_flop_s,roof_flop_s,fraction_of_roof,binding/);
    const before = (await rows(page)).map((r) => [r.name, r.fraction]);
    await page.click('[data-testid="points-clear"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 0);
    await page.setInputFiles('[data-testid="points-file"]', file);
    await page.waitForFunction(() => document.querySelector('[data-testid="points-input"]').value.startsWith('name,'));
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 40);
    const after = (await rows(page)).map((r) => [r.name, r.fraction]);
    assert.deepEqual(after.sort(), before.sort());
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a file dropped on the box is read into it, as if pasted', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    const text = doc('ops.csv');
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.items.add(new File([t], 'ops.csv', { type: 'text/csv' }));
      const box = document.querySelector('[data-testid="points-input"]');
      box.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, text);
    await page.waitForFunction((t) => document.querySelector('[data-testid="points-input"]').value === t, text);
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 5);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a large paste or file is held outside the box, read all the same, and can be shown in it', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    // 5,000 kernels, about 150 KB: more than the box holds (64 KB).
    const lines = ['name,flops,bytes,time_us'];
    for (let i = 0; i < 5000; i++) lines.push(`kernel${i},${1e9 * (1 + (i % 7))},${1e7 * (1 + (i % 11))},${10 + (i % 13)}`);
    const big = lines.join('\n');
    const pasteEvent = (text) => page.evaluate((t) => {
      const data = new DataTransfer();
      data.setData('text/plain', t);
      const e = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
      document.querySelector('[data-testid="points-input"]').dispatchEvent(e);
      return e.defaultPrevented;
    }, text);
    // A small paste is the box's own (the browser puts it in).
    assert.equal(await pasteEvent(TABLE), false);
    assert.equal(await pasteEvent(big), true);
    await page.waitForSelector('[data-testid="points-held"]');
    assert.match(await page.textContent('[data-testid="points-held"]'), /5001 lines \(\d+ KB\) are held outside the box/);
    assert.equal(await page.inputValue(input), '');
    assert.equal(await page.$eval(input, (t) => t.readOnly), true);
    assert.match(await page.getAttribute(input, 'placeholder') ?? await page.$eval(input, (t) => t.placeholder), /held outside the box/);
    // Read all the same: 5,000 ready, applied, drawn.
    await page.waitForFunction(() => /\(5000\)/.test(document.querySelector('[data-testid="points-apply"]').textContent));
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-canvas"]')?.getAttribute('data-points') === '5000');
    // Shown in the box on request, and editable there.
    await page.click('[data-testid="points-show-text"]');
    await page.waitForFunction((n) => document.querySelector('[data-testid="points-input"]').value.length === n, big.length);
    assert.equal(await page.$eval(input, (t) => t.readOnly), false);
    assert.equal(await page.$('[data-testid="points-held"]'), null);
    // Clear empties it; a large file chosen with "Load a file" is held too.
    await page.click('[data-testid="points-clear"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-input"]').value === '');
    await page.setInputFiles('[data-testid="points-file"]', { name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(big) });
    await page.waitForSelector('[data-testid="points-held"]');
    assert.equal(await page.inputValue(input), '');
    await page.waitForFunction(() => /\(5000\)/.test(document.querySelector('[data-testid="points-apply"]').textContent));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a long table is read a slice per frame: the first rows at once, the rest after, all of it when added', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    // 10,000 rows, one bad near the end (line 9002).
    const seen = await page.evaluate(async () => {
      const lines = ['name,flops,bytes,time_us'];
      for (let i = 0; i < 10000; i++) lines.push(i === 9000 ? 'late,x,1e6,5' : `k${i},${1e9 * (1 + (i % 7))},${1e7},${10 + (i % 13)}`);
      const data = new DataTransfer();
      data.setData('text/plain', lines.join('\n'));
      const apply = document.querySelector('[data-testid="points-apply"]');
      const errors = () => [...document.querySelectorAll('[data-testid="points-errors"] li')].map((li) => li.textContent);
      document.querySelector('[data-testid="points-input"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      // After the paste's own task: the first rows, and the columns.
      await new Promise((r) => setTimeout(r, 0));
      const first = { label: apply.textContent, errors: errors(), columns: document.querySelectorAll('[data-testid="points-map"]').length };
      // After some frames: all of it.
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      let frames = 0;
      while (!/\(9999\)/.test(apply.textContent) && frames < 600) { await frame(); frames += 1; }
      return { first, label: apply.textContent, errors: errors(), frames };
    });
    assert.equal(seen.first.label, 'Add measurements (500…)');
    assert.equal(seen.first.columns, 4);
    assert.deepEqual(seen.first.errors, []);
    assert.equal(seen.label, 'Add measurements (9999)');
    assert.ok(seen.frames >= 1 && seen.frames < 600, `${seen.frames} frames`);
    assert.equal(seen.errors.length, 1);
    assert.match(seen.errors[0], /^line 9002: /);
    // Added while rows remain: the rest is read first, so all are added.
    const added = await page.evaluate(async () => {
      const lines = ['name,flops,bytes,time_us'];
      for (let i = 0; i < 8000; i++) lines.push(`m${i},${2e9},${1e7},${20}`);
      const data = new DataTransfer();
      data.setData('text/plain', lines.join('\n'));
      document.querySelector('[data-testid="points-clear"]').click();
      await new Promise((r) => setTimeout(r, 0));
      document.querySelector('[data-testid="points-input"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
      const label = document.querySelector('[data-testid="points-apply"]').textContent;
      document.querySelector('[data-testid="points-apply"]').click();
      return label;
    });
    assert.equal(added, 'Add measurements (500…)');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-canvas"]')?.getAttribute('data-points') === '8000');
    await page.waitForFunction(() => /\(8000\)/.test(document.querySelector('[data-testid="points-apply"]').textContent));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a long JSON list is read a slice per frame, and a key first seen near its end becomes a column', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    // 10,000 items: one bad (item 9001), and the last placed by keys no
    // item before it has (FLOP/s and an intensity).
    const seen = await page.evaluate(async () => {
      const items = [];
      for (let i = 0; i < 9999; i++) items.push({ name: `k${i}`, flops: i === 9000 ? 'x' : 1e9 * (1 + (i % 7)), bytes: '10 MB', time_us: 10 + (i % 13) });
      items.push({ name: 'late', 'flop/s': '3 TFLOP/s', intensity: 5 });
      const data = new DataTransfer();
      data.setData('text/plain', JSON.stringify({ chip: 'TPU v5e', kernels: items }));
      const apply = document.querySelector('[data-testid="points-apply"]');
      const errors = () => [...document.querySelectorAll('[data-testid="points-errors"] li')].map((li) => li.textContent);
      const columns = () => [...document.querySelectorAll('[data-testid="points-map"]')].length;
      document.querySelector('[data-testid="points-input"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
      const first = { label: apply.textContent, errors: errors(), columns: columns() };
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      let frames = 0;
      while (!/\(9999\)/.test(apply.textContent) && frames < 600) { await frame(); frames += 1; }
      return { first, label: apply.textContent, errors: errors(), columns: columns(), frames };
    });
    assert.equal(seen.first.label, 'Add measurements (500…)');
    assert.equal(seen.first.columns, 4);
    assert.deepEqual(seen.first.errors, []);
    assert.equal(seen.label, 'Add measurements (9999)');
    assert.ok(seen.frames >= 1 && seen.frames < 600, `${seen.frames} frames`);
    assert.equal(seen.columns, 6);
    assert.deepEqual(seen.errors, ["item 9001: flops is not a number ('x')"]);
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-canvas"]')?.getAttribute('data-points') === '9999');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('closing the panel while a long table is read stops the reading, and reopening reads it again', async () => {
  const { page, context, problems } = await openPage(browser, server.url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await openPanel(page);
    const label = await page.evaluate(async () => {
      const lines = ['name,flops,bytes,time_us'];
      for (let i = 0; i < 20000; i++) lines.push(`k${i},${1e9},${1e7},${10 + (i % 13)}`);
      const data = new DataTransfer();
      data.setData('text/plain', lines.join('\n'));
      document.querySelector('[data-testid="points-input"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
      const text = document.querySelector('[data-testid="points-apply"]').textContent;
      // Closed before the next slice.
      document.querySelector('[data-testid="points-open"]').click();
      for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
      return text;
    });
    assert.equal(label, 'Add measurements (500…)');
    assert.equal(await page.$('[data-testid="points-input"]'), null);
    // Reopened: the table is still there (held), read again to its end.
    await page.click('[data-testid="points-open"]');
    await page.waitForFunction(() => /\(20000\)/.test(document.querySelector('[data-testid="points-apply"]')?.textContent ?? ''));
    assert.ok(await page.$('[data-testid="points-held"]'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a link with bad measurements opens, says which, and shows the good ones', async () => {
  const url = `${server.url}?v=1&pts=${encodeURIComponent('good:100:4.1e13,bad:x:1,neg:-1:5')}`;
  const { page, context, problems } = await openPage(browser, url);
  try {
    await page.waitForSelector(rowSel);
    const errors = await page.$$eval(errSel, (es) => es.map((e) => e.textContent));
    assert.deepEqual(errors.map((e) => e.slice(0, 7)), ['item 2:', 'item 3:']);
    assert.ok(errors.every((e) => e.includes("the link's pts")), errors.join(' | '));
    const got = await rows(page);
    assert.deepEqual(got.map((r) => r.name), ['good']);
    assert.ok(Math.abs(got[0].fraction - 0.5) < 1e-9);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the panel reads as it should: accessibility, desktop and phone, both schemes', async () => {
  for (const [scheme, width] of [['light', 1280], ['dark', 390]]) {
    const { page, context, problems } = await openPage(browser, server.url, {
      colorScheme: scheme, viewport: { width, height: 900 },
    });
    try {
      await waitForDraw(page, 'roofline-canvas');
      await openPanel(page);
      await page.click('[data-testid="points-example"]');
      await page.waitForSelector(rowSel);
      await waitForDraw(page, 'points-canvas');
      assert.deepEqual(await seriousAxeViolations(page), [], `${scheme} ${width}`);
      await screenshot(page, `measurements-${scheme}-${width}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});
