// Links as users share them: the address always holds the state, a link
// reopens exactly that page, and a link that was cut, edited or made by hand
// (or by an attacker) never breaks the app. Every bad parameter is named in a
// notice on the page that says what was used instead.
//
// Run against another build with ROOFLINE_DIST=/path/to/dist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, openPage, canvasStats, screenshot, watchPage,
} from './harness.mjs';

let server;
let browser;
/** What a clean page holds that hostile links must not add to. */
let baseline;

serveAndLaunch(async (s, b) => {
  server = s;
  browser = b;
  const { page, context } = await openPage(browser, server.url);
  try {
    await drawn(page);
    baseline = await page.evaluate(() => ({
      scripts: document.scripts.length,
      images: document.images.length,
    }));
  } finally {
    await context.close();
  }
}, process.env.ROOFLINE_DIST);

const CANVASES = ['roofline-canvas', 'batch-canvas'];

/**
 * Waits until both charts have drawn at least once, or show why they cannot
 * (the batch chart of an operation without a batch dimension).
 */
async function drawn(page, timeout = 8000) {
  await page.waitForFunction(
    (ids) => ids.every((id) => {
      const c = document.querySelector(`[data-testid="${id}"]`);
      return c && (Number(c.dataset.draws ?? 0) > 0 || c.closest('figure')?.querySelector('p.error'));
    }),
    CANVASES,
    { timeout },
  );
}

/** Waits until both charts are drawn (or explain why not) and their draw counters stop moving. */
async function settled(page) {
  await drawn(page);
  const counts = () => page.evaluate((ids) => ids.map((id) => document.querySelector(`[data-testid="${id}"]`).dataset.draws).join(), CANVASES);
  let last = await counts();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(150);
    const now = await counts();
    if (now === last) return;
    last = now;
  }
}

/**
 * Every result's data-value, every input's and select's value, the pairs and
 * the notices. The chip's numbers are opened first: their fields are built
 * when first opened.
 */
async function snapshot(page) {
  await page.evaluate(() => { document.querySelector('details.chip-numbers').open = true; });
  await page.waitForSelector('[data-testid="field-peak-vector"]', { state: 'attached' });
  return page.evaluate(() => {
    const results = {};
    for (const e of document.querySelectorAll('[data-testid^="result-"]')) {
      results[e.dataset.testid] = e.getAttribute('data-value') ?? e.textContent;
    }
    const inputs = {};
    for (const e of document.querySelectorAll('input[data-testid], select[data-testid]')) {
      // The "add a curve" boxes are scratch space, not state.
      if (e.dataset.testid === 'pair-d' || e.dataset.testid === 'pair-f') continue;
      inputs[e.dataset.testid] = e.type === 'checkbox' ? e.checked : e.value;
    }
    return {
      results,
      inputs,
      pairs: [...document.querySelectorAll('[data-testid="batch-pair"]')].map((e) => e.textContent.trim()),
      notices: [...document.querySelectorAll('[data-testid="link-notices"] li')].map((l) => `${l.dataset.param}: ${l.textContent}`),
    };
  });
}

/** What differs between two flat objects, one line per key (readable where deepEqual's diff elides lines). */
function differences(actual, expected, label = '') {
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...keys].filter((k) => !Object.is(actual[k], expected[k]) && JSON.stringify(actual[k]) !== JSON.stringify(expected[k]))
    .map((k) => `${label}${k} is ${JSON.stringify(actual[k])}, expected ${JSON.stringify(expected[k])}`);
}

const notices = (page) => page.$$eval('[data-testid="link-notices"] li', (ls) => ls.map((l) => ({ param: l.dataset.param, message: l.textContent })));
const resultValue = async (page, key) => Number(await page.getAttribute(`[data-testid="result-${key}"]`, 'data-value'));
const search = (page) => new URL(page.url()).search;

// ---------------------------------------------------------------------------
// 1. Hostile links
// ---------------------------------------------------------------------------

const enc = encodeURIComponent;
const SCRIPT = '<script>alert(1)</script>';
const IMG = '"><img src=x onerror=alert(1)>';
const LONG = (ch) => ch.repeat(10000);

/**
 * Each case: `query` (after the `?`, as the browser receives it), `param`
 * (the key a notice must carry in data-param; an array accepts any of them),
 * optional `names` (a pattern the notice's message must match to name the
 * parameter, when it names it other than by its key), and `mayBeValid` (the
 * value is in range, so the app may accept it without a notice, but then it
 * must work).
 */
const HOSTILE = [
  // Numbers that are not numbers, or not usable ones.
  { query: 'sz=B:NaN,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  { query: 'sz=B:256,D:inf,F:4096', param: 'sz', names: /\bD\b/ },
  { query: 'sz=B:256,D:4096,F:-Infinity', param: 'sz', names: /\bF\b/ },
  { query: 'sz=B:-1,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  { query: 'sz=B:0,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  { query: 'sz=B:1e400,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  { query: 'sz=B:,D:,F:', param: 'sz', names: /\bB\b/ },
  { query: 'sz=', param: 'sz' },
  { query: 'peak.bf16=NaN', param: 'peak.bf16' },
  { query: 'peak.bf16=Infinity', param: 'peak.bf16' },
  { query: 'peak.bf16=-1', param: 'peak.bf16' },
  { query: 'peak.bf16=0', param: 'peak.bf16' },
  { query: 'peak.bf16=1e400', param: 'peak.bf16' },
  { query: 'peak.bf16=', param: 'peak.bf16' },
  { query: 'bw.hbm=inf', param: 'bw.hbm' },
  { query: 'bw.hbm=-1e12', param: 'bw.hbm' },
  { query: 'bw.hbm=', param: 'bw.hbm' },
  { query: 'bw.hbm=1e400', param: 'bw.hbm' },
  { query: 'n=0', param: 'n' },
  { query: 'n=-1', param: 'n' },
  { query: 'n=NaN', param: 'n' },
  { query: 'n=1e400', param: 'n' },
  { query: 'n=99999', param: 'n' },
  { query: 'n=2.5', param: 'n' },
  { query: 'n=', param: 'n' },
  { query: 'part=0', param: 'part' },
  { query: 'part=NaN', param: 'part' },
  { query: 'seed=-1', param: 'seed' },
  { query: 'seed=1e400', param: 'seed' },
  { query: 'seed=18446744073709551616', param: 'seed' },
  { query: 'v=NaN', param: 'v' },
  { query: 'v=0', param: 'v' },
  { query: 'v=1e400', param: 'v' },
  { query: 'v=', param: 'v' },
  { query: 'pairs=NaNxInfinity', param: 'pairs' },
  { query: 'pairs=1e400x1,-1x5', param: 'pairs' },
  { query: 'pairs=', param: 'pairs' },
  { query: 'pairs=1x1,2x2,3x3,4x4,5x5,6x6,7x7,8x8,9x9', param: 'pairs' },
  { query: 'bs=NaN', param: 'bs' },
  { query: 'dt=', param: 'dt' },
  { query: 'dt=fp4', param: 'dt' },
  { query: 'chip=h100&l1=vmem', param: 'l1' },
  { query: 'l2=hbm', param: 'l2' },
  { query: 'link=hbm', param: 'link' },
  { query: 'shard=B', param: 'shard' },
  { query: 'chip=', param: 'chip' },
  { query: 'chip', param: 'chip' },
  // Sizes outside 1..1e21, or whose product overflows f64: each is named by its dimension.
  { query: 'sz=B:1e300,D:1e300,F:1e300', param: 'sz', names: /\b[BDF]\b/ },
  { query: 'sz=B:1e200,D:1e200,F:4096', param: 'sz', names: /\b[BD]\b/ },
  { query: 'sz=B:1.7976931348623157e308,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  { query: 'op=add&chip=h100&sz=N:1e308', param: 'sz', mayBeValid: true, names: /\bN\b/ },
  { query: `op=${enc('bf16[B,S,D]*bf16[D,F]->bf16[B,S,F]')}&sz=B:1e100,S:1e100,D:1e100,F:1e100`, param: 'sz', names: /\b[BSDF]\b/ },
  // Repeated keys: the last wins, with a notice.
  { query: 'chip=h100&chip=b200', param: 'chip' },
  { query: 'sz=B:1,D:2,F:3&sz=B:512,D:4096,F:4096', param: 'sz' },
  { query: 'n=2&n=abc', param: 'n' },
  { query: 'v=1&v=1', param: 'v' },
  { query: 'sz=B:1,B:2,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  // Unknown and odd keys.
  { query: 'foo=1', param: 'foo' },
  { query: 'NaN=1', param: 'nan', names: /unknown parameter/ },
  { query: '=1', param: '', names: /without a name/ },
  { query: '%', param: '%' },
  { query: 'peak.xyz=1e14', param: 'peak.xyz' },
  { query: Array.from({ length: 100 }, (_, i) => `k${i}=1`).join('&'), param: 'k0' },
  // Unicode and invisible characters.
  { query: `chip=${enc('🚀')}`, param: 'chip' },
  { query: `sz=B:${enc('４０９６')},D:4096,F:4096`, param: 'sz', names: /\bB\b/ },
  { query: `chip=${enc('\u202Eevil\u0000')}`, param: 'chip' },
  { query: `q=${enc('日本語')}`, param: 'q' },
  { query: `bs=${enc('ｌｉｎ')}`, param: 'bs' },
  { query: `op=${enc('😀[B]->😀[]')}`, param: 'op' },
  // Broken percent-encoding.
  { query: 'chip=%ZZ', param: 'chip' },
  { query: 'chip=%E0%A4%A', param: 'chip' },
  { query: 'sz=B:%FF%FE,D:4096,F:4096', param: 'sz', names: /\bB\b/ },
  { query: 'op=%', param: 'op' },
  { query: 'pairs=%G1x1', param: 'pairs' },
  { query: 'n=%', param: 'n' },
  // 10,000-character values (and a key).
  { query: `chip=${LONG('A')}`, param: 'chip' },
  { query: `op=${LONG('x')}`, param: 'op' },
  { query: `sz=B:${LONG('9')},D:4096,F:4096`, param: 'sz', names: /\bB\b/ },
  { query: `pairs=${LONG('1')}`, param: 'pairs' },
  { query: `q=${LONG('a')}`, param: 'q' },
  { query: `bx=${LONG('B')}`, param: 'bx' },
  { query: `peak.bf16=${LONG('1')}`, param: 'peak.bf16' },
  { query: `seed=${LONG('7')}`, param: 'seed' },
  { query: `${LONG('K')}=1`, param: LONG('k') },
  // Values that are in range but extreme: accepted or rejected, the page must work.
  { query: 'peak.bf16=5e307', param: 'peak.bf16', mayBeValid: true },
  { query: 'pairs=1e-300x1e-300', param: 'pairs', mayBeValid: true },
  { query: 'bw.hbm=1e-310', param: 'bw.hbm', mayBeValid: true },
  { query: 'peak.bf16=1e-320', param: 'peak.bf16', mayBeValid: true },
  { query: 'n=2&bw.ici=1e-320', param: ['bw.ici', 'n'], mayBeValid: true },
  { query: 'sz=B:5e-324,D:5e-324,F:4096', param: 'sz', names: /\b[BD]\b/ },
  // A valid shortcut on a chip that cannot run it on its matrix unit (TPU v5e
  // lists no fp32 peak); the add itself runs on the vector unit.
  { query: 'op=add&unit=matrix', param: ['dt', 'op'] },
  // An operation whose dimensions spell non-finite numbers.
  { query: `chip=h100&op=${enc('fp32[NaN]->fp32[]')}`, param: 'op' },
  { query: `op=${enc('bf16[B,Infinity]*bf16[Infinity,F]->bf16[B,F]')}`, param: 'op' },
  // The fragment is not part of the state.
  { query: `chip=h100&foo=1#${enc(SCRIPT)}`, param: 'foo' },
];

// <script> and "><img src=x onerror=…> in every text field of the link, the
// dimension names in sz, and in keys.
const TEXT_KEYS = ['v', 'view', 'chip', 'peak.bf16', 'bw.hbm', 'op', 'sz', 'dt', 'l1', 'l2', 'n',
  'link', 'shard', 'bx', 'bs', 'pairs', 'q', 'part', 'seed'];
for (const [label, payload] of [['script', SCRIPT], ['img', IMG]]) {
  for (const key of TEXT_KEYS) HOSTILE.push({ query: `${key}=${enc(payload)}`, param: key, label: `${key}=${label}` });
  // Unencoded, as typed into the address bar.
  HOSTILE.push({ query: `chip=${payload}`, param: 'chip', label: `raw chip=${label}` });
  HOSTILE.push({ query: `op=${payload}`, param: 'op', label: `raw op=${label}` });
  HOSTILE.push({ query: `sz=B:${enc(payload)},D:4096,F:4096`, param: 'sz', names: /\bB\b/, label: `sz=B:${label}` });
  HOSTILE.push({ query: `sz=${enc(payload)}:5`, param: 'sz', label: `sz=${label}:5` });
  HOSTILE.push({ query: `${enc(payload)}=1`, param: payload, label: `key ${label}` });
  HOSTILE.push({ query: `peak.${enc(payload)}=1e14`, param: `peak.${payload}`, label: `peak.${label}` });
  HOSTILE.push({ query: `bw.${enc(payload)}=1e12`, param: `bw.${payload}`, label: `bw.${label}` });
}

/** A notice's data-param is the key, lower-cased, trimmed and clipped to 40 characters (plus '…'). */
function paramMatches(actual, wanted) {
  const w = wanted.trim().toLowerCase();
  if (actual === w) return true;
  return actual.endsWith('…') && actual.length > 1 && w.startsWith(actual.slice(0, -1));
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A fresh page in `context` that records problems (see `watchPage`). */
async function newPage(context) {
  const page = await context.newPage();
  return { page, problems: watchPage(page) };
}

/**
 * Waits until each chart has drawn or shows why it cannot, or the page throws
 * (a crashed page never draws). Returns what is wrong with the charts: the
 * roofline must be drawn; the batch chart must be drawn or explain that the
 * operation has nothing to sweep (an elementwise add, a dot product).
 */
async function chartFailures(page, timeout = 10000) {
  const states = () => page.evaluate((ids) => ids.map((id) => {
    const c = document.querySelector(`[data-testid="${id}"]`);
    if (!c) return 'missing';
    if (Number(c.dataset.draws ?? 0) > 0) return 'drawn';
    const msg = c.closest('figure')?.querySelector('p.error')?.textContent.trim();
    return msg ? `message: ${msg}` : 'pending';
  }), CANVASES);
  let timer;
  const thrown = new Promise((resolve) => page.once('pageerror', resolve));
  const settledCharts = page.waitForFunction((ids) => ids.every((id) => {
    const c = document.querySelector(`[data-testid="${id}"]`);
    return c && (Number(c.dataset.draws ?? 0) > 0 || c.closest('figure')?.querySelector('p.error'));
  }), CANVASES, { timeout }).catch(() => {});
  await Promise.race([settledCharts, thrown, new Promise((r) => { timer = setTimeout(r, timeout); })]);
  clearTimeout(timer);
  // A moment for a chart about to draw, or a panic about to surface.
  await page.waitForTimeout(50);
  const [roof, batch] = await states().catch(() => ['unreadable', 'unreadable']);
  const out = [];
  if (roof !== 'drawn') out.push(`roofline-canvas not drawn (${roof})`);
  if (batch !== 'drawn' && !/has no dimension .* to sweep/.test(batch)) out.push(`batch-canvas not drawn (${batch})`);
  return out;
}

/** Opens one hostile link in a fresh page of `context`; returns every way it went wrong (empty when fine). */
async function hostileFailures(context, c) {
  const { page, problems } = await newPage(context);
  const failures = [];
  try {
    await page.goto(`${server.url}?${c.query}`, { waitUntil: 'load' });
    failures.push(...await chartFailures(page));
    const seen = await page.evaluate(() => {
      const values = [...document.querySelectorAll('input, select, textarea')].map((e) => e.value);
      const text = `${document.title}\n${document.body.innerText}\n${values.join('\n')}`;
      const flops = document.querySelector('[data-testid="result-flops"]')?.getAttribute('data-value');
      return {
        bad: text.match(/.{0,40}(NaN|Infinity).{0,20}/g) ?? [],
        badValues: [...document.querySelectorAll('[data-value]')]
          .filter((e) => /NaN|Infinity/.test(e.dataset.value)).map((e) => `${e.dataset.testid}=${e.dataset.value}`),
        flops,
        stale: /last valid results/.test(document.body.innerText),
        fieldErrors: [...document.querySelectorAll('[data-testid^="error-"]')]
          .map((e) => e.textContent.trim()).filter(Boolean),
        scripts: document.scripts.length,
        images: document.images.length,
        embeds: document.querySelectorAll('iframe, object, embed, frame').length,
        onAttrs: [...document.querySelectorAll('*')].flatMap((e) => [...e.attributes]
          .filter((a) => /^on/i.test(a.name)).map((a) => `<${e.localName} ${a.name}>`)),
        imgX: document.querySelector('img[src=x]') !== null,
        notices: [...document.querySelectorAll('[data-testid="link-notices"] li')]
          .map((l) => ({ param: l.dataset.param, message: l.textContent })),
      };
    });
    if (problems.length) failures.push(...problems.map((p) => p.split('\n')[0]));
    if (seen.bad.length || seen.badValues.length) failures.push(`NaN/Infinity on the page: ${JSON.stringify([...seen.bad, ...seen.badValues].slice(0, 4))}`);
    const flops = Number(seen.flops);
    if (!seen.flops || !Number.isFinite(flops) || flops <= 0) failures.push(`no results (result-flops data-value ${JSON.stringify(seen.flops)})`);
    if (seen.stale) failures.push('the page says a field is invalid and shows the "last valid results"');
    if (seen.fieldErrors.length) failures.push(`field errors on load: ${JSON.stringify(seen.fieldErrors)}`);
    if (seen.scripts !== baseline.scripts) failures.push(`${seen.scripts} script elements (a clean page has ${baseline.scripts})`);
    if (seen.images !== baseline.images || seen.imgX) failures.push(`an <img> was injected (${seen.images} images)`);
    if (seen.embeds) failures.push('an iframe/object/embed was injected');
    if (seen.onAttrs.length) failures.push(`inline event handlers in the DOM: ${seen.onAttrs.slice(0, 3).join(' ')}`);

    const wanted = [c.param].flat();
    const mine = seen.notices.filter((n) => wanted.some((w) => paramMatches(n.param, w)));
    if (mine.length === 0) {
      if (!(c.mayBeValid && seen.notices.length === 0)) {
        failures.push(`no notice with data-param ${wanted.map((w) => JSON.stringify(w.slice(0, 44))).join(' or ')}; notices: ${JSON.stringify(seen.notices).slice(0, 300)}`);
      }
    } else {
      const names = (n) => (c.names ? c.names.test(n.message) : false)
        || new RegExp(`(^|[^a-z0-9._])${escapeRe(n.param)}([^a-z0-9_]|$)`, 'i').test(n.message);
      if (!mine.some(names)) failures.push(`the notice does not name the parameter: ${JSON.stringify(mine[0].message)}`);
      if (!mine.some((n) => /using|ignored|skipped|kept|reading/i.test(n.message))) {
        failures.push(`the notice does not say what was used instead: ${JSON.stringify(mine[0].message)}`);
      }
    }
    // The address now holds the canonical state, and nothing of the payload.
    const s = search(page);
    if (!/^\?v=1(&|$)/.test(s)) failures.push(`the address was not rewritten to the canonical state: ${s.slice(0, 80)}`);
    let decoded = s;
    try { decoded = decodeURIComponent(s); } catch { failures.push(`the address is not well percent-encoded: ${s.slice(0, 80)}`); }
    if (/<script|onerror/i.test(decoded)) failures.push(`the address still carries the payload: ${s.slice(0, 80)}`);
    if (failures.length) await screenshot(page, `links-hostile-${c.index}`).catch(() => {});
  } finally {
    await page.close();
  }
  return failures;
}

// One browser context (a new one costs more than the page), a fresh page per
// link, two at a time.
test(`${HOSTILE.length} hostile links: the page renders, runs no script, shows no NaN and names the parameter`, { concurrency: 2 }, async (t) => {
  assert.ok(HOSTILE.length >= 40);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  try {
    await Promise.all(HOSTILE.map((c, index) => {
      const name = c.label ?? (c.query.length > 70 ? `${c.query.slice(0, 60)}… (${c.query.length} chars)` : c.query);
      return t.test(`?${name}`, async () => {
        const failures = await hostileFailures(context, { ...c, index });
        assert.deepEqual(failures, [], `?${name}`);
      });
    }));
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------------------
// 2. Round trip: a link reopens exactly that page
// ---------------------------------------------------------------------------

/** Text fields holding numbers are compared as numbers ("3000" and "3e3" read the same). */
function asNumbers(inputs) {
  const out = {};
  for (const [k, v] of Object.entries(inputs)) {
    out[k] = typeof v === 'string' && /^field-(size|peak|bw|chips)/.test(k) && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return out;
}

/** Opens `url` in a fresh context and checks that it shows what `first` showed. */
async function reopenedMatches(url, first, firstCanvases) {
  const { page, context, problems } = await openPage(browser, url);
  try {
    await settled(page);
    const second = await snapshot(page);
    assert.deepEqual(second.notices, [], 'the address the app wrote gives no notice');
    assert.deepEqual(differences(second.results, first.results, 'reopened: '), [], 'same results');
    assert.deepEqual(second.pairs, first.pairs, 'same batch-chart curves');
    for (const id of CANVASES) {
      assert.deepEqual(await canvasStats(page, id), firstCanvases[id], `${id} is the same picture`);
    }
    assert.equal(page.url(), url, 'the address is already canonical: it is not rewritten');
    assert.deepEqual(differences(asNumbers(second.inputs), asNumbers(first.inputs), 'reopened: '), [],
      'every input of the reopened page shows what the sender\'s showed');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

test('a hand-made link and a state built by hand each reopen exactly that page', async () => {
  const link = '?v=1&chip=h100&peak.fp8=1.5e15&bw.hbm=3e12&op=matmul&sz=B:64,D:8192,F:8192&dt=fp8'
    + '&l2=pcie&n=2&bs=lin&pairs=8192x8192,2048x2048';
  const { page, context, problems } = await openPage(browser, server.url + link);
  try {
    await settled(page);
    const first = await snapshot(page);
    assert.deepEqual(first.notices, [], 'a valid link gives no notice');
    assert.equal(search(page), link, 'a canonical link is kept as it is');
    assert.equal(first.inputs['chip-select'], 'h100');
    assert.equal(first.inputs['field-size-B'], '64');
    assert.equal(first.inputs['field-chips'], '2');
    assert.equal(first.inputs['batch-log'], false);
    assert.equal(first.pairs.length, 2);
    const [B, D, F] = [64, 8192, 8192];
    assert.equal(Number(first.results['result-flops']), 2 * B * D * F);
    assert.equal(Number(first.results['result-bytes-read']), 2 * B * D + 2 * D * F);
    assert.ok(Math.abs(Number(first.results['result-critical-intensity']) - 1.5e15 / 3e12) < 1e-9, 'your own fp8 peak and HBM bandwidth');
    assert.ok(first.results['result-net-t-comms'] !== undefined, 'two chips: the network roofline is shown');
    const canvases = {};
    for (const id of CANVASES) canvases[id] = await canvasStats(page, id);
    await screenshot(page, 'links-roundtrip');
    assert.deepEqual(problems, []);
    await reopenedMatches(page.url(), first, canvases);
  } finally {
    await context.close();
  }

  // Now a state made with the controls.
  const built = await openPage(browser, server.url);
  try {
    const p = built.page;
    await settled(p);
    await p.selectOption('[data-testid="chip-select"]', 'v6e');
    await p.selectOption('[data-testid="op-shortcut"]', 'matmul');
    await p.waitForFunction(() => document.querySelector('[data-testid="field-op"]').value.includes('bf16[D,F]'));
    await p.fill('[data-testid="field-size-B"]', '3000');
    await p.fill('[data-testid="field-size-F"]', '1e4');
    await p.fill('[data-testid="field-chips"]', '4');
    // Two more lines (v6e has no VMEM: the second line is off by default).
    await p.check('[data-testid="line-pcie"]');
    await p.check('[data-testid="line-dcn"]');
    await p.waitForFunction(() => new URL(location.href).searchParams.get('lv') === 'hbm,pcie,dcn');
    await p.uncheck('[data-testid="batch-log"]');
    await p.fill('[data-testid="pair-d"]', '2048');
    await p.fill('[data-testid="pair-f"]', '512');
    await p.click('[data-testid="pair-add"]');
    // Three pairs, and the operation's own curve (F = 1e4 is no pair's).
    await p.waitForFunction(() => document.querySelectorAll('[data-testid="batch-pair"]').length === 4);
    await settled(p);
    const first = await snapshot(p);
    assert.equal(Number(first.results['result-flops']), 2 * 3000 * 4096 * 1e4);
    const canvases = {};
    for (const id of CANVASES) canvases[id] = await canvasStats(p, id);
    assert.deepEqual(built.problems, []);
    await reopenedMatches(p.url(), first, canvases);
  } finally {
    await built.context.close();
  }
});

test('every documented example link, and every key set to a valid value, opens as it is', async () => {
  const op = (s) => s.replaceAll('[', '%5B').replaceAll(']', '%5D').replaceAll('>', '%3E');
  const links = [
    // The examples of docs/url-schema.md.
    '?v=1',
    '?v=1&chip=h100&sz=B:512,D:4096,F:4096',
    '?v=1&op=matmul&n=2&link=ici&shard=D',
    '?v=1&chip=v6e&op=matmul&bs=lin&pairs=8192x8192,4096x4096,1024x1024',
    '?v=1&peak.bf16=2e14&bw.hbm=1e12&l2=none',
    '?v=1&chip=h100&op=add&sz=N:1e8',
    '?v=1&chip=h200&op=batched&l1=pcie&l2=hbm',
    '?v=1&chip=b200&op=bf16%5BB,S,D%5D*bf16%5BD,F%5D-%3Ebf16%5BB,S,F%5D&dt=fp8',
    '?v=1&chip=h100&op=fp32%5BN%5D-%3Efp32%5B%5D',
    '?v=1&view=quiz&q=q2&part=2&seed=42',
    '?v=1&op=add',
    '?v=1&chip=mi300x&op=add&unit=matrix',
    '?v=1&op=matmul&lv=hbm,vmem,ici,pcie',
    '?v=1&chip=h100&op=matmul&roofs=fp8,vector',
    // Keys the examples leave at their defaults.
    '?v=1&chip=h100&bw.vmem=2e13&l1=vmem',
    '?v=1&n=2&link=dcn',
    '?v=1&op=matmul&bx=D',
    `?v=1&op=${op('bf16[B,D,E]*bf16[D,E,F]->bf16[B,F]')}&n=2&shard=E`,
    `?v=1&op=${op('bf16[S,D]*bf16[D,F]->bf16[S,F]')}&bx=F`,
  ];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const wrong = [];
  try {
    for (const link of links) {
      const { page, problems } = await newPage(context);
      try {
        await page.goto(server.url + link);
        const quiz = link.includes('view=quiz');
        if (quiz) await page.waitForSelector('[data-testid="question"]');
        else await settled(page);
        const got = search(page);
        const list = await notices(page);
        if (got !== link) wrong.push(`${link} was rewritten to ${got}`);
        if (list.length) wrong.push(`${link} gives notices ${JSON.stringify(list)}`);
        if (problems.length) wrong.push(`${link}: ${problems.join('; ')}`);
        const shown = await page.evaluate(() => ({
          flops: document.querySelector('[data-testid="result-flops"]')?.getAttribute('data-value'),
          errors: [...document.querySelectorAll('[data-testid^="error-"]')].map((e) => e.textContent.trim()).filter(Boolean),
        }));
        if (!quiz && !(Number(shown.flops) > 0)) wrong.push(`${link} shows no results`);
        if (shown.errors.length) wrong.push(`${link} shows field errors ${JSON.stringify(shown.errors)}`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await context.close();
  }
  assert.deepEqual(wrong, [], 'a valid link is kept as it is, with no notice');
});

// ---------------------------------------------------------------------------
// 3. The address follows typing; back and forward restore
// ---------------------------------------------------------------------------

/** Records every pushState / replaceState the app makes from now on, in window.__writes. */
const recordWrites = (page) => page.evaluate(() => {
  window.__writes = [];
  for (const m of ['pushState', 'replaceState']) {
    const original = history[m].bind(history);
    history[m] = (state, title, url) => {
      window.__writes.push(`${m === 'pushState' ? 'push' : 'replace'} ${new URL(url, location.href).search}`);
      return original(state, title, url);
    };
  }
});
const takeWrites = (page) => page.evaluate(() => window.__writes.splice(0));

test('the address follows typing without new entries or scrolling; back and forward restore', async () => {
  const start = '?v=1&chip=h100&sz=B:512,D:4096,F:4096';
  const { page, context, problems } = await openPage(browser, server.url + start, { viewport: { width: 1280, height: 600 } });
  try {
    await settled(page);
    const h0 = await page.evaluate(() => history.length);
    const flopsFor = (B) => 2 * B * 4096 * 4096;
    await recordWrites(page);

    // Scroll a little, keeping the B field in view (the inputs' column
    // scrolls on its own in a short window), then type into it.
    await page.evaluate(() => {
      window.scrollTo(0, 150);
      const r = document.querySelector('[data-testid="field-size-B"]').getBoundingClientRect();
      if (r.bottom > innerHeight) document.querySelector('.inputs').scrollTop += r.bottom - innerHeight + 40;
    });
    const y0 = await page.evaluate(() => window.scrollY);
    assert.equal(y0, 150, 'the page scrolls');
    const box = await page.evaluate(() => {
      const r = document.querySelector('[data-testid="field-size-B"]').getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, h: innerHeight };
    });
    assert.ok(box.top >= 0 && box.bottom <= box.h, 'B is in view, so focusing it needs no scroll');
    await page.click('[data-testid="field-size-B"]', { clickCount: 3 });
    await page.keyboard.type('1024', { delay: 40 });
    await page.waitForFunction(() => location.search.includes('sz=B:1024,'));
    const sz = (b) => `?v=1&chip=h100&sz=B:${b},D:4096,F:4096`;
    assert.deepEqual(await takeWrites(page),
      [`push ${sz(1)}`, `replace ${sz(10)}`, `replace ${sz(102)}`, `replace ${sz(1024)}`],
      'every keystroke is in the address; the edit is one entry, replaced while typing');
    assert.equal(await page.evaluate(() => history.length), h0 + 1);
    assert.equal(await page.evaluate(() => window.scrollY), y0, 'typing does not scroll');
    assert.equal(await resultValue(page, 'flops'), flopsFor(1024));

    // A change more than 1.5 s later is a new entry.
    await page.waitForTimeout(1600);
    await page.selectOption('[data-testid="chip-select"]', 'b200');
    await page.waitForFunction(() => location.search.includes('chip=b200'));
    assert.deepEqual(await takeWrites(page), ['push ?v=1&chip=b200&sz=B:1024,D:4096,F:4096']);
    assert.equal(await page.evaluate(() => history.length), h0 + 2, 'the chip change is a new entry');
    assert.equal(await page.evaluate(() => window.scrollY), y0, 'changing the chip does not scroll');

    // Back twice and forward twice. Collect every step, then compare, so
    // one failure does not hide the next.
    const state = async (expectSearch, expectFlops) => {
      await page.waitForFunction((s) => location.search === s, expectSearch, { timeout: 5000 }).catch(() => {});
      await page.waitForFunction(
        (f) => Number(document.querySelector('[data-testid="result-flops"]').dataset.value) === f,
        expectFlops, { timeout: 5000 },
      ).catch(() => {});
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return page.evaluate(() => ({
        search: location.search,
        chip: document.querySelector('[data-testid="chip-select"]').value,
        B: document.querySelector('[data-testid="field-size-B"]').value,
        flops: Number(document.querySelector('[data-testid="result-flops"]').dataset.value),
        critical: Number(document.querySelector('[data-testid="result-critical-intensity"]').dataset.value).toFixed(6),
      }));
    };
    const h100 = (9.89e14 / 3.35e12).toFixed(6);
    const b200 = await page.evaluate(() => Number(document.querySelector('[data-testid="result-critical-intensity"]').dataset.value).toFixed(6));
    assert.notEqual(b200, h100);
    const expected = [
      { search: sz(1024), chip: 'h100', B: '1024', flops: flopsFor(1024), critical: h100 },
      { search: start, chip: 'h100', B: '512', flops: flopsFor(512), critical: h100 },
      { search: sz(1024), chip: 'h100', B: '1024', flops: flopsFor(1024), critical: h100 },
      { search: '?v=1&chip=b200&sz=B:1024,D:4096,F:4096', chip: 'b200', B: '1024', flops: flopsFor(1024), critical: b200 },
    ];
    const wrong = [];
    for (const [i, step] of ['back', 'back again', 'forward', 'forward again'].entries()) {
      await (i < 2 ? page.goBack() : page.goForward());
      wrong.push(...differences(await state(expected[i].search, expected[i].flops), expected[i], `after ${step}: `));
    }
    await screenshot(page, 'links-history');
    assert.deepEqual(wrong, [], 'back, back, forward, forward: the chip menu, the B field, the results and the address agree');
    assert.equal(await page.evaluate(() => history.length), h0 + 2, 'restoring adds no entry');
    assert.ok((await takeWrites(page)).every((w) => w.startsWith('replace')), 'restoring never pushes');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('opening a link that is not canonical rewrites the address in place (no extra history entry)', async () => {
  const lengths = {};
  for (const link of ['?v=1&chip=h100', '?chip=h100', '?CHIP=h100&v=1&foo=1']) {
    const { page, context, problems } = await openPage(browser, server.url + link);
    try {
      await settled(page);
      assert.equal(search(page), '?v=1&chip=h100');
      lengths[link] = await page.evaluate(() => history.length);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
  // about:blank and the page: 2 entries each; Back must leave the app, not
  // return to the same state under its original address.
  assert.deepEqual(lengths, { '?v=1&chip=h100': 2, '?chip=h100': 2, '?CHIP=h100&v=1&foo=1': 2 });
});

// ---------------------------------------------------------------------------
// 4. Copy link
// ---------------------------------------------------------------------------

test('"Copy link" copies the address and says so', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('dialog', async (d) => { problems.push(`dialog opened: ${d.message()}`); await d.dismiss(); });
  try {
    await page.goto(`${server.url}?v=1&chip=h200&op=batched`);
    await settled(page);
    await page.fill('[data-testid="field-size-B"]', '96');
    await page.waitForFunction(() => location.search.includes('B:96'));
    assert.equal(await page.textContent('[data-testid="copy-status"]'), '', 'no status before copying');
    await page.click('[data-testid="copy-link"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="copy-status"]').textContent.trim() !== '');
    const status = page.locator('[data-testid="copy-status"]');
    assert.match(await status.textContent(), /copied/i);
    assert.ok(await status.isVisible(), 'the confirmation is visible');
    assert.equal(await status.getAttribute('role'), 'status', 'and announced');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, page.url());
    assert.match(copied, /chip=h200/);
    assert.match(copied, /B:96/);
    await screenshot(page, 'links-copied');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------------------
// 5. A link from a newer schema version
// ---------------------------------------------------------------------------

test('a link from a newer version says so and reads what it understands', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=2&chip=h100`);
  try {
    await settled(page);
    const list = await notices(page);
    assert.equal(list.length, 1, JSON.stringify(list));
    assert.equal(list[0].param, 'v');
    assert.match(list[0].message, /newer version/);
    assert.match(list[0].message, /v=2/);
    assert.ok(await page.locator('[data-testid="link-notices"]').isVisible());
    assert.equal(await page.inputValue('[data-testid="chip-select"]'), 'h100');
    assert.ok(Math.abs(await resultValue(page, 'critical-intensity') - 9.89e14 / 3.35e12) < 1e-9, 'H100 is loaded');
    assert.equal(search(page), '?v=1&chip=h100', 'the address is rewritten as this version writes it');
    await screenshot(page, 'links-newer-version');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
