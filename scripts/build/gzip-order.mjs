// Orders a wasm's functions so that gzip finds more of each one in the
// functions just before it. Run by scripts/build/build-wasm.sh on each wasm after
// wasm-opt -O2:
//
//   node scripts/build/gzip-order.mjs <in.wasm> <out.wasm>
//
// Why: gzip only matches text within the last 32 KB. The linker lays
// functions out by where they come from, so the copies of one generic
// function for different types, or two views built the same way, are often
// far apart. Placing each function after those it shares the most byte
// sequences with (see gzipOrder) makes the code about 4% smaller in gzip.
// The functions are the same; only their order and so their indices change.
// Sometimes the linker's order is the better one (neighbours that call each
// other): the script then keeps it, so a wasm never gets larger here.
//
// How: this script only chooses the order. It names every function after
// its place in it (a name section of zero-padded ranks), and wasm-opt's
// --reorder-functions-by-name does the reordering, rewriting every call,
// table entry and export; --strip-debug then drops the names again. Imports
// keep their places. The chunks of scripts/build/build-wasm.sh reach the main
// module through its table and exports, not by function index, so each
// wasm can be ordered on its own.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encName, functionBodies, readName, sections, uleb } from './wasm-read.mjs';

/**
 * The order for gzip of function `bodies` (Buffers): a permutation of their
 * indices. Also used by bench/gzip-cost.mjs, to charge each function in the
 * order that ships.
 *
 * Three greedy orders, each starting with the first body: one always takes
 * the unplaced body sharing the most 4-byte sequences with the body just
 * placed (per root of its number of sequences); the others take, of the
 * 6 (or 8) bodies that rank best that way, the one deflate stores in the
 * fewest bytes per byte after the last 32 KB placed. Whichever order
 * deflates smallest is returned.
 */
export function gzipOrder(bodies) {
  const CANDIDATES = [6, 8];
  const n = bodies.length;
  if (n === 0) return [];
  // Each body's distinct 4-byte sequences, and for each sequence the bodies
  // that hold it.
  const grams = bodies.map((b) => {
    const s = new Set();
    for (let k = 0; k + 4 <= b.length; k++) s.add(b.readUInt32LE(k));
    return [...s];
  });
  const holders = new Map();
  grams.forEach((gs, i) => {
    for (const g of gs) {
      let h = holders.get(g);
      if (!h) holders.set(g, (h = []));
      h.push(i);
    }
  });
  const shared = new Float64Array(n);
  /** The unplaced bodies most like `cur`, best first: at most `k` of them. */
  const likest = (cur, placed, k) => {
    shared.fill(0);
    for (const g of grams[cur]) for (const j of holders.get(g)) shared[j]++;
    const best = [];
    for (let j = 0; j < n; j++) {
      if (placed[j]) continue;
      const score = shared[j] / Math.sqrt(1 + grams[j].length);
      if (best.length < k || score > best[best.length - 1][0]) {
        best.push([score, j]);
        best.sort((a, b) => b[0] - a[0]);
        if (best.length > k) best.pop();
      }
    }
    return best.map(([, j]) => j);
  };
  const WINDOW = 32 * 1024;
  const deflated = (b) => zlib.deflateRawSync(b, { level: 6 }).length;
  const greedy = (choose) => {
    const placed = new Uint8Array(n);
    const out = [];
    let tail = Buffer.alloc(0);
    let cur = 0;
    for (;;) {
      placed[cur] = 1;
      out.push(cur);
      if (out.length === n) return out;
      tail = Buffer.concat([tail, bodies[cur]]);
      if (tail.length > WINDOW) tail = tail.subarray(tail.length - WINDOW);
      cur = choose(cur, placed, tail);
    }
  };
  // Choosing among 6 or among 8 of the likest: either can win by a few
  // hundred bytes, depending on the code (measured on the main module).
  const byDeflate = (candidates) => greedy((cur, placed, tail) => {
    const before = deflated(tail);
    let best = -1;
    let bestCost = Infinity;
    for (const j of likest(cur, placed, candidates)) {
      const cost = (deflated(Buffer.concat([tail, bodies[j]])) - before) / Math.max(1, bodies[j].length);
      if (cost < bestCost) {
        bestCost = cost;
        best = j;
      }
    }
    return best;
  });
  const orders = [greedy((cur, placed) => likest(cur, placed, 1)[0]), ...CANDIDATES.map(byDeflate)];
  const size = (order) => zlib.deflateRawSync(Buffer.concat(order.map((i) => bodies[i])), { level: 9 }).length;
  const sizes = orders.map(size);
  return orders[sizes.indexOf(Math.min(...sizes))];
}

function main() {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node scripts/build/gzip-order.mjs <in.wasm> <out.wasm>');
    process.exit(2);
  }
  const buf = fs.readFileSync(input);

  for (const { id, start } of sections(buf)) {
    if (id === 0 && readName(buf, start)[0] === 'name') {
      throw new Error(`gzip-order: ${input} already has a name section`);
    }
  }
  const found = functionBodies(buf);
  const { imported } = found;
  const bodies = found.bodies.map((b) => buf.subarray(b.start, b.start + b.size));

  const rank = new Array(bodies.length);
  gzipOrder(bodies).forEach((body, place) => {
    rank[body] = place;
  });
  const width = String(bodies.length).length;
  const entries = rank.map((r, i) => Buffer.concat([uleb(imported + i), encName(`f${String(r).padStart(width, '0')}`)]));
  const functionNames = Buffer.concat([uleb(bodies.length), ...entries]);
  const payload = Buffer.concat([encName('name'), Buffer.from([1]), uleb(functionNames.length), functionNames]);
  const named = Buffer.concat([buf, Buffer.from([0]), uleb(payload.length), payload]);

  const tmp = `${output}.named.wasm`;
  const kept = `${output}.kept.wasm`;
  fs.writeFileSync(tmp, named);
  try {
    // The features come from the module's target_features section, which the
    // build strips only after this step.
    const wasmOpt = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules', '.bin', 'wasm-opt');
    // Optimisation levels without passes: binaryen then writes the code
    // through its optimised stack form (a plain rewrite is about 1.3 KB
    // gzip larger; at shrink level 2 that form is a little smaller than
    // -O2 writes it).
    const levels = ['--optimize-level=2', '--shrink-level=2'];
    const run = (args) => execFileSync(wasmOpt, [...args, ...levels, '--strip-debug', '--strip-target-features'], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    run([input, '-o', kept]);
    run([tmp, '--reorder-functions-by-name', '-o', output]);
    // The linker's order is sometimes the better one (its neighbours call
    // each other): keep whichever gzips smaller.
    const gz = (f) => zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length;
    const [before, after] = [gz(kept), gz(output)];
    if (after >= before) fs.copyFileSync(kept, output);
    console.error(`gzip-order: ${path.basename(output)} ${before} -> ${Math.min(before, after)} B gzip${after >= before ? ' (link order kept)' : ''}`);
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(kept, { force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
