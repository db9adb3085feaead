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
//     the next animation frame after both; the same on the Model page for
//     its batch B (`model-roofline:drawn` / `model-latency:drawn`), and on
//     the Scale page for its FSDP degree X (`scale-train:drawn`);
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
//
// Modules: common.mjs (shared helpers), chromium.mjs (first chart, slow
// link, redraw), measure-paste.mjs (10,000 measured kernels), cold.mjs
// (cold start and the peer page), lighthouse.mjs, report.mjs (the printed
// report) and compare.mjs (--compare). bench/paint-floor.mjs, run on its
// own, measures the first paint's floor the cold-start goals are read against.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launchBrowser, root } from '../tests/e2e/harness.mjs';
import { measure } from '../tests/sizes.mjs';
import { codeByCrate } from './wasm-code.mjs';
import { here } from './common.mjs';
import { MODEL, SCALE, firstChart, redraw, slowNetwork } from './chromium.mjs';
import { coldStart, peerDist } from './cold.mjs';

/** The link the cold start opens besides the default address (as slowNetwork's). */
const LINK = '?v=1&chip=h100&sz=B:512,D:4096,F:4096';
import { measurements } from './measure-paste.mjs';
import { lighthouseFigures } from './lighthouse.mjs';
import { printReport } from './report.mjs';
import { compare } from './compare.mjs';

const intEnv = (name, dflt, min) => {
  const v = Number.parseInt(process.env[name] ?? '', 10);
  return Math.max(min, Number.isFinite(v) ? v : dflt);
};

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
    model_redraw_ms: null,
    scale_redraw_ms: null,
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
      if (!onlyMeasure) console.error(`[bench] Model page redraw: ${inputs} changes of B (after 5 untimed)`);
      if (!onlyMeasure) try {
        const rd = await redraw(browser, url, inputs, 5, MODEL);
        for (const p of rd.problems) console.error(`[bench] page problem: ${p}`);
        delete rd.problems;
        rep.model_redraw_ms = rd;
      } catch (e) {
        failed = true;
        console.error(`[bench] Model page redraw failed: ${e.stack ?? e}`);
      }
      if (!onlyMeasure) console.error(`[bench] Scale page redraw: ${inputs} changes of the FSDP degree X (after 5 untimed)`);
      if (!onlyMeasure) try {
        const rd = await redraw(browser, url, inputs, 5, SCALE);
        for (const p of rd.problems) console.error(`[bench] page problem: ${p}`);
        delete rd.problems;
        rep.scale_redraw_ms = rd;
      } catch (e) {
        failed = true;
        console.error(`[bench] Scale page redraw failed: ${e.stack ?? e}`);
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
      // A link with a chip and sizes: the page keeps its layout, and the
      // chart is the app's (the peer page is the same with or without one).
      console.error('[bench] cold start of a link (a chip and sizes), against the peer page');
      report.cold_link_ms = await coldStart(`${server.url}${LINK}`, coldLoads, peerServer?.url ?? null);
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
