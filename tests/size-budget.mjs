// Size budget: the gzip transfer of the release build in dist/ (counted by
// tests/sizes.mjs). Prints each file's raw and gzip size, then two totals:
//   first load  what opening the page downloads (html with its inlined css,
//               the js, the calculator's wasm);
//   quiz chunk  the wasm the page downloads when the quiz is first opened
//               (split_*.wasm, see scripts/build-wasm.sh).
// Fails with the numbers when either is above its enforced limit in
// tests/size-budget.json, and reports the distance to the target.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './sizes.mjs';

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
  const when = f.on_demand ? 'when the quiz opens' : 'first load';
  console.log(`${f.name.padEnd(48)} ${String(f.raw).padStart(9)} B raw ${String(f.gzip).padStart(8)} B gzip  ${when}`);
}
const kb = (n) => (n / 1024).toFixed(1);
const limit = budget.limit_kb * 1024;
const chunkLimit = budget.chunk_limit_kb * 1024;
const target = budget.target_kb * 1024;
console.log(
  `first load ${kb(m.first_load_gzip)} KB gzip (enforced limit ${kb(limit)} KB, target ${kb(target)} KB); ` +
    `quiz chunk ${kb(m.quiz_chunk_gzip)} KB (limit ${kb(chunkLimit)} KB); both ${kb(m.total_gzip)} KB`,
);
if (m.first_load_gzip > target) console.log(`first load still ${kb(m.first_load_gzip - target)} KB above the target`);
const over = [];
if (m.first_load_gzip > limit) over.push(`first load over the enforced limit by ${kb(m.first_load_gzip - limit)} KB`);
if (m.quiz_chunk_gzip > chunkLimit) over.push(`quiz chunk over its limit by ${kb(m.quiz_chunk_gzip - chunkLimit)} KB`);
if (m.quiz_chunk_gzip === 0) {
  over.push('no quiz chunk (split_*.wasm): the quiz is no longer split off, so the first load carries it');
}
for (const o of over) console.error(o);
process.exit(over.length ? 1 : 0);
