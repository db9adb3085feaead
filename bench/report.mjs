// The report printed at the end of a bench run: sizes, code by crate, the
// Chromium timings and the Lighthouse figures, as text tables.
import { when } from '../tests/sizes.mjs';
import { kb, ms, table } from './common.mjs';

export function printReport(r) {
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
  }
  if (r.scale_redraw_ms) {
    rows.push(['Scale page: X -> training roofline redrawn', ms(r.scale_redraw_ms.median), ms(r.scale_redraw_ms.p95), r.scale_redraw_ms.n]);
    rows.push(['Scale page: X -> next frame', ms(r.scale_redraw_ms.to_next_frame.median), ms(r.scale_redraw_ms.to_next_frame.p95), r.scale_redraw_ms.n]);
  }
  if (r.model_redraw_ms) {
    rows.push(['Model page: B -> both charts redrawn', ms(r.model_redraw_ms.median), ms(r.model_redraw_ms.p95), r.model_redraw_ms.n]);
    rows.push(['Model page: B -> next frame', ms(r.model_redraw_ms.to_next_frame.median), ms(r.model_redraw_ms.to_next_frame.p95), r.model_redraw_ms.n]);
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
    rows.push(['10k kernels as JSON: longest frame after the paste\'s (max)', ms(m.json_longest_frame_after_the_paste.median), ms(m.json_longest_frame_after_the_paste.max), m.runs]);
    rows.push(['10k kernels as Nsight long form: paste -> next frame (max)', ms(m.ncu_paste_to_preview_frame.median), ms(m.ncu_paste_to_preview_frame.max), m.runs]);
    rows.push(['10k kernels as Nsight long form: paste -> all read, frame (max)', ms(m.ncu_paste_to_all_read_frame.median), ms(m.ncu_paste_to_all_read_frame.max), m.runs]);
    rows.push(['10k kernels as Nsight long form: longest frame after the paste\'s (max)', ms(m.ncu_longest_frame_after_the_paste.median), ms(m.ncu_longest_frame_after_the_paste.max), m.runs]);
    rows.push(['10k kernels: longest frame after the paste\'s (max)', ms(m.longest_frame_after_the_paste.median), ms(m.longest_frame_after_the_paste.max), m.runs]);
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
    rows.push(['cold start: navigation -> first paint', ms(c.first_paint_median), '-', c.first_paint_runs.length]);
    rows.push(['cold start: navigation -> the app\'s own chart (answers input)', ms(c.app_chart_median), '-', c.app_chart_runs.length]);
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
  if (r.cold_link_ms) {
    const c = r.cold_link_ms;
    rows.push(['cold start, a link (chip and sizes): navigation -> first chart', ms(c.first_chart_median), '-', c.first_chart_runs.length]);
    if (c.peer) rows.push(['cold start, a link: first chart, app / peer (goal: at most 1.0)', c.ratio_to_peer.toFixed(2), '-', c.first_chart_runs.length]);
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
