// Size budget: the gzip transfer of html + js + wasm + css in dist/. Prints
// each file's raw and gzip size, fails with the numbers above the enforced
// limit in tests/size-budget.json, and reports the distance to the target.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const budget = JSON.parse(fs.readFileSync(path.join(here, 'size-budget.json'), 'utf8'));
const BUDGET = budget.limit_kb * 1024;
const TARGET = budget.target_kb * 1024;
const dir = path.resolve(process.argv[2] ?? 'dist');
const files = fs.readdirSync(dir).filter((f) => /\.(html|js|wasm|css)$/.test(f)).sort();
if (files.length === 0) {
  console.error(`no html/js/wasm/css files in ${dir}: build first`);
  process.exit(1);
}
let total = 0;
for (const f of files) {
  const raw = fs.readFileSync(path.join(dir, f));
  const gz = zlib.gzipSync(raw, { level: 9 }).length;
  total += gz;
  console.log(`${f.padEnd(40)} ${String(raw.length).padStart(9)} B raw ${String(gz).padStart(8)} B gzip`);
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(`total gzip ${kb(total)} KB; enforced limit ${kb(BUDGET)} KB; target ${kb(TARGET)} KB`);
if (total > TARGET) {
  console.log(`still ${kb(total - TARGET)} KB above the target`);
}
if (total > BUDGET) {
  console.error(`over the enforced limit by ${kb(total - BUDGET)} KB`);
  process.exit(1);
}
