// What each function of a shipped wasm costs in gzip, which is what the size
// budget counts. Raw code sizes (bench/wasm-code.mjs) mislead here: gzip
// stores code that repeats nearby (copies of one generic function for
// several types, say) for a fraction of its size, and unique code for most
// of it.
//
//   node bench/gzip-cost.mjs [WASM] [--top N]
//
// WASM defaults to the main module of the last release build, as named copy
// (target/split/release/named/roofline-lab_bg.wasm); a chunk's copy
// (split_quiz.wasm, ...) works the same. The copy is optimised here as the
// build does it (wasm-opt -O2 --low-memory-unused, from npm binaryen),
// keeping its names, its functions are put in the order the build ships
// them in (scripts/build/gzip-order.mjs), then each function body is charged the
// bytes it adds to a deflate stream that already holds the 32 KB before it
// (deflate's window). The costs add up to about the gzip size of the code
// section. Printed: the N costliest
// functions (default 40; names demangled when llvm-cxxfilt is installed) and
// the cost by crate.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { crateOf, functions } from './wasm-code.mjs';
import { gzipOrder } from '../scripts/build/gzip-order.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 40;
const named = path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, 'target'), 'split', 'release', 'named');
const input = args[0] ?? path.join(named, 'roofline-lab_bg.wasm');
if (!fs.existsSync(input) || !Number.isInteger(top) || top < 0) {
  console.error(`usage: node bench/gzip-cost.mjs [WASM] [--top N]; no ${input}: build first (bash scripts/build.sh)`);
  process.exit(2);
}

// The features the build's wasm uses; a named copy still lists them, but a
// chunk's does not say so to wasm-opt on its own.
const features = ['bulk-memory', 'nontrapping-float-to-int', 'sign-ext', 'mutable-globals', 'reference-types', 'multivalue'];
const optimised = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gzip-cost-')), 'named.wasm');
execFileSync(path.join(root, 'node_modules', '.bin', 'wasm-opt'), [
  '-O2', '--low-memory-unused', '--debuginfo', ...features.map((f) => `--enable-${f}`), input, '-o', optimised,
], { stdio: ['ignore', 'ignore', 'pipe'] });
const buf = fs.readFileSync(optimised);
fs.rmSync(path.dirname(optimised), { recursive: true });

const WINDOW = 32 * 1024;
const fns = functions(buf);
// The bodies one after another in the order the build ships them.
const bodies = fns.map((f) => buf.subarray(f.start, f.start + f.size));
const order = gzipOrder(bodies);
const code = Buffer.concat(order.map((i) => bodies[i]));
let at = 0;
for (const i of order) {
  fns[i].at = at;
  at += fns[i].size;
}
const deflated = (from, to) => zlib.deflateRawSync(code.subarray(from, to), { level: 9 }).length;
for (const f of fns) {
  const from = Math.max(0, f.at - WINDOW);
  f.cost = deflated(from, f.at + f.size) - deflated(from, f.at);
}

const demangle = (names) => {
  const r = spawnSync('llvm-cxxfilt', [], { input: names.join('\n'), maxBuffer: 1 << 28 });
  const out = r.status === 0 ? r.stdout.toString().split('\n') : [];
  return names.map((n, i) => out[i] || n);
};
const total = fns.reduce((a, f) => a + f.cost, 0);
const costliest = [...fns].sort((a, b) => b.cost - a.cost).slice(0, top);
const shown = demangle(costliest.map((f) => f.name));
console.log(`${path.relative(process.cwd(), input)}: ${fns.length} functions, code ${(total / 1024).toFixed(1)} KB gzip (each charged what it adds to the 32 KB before it)\n`);
console.log('gzip B   raw B  function');
costliest.forEach((f, i) => console.log(`${String(f.cost).padStart(6)} ${String(f.size).padStart(7)}  ${shown[i].slice(0, 160)}`));
const byCrate = new Map();
for (const f of fns) byCrate.set(crateOf(f.name), (byCrate.get(crateOf(f.name)) ?? 0) + f.cost);
console.log('\ngzip B  share  crate');
for (const [crate, cost] of [...byCrate].sort((a, b) => b[1] - a[1])) {
  console.log(`${String(cost).padStart(6)} ${((100 * cost) / total).toFixed(1).padStart(5)}%  ${crate}`);
}
