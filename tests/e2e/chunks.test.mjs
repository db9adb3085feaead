// The quiz, the Learn page, the chip comparison, the SVG export and the link reader are
// separate wasm chunks (scripts/build/build-wasm.sh): the calculator opens without
// them, each downloads its chunk when opened (or when the pointer reaches its
// tab or summary; the link reader with the app when the address holds a
// link), and a failed download says so without breaking the page.
import { test } from 'node:test';
import { TABLE } from '../sizes.mjs';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, seriousAxeViolations, waitForDraw, lowContrastControls, screenshot,
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

// split_quiz.wasm, split_compare.wasm, split_svg.wasm, split_link.wasm, and
// chunk_<n>.wasm: code two of them use.
// The harness blocks service workers (harness.mjs), and Playwright says so
// in a console warning when the page registers its worker.
const blockedWorker = (text) => text === 'Service Worker registration blocked by Playwright';
const isChunk = (url) => /\/(split|chunk)_[^/]*\.wasm$/.test(url);
const of = (chunks, name) => chunks.filter((u) => u.includes(`/split_${name}.wasm`));
/** The link chunk or a shared chunk (which it may need). */
const linkFiles = (u) => /\/(split_link|chunk_\d+)\.wasm$/.test(u);
/**
 * A chunk every page fetches after its first chart (the chunk table's
 * `start` rows: the batch-size chart's, the "Why?" answers'), or a shared
 * chunk (which they may need).
 */
const startNames = TABLE.chunks.filter((c) => c.start).map((c) => c.name);
const startFiles = (u) => new RegExp(`/(${startNames.map((n) => `split_${n}`).join('|')}|chunk_\\d+)\\.wasm$`).test(u);

/**
 * A page in a fresh context, not yet navigated, recording the chunks'
 * requests (`chunks`) and uncaught errors (`errors`).
 */
async function freshPage() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const chunks = [];
  const errors = [];
  page.on('request', (r) => { if (isChunk(r.url())) chunks.push(r.url()); });
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, chunks, errors };
}

/** The calculator still computes: an edit redraws the roofline. */
async function stillComputes(page) {
  const draws = await waitForDraw(page, 'roofline-canvas');
  await page.fill('[data-testid="field-size-B"]', '4096');
  await waitForDraw(page, 'roofline-canvas', draws);
}

test('the calculator opens without the quiz chunk; opening the quiz downloads it once', async () => {
  const { context, page, chunks, errors } = await freshPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    // The bare address is written as `v=1` without the link chunk; nothing
    // on screen changes, so it stays out until the first edit.
    await waitForDraw(page, 'batch-canvas');
    await page.waitForFunction(() => location.search === '?v=1');
    await page.waitForTimeout(500);
    assert.equal(of(chunks, 'link').length, 0, `no link chunk before a change: ${chunks}`);
    await page.fill('[data-testid="field-size-B"]', '512');
    await page.waitForFunction(() => location.search.includes('B:512'));
    // The batch-size chart's chunk comes after the first chart; the link
    // chunk, which writes the address, with the first edit; no other does.
    assert.deepEqual(chunks.filter((u) => !linkFiles(u) && !startFiles(u)), [], `the calculator asks for no other chunk: ${chunks}`);
    assert.equal(of(chunks, 'batch').length, 1, `the batch-size chart: ${chunks}`);
    assert.equal(of(chunks, 'link').length, 1, `the link writer: ${chunks}`);

    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(of(chunks, 'quiz').length, 1, `one download: ${chunks}`);
    assert.equal(of(chunks, 'compare').length, 0, `not the comparison: ${chunks}`);
    // Back and forth: the chunk is not downloaded again.
    await page.click('[data-testid="tab-calc"]');
    await waitForDraw(page, 'roofline-canvas');
    const before = chunks.length;
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(chunks.length, before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('pointing at the Quiz tab or the comparison starts its download before the click', async () => {
  const { context, page, chunks } = await freshPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.hover('[data-testid="tab-quiz"]');
    await page.waitForTimeout(200);
    assert.equal(of(chunks, 'quiz').length, 1, 'hovering the tab fetched the chunk');
    assert.ok(await page.$('[data-testid="tab-calc"][aria-pressed="true"]'), 'still on the calculator');
    await page.hover('.compare summary');
    await page.waitForTimeout(200);
    assert.equal(of(chunks, 'compare').length, 1, 'hovering the summary fetched the compare chunk');
    assert.equal(await page.$eval('.compare', (d) => d.open), false, 'the panel is still closed');
    await page.hover('.measure summary');
    await page.waitForTimeout(200);
    assert.equal(of(chunks, 'measure').length, 1, 'hovering the summary fetched the measure chunk');
    assert.equal(await page.$eval('.measure', (d) => d.open), false, 'the measurements panel is still closed');
  } finally {
    await context.close();
  }
});

/** The files fetched more than once in `chunks`. */
const twice = (chunks) => chunks.filter((u, i) => chunks.indexOf(u) !== i);

test('the batch-size chart is a chunk of its own, fetched once, after the roofline is drawn', async () => {
  const { context, page, chunks, errors } = await freshPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() !== 'log' && !blockedWorker(m.text())) warnings.push(m.text()); });
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'batch-canvas');
    const t = await page.evaluate(() => ({
      roofline: performance.getEntriesByName('roofline:drawn')[0]?.startTime,
      batch: performance.getEntriesByType('resource').find((e) => e.name.endsWith('/split_batch.wasm'))?.startTime,
      // How each file of the chunks that start after the first chart came.
      how: performance.getEntriesByType('resource')
        .filter((e) => /\/(split|chunk)_[^/]*\.wasm$/.test(e.name)).map((e) => e.initiatorType),
    }));
    assert.ok(t.roofline !== undefined && t.batch !== undefined, JSON.stringify(t));
    assert.ok(t.batch >= t.roofline, `asked for after the roofline's first draw: ${JSON.stringify(t)}`);
    assert.equal(of(chunks, 'batch').length, 1, `one download: ${chunks}`);
    // Its files (about 40 with the "Why?" answers') are preloaded a few per
    // task before its loader runs, which then fetches none of them again;
    // every preload is used (Chromium warns of one that is not).
    assert.ok(t.how.length > 6 && t.how.every((how) => how === 'link'), `preloaded: ${t.how}`);
    await page.waitForTimeout(3500);
    assert.deepEqual(twice(chunks), [], `no file twice: ${chunks}`);
    assert.deepEqual(warnings, [], 'no console warning (such as a preload that was not used)');
    // It works as before: a curve added is drawn.
    const before = await page.locator('[data-testid="batch-pair"]').count();
    await page.fill('[data-testid="pair-d"]', '1024');
    await page.fill('[data-testid="pair-f"]', '1024');
    await page.click('[data-testid="pair-add"]');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="batch-pair"]').length === n + 1, before);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a link fetches each file once: its chunks alongside the app, then the rest of what starts after the first chart', async () => {
  const { context, page, chunks, errors } = await freshPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() !== 'log' && !blockedWorker(m.text())) warnings.push(m.text()); });
  try {
    await page.goto(`${server.url}?v=1&chip=h100&sz=B:512,D:4096,F:4096`);
    await waitForDraw(page, 'batch-canvas');
    await page.waitForTimeout(3500);
    assert.equal(of(chunks, 'link').length, 1, `the link chunk: ${chunks}`);
    assert.equal(of(chunks, 'batch').length, 1, `the batch-size chart: ${chunks}`);
    assert.deepEqual(twice(chunks), [], `no file twice (the link's files and the batch chunk's overlap): ${chunks}`);
    assert.deepEqual(warnings, [], 'no console warning (such as a preload that was not used)');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('a link to a quiz question fetches the chunk alongside the app, once, and opens it', async () => {
  const { context, page, chunks, errors } = await freshPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() !== 'log' && !blockedWorker(m.text())) warnings.push(m.text()); });
  try {
    await page.goto(`${server.url}?v=1&view=quiz&q=q2&part=b`);
    await page.waitForSelector('[data-testid="question"][data-question="q2"]');
    // Let an unused preload be reported, if it is.
    await page.waitForTimeout(3500);
    assert.equal(of(chunks, 'quiz').length, 1, `one download, shared by the preload and the loader: ${chunks}`);
    assert.deepEqual(warnings, [], 'no console warning (such as a preload that was not used)');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('the Learn page is a chunk: its tab downloads it once, and a Learn link fetches it alongside the app', async () => {
  const { context, page, chunks, errors } = await freshPage();
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    assert.equal(of(chunks, 'learn').length, 0, `not before it is wanted: ${chunks}`);
    await page.click('[data-testid="tab-learn"]');
    await page.waitForSelector('[data-testid="learn-step"]');
    await page.click('[data-testid="tab-calc"]');
    await page.click('[data-testid="tab-learn"]');
    await page.waitForSelector('[data-testid="learn-step"]');
    assert.equal(of(chunks, 'learn').length, 1, `one download: ${chunks}`);
    assert.equal(of(chunks, 'quiz').length, 0, `not the quiz: ${chunks}`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
  const fresh = await freshPage();
  const warnings = [];
  fresh.page.on('console', (m) => { if (m.type() !== 'log' && !blockedWorker(m.text())) warnings.push(m.text()); });
  try {
    await fresh.page.goto(`${server.url}?v=1&view=learn&step=2`);
    await fresh.page.waitForSelector('[data-testid="learn-step"][data-step="2"]');
    await fresh.page.waitForTimeout(3500);
    assert.equal(of(fresh.chunks, 'learn').length, 1, `one download, shared by the preload and the loader: ${fresh.chunks}`);
    assert.deepEqual(warnings, [], 'no console warning (such as a preload that was not used)');
    assert.deepEqual(fresh.errors, []);
  } finally {
    await fresh.context.close();
  }
});

test('a failed quiz download says so, the calculator keeps working, and "Try again" loads it', async () => {
  const { context, page, errors } = await freshPage();
  let block = true;
  await page.route(/\/split_[^/]*\.wasm$/, (route) => (block ? route.abort('internetdisconnected') : route.continue()));
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="tab-quiz"]');
    const alert = page.locator('[data-testid="quiz-load-error"]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /could not be downloaded/);
    assert.equal(await alert.getAttribute('role'), 'alert');
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(await lowContrastControls(page), []);
    await screenshot(page, 'quiz-load-error');

    // The page is alive: the calculator still computes.
    await page.click('[data-testid="tab-calc"]');
    await stillComputes(page);

    // Still offline: the quiz tab tries again and says so again.
    await page.click('[data-testid="tab-quiz"]');
    await alert.waitFor();
    // Back online: "Try again" brings the quiz.
    block = false;
    await page.locator('[data-testid="quiz-load-error"] button').click();
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(await page.$('[data-testid="quiz-load-error"]'), null);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

test('the quiz opens on Part 1 without the later chapters\' chunk; a later question fetches it, says so if it fails, and "Try again" loads it', async () => {
  const { context, page, chunks, errors } = await freshPage();
  let block = true;
  await page.route(/\/split_quiz_book\.wasm$/, (route) => (block ? route.abort('internetdisconnected') : route.continue()));
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"][data-question="q1"]');
    assert.deepEqual(of(chunks, 'quiz_book'), [], 'a Part 1 question needs no later chapter');
    // Offline: a Part 3 question says it could not be downloaded; the list stays.
    await page.click('[data-testid="question-p3-q2"]');
    const alert = page.locator('[data-testid="question-load-error"]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /The question could not be downloaded/);
    assert.equal(await alert.getAttribute('role'), 'alert');
    assert.deepEqual(await seriousAxeViolations(page), []);
    // A Part 1 question still opens at once.
    await page.click('[data-testid="question-q2"]');
    await page.waitForSelector('[data-testid="question"][data-question="q2"]');
    // Back online: the Part 3 question, then "Try again", brings it.
    await page.click('[data-testid="question-p3-q2"]');
    await alert.waitFor();
    block = false;
    await alert.locator('button').click();
    await page.waitForSelector('[data-testid="question"][data-question="p3-q2"]');
    // Another later chapter's question comes from the same chunk, at once.
    await page.click('[data-testid="question-p12-q2-3"]');
    await page.waitForSelector('[data-testid="question"][data-question="p12-q2-3"]');
    assert.equal(await page.$('[data-testid="question-loading"]'), null);
    assert.ok(of(chunks, 'quiz_book').length >= 1, 'the later chapters\' chunk was fetched');
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

test('opening the comparison downloads its chunk once; a failed download says so and "Try again" loads it', async () => {
  const { context, page, chunks, errors } = await freshPage();
  let block = true;
  await page.route(/\/split_compare\.wasm$/, (route) => (block ? route.abort('internetdisconnected') : route.continue()));
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    assert.deepEqual(chunks.filter((u) => !startFiles(u)), [], `the page opens with no chunk but those of the table's start rows: ${chunks}`);
    // Offline: opening the panel says the table could not be downloaded.
    await page.click('.compare summary');
    const alert = page.locator('[data-testid="compare-load-error"]');
    await alert.waitFor();
    assert.match(await alert.innerText(), /The table could not be downloaded/);
    assert.equal(await alert.getAttribute('role'), 'alert');
    assert.deepEqual(await seriousAxeViolations(page), []);
    assert.deepEqual(await lowContrastControls(page), []);
    // The calculator still computes.
    await stillComputes(page);
    // Back online: "Try again" brings the table, and choosing a row works.
    block = false;
    await page.locator('[data-testid="compare-load-error"] button').click();
    await page.waitForSelector('[data-testid="compare-table"]');
    assert.equal(await page.$('[data-testid="compare-load-error"]'), null);
    const downloads = of(chunks, 'compare').length;
    // Closed and opened again: no new download.
    await page.click('.compare summary');
    await page.click('.compare summary');
    await page.waitForSelector('[data-testid="compare-table"]');
    assert.equal(of(chunks, 'compare').length, downloads);
    assert.equal(of(chunks, 'quiz').length, 0, `not the quiz: ${chunks}`);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

test('"Save SVG" downloads its chunk once (pointing at the button starts it); a failed download says so next to the chart', async () => {
  const { context, page, chunks, errors } = await freshPage();
  let block = true;
  await page.route(/\/split_svg\.wasm$/, (route) => (block ? route.abort('internetdisconnected') : route.continue()));
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    // Offline: the click reports the failure under the chart, and the page
    // keeps working.
    await page.click('[data-testid="roofline-svg"]');
    const alert = page.locator('.chart .error[role="alert"]').first();
    await alert.waitFor();
    assert.match(await alert.innerText(), /The SVG export could not be downloaded/);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await stillComputes(page);
    // Online: pointing at the other chart's button fetches the chunk before
    // the click; both charts then save without downloading it again.
    block = false;
    const before = of(chunks, 'svg').length;
    await page.hover('[data-testid="batch-svg"]');
    await page.waitForTimeout(300);
    assert.equal(of(chunks, 'svg').length, before + 1, 'hovering fetched the chunk');
    for (const [id, name, title] of [
      ['batch-svg', 'batch-size.svg', /Attained throughput/],
      ['roofline-svg', 'roofline.svg', /Arithmetic intensity \(FLOPs\/byte\)/],
    ]) {
      const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid="${id}"]`)]);
      assert.equal(dl.suggestedFilename(), name);
      const file = await dl.path();
      const svg = (await import('node:fs')).readFileSync(file, 'utf8');
      assert.match(svg, /^<svg[\s\S]*<\/svg>\s*$/);
      assert.match(svg, title);
    }
    assert.equal(of(chunks, 'svg').length, before + 1, 'no second download');
    assert.equal(of(chunks, 'quiz').length, 0, `not the quiz: ${chunks}`);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

test('leaving the quiz before its chunk arrives breaks nothing; coming back shows it', async () => {
  const { context, page, chunks, errors } = await freshPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route(/\/split_quiz\.wasm$/, async (route) => { await held; await route.continue(); });
  try {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="quiz-loading"]');
    // Back to the calculator while the download is held, then let it finish.
    await page.click('[data-testid="tab-calc"]');
    const draws = await waitForDraw(page, 'roofline-canvas');
    release();
    await page.waitForTimeout(500);
    await page.fill('[data-testid="field-size-B"]', '2048');
    await waitForDraw(page, 'roofline-canvas', draws);
    // The chunk is in: the quiz opens, without a second download.
    await page.click('[data-testid="tab-quiz"]');
    await page.waitForSelector('[data-testid="question"]');
    assert.equal(of(chunks, 'quiz').length, 1, `one download: ${chunks}`);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

const LINK = '?v=1&chip=h100&sz=B:512,D:4096,F:4096';

/** The chip menu's value and the B field's text. */
const chipAndB = (page) => page.evaluate(() => ({
  chip: document.querySelector('[data-testid="chip-select"]').value,
  B: document.querySelector('[data-testid="field-size-B"]').value,
}));

test('opening a link downloads the link reader once, alongside the app, and shows the link', async () => {
  const { context, page, chunks, errors } = await freshPage();
  try {
    await page.goto(server.url + LINK, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    assert.deepEqual(await chipAndB(page), { chip: 'h100', B: '512' });
    // Preloaded by index.html with the shared chunks it needs, and that
    // download is the one the app uses: one request per file.
    assert.equal(of(chunks, 'link').length, 1, `one download: ${chunks}`);
    assert.equal(new Set(chunks).size, chunks.length, `no file twice: ${chunks}`);
    assert.equal(of(chunks, 'quiz').length, 0, `not the quiz: ${chunks}`);
    assert.equal(await page.$('[data-testid="link-notices"]'), null, 'nothing wrong with this link');
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

test('a link whose reader cannot be downloaded opens on the defaults and says so', async () => {
  const { context, page, errors } = await freshPage();
  await page.route(/\/split_link\.wasm$/, (route) => route.abort('internetdisconnected'));
  try {
    await page.goto(server.url + LINK, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    const notices = page.locator('[data-testid="link-notices"]');
    await notices.waitFor();
    assert.match(await notices.innerText(), /none could be read: the app could not download the part that reads and writes links, so the defaults are shown; check the connection and reload the page/);
    assert.equal(await notices.getAttribute('role'), 'alert');
    assert.equal((await chipAndB(page)).chip, 'v5e', 'the default chip');
    assert.deepEqual(await seriousAxeViolations(page), []);
    // The link stays in the address, to be read on reload...
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => location.search), LINK);
    // A change cannot be written without the link chunk either (the
    // notice says to check the connection): the page still computes, and
    // the address keeps the link.
    await stillComputes(page);
    await page.waitForTimeout(300);
    assert.equal(await page.evaluate(() => location.search), LINK);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

/**
 * Opens the bare address and makes two history entries: B = 512, then, more
 * than 1.5 s later (which makes a new entry), B = 2048.
 */
async function twoEntries(page) {
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.fill('[data-testid="field-size-B"]', '512');
    await page.waitForFunction(() => location.search.includes('B:512'));
    // More than 1.5 s later a change makes a new entry.
    await page.waitForTimeout(1700);
    await page.fill('[data-testid="field-size-B"]', '2048');
    await page.waitForFunction(() => location.search.includes('B:2048'));
}

test('back after opening the bare address reads the entry with the link reader, downloaded then', async () => {
  const { context, page, chunks, errors } = await freshPage();
  try {
    await twoEntries(page);
    // The first edit downloaded the link chunk (it writes the address too).
    assert.equal(of(chunks, 'link').length, 1, `one download: ${chunks}`);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('[data-testid="field-size-B"]').value === '512');
    assert.equal(of(chunks, 'link').length, 1, `no second download: ${chunks}`);
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('[data-testid="field-size-B"]').value === '2048');
    assert.equal(of(chunks, 'link').length, 1, `no second download: ${chunks}`);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});

test('back to an entry whose reader cannot be downloaded keeps the page as it is and says so', async () => {
  const { context, page, errors } = await freshPage();
  await page.route(/\/split_link\.wasm$/, (route) => route.abort('internetdisconnected'));
  try {
    // Two entries of this page (as a previous visit's writes left them):
    // B = 512, then B = 2048, shown.
    await page.goto(server.url, { waitUntil: 'load' });
    await waitForDraw(page, 'roofline-canvas');
    await page.evaluate(() => {
      history.pushState(null, '', '?v=1&sz=B:512,D:4096,F:4096');
      history.pushState(null, '', '?v=1&sz=B:2048,D:4096,F:4096');
    });
    await page.fill('[data-testid="field-size-B"]', '2048');
    await page.goBack();
    const notices = page.locator('[data-testid="link-notices"]');
    await notices.waitFor();
    assert.match(await notices.innerText(), /none could be read: the app could not download the part that reads and writes links, so the page still shows the previous entry; check the connection/);
    assert.equal((await chipAndB(page)).B, '2048', 'the page is as it was');
    assert.ok(await page.evaluate(() => location.search.includes('B:512')), 'the address is the entry gone back to');
    await stillComputes(page);
    assert.deepEqual(errors, [], 'no uncaught error or panic');
  } finally {
    await context.close();
  }
});
