// `node bench/bench.mjs --compare A.json B.json`: the figures of two
// bench runs side by side, B minus A.
import fs from 'node:fs';
import { round, table } from './common.mjs';

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
  f['Model page redraw median (ms)'] = r.model_redraw_ms?.median;
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

export function compare(fileA, fileB) {
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
