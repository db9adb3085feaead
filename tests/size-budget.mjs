// Size budget: the gzip transfer of the release build in dist/ (counted by
// tests/sizes.mjs, from the gzip copy of each file the build ships).
// Prints each file's raw and gzip size, then the totals:
//   first load  what opening the page downloads (html with its inlined css,
//               the js, the calculator's wasm);
//   link load   what opening an address with a link downloads: the first
//               load, the link reader and the shared chunk it needs;
//   each chunk  a wasm the page downloads only when it is first needed
//               (a row of the chunk table, src/chunks/chunks.json, which
//               holds its limit and says when it is fetched).
// Fails with the numbers when a file has no gzip copy; when the first
// load or the link load is above its limit in tests/size-budget.json, or
// a chunk above its limit in the chunk table; when a chunk of the table is
// missing (its code went back into the first load); or when the build has
// a chunk the table lacks. Reports the distance to the target. The shared
// chunks (code two split chunks use) may be absent.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, TABLE, when } from './sizes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const budget = JSON.parse(fs.readFileSync(path.join(here, 'size-budget.json'), 'utf8'));
let m;
try {
  m = measure(path.resolve(process.argv[2] ?? 'dist'));
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
for (const f of m.files) {
  console.log(`${f.name.padEnd(48)} ${String(f.raw).padStart(9)} B raw ${String(f.gzip).padStart(8)} B gzip  ${when(f.chunk)}`);
}
const kb = (n) => (n / 1024).toFixed(1);
const limit = budget.limit_kb * 1024;
const target = budget.target_kb * 1024;
const limits = Object.fromEntries([...TABLE.chunks, ...TABLE.groups].map((c) => [c.name, c.limit_kb]));
const chunkText = Object.entries(m.chunks_gzip)
  .map(([name, bytes]) => `${name} chunk ${kb(bytes)} KB (limit ${limits[name] ?? 'none'} KB)`)
  .join('; ');
const linkLimit = budget.link_load_limit_kb * 1024;
console.log(
  `first load ${kb(m.first_load_gzip)} KB gzip (enforced limit ${kb(limit)} KB, target ${kb(target)} KB); ` +
    `opening a link ${kb(m.link_load_gzip)} KB (limit ${kb(linkLimit)} KB); ` +
    `${chunkText}; all ${kb(m.total_gzip)} KB`,
);
console.log(`(the first load at zlib level 9, without the build's zopfli copies: ${kb(m.first_load_zlib9)} KB)`);
if (m.first_load_gzip > target) console.log(`first load still ${kb(m.first_load_gzip - target)} KB above the target`);
const over = [];
const bare = m.files.filter((f) => !f.shipped).map((f) => f.name);
if (bare.length) over.push(`no gzip copy (FILE.gz) of ${bare.join(', ')}: not a release build (bash scripts/build.sh)`);
const beforeChart = budget.before_chart_limit_kb * 1024;
console.log(`before the first chart (the page, prerendered) ${kb(m.before_chart_gzip)} KB gzip (limit ${kb(beforeChart)} KB)`);
if (!(m.before_chart_gzip <= beforeChart)) over.push(`the page before the first chart over its limit by ${kb(m.before_chart_gzip - beforeChart)} KB`);
if (m.first_load_gzip > limit) over.push(`first load over the enforced limit by ${kb(m.first_load_gzip - limit)} KB`);
if (m.link_load_gzip > linkLimit) over.push(`opening a link over its limit by ${kb(m.link_load_gzip - linkLimit)} KB`);
if (m.link_load_gzip <= m.first_load_gzip && m.chunks_gzip.link !== undefined) {
  over.push('index.html preloads nothing for a link: its `deps` map (scripts/build/chunk-deps.mjs) is missing');
}
for (const [name, limitKb] of Object.entries(limits)) {
  const bytes = m.chunks_gzip[name];
  if (bytes === undefined && TABLE.chunks.some((c) => c.name === name)) {
    over.push(`no ${name} chunk (split_${name}.wasm): its code is no longer split off, so the first load carries it`);
  } else if (bytes !== undefined && bytes > limitKb * 1024) {
    over.push(`${name} chunk over its limit by ${kb(bytes - limitKb * 1024)} KB`);
  }
}
for (const name of Object.keys(m.chunks_gzip)) {
  if (!(name in limits)) over.push(`the ${name} chunk has no row in the chunk table (src/chunks/chunks.json)`);
}
for (const o of over) console.error(o);
process.exit(over.length ? 1 : 0);
