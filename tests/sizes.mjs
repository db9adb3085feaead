// The release build's sizes, as the size budget (tests/size-budget.mjs) and
// the benchmark (bench/bench.mjs) both count them: every html/js/wasm/css
// file under dist/, raw and gzip (level 9), split into what opening the page
// downloads and what it downloads only when the quiz is opened.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Whether `file` (a path relative to dist/) is downloaded on demand: the quiz chunk. */
export const onDemand = (file) => /(^|\/)split_[^/]*\.wasm$/.test(file);

/** Every html/js/wasm/css file under `d`, as paths relative to `dir`, sorted. */
function walk(dir, d = dir) {
  return fs
    .readdirSync(d, { withFileTypes: true })
    .flatMap((e) => {
      const p = path.join(d, e.name);
      if (e.isDirectory()) return e.name.startsWith('.') ? [] : walk(dir, p);
      return /\.(html|js|wasm|css)$/.test(e.name) ? [path.relative(dir, p)] : [];
    })
    .sort();
}

/**
 * Sizes of the build in `dir`: `files` ({ name, raw, gzip, on_demand }),
 * `first_load_gzip`, `quiz_chunk_gzip` and `total_gzip` (both). Throws when
 * there is no build.
 */
export function measure(dir) {
  const names = walk(dir);
  if (!names.includes('index.html') || !names.some((f) => f.endsWith('.wasm'))) {
    throw new Error(`no index.html and wasm in ${dir}: build first (bash scripts/trunk-release.sh build --release)`);
  }
  const files = names.map((name) => {
    const raw = fs.readFileSync(path.join(dir, name));
    return { name, raw: raw.length, gzip: zlib.gzipSync(raw, { level: 9 }).length, on_demand: onDemand(name) };
  });
  const sum = (fs_) => fs_.reduce((a, f) => a + f.gzip, 0);
  const first = sum(files.filter((f) => !f.on_demand));
  const chunk = sum(files.filter((f) => f.on_demand));
  return { files, first_load_gzip: first, quiz_chunk_gzip: chunk, total_gzip: first + chunk };
}
