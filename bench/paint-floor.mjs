// The first paint's floor: how soon can any page that shows the default
// chart paint it, on this machine? Issue #47 asks for the default address's
// first chart at 0.5x the React + D3 peer page's, and a link's at 1.0x.
// This measures, cold and alternating (a new browser with a fresh profile
// for each load, bench/cold.mjs's coldBrowser), five pages built from the release
// build's own index.html:
//
//   blank   the page's header alone, no script (the least a page paints);
//   chart   the header and the prerendered chart (SVG), no script;
//   static  the whole prerendered page, every script removed;
//   app     the release build as it ships;
//   peer    bench/peer (React + D3, one chart): its first paint, its
//           `roofline:drawn` mark, and its chart on screen: the mark, but no
//           sooner than that paint (the figure bench/cold.mjs compares with;
//           the app's row reads its `roofline:prerendered` mark the same way).
//
// For each: navigation -> first contentful paint, median and range. If
// `chart` paints later than half the peer's chart, no page with that chart
// meets the 0.5x goal, whatever its scripts do.
//
//   node bench/paint-floor.mjs [DIST]    (default dist/; BENCH_COLD_LOADS, default 9)
//
// Needs the release build and the bench's packages (bash scripts/bench.sh
// installs them). Not part of scripts/check.sh: timings depend on the machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../tests/e2e/harness.mjs';
import { median, round, table } from './common.mjs';
import { coldBrowser, peerDist } from './cold.mjs';

const dist = path.resolve(process.argv[2] ?? process.env.BENCH_DIST ?? 'dist');
const loads = Math.max(3, Number(process.env.BENCH_COLD_LOADS ?? 9));

/** A copy of `dist` whose index.html is `edit` of the built one (and no gzip copy of it). */
function variant(name, edit) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `paint-floor-${name}-`));
  const page = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  fs.writeFileSync(path.join(dir, 'index.html'), edit(page));
  return dir;
}

const noScripts = (html) => html
  .replace(/<script[\s\S]*?<\/script>/g, '')
  .replace(/<link[^>]*rel="?modulepreload"?[^>]*>/g, '');
/** The body's header and, when given, `keep` of the body, in the page's own head. */
const bodyOf = (keep) => (html) => {
  const page = noScripts(html);
  const head = page.slice(0, page.indexOf('<body'));
  const header = /<header[\s\S]*?<\/header>/.exec(page)?.[0] ?? '';
  return `${head}<body>${header}${keep ? keep(page) : ''}</body></html>`;
};
const figure = (html) => /<figure[\s\S]*?<\/figure>/.exec(html)?.[0] ?? '';

async function firstPaint(url, into) {
  const { context, profile } = await coldBrowser();
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(700);
    const t = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      // The prerendered chart's mark, or else the first drawn (as
      // bench/cold.mjs reads them).
      mark: (performance.getEntriesByName('roofline:prerendered')[0]
        ?? performance.getEntriesByName('roofline:drawn')[0])?.startTime ?? null,
    }));
    into.paint.push(t.paint);
    into.mark.push(t.mark);
    // On screen: the mark, but no sooner than the first paint (as
    // bench/cold.mjs counts every page's first chart).
    into.chart.push(t.mark == null ? null : Math.max(t.mark, t.paint ?? 0));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const pages = [
    ['blank', variant('blank', bodyOf(null))],
    ['chart', variant('chart', bodyOf(figure))],
    ['static', variant('static', noScripts)],
    ['app', dist],
  ];
  const peer = peerDist();
  if (peer) pages.push(['peer', peer]);
  const servers = await Promise.all(pages.map(([, dir]) => startServer(dir)));
  const got = pages.map(() => ({ paint: [], mark: [], chart: [] }));
  try {
    console.error(`[paint-floor] ${loads} cold loads of each of ${pages.map(([n]) => n).join(', ')}, alternating`);
    for (let i = 0; i < loads; i++) {
      for (let j = 0; j < pages.length; j++) await firstPaint(servers[j].url, got[j]);
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
    for (const [name, dir] of pages) if (name !== 'app' && name !== 'peer') fs.rmSync(dir, { recursive: true, force: true });
  }
  const known = (xs) => xs.filter((x) => x != null);
  const fig = (xs) => (known(xs).length ? round(median(known(xs)), 1) : null);
  const rows = [['page', 'first paint (median)', 'range', 'chart mark (median)', 'chart on screen (median)']];
  pages.forEach(([name], j) => {
    const p = known(got[j].paint);
    rows.push([name, `${fig(p)} ms`, p.length ? `${round(Math.min(...p))}-${round(Math.max(...p))} ms` : '-',
      fig(got[j].mark) == null ? '-' : `${fig(got[j].mark)} ms`,
      fig(got[j].chart) == null ? '-' : `${fig(got[j].chart)} ms`]);
  });
  console.log(table(rows));
  const peerChart = peer ? fig(got[pages.length - 1].chart) : null;
  if (peerChart != null) {
    const chart = fig(got[1].paint);
    console.log(`\nhalf the peer's chart: ${round(peerChart / 2, 1)} ms; the header and chart alone, no script: ${chart} ms (${round(chart / peerChart, 2)}x the peer's chart)`);
  }
}

main().catch((e) => {
  console.error(e.stack ?? e);
  process.exit(1);
});
