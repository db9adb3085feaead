// Size budget: the gzip transfer of html + js + wasm + css in dist/ must stay
// at or under 150 KB. Prints each file's raw and gzip size and fails with the
// numbers when over budget.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const BUDGET = 150 * 1024;
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
console.log(`total gzip ${kb(total)} KB of a ${kb(BUDGET)} KB budget`);
if (total > BUDGET) {
  console.error(`over budget by ${kb(total - BUDGET)} KB`);
  process.exit(1);
}
