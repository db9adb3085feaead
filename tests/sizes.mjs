// The release build's sizes, as the size budget (tests/size-budget.mjs) and
// the benchmark (bench/bench.mjs) both count them: every html/js/wasm/css
// file under dist/, raw and gzip, split into what opening the page
// downloads and the chunks it downloads only when they are first needed
// (split_NAME.wasm, one per row of the chunk table, src/chunks/chunks.json,
// which says when each is fetched; see scripts/build/build-wasm.sh).
//
// A file's gzip size is that of the gzip copy the build ships next to it
// (FILE.gz, zopfli: scripts/build/precompress.mjs), which a host serves as it
// is; it must inflate to the file, byte for byte. A file without one (a
// debug build) counts as node's zlib at level 9 would send it. `zlib9` is
// that figure for every file, to compare with builds before the copies.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { COMPRESSED, gzipCopy } from '../scripts/build/precompress.mjs';

/**
 * The chunk table (src/chunks/chunks.json): `chunks`, a row per wasm chunk
 * ({ name, when, limit_kb, preload? }), and `groups`, the other files
 * fetched after the first load ({ name, when, limit_kb }).
 */
export const TABLE = JSON.parse(
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'chunks', 'chunks.json'), 'utf8'),
);

/**
 * The chunk that `file` (a path relative to dist/) is, by name ("quiz" for
 * split_quiz.wasm, "shared" for a chunk_<n>.wasm that split chunks share
 * and download alongside), or null when opening the page downloads it.
 */
export function chunkOf(file) {
  // The service worker and its registration: after the first chart.
  if (/(^|\/)(sw|offline)\.js$/.test(file)) return 'offline';
  const split = /(^|\/)split_([^/]+)\.wasm$/.exec(file);
  if (split) return split[2];
  return /(^|\/)chunk_[^/]+\.wasm$/.test(file) ? 'shared' : null;
}

/** Every html/js/wasm/css file under `d`, as paths relative to `dir`, sorted. */
function walk(dir, d = dir) {
  return fs
    .readdirSync(d, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(d, e.name);
      if (e.isDirectory()) return e.name.startsWith('.') ? [] : walk(dir, p);
      return COMPRESSED.test(e.name) ? [path.relative(dir, p)] : [];
    })
    .sort();
}

/**
 * Sizes of the build in `dir`: `files` ({ name, raw, gzip, zlib9, shipped,
 * chunk }: `shipped` when the build wrote its gzip copy),
 * `before_chart_gzip` (the page, which holds the default address's first
 * chart), `first_load_gzip`, `first_load_zlib9` (the same files at zlib level 9),
 * `link_load_gzip` (the first load of an address with a query: with the
 * link chunk and the shared chunks it needs), `chunks_gzip` ({ quiz:
 * bytes, compare: bytes, ... }) and `total_gzip` (everything).
 * Throws when there is no build, or a gzip copy is stale.
 */
export function measure(dir) {
  const names = walk(dir);
  if (!names.includes('index.html') || !names.some((f) => f.endsWith('.wasm'))) {
    throw new Error(`no index.html and wasm in ${dir}: build first (bash scripts/build.sh)`);
  }
  const files = names.map((name) => {
    const raw = fs.readFileSync(path.join(dir, name));
    const zlib9 = zlib.gzipSync(raw, { level: 9 }).length;
    const gz = gzipCopy(path.join(dir, name), raw);
    return { name, raw: raw.length, gzip: gz?.length ?? zlib9, zlib9, shipped: gz !== null, chunk: chunkOf(name) };
  });
  const first = files.filter((f) => f.chunk === null).reduce((a, f) => a + f.gzip, 0);
  const chunks = {};
  for (const f of files) if (f.chunk !== null) chunks[f.chunk] = (chunks[f.chunk] ?? 0) + f.gzip;
  const total = files.reduce((a, f) => a + f.gzip, 0);
  // Opening a link also downloads the link chunk and the shared chunks it
  // needs: the files index.html preloads for it, a list in one string.
  const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  const linkFiles = /["'`](split_link\.wasm(?:,[\w.]+)*)["'`]/.exec(html)?.[1].split(',') ?? [];
  const link = first + files
    .filter((f) => linkFiles.includes(path.basename(f.name)))
    .reduce((a, f) => a + f.gzip, 0);
  const firstZlib9 = files.filter((f) => f.chunk === null).reduce((a, f) => a + f.zlib9, 0);
  // The default address's first chart is in the page itself (prerendered,
  // its stylesheet inlined, no script before it): the page is all the
  // browser downloads before that chart shows.
  const beforeChart = files.find((f) => f.name === 'index.html').gzip;
  return {
    files,
    before_chart_gzip: beforeChart,
    first_load_gzip: first,
    first_load_zlib9: firstZlib9,
    link_load_gzip: link,
    chunks_gzip: chunks,
    total_gzip: total,
  };
}

/** When a file of chunk `chunk` (null: none) is downloaded, in words, from the chunk table. */
export function when(chunk) {
  if (chunk === null) return 'first load';
  const row = [...TABLE.chunks, ...TABLE.groups].find((c) => c.name === chunk);
  return row ? row.when : `not in the chunk table (src/chunks/chunks.json): add a row for ${chunk}`;
}
