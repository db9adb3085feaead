// Cold start: each load in a new browser process with a fresh profile
// (coldStart), alternating with the React + D3 peer page (peerDist builds
// it). See bench.mjs for what each figure means.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, here, median, round } from './common.mjs';

/**
 * Cold start: each load in a new browser process with a fresh profile (so
 * nothing is compiled, cached or warm). Navigation -> first contentful
 * paint, -> the app's wasm downloaded, -> the first chart on screen (the
 * prerendered page's `roofline:prerendered` mark, made in the frame that
 * paints it, or else the first `roofline:drawn`, and for every page, the
 * app's and the peer's alike, no sooner than the first contentful paint),
 * -> the app's own first
 * chart (`roofline:drawn`: the page answers input from then on), and
 * every long task (over 50 ms) from the start until a second after the
 * chart, read by an observer installed before any page script.
 */
export async function coldStart(url, loads, peerUrl = null) {
  const app = { first: [], drawn: [], longest: [], counts: [], paint: [], wasm: [] };
  const peer = { first: [], drawn: [], longest: [], counts: [], paint: [], wasm: [] };
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
function coldFigures({ first, drawn, longest, counts, paint, wasm }) {
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
    app_chart_median: round(median(drawn)),
    app_chart_runs: drawn,
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
 * A new browser process with a fresh profile (nothing compiled, cached or
 * warm), at the bench's 1280 × 900: its context and the profile's folder,
 * which the caller removes after closing the context.
 */
export async function coldBrowser() {
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
  return { context, profile };
}

/**
 * One cold load of `url`, its figures pushed to `into`. The page is waited
 * on through the DevTools protocol alone: Playwright's own waits evaluate
 * its helper script in the page, a task of about 10 ms that would land in
 * the middle of the app's start (after the peer's chart, which is drawn by
 * the load event).
 */
async function coldLoad(url, into) {
  const { context, profile } = await coldBrowser();
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
      // The first chart on screen, measured the same way for every page: its
      // mark (the prerendered chart's, made in the frame that paints it, or
      // else the first \`roofline:drawn\`, made when a script has drawn it),
      // but no sooner than the first contentful paint, since nothing is on
      // screen before that: a script's mark often comes before a cold
      // browser's first frame (the peer page's did in most loads).
      chart: Math.max(
        (performance.getEntriesByName('roofline:prerendered')[0]
          ?? performance.getEntriesByName('roofline:drawn')[0]).startTime,
        performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0),
      drawn: performance.getEntriesByName('roofline:drawn')[0].startTime,
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      wasm: performance.getEntriesByType('resource').find((e) => e.name.endsWith('_bg.wasm'))?.responseEnd ?? null,
      tasks: window.__longTasks,
    })`);
    into.first.push(round(t.chart));
    into.drawn.push(round(t.drawn));
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
export function peerDist() {
  const dir = path.join(here, 'peer', 'dist');
  if (!fs.existsSync(path.join(here, 'node_modules', 'react-dom'))) {
    console.error('[bench] peer page: its packages are missing (bash scripts/bench.sh installs them); measured without it');
    return null;
  }
  execFileSync(process.execPath, [path.join(here, 'peer', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}
