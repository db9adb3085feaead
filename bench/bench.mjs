// Roofline Lab benchmark: measures a release build in dist/ and prints the
// figures as a table and as JSON (bench/out/bench-<commit>.json), so two
// commits can be compared.
//
//   node bench/bench.mjs [DIST]             measure DIST (default: $BENCH_DIST or dist/)
//   node bench/bench.mjs --compare A.json B.json   print B minus A
//
// Figures:
//   - gzip size (of the gzip copy the build ships, FILE.gz; zlib level 9
//     for a file without one) of each html/js/wasm/css file in DIST, the first
//     load (all but the chunks) and each chunk (tests/sizes.mjs, as
//     tests/size-budget.mjs counts them), and the code of the main module
//     and the quiz chunk by crate (bench/wasm-code.mjs, after wasm-bindgen,
//     before wasm-opt);
//   - headless Chromium (playwright-core): time from navigation to the first
//     chart drawn (the first `roofline:drawn` performance mark), median over
//     fresh page loads;
//   - input -> both charts redrawn: an in-page script edits the HBM bandwidth
//     field and times from just before the 'input' event to the later of the
//     two new `roofline:drawn` / `batch:drawn` marks (median and p95), and to
//     the next animation frame after both;
//   - on a slow link (Lighthouse's mobile network: 150 ms round trip,
//     1.6 Mbps down, no cache, no CPU slowdown): navigation -> first paint
//     and -> first chart drawn, median of 5 loads, then click on the Quiz
//     tab -> first question shown (the quiz chunk's download); and
//     navigation -> first chart for an address with a link (which also
//     downloads the link reader's chunk), median of 5 loads. What a
//     learner on a phone waits for, measured in a real browser rather than
//     simulated;
//   - cold start: a new browser process with a fresh profile for each of
//     BENCH_COLD_LOADS loads (default 7): navigation -> first paint, ->
//     the wasm downloaded and -> first chart drawn, and the longest
//     main-thread task until a second after it (a
//     `longtask` PerformanceObserver installed before the page's scripts),
//     median and range. What a learner opening a shared link in a new tab
//     waits for; the warm figure above reuses one browser. The loads
//     alternate with the same loads of a peer page (bench/peer: one roofline
//     chart in React and D3), and the ratio of the medians is printed;
//   - Lighthouse 12.2.3 (mobile, its default) scores for performance,
//     accessibility, best practices and SEO, with FCP, LCP and TBT. A failed
//     run is reported and recorded as `lighthouse: null`. The peer page's
//     performance, FCP, LCP and TBT follow (`lighthouse_peer`).
//
// Options (environment): BENCH_DIST, BENCH_OUT (output folder, default
// bench/out), BENCH_LOADS (page loads, default 7, at least 5), BENCH_INPUTS
// (input changes, default 60, at least 50), BENCH_LH_RUNS (Lighthouse runs,
// default 5; each figure is the median, and each run's performance, LCP
// and TBT are kept), BENCH_COLD_LOADS (default 7, at least 3),
// BENCH_ONLY_COLD=1 (sizes and the cold start only), BENCH_ONLY_MEASURE=1
// (of the Chromium figures, only the 10,000 measured kernels), BENCH_SKIP_LIGHTHOUSE=1,
// CHROMIUM (browser binary, default /usr/bin/chromium).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { startServer, launchBrowser, openPage, waitForDraw, root } from '../tests/e2e/harness.mjs';
import { measure, when } from '../tests/sizes.mjs';
import { codeByCrate } from './wasm-code.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const intEnv = (name, dflt, min) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Math.max(min, Number.isFinite(v) ? v : dflt);
};

// ---------------------------------------------------------------- helpers

const median = (xs) => quantile(xs, 0.5);
/** Linear-interpolated quantile (q in [0, 1]) of a non-empty list. */
function quantile(xs, q) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
const round = (x, d = 2) => (x == null ? null : Math.round(x * 10 ** d) / 10 ** d);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const ms = (x) => (x == null ? '-' : `${x.toFixed(1)} ms`);

function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  '))
    .join('\n');
}

function git(...args) {
  try {
    return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- sizes

/**
 * Code by crate of the main module and quiz chunk in `dist`, read from
 * copies that still have names (target/split/release/named/, see
 * scripts/build/build-wasm.sh); null when they are not there or belong to another
 * build than `dist`'s (an older dist/ measured after a newer build). Sizes
 * after wasm-bindgen, before wasm-opt.
 */
function code(dist) {
  const dir = path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, 'target'), 'split', 'release', 'named');
  const main = path.join(dir, 'roofline-lab_bg.wasm');
  if (!fs.existsSync(main)) return null;
  const built = fs.existsSync(path.join(dir, 'app')) ? fs.readFileSync(path.join(dir, 'app'), 'utf8').trim() : null;
  if (!built || !fs.existsSync(path.join(dist, built))) return null;
  const quiz = path.join(dir, 'split_quiz.wasm');
  const top = (r) => ({ total: r.total, crates: r.crates.slice(0, 15) });
  return {
    main: top(codeByCrate(main)),
    quiz: fs.existsSync(quiz) ? top(codeByCrate(quiz)) : null,
  };
}

// ---------------------------------------------------------------- Chromium timings

/** Navigation -> first `roofline:drawn` mark, over `loads` fresh contexts. */
async function firstChart(browser, url, loads) {
  const runs = [];
  const both = [];
  const problems = [];
  for (let i = 0; i < loads; i++) {
    const { page, context, problems: p } = await openPage(browser, url);
    try {
      await page.waitForFunction(
        () => performance.getEntriesByName('roofline:drawn').length > 0
          && performance.getEntriesByName('batch:drawn').length > 0,
        null,
        { timeout: 30000 },
      );
      const t = await page.evaluate(() => ({
        roofline: performance.getEntriesByName('roofline:drawn')[0].startTime,
        batch: performance.getEntriesByName('batch:drawn')[0].startTime,
      }));
      runs.push(round(t.roofline));
      both.push(round(Math.max(t.roofline, t.batch)));
      problems.push(...p);
    } finally {
      await context.close();
    }
  }
  return { median: round(median(runs)), runs, both_charts_median: round(median(both)), problems };
}

/**
 * Cold start: each load in a new browser process with a fresh profile (so
 * nothing is compiled, cached or warm). Navigation -> first contentful
 * paint, -> the app's wasm downloaded, -> first `roofline:drawn` mark, and
 * every long task (over 50 ms) from the start until a second after the
 * chart, read by an observer installed before any page script.
 */
async function coldStart(url, loads, peerUrl = null) {
  const app = { first: [], longest: [], counts: [], paint: [], wasm: [] };
  const peer = { first: [], longest: [], counts: [], paint: [], wasm: [] };
  // With a peer page, the loads alternate (app, peer, app, ...), so both
  // see the same machine at the same moment.
  for (let i = 0; i < loads; i++) {
    await coldLoad(url, app);
    if (peerUrl) await coldLoad(peerUrl, peer);
  }
  const out = coldFigures(app);
  if (peerUrl) {
    out.peer = coldFigures(peer);
    out.ratio_to_peer = round(out.first_chart_median / out.peer.first_chart_median, 3);
    // What the goal would leave even to a chart on the first paint: the
    // app's first paint (its static header, before any script has run)
    // over the peer's first chart.
    out.first_paint_to_peer_chart = out.first_paint_median == null
      ? null : round(out.first_paint_median / out.peer.first_chart_median, 3);
  }
  return out;
}

/** The median and range of one page's cold loads. */
function coldFigures({ first, longest, counts, paint, wasm }) {
  const range = (xs) => [Math.min(...xs), Math.max(...xs)];
  // The median of the loads that recorded the figure (null: none did).
  const medianKnown = (xs) => {
    const known = xs.filter((x) => x != null);
    return known.length ? round(median(known)) : null;
  };
  return {
    first_chart_median: round(median(first)),
    first_chart_range: range(first),
    first_chart_runs: first,
    first_paint_median: medianKnown(paint),
    first_paint_runs: paint,
    wasm_downloaded_median: medianKnown(wasm),
    wasm_downloaded_runs: wasm,
    longest_task_median: round(median(longest)),
    longest_task_range: range(longest),
    longest_task_runs: longest,
    long_tasks_runs: counts,
  };
}

/**
 * One cold load of `url`, its figures pushed to `into`. The page is waited
 * on through the DevTools protocol alone: Playwright's own waits evaluate
 * its helper script in the page, a task of about 10 ms that would land in
 * the middle of the app's start (after the peer's chart, which is drawn by
 * the load event).
 */
async function coldLoad(url, into) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'roofline-cold-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    await context.addInitScript(() => {
      window.__longTasks = [];
      try {
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: true });
      } catch { /* no longtask support: none recorded */ }
      window.__drawn = new Promise((drawn) => new PerformanceObserver((list, seen) => {
        if (!list.getEntriesByName('roofline:drawn').length) return;
        seen.disconnect();
        drawn();
      }).observe({ type: 'mark', buffered: true }));
    });
    const page = context.pages()[0] ?? await context.newPage();
    const cdp = await context.newCDPSession(page);
    const run = async (expression) => {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      if (exceptionDetails) throw new Error(`cold load: ${exceptionDetails.text}`);
      return result.value;
    };
    await page.goto(url, { waitUntil: 'load' });
    let timer;
    try {
      await Promise.race([
        run('window.__drawn.then(() => new Promise((go) => setTimeout(go, 1000)))'),
        new Promise((_, fail) => {
          timer = setTimeout(() => fail(new Error(`cold load: no chart drawn in 30 s (${url})`)), 30000);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    const t = await run(`({
      chart: performance.getEntriesByName('roofline:drawn')[0].startTime,
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      wasm: performance.getEntriesByType('resource').find((e) => e.name.endsWith('_bg.wasm'))?.responseEnd ?? null,
      tasks: window.__longTasks,
    })`);
    into.first.push(round(t.chart));
    into.paint.push(t.paint == null ? null : round(t.paint));
    into.wasm.push(t.wasm == null ? null : round(t.wasm));
    into.longest.push(round(Math.max(0, ...t.tasks.map((x) => x[1]))));
    into.counts.push(t.tasks.length);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * The peer page (bench/peer: one roofline chart in React and D3, the kind
 * of page the cold-start issue compares with), built into bench/peer/dist
 * when its packages are installed; null (and why, on stderr) otherwise.
 */
function peerDist() {
  const dir = path.join(here, 'peer', 'dist');
  if (!fs.existsSync(path.join(here, 'node_modules', 'react-dom'))) {
    console.error('[bench] peer page: its packages are missing (bash scripts/bench.sh installs them); measured without it');
    return null;
  }
  execFileSync(process.execPath, [path.join(here, 'peer', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/**
 * Navigation -> first paint and -> first chart, on an emulated slow link
 * (Lighthouse's mobile network profile), cache off, over `loads` fresh
 * contexts.
 */
async function slowNetwork(browser, url, loads) {
  const paint = [];
  const chart = [];
  const quiz = [];
  const linkChart = [];
  for (let i = 0; i < 2 * loads; i++) {
    // Odd loads open a link: the same chip and operation as the app writes.
    const link = i % 2 === 1;
    const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: 1.6e6 / 8,
        uploadThroughput: 7.5e5 / 8,
      });
      await page.goto(link ? `${url}?v=1&chip=h100&sz=B:512,D:4096,F:4096` : url);
      await page.waitForFunction(
        () => performance.getEntriesByName('roofline:drawn').length > 0,
        null,
        { timeout: 60000 },
      );
      if (link) {
        linkChart.push(round(await page.evaluate(() => performance.getEntriesByName('roofline:drawn')[0].startTime)));
        continue;
      }
      const t = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
        chart: performance.getEntriesByName('roofline:drawn')[0].startTime,
      }));
      if (t.paint != null) paint.push(round(t.paint));
      chart.push(round(t.chart));
      const t0 = Date.now();
      await page.click('[data-testid="tab-quiz"]');
      await page.waitForSelector('[data-testid="question"]', { timeout: 60000 });
      quiz.push(Date.now() - t0);
    } finally {
      await context.close();
    }
  }
  return {
    first_paint_median: round(median(paint)),
    first_chart_median: round(median(chart)),
    first_chart_runs: chart,
    quiz_open_median: round(median(quiz)),
    link_first_chart_median: round(median(linkChart)),
    link_first_chart_runs: linkChart,
  };
}

/**
 * Input -> both charts redrawn. Opens the chip numbers, then in the page edits
 * the HBM bandwidth `n` times (after `warmup` untimed edits), each time
 * waiting for both canvases' data-draws to rise.
 */
async function redraw(browser, url, n, warmup) {
  const { page, context, problems } = await openPage(browser, url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await waitForDraw(page, 'batch-canvas');
    await page.click('.chip-numbers summary');
    await page.waitForSelector('[data-testid="field-bw-hbm"]', { state: 'visible' });
    const res = await page.evaluate(async ([count, skip]) => {
      const input = document.querySelector('[data-testid="field-bw-hbm"]');
      const canvases = ['roofline', 'batch'].map((name) => ({
        name,
        el: document.querySelector(`[data-testid="${name}-canvas"]`),
      }));
      const draws = (c) => Number(c.el.getAttribute('data-draws') ?? 0);
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      const values = ['8.2e11', '9e11', '1e12', '1.1e12', '1.2e12', '1.35e12', '1.5e12', '1.64e12'];
      const drawn = [];
      const toFrame = [];
      let extraDraws = 0;
      for (let i = 0; i < count + skip; i++) {
        // Let the previous frame finish so edits do not overlap.
        await frame();
        await frame();
        const before = canvases.map(draws);
        const marksBefore = canvases.map((c) => performance.getEntriesByName(`${c.name}:drawn`).length);
        let value = values[i % values.length];
        if (value === input.value) value = values[(i + 1) % values.length];
        const done = new Promise((resolve, reject) => {
          const check = () => canvases.every((c, k) => draws(c) > before[k]);
          const obs = new MutationObserver(() => {
            if (check()) { obs.disconnect(); clearTimeout(timer); resolve(); }
          });
          const timer = setTimeout(() => {
            obs.disconnect();
            reject(new Error(`edit ${i} (${value}): charts not redrawn within 5 s `
              + `(draws ${before} -> ${canvases.map(draws)})`));
          }, 5000);
          for (const c of canvases) obs.observe(c.el, { attributes: true, attributeFilter: ['data-draws'] });
        });
        const t0 = performance.now();
        input.value = value;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        // The app may draw synchronously in the handler, before the observer
        // is notified; the observer still gets the mutation records.
        await done;
        const marks = canvases.map((c, k) => {
          const all = performance.getEntriesByName(`${c.name}:drawn`);
          extraDraws += all.length - marksBefore[k] - 1;
          return all[all.length - 1].startTime;
        });
        const end = Math.max(...marks);
        const next = await frame();
        if (i >= skip) {
          drawn.push(end - t0);
          toFrame.push(next - t0);
        }
      }
      const error = document.querySelector('[data-testid="error-bw-hbm"]')?.textContent ?? '';
      return { drawn, toFrame, extraDraws, error };
    }, [n, warmup]);
    if (res.error) throw new Error(`the HBM field reports an error: ${res.error}`);
    return {
      median: round(median(res.drawn), 3),
      p95: round(quantile(res.drawn, 0.95), 3),
      n: res.drawn.length,
      max: round(Math.max(...res.drawn), 3),
      samples: res.drawn.map((x) => round(x, 2)),
      to_next_frame: { median: round(median(res.toFrame), 3), p95: round(quantile(res.toFrame, 0.95), 3) },
      extra_draws: res.extraDraws,
      problems,
    };
  } finally {
    await context.close();
  }
}

// ------------------------------------------------------------ Measurements

/**
 * Ten thousand measured kernels: the time from pasting them (as JSON, then
 * as CSV) to the preview rendered, to the next frame and to the frame after
 * all are read, the longest frame while they are read, from "Add measurements" to the points
 * chart drawn, and a redraw of that chart after an edit of the HBM
 * bandwidth (the calculator's charts and the points chart). `runs` each.
 */
async function measurements(browser, url, runs) {
  const { page, context, problems } = await openPage(browser, url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector('[data-testid="points-input"]');
    await page.click('.chip-numbers summary');
    await page.waitForSelector('[data-testid="field-bw-hbm"]', { state: 'visible' });
    const res = await page.evaluate(async (n) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      // Each run's kernels differ (their times), so that each is a change.
      const table = (run) => {
        const rows = ['name,flops,bytes,time_us'];
        for (let i = 0; i < 10000; i++) {
          const f = 1e9 * (1 + (i % 97));
          rows.push(`k${i},${f},${f / (0.5 + (i % 613))},${5 + (i % 211) + run}`);
        }
        return rows.join('\n');
      };
      const input = document.querySelector('[data-testid="points-input"]');
      const apply = document.querySelector('[data-testid="points-apply"]');
      const hbm = document.querySelector('[data-testid="field-bw-hbm"]');
      const drawnAfter = (name, t0) => new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} not drawn within 10 s`)), 10000);
        const poll = () => {
          const e = performance.getEntriesByName(`${name}:drawn`).filter((m) => m.startTime >= t0);
          if (e.length) { clearTimeout(timer); resolve(e[e.length - 1].startTime); } else setTimeout(poll, 1);
        };
        poll();
      });
      const out = { rendered: [], preview: [], read: [], longest: [], apply: [], redraw: [] };
      const json = { rendered: [], preview: [], read: [], longest: [] };
      // The same kernels as a JSON list of objects.
      const jsonTable = (run) => JSON.stringify(table(run).split('\n').slice(1).map((line) => {
        const [name, flops, bytes, t] = line.split(',');
        return { name, flops: Number(flops), bytes: Number(bytes), time_us: Number(t) };
      }));
      // Pastes `text` and times it into `into`.
      const pasteAndRead = async (text, into) => {
        // The text is on the clipboard before the paste (its making is
        // not timed, nor, as far as frames allow, its garbage).
        const data = new DataTransfer();
        data.setData('text/plain', text);
        // The box in view, where a user pastes.
        input.scrollIntoView({ block: 'center' });
        await frame();
        input.value = '';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await frame();
        await frame();
        // Pasted as a user pastes: a paste event carrying the text.
        const t0 = performance.now();
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        // The paste comes in a frame's callbacks (the awaits above resume
        // there), so that frame shows the preview: its style, layout and
        // paint follow at once, and a task posted now runs after them. That
        // task's time is when the preview is rendered; within 16.7 ms, it is
        // in the next frame on screen. (The next frame's callback comes at
        // least a frame later however little there is to do.)
        const rendered = new Promise((r) => {
          const c = new MessageChannel();
          c.port1.onmessage = () => r(performance.now());
          c.port2.postMessage(0);
        });
        // The rest are read a slice per task. Each frame until all 10,000
        // are read: the longest gap between two frames is the longest the
        // page waited.
        let last = await frame();
        into.rendered.push((await rendered) - t0);
        into.preview.push(last - t0);
        let longest = last - t0;
        while (!/\(10000\)/.test(apply.textContent)) {
          if (last - t0 > 10000) throw new Error(`not read within 10 s: ${apply.textContent}`);
          const now = await frame();
          longest = Math.max(longest, now - last);
          last = now;
        }
        into.read.push(last - t0);
        into.longest.push(longest);
      };
      for (let i = 0; i < n; i++) {
        await pasteAndRead(jsonTable(i), json);
        await pasteAndRead(table(i), out);
        let t0;
        await frame();
        t0 = performance.now();
        apply.click();
        out.apply.push((await drawnAfter('points', t0)) - t0);
        await frame();
        await frame();
        t0 = performance.now();
        hbm.value = i % 2 ? '8.2e11' : '9e11';
        hbm.dispatchEvent(new Event('input', { bubbles: true }));
        out.redraw.push((await drawnAfter('points', t0)) - t0);
      }
      out.points = document.querySelector('[data-testid="points-canvas"]')?.getAttribute('data-points');
      out.json = json;
      return out;
    }, runs);
    if (res.points !== '10000') throw new Error(`the chart holds ${res.points} points, not 10000`);
    const fig = (xs) => ({ median: round(median(xs), 2), max: round(Math.max(...xs), 2) });
    return {
      rows: 10000, runs,
      paste_to_preview_rendered: fig(res.rendered),
      paste_to_preview_frame: fig(res.preview),
      paste_to_all_read_frame: fig(res.read),
      longest_frame_while_reading: fig(res.longest),
      json_paste_to_preview_rendered: fig(res.json.rendered),
      json_paste_to_preview_frame: fig(res.json.preview),
      json_paste_to_all_read_frame: fig(res.json.read),
      json_longest_frame_while_reading: fig(res.json.longest),
      apply_to_drawn: fig(res.apply),
      edit_to_points_redrawn: fig(res.redraw),
      problems,
    };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------- Lighthouse

async function lighthouseRun(url) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic',
    ],
    logLevel: 'silent',
    handleSIGINT: true,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error('Lighthouse returned no result');
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const score = (id) => {
      const s = lhr.categories[id]?.score;
      if (s == null) throw new Error(`no ${id} score`);
      return Math.round(s * 100);
    };
    const num = (id) => {
      const v = lhr.audits[id]?.numericValue;
      if (v == null) throw new Error(`no ${id} value: ${lhr.audits[id]?.errorMessage ?? 'missing audit'}`);
      return Math.round(v);
    };
    // Lighthouse must not reach past loopback: list any request that did.
    const external = (lhr.audits['network-requests']?.details?.items ?? [])
      .map((it) => it.url)
      .filter((u) => /^(https?|wss?):/.test(u) && !/^[a-z]+:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(u));
    return {
      version: lhr.lighthouseVersion,
      form_factor: lhr.configSettings.formFactor,
      performance: score('performance'),
      accessibility: score('accessibility'),
      best_practices: score('best-practices'),
      seo: score('seo'),
      fcp_ms: num('first-contentful-paint'),
      lcp_ms: num('largest-contentful-paint'),
      tbt_ms: num('total-blocking-time'),
      warnings: [...(lhr.runWarnings ?? []), ...external.map((u) => `request left loopback: ${u}`)],
      external_requests: external.length,
      failed_audits: Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id),
    };
  } finally {
    await chrome.kill();
  }
}

async function lighthouseFigures(url, runs) {
  const all = [];
  for (let i = 0; i < runs; i++) all.push(await lighthouseRun(url));
  if (all.length === 1) return all[0];
  const out = { ...all[0], runs: all.length };
  for (const k of ['performance', 'accessibility', 'best_practices', 'seo', 'fcp_ms', 'lcp_ms', 'tbt_ms']) {
    out[k] = Math.round(median(all.map((r) => r[k])));
  }
  out.warnings = [...new Set(all.flatMap((r) => r.warnings))];
  out.failed_audits = [...new Set(all.flatMap((r) => r.failed_audits))];
  out.external_requests = Math.max(...all.map((r) => r.external_requests));
  // Lantern's simulated LCP swings between the static tagline's paint and
  // the end of the wasm start-up from one run to the next, so keep each run.
  out.per_run = all.map((r) => ({ performance: r.performance, lcp_ms: r.lcp_ms, tbt_ms: r.tbt_ms }));
  return out;
}

// ---------------------------------------------------------------- report

function printReport(r) {
  console.log(`\nRoofline Lab bench — commit ${r.commit}${r.dirty ? ' (uncommitted changes)' : ''}, ${r.date}`);
  console.log(`dist: ${r.dist}\n`);
  console.log(table([
    ['file', 'raw', 'gzip', 'downloaded'],
    ...r.sizes.files.map((f) => [f.name, `${f.raw} B`, `${f.gzip} B`, when(f.chunk)]),
    ['first load', '', `${r.sizes.first_load_gzip} B (${kb(r.sizes.first_load_gzip)})`, ''],
    ...(r.sizes.link_load_gzip == null ? [] : [['first load of a link', '', `${r.sizes.link_load_gzip} B (${kb(r.sizes.link_load_gzip)})`, '']]),
    ...Object.entries(r.sizes.chunks_gzip).map(([name, b]) => [`${name} chunk`, '', `${b} B (${kb(b)})`, '']),
    ['all', `${r.sizes.files.reduce((a, f) => a + f.raw, 0)} B`, `${r.sizes.total_gzip} B (${kb(r.sizes.total_gzip)})`, ''],
  ]));
  console.log();
  if (r.code) {
    const share = (part, c) => `${c.bytes} B (${((c.bytes / part.total) * 100).toFixed(0)}%)`;
    const main = r.code.main;
    const quiz = r.code.quiz ?? { total: 0, crates: [] };
    const rows = [['code before wasm-opt, by crate', 'main module', 'quiz chunk']];
    const names = [...new Set([...main.crates, ...quiz.crates].map((c) => c.crate))]
      .filter((n) => !n.startsWith('(wasm-bindgen descriptors'));
    for (const n of names.slice(0, 14)) {
      const m = main.crates.find((c) => c.crate === n);
      const q = quiz.crates.find((c) => c.crate === n);
      rows.push([n, m ? share(main, m) : '-', q ? share(quiz, q) : '-']);
    }
    rows.push(['total', `${main.total} B`, `${quiz.total} B`]);
    console.log(table(rows));
    console.log();
  } else {
    console.log('code by crate: not measured (the named copies in target/split/release/named/ are not of this build)');
    console.log();
  }
  const rows = [['headless Chromium', 'median', 'p95', 'n']];
  if (r.first_chart_ms) {
    rows.push(['navigation -> first chart drawn', ms(r.first_chart_ms.median), '-', r.first_chart_ms.runs.length]);
    rows.push(['navigation -> both charts drawn', ms(r.first_chart_ms.both_charts_median), '-', r.first_chart_ms.runs.length]);
  } else if (!r.only_cold) {
    rows.push(['navigation -> first chart drawn', 'failed', '-', 0]);
  }
  if (r.redraw_ms) {
    rows.push(['input -> both charts redrawn', ms(r.redraw_ms.median), ms(r.redraw_ms.p95), r.redraw_ms.n]);
    rows.push(['input -> next frame after both', ms(r.redraw_ms.to_next_frame.median), ms(r.redraw_ms.to_next_frame.p95), r.redraw_ms.n]);
  } else if (!r.only_cold) {
    rows.push(['input -> both charts redrawn', 'failed', '-', 0]);
  }
  if (r.measurements_ms) {
    const m = r.measurements_ms;
    rows.push(['10k kernels: paste -> preview rendered (max)', ms(m.paste_to_preview_rendered.median), ms(m.paste_to_preview_rendered.max), m.runs]);
    rows.push(['10k kernels: paste -> next frame (max)', ms(m.paste_to_preview_frame.median), ms(m.paste_to_preview_frame.max), m.runs]);
    rows.push(['10k kernels: paste -> all read, frame (max)', ms(m.paste_to_all_read_frame.median), ms(m.paste_to_all_read_frame.max), m.runs]);
    rows.push(['10k kernels: longest frame while reading (max)', ms(m.longest_frame_while_reading.median), ms(m.longest_frame_while_reading.max), m.runs]);
    rows.push(['10k kernels as JSON: paste -> preview rendered (max)', ms(m.json_paste_to_preview_rendered.median), ms(m.json_paste_to_preview_rendered.max), m.runs]);
    rows.push(['10k kernels as JSON: paste -> next frame (max)', ms(m.json_paste_to_preview_frame.median), ms(m.json_paste_to_preview_frame.max), m.runs]);
    rows.push(['10k kernels as JSON: paste -> all read, frame (max)', ms(m.json_paste_to_all_read_frame.median), ms(m.json_paste_to_all_read_frame.max), m.runs]);
    rows.push(['10k kernels as JSON: longest frame while reading (max)', ms(m.json_longest_frame_while_reading.median), ms(m.json_longest_frame_while_reading.max), m.runs]);
    rows.push(['10k kernels: add -> chart drawn (max)', ms(m.apply_to_drawn.median), ms(m.apply_to_drawn.max), m.runs]);
    rows.push(['10k kernels: edit -> points redrawn (max)', ms(m.edit_to_points_redrawn.median), ms(m.edit_to_points_redrawn.max), m.runs]);
  }
  if (r.slow_network_ms) {
    rows.push(['slow link: navigation -> first paint', ms(r.slow_network_ms.first_paint_median), '-', r.slow_network_ms.first_chart_runs.length]);
    rows.push(['slow link: navigation -> first chart', ms(r.slow_network_ms.first_chart_median), '-', r.slow_network_ms.first_chart_runs.length]);
    if (r.slow_network_ms.quiz_open_median != null) {
      rows.push(['slow link: Quiz tab -> question shown', ms(r.slow_network_ms.quiz_open_median), '-', r.slow_network_ms.first_chart_runs.length]);
    }
    if (r.slow_network_ms.link_first_chart_median != null) {
      rows.push(['slow link: navigation to a link -> first chart', ms(r.slow_network_ms.link_first_chart_median), '-', r.slow_network_ms.link_first_chart_runs.length]);
    }
  }
  if (r.cold_start_ms) {
    const c = r.cold_start_ms;
    const span = (x) => `${x[0].toFixed(0)}-${x[1].toFixed(0)} ms`;
    rows.push(['cold start (new browser, fresh profile): navigation -> first chart', `${ms(c.first_chart_median)} (${span(c.first_chart_range)})`, '-', c.first_chart_runs.length]);
    rows.push(['cold start: navigation -> first paint (the static header)', ms(c.first_paint_median), '-', c.first_paint_runs.length]);
    if (c.wasm_downloaded_median != null) rows.push(['cold start: navigation -> wasm downloaded', ms(c.wasm_downloaded_median), '-', c.wasm_downloaded_runs.length]);
    rows.push(['cold start: longest main-thread task', `${ms(c.longest_task_median)} (${span(c.longest_task_range)})`, '-', c.longest_task_runs.length]);
    if (c.peer) {
      rows.push(['cold start, React + D3 peer page: first chart', `${ms(c.peer.first_chart_median)} (${span(c.peer.first_chart_range)})`, '-', c.peer.first_chart_runs.length]);
      rows.push(['cold start, React + D3 peer page: first paint', ms(c.peer.first_paint_median), '-', c.peer.first_paint_runs.length]);
      rows.push(['cold start, React + D3 peer page: longest task', `${ms(c.peer.longest_task_median)} (${span(c.peer.longest_task_range)})`, '-', c.peer.longest_task_runs.length]);
      rows.push(['cold start: first chart, app / peer (goal: at most 0.5)', c.ratio_to_peer.toFixed(2), '-', c.first_chart_runs.length]);
      if (c.first_paint_to_peer_chart != null) rows.push(['cold start: app first paint / peer first chart', c.first_paint_to_peer_chart.toFixed(2), '-', c.first_chart_runs.length]);
    }
  }
  console.log(table(rows));
  if (r.first_chart_ms) console.log(`first chart runs: ${r.first_chart_ms.runs.map((x) => x.toFixed(1)).join(', ')} ms`);
  console.log();
  const lh = r.lighthouse;
  if (lh) {
    console.log(`Lighthouse ${lh.version} (${lh.form_factor}${lh.runs ? `, median of ${lh.runs} runs` : ''})`);
    console.log(table([
      ['performance', 'accessibility', 'best practices', 'SEO', 'FCP', 'LCP', 'TBT'],
      [lh.performance, lh.accessibility, lh.best_practices, lh.seo, `${lh.fcp_ms} ms`, `${lh.lcp_ms} ms`, `${lh.tbt_ms} ms`],
    ]));
    if (lh.per_run) {
      console.log(`runs (performance / LCP / TBT): ${lh.per_run.map((x) => `${x.performance} / ${x.lcp_ms} / ${x.tbt_ms}`).join(', ')}`);
    }
    if (lh.failed_audits.length) console.log(`audits not passed: ${lh.failed_audits.join(', ')}`);
    for (const w of lh.warnings) console.log(`warning: ${w}`);
  } else {
    console.log(`Lighthouse: no figures${r.lighthouse_error ? ` (${r.lighthouse_error})` : ''}`);
  }
  const lp = r.lighthouse_peer;
  if (lp) {
    console.log(`Lighthouse of the React + D3 peer page: performance ${lp.performance}, FCP ${lp.fcp_ms} ms, LCP ${lp.lcp_ms} ms, TBT ${lp.tbt_ms} ms${lp.per_run ? ` (runs: ${lp.per_run.map((x) => x.performance).join(', ')})` : ''}`);
  }
}

// ---------------------------------------------------------------- compare

function flatten(r) {
  const f = {};
  // File names without their content hash (app-<hash>/, or -<hash> before
  // the split build), so two commits line up.
  const bare = (name) => name.replace(/^app-[0-9a-f]{16}\//, '').replace(/-[0-9a-f]{16}(?=[._])/, '');
  for (const file of r.sizes?.files ?? []) f[`gzip ${bare(file.name)}`] = file.gzip;
  f['gzip first load (B)'] = r.sizes?.first_load_gzip;
  f['gzip first load of a link (B)'] = r.sizes?.link_load_gzip;
  // quiz_chunk_gzip: the JSON of builds before the compare chunk.
  f['gzip quiz chunk (B)'] = r.sizes?.chunks_gzip?.quiz ?? r.sizes?.quiz_chunk_gzip;
  f['gzip compare chunk (B)'] = r.sizes?.chunks_gzip?.compare;
  f['gzip svg chunk (B)'] = r.sizes?.chunks_gzip?.svg;
  f['gzip total (B)'] = r.sizes?.total_gzip;
  f['code main, before wasm-opt (B)'] = r.code?.main?.total;
  f['code quiz, before wasm-opt (B)'] = r.code?.quiz?.total;
  for (const c of r.code?.main?.crates ?? []) f[`code main: ${c.crate} (B)`] = c.bytes;
  f['first chart median (ms)'] = r.first_chart_ms?.median;
  f['cold start first chart median (ms)'] = r.cold_start_ms?.first_chart_median;
  f['cold start longest task median (ms)'] = r.cold_start_ms?.longest_task_median;
  f['cold start peer first chart median (ms)'] = r.cold_start_ms?.peer?.first_chart_median;
  f['cold start app / peer first chart'] = r.cold_start_ms?.ratio_to_peer;
  f['cold start first paint median (ms)'] = r.cold_start_ms?.first_paint_median;
  f['cold start wasm downloaded median (ms)'] = r.cold_start_ms?.wasm_downloaded_median;
  f['cold start app first paint / peer first chart'] = r.cold_start_ms?.first_paint_to_peer_chart;
  f['slow link first paint (ms)'] = r.slow_network_ms?.first_paint_median;
  f['slow link first chart (ms)'] = r.slow_network_ms?.first_chart_median;
  f['slow link quiz open (ms)'] = r.slow_network_ms?.quiz_open_median;
  f['slow link first chart of a link (ms)'] = r.slow_network_ms?.link_first_chart_median;
  f['10k kernels: paste to preview rendered median (ms)'] = r.measurements_ms?.paste_to_preview_rendered?.median;
  f['10k kernels: paste to next frame median (ms)'] = r.measurements_ms?.paste_to_preview_frame?.median;
  f['10k kernels: paste to all read median (ms)'] = r.measurements_ms?.paste_to_all_read_frame?.median;
  f['10k kernels: longest frame while reading median (ms)'] = r.measurements_ms?.longest_frame_while_reading?.median;
  f['10k kernels as JSON: paste to preview rendered median (ms)'] = r.measurements_ms?.json_paste_to_preview_rendered?.median;
  f['10k kernels as JSON: paste to all read median (ms)'] = r.measurements_ms?.json_paste_to_all_read_frame?.median;
  f['10k kernels: add to chart drawn median (ms)'] = r.measurements_ms?.apply_to_drawn?.median;
  f['10k kernels: edit to points redrawn median (ms)'] = r.measurements_ms?.edit_to_points_redrawn?.median;
  f['redraw median (ms)'] = r.redraw_ms?.median;
  f['redraw p95 (ms)'] = r.redraw_ms?.p95;
  f['redraw to next frame median (ms)'] = r.redraw_ms?.to_next_frame?.median;
  const lh = r.lighthouse;
  f['lighthouse performance'] = lh?.performance;
  f['lighthouse performance, peer page'] = r.lighthouse_peer?.performance;
  f['lighthouse accessibility'] = lh?.accessibility;
  f['lighthouse best practices'] = lh?.best_practices;
  f['lighthouse SEO'] = lh?.seo;
  f['lighthouse FCP (ms)'] = lh?.fcp_ms;
  f['lighthouse LCP (ms)'] = lh?.lcp_ms;
  f['lighthouse TBT (ms)'] = lh?.tbt_ms;
  return f;
}

function compare(fileA, fileB) {
  const a = JSON.parse(fs.readFileSync(fileA, 'utf8'));
  const b = JSON.parse(fs.readFileSync(fileB, 'utf8'));
  const fa = flatten(a);
  const fb = flatten(b);
  const keys = [...new Set([...Object.keys(fa), ...Object.keys(fb)])];
  const show = (v) => (v == null ? '-' : String(round(v, 2)));
  const rows = [['figure', `A ${a.commit}`, `B ${b.commit}`, 'B - A', 'change']];
  for (const k of keys) {
    const x = fa[k];
    const y = fb[k];
    const both = x != null && y != null;
    const d = both ? y - x : null;
    rows.push([k, show(x), show(y), d == null ? '-' : `${d > 0 ? '+' : ''}${show(d)}`,
      both && x !== 0 ? `${d > 0 ? '+' : ''}${((d / x) * 100).toFixed(1)}%` : '-']);
  }
  console.log(`A: ${fileA} (${a.date})\nB: ${fileB} (${b.date})\n`);
  console.log(table(rows));
  console.log('\nSizes and times: lower is better. Lighthouse scores: higher is better.');
}

// ---------------------------------------------------------------- main

async function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--compare') {
    if (args.length !== 3) {
      console.error('usage: node bench/bench.mjs --compare A.json B.json');
      process.exit(2);
    }
    compare(args[1], args[2]);
    return;
  }
  const dist = path.resolve(args[0] ?? process.env.BENCH_DIST ?? path.join(root, 'dist'));
  const outDir = path.resolve(process.env.BENCH_OUT ?? path.join(here, 'out'));
  const loads = intEnv('BENCH_LOADS', 7, 5);
  const inputs = intEnv('BENCH_INPUTS', 60, 50);
  const lhRuns = intEnv('BENCH_LH_RUNS', 5, 1);
  const coldLoads = intEnv('BENCH_COLD_LOADS', 7, 3);
  const onlyCold = process.env.BENCH_ONLY_COLD === '1';

  const report = {
    commit: git('rev-parse', '--short', 'HEAD') ?? 'unknown',
    dirty: (git('status', '--porcelain', '--untracked-files=no') ?? '') !== '',
    date: new Date().toISOString(),
    dist,
    sizes: measure(dist),
    code: code(dist),
    first_chart_ms: null,
    redraw_ms: null,
    measurements_ms: null,
    slow_network_ms: null,
    cold_start_ms: null,
    only_cold: onlyCold,
    lighthouse: null,
    lighthouse_peer: null,
    environment: { node: process.version, cpus: (await import('node:os')).cpus().length },
  };
  let failed = false;
  const chromiumFigures = async (rep, url) => {
    const browser = await launchBrowser();
    try {
      rep.environment.chromium = browser.version();
      const onlyMeasure = process.env.BENCH_ONLY_MEASURE === '1';
      if (!onlyMeasure) console.error(`[bench] first chart: ${loads} fresh page loads`);
      if (!onlyMeasure) try {
        const fc = await firstChart(browser, url, loads);
        for (const p of fc.problems) console.error(`[bench] page problem: ${p}`);
        delete fc.problems;
        rep.first_chart_ms = fc;
      } catch (e) {
        failed = true;
        console.error(`[bench] first chart failed: ${e.stack ?? e}`);
      }
      if (!onlyMeasure) console.error(`[bench] redraw: ${inputs} input changes (after 5 untimed)`);
      if (!onlyMeasure) try {
        const rd = await redraw(browser, url, inputs, 5);
        for (const p of rd.problems) console.error(`[bench] page problem: ${p}`);
        delete rd.problems;
        rep.redraw_ms = rd;
      } catch (e) {
        failed = true;
        console.error(`[bench] redraw failed: ${e.stack ?? e}`);
      }
      console.error('[bench] measurements: 10,000 kernels pasted, applied and redrawn, 5 times');
      try {
        const m = await measurements(browser, url, 5);
        for (const p of m.problems) console.error(`[bench] page problem: ${p}`);
        delete m.problems;
        rep.measurements_ms = m;
      } catch (e) {
        failed = true;
        console.error(`[bench] measurements failed: ${e.stack ?? e}`);
      }
      if (onlyMeasure) return;
      console.error('[bench] slow link: 5 page loads and 5 of a link at 150 ms round trip, 1.6 Mbps');
      try {
        rep.slow_network_ms = await slowNetwork(browser, url, 5);
      } catch (e) {
        failed = true;
        console.error(`[bench] slow link failed: ${e.stack ?? e}`);
      }
    } finally {
      await browser.close();
    }
  };
  const server = await startServer(dist);
  try {
    if (!onlyCold) {
      try {
        await chromiumFigures(report, server.url);
      } catch (e) {
        failed = true;
        console.error(`[bench] Chromium failed: ${e.stack ?? e}`);
      }
    }
    const peer = peerDist();
    const peerServer = peer ? await startServer(peer) : null;
    console.error(`[bench] cold start: ${coldLoads} loads${peer ? ' of the app and of the React + D3 peer page, alternating' : ''}, each in a new browser with a fresh profile`);
    try {
      report.cold_start_ms = await coldStart(server.url, coldLoads, peerServer?.url ?? null);
    } catch (e) {
      failed = true;
      console.error(`[bench] cold start failed: ${e.stack ?? e}`);
    }
    if (onlyCold) {
      report.lighthouse_error = 'skipped (BENCH_ONLY_COLD=1)';
    } else if (process.env.BENCH_SKIP_LIGHTHOUSE === '1') {
      report.lighthouse_error = 'skipped (BENCH_SKIP_LIGHTHOUSE=1)';
    } else {
      console.error(`[bench] Lighthouse (mobile)${lhRuns > 1 ? `, ${lhRuns} runs` : ''}`);
      try {
        report.lighthouse = await lighthouseFigures(server.url, lhRuns);
      } catch (e) {
        report.lighthouse = null;
        report.lighthouse_error = String(e?.message ?? e);
        console.error(`[bench] Lighthouse failed: ${e.stack ?? e}`);
      }
      if (peerServer) {
        console.error(`[bench] Lighthouse (mobile) of the peer page${lhRuns > 1 ? `, ${lhRuns} runs` : ''}`);
        try {
          report.lighthouse_peer = await lighthouseFigures(peerServer.url, lhRuns);
        } catch (e) {
          console.error(`[bench] Lighthouse of the peer page failed: ${e.stack ?? e}`);
        }
      }
    }
    await peerServer?.close();
  } finally {
    await server.close();
  }

  printReport(report);
  fs.mkdirSync(outDir, { recursive: true });
  const out = path.join(outDir, `bench-${report.commit}.json`);
  fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  const rel = path.relative(process.cwd(), out);
  console.log(`\nJSON: ${rel.startsWith('..') ? out : rel}`);
  if (failed) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exit(1);
});
