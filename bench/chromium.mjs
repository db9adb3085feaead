// Warm Chromium timings, in one browser: navigation -> first chart drawn
// (firstChart), navigation on a slow link (slowNetwork), and input -> both
// charts redrawn (redraw). See bench.mjs for what each figure means.
import { openPage, waitForDraw } from '../tests/e2e/harness.mjs';
import { median, quantile, round } from './common.mjs';

/** Navigation -> first `roofline:drawn` mark, over `loads` fresh contexts. */
export async function firstChart(browser, url, loads) {
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
 * Navigation -> first paint and -> first chart, on an emulated slow link
 * (Lighthouse's mobile network profile), cache off, over `loads` fresh
 * contexts.
 */
export async function slowNetwork(browser, url, loads) {
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

/** What `redraw` edits: the calculator's HBM bandwidth (both charts). */
export const CALCULATOR = {
  query: '',
  canvases: ['roofline', 'batch'],
  field: 'field-bw-hbm',
  values: ['8.2e11', '9e11', '1e12', '1.1e12', '1.2e12', '1.35e12', '1.5e12', '1.64e12'],
  async open(page) {
    await waitForDraw(page, 'roofline-canvas');
    await waitForDraw(page, 'batch-canvas');
    await page.click('.chip-numbers summary');
  },
};

/** The Model page's batch B: its roofline of operations and its latency chart. */
export const MODEL = {
  query: '?v=1&view=model',
  canvases: ['model-roofline', 'model-latency'],
  field: 'field-model-b',
  values: ['1', '2', '4', '8', '16', '24', '32', '12'],
  async open(page) {
    await waitForDraw(page, 'model-roofline-canvas');
    await waitForDraw(page, 'model-latency-canvas');
  },
};

/**
 * The Scale page's FSDP degree X (Y follows from the 4096 chips): its
 * training roofline is the split's, so every edit redraws it (the batch in
 * tokens moves the results, not that chart).
 */
export const SCALE = {
  query: '?v=1&view=scale&chip=v5p&mesh=X:16,Y:16,Z:16&model=llama3-70b&strat=mixed',
  canvases: ['scale-train'],
  field: 'field-scale-x',
  values: ['8', '16', '32', '64', '128', '256', '512', '1024'],
  async open(page) {
    await waitForDraw(page, 'scale-train-canvas');
  },
};

/**
 * Input -> every chart of the target redrawn (`CALCULATOR` by default:
 * the HBM bandwidth under the chip's numbers; `MODEL`: the Model page's
 * batch). Edits the target's field `n` times in the page (after `warmup`
 * untimed edits), each time waiting for every canvas's data-draws to rise.
 */
export async function redraw(browser, url, n, warmup, target = CALCULATOR) {
  const { page, context, problems } = await openPage(browser, url + target.query);
  try {
    await target.open(page);
    await page.waitForSelector(`[data-testid="${target.field}"]`, { state: 'visible' });
    const res = await page.evaluate(async ([count, skip, field, names, values]) => {
      const input = document.querySelector(`[data-testid="${field}"]`);
      const canvases = names.map((name) => ({
        name,
        el: document.querySelector(`[data-testid="${name}-canvas"]`),
      }));
      const draws = (c) => Number(c.el.getAttribute('data-draws') ?? 0);
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
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
      const error = document.querySelector(`[data-testid="${field.replace('field-', 'error-')}"]`)?.textContent ?? '';
      return { drawn, toFrame, extraDraws, error };
    }, [n, warmup, target.field, target.canvases, target.values]);
    if (res.error) throw new Error(`${target.field} reports an error: ${res.error}`);
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
