// Lighthouse (mobile, its default): one run's scores and figures
// (lighthouseRun), and the median over several (lighthouseFigures).
import { CHROMIUM, median } from './common.mjs';

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

export async function lighthouseFigures(url, runs) {
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
