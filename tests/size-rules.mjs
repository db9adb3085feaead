// The size rules as a check: what the first load (the main wasm module)
// and each chunk may hold, read from the function names of the last
// build's wasm files (the copies with their name section that
// scripts/build/build-wasm.sh keeps in target/split/release/named/, or
// target/plain/split/release/named/ for the plain build). A broken rule
// fails with its name, the functions that broke it and where to read
// about it, instead of "first load over the limit by N KB". Each chunk's
// rule comes from its row of the chunk table (src/chunks/chunks.json,
// `owns`), and the other way round, each path a row owns must have code in
// that chunk's wasm. tests/rules.test.mjs feeds every rule a build that
// breaks it (brokenIn takes the names in memory).
//
//   node tests/size-rules.mjs [--plain]
//
// A function counts as "defined in" a path when its symbol's first crate
// and the modules after it start with that path (v0 or legacy mangling):
// an impl or generic function of crate A instantiated for a type of crate
// B is A's. The rules that no name can show (a `{:?}` in shown text, say)
// are lines of ARCHITECTURE.md; clippy.toml holds the ones clippy can say.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as wasmRead from '../scripts/build/wasm-read.mjs';
import { TABLE } from './sizes.mjs';

const { functions } = wasmRead;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const plain = process.argv.includes('--plain');

/**
 * Each rule: its name, the modules it applies to (`main`: the first load;
 * `all`: every wasm of the build), the paths no function there may be
 * defined in (or exact symbol names, `symbols`), and where to read why.
 * `mentions`: paths no function's name may name anywhere (a generic
 * component, inlined, leaves only other crates' impls for its closures).
 * `except`: paths under `paths` that are allowed. `release`: the rule holds
 * only for the release build (a technique the plain build leaves out).
 * What each chunk owns is not here: it is the chunk table's `owns` column
 * (chunkRules below), so that the rules and the table cannot drift apart.
 */
export const BUILD_RULES = [
  {
    rule: 'decimal text is read through roofline_core::num::parse_f64, never str::parse::<f64> (std\'s float parser, about 10 KB)',
    in: 'main',
    paths: ['core::num::dec2flt'],
    read: 'docs/build.md §4; the measure chunk may use it (num::parse_f64_std)',
  },
  {
    rule: 'no f64::powf in the first load: powers of ten by roofline_core::num::pow10 (libm\'s pow, 1.4 KB)',
    in: 'main',
    paths: ['compiler_builtins::math::libm_math::pow'],
    symbols: ['pow'],
    read: 'docs/build.md §4; clippy.toml says it too',
  },
  {
    rule: 'charts draw their own frame (roofline_charts::frame), never plotters\' ChartBuilder, ChartContext or mesh',
    in: 'all',
    paths: ['plotters::chart'],
    read: 'docs/build.md §4 (5.7 KB of the first load)',
  },
  {
    rule: 'fonts are plotters\' FontFamily values and text is measured by the canvas, never a font name string (to_lowercase and std\'s case tables, 10 KB)',
    in: 'main',
    paths: ['core::unicode::unicode_data::conversions', 'plotters::style::font::web', 'plotters::style::font::ttf'],
    read: 'docs/build.md §4',
  },
  {
    rule: 'no Leptos <Show> in the first load: use page::shown::shown (1.3 KB; docs/build.md §4)',
    in: 'main',
    // leptos::control_flow only re-exports it: the component is leptos::show::Show.
    // Inlined, it leaves tachys' Render impls for its closures: `mentions`.
    paths: ['leptos::show'],
    mentions: ['leptos::show'],
    read: 'docs/build.md §4',
  },
  {
    rule: 'no Leptos <Suspense> or <Transition> in the first load: a chunk\'s download is followed by a signal (page::chunk_view)',
    in: 'main',
    // leptos::suspense only re-exports them: they are defined here.
    paths: ['leptos::suspense_component', 'leptos::transition'],
    mentions: ['leptos::suspense_component', 'leptos::transition'],
    read: 'src/page/chunk_view.rs; docs/build.md §4',
  },
  {
    rule: 'state is RwSignal, never signal() pairs, and derived values are Memos, never the Signal wrapper, in the first load (1.4 KB; clippy.toml says so for signal())',
    in: 'main',
    paths: ['reactive_graph::signal::read', 'reactive_graph::signal::write', 'reactive_graph::signal::arc_read', 'reactive_graph::signal::arc_write', 'reactive_graph::wrappers'],
    read: 'docs/build.md §4',
  },
  {
    rule: 'no Leptos context in the first load: pass the signal, or use a thread-local (1.8 KB; clippy.toml says so)',
    in: 'main',
    paths: ['reactive_graph::owner::context'],
    read: 'docs/build.md §4',
  },
  {
    rule: 'the heap is rlsf\'s TLSF, not std\'s dlmalloc (src/main.rs)',
    in: 'all',
    paths: ['dlmalloc'],
    read: 'docs/build.md §4',
  },
];

/**
 * A rule per row of the chunk table (`table`, src/chunks/chunks.json) with
 * an `owns` list: no function of the paths the chunk owns is in the first
 * load, but for those of its `first_load_keeps` (paths under `owns` that the
 * first load itself uses). `owns_note`: what else to read about it.
 */
export function chunkRules(table = TABLE) {
  return table.chunks
    .filter((c) => c.owns?.length)
    .map((c) => ({
      rule: `the ${c.name} chunk's code stays out of the first load: ${c.owns.join(', ')}${c.first_load_keeps?.length ? ` (but ${c.first_load_keeps.join(', ')})` : ''}, called only from src/chunks/${c.name}/`,
      in: 'main',
      paths: c.owns,
      except: c.first_load_keeps ?? [],
      read: `docs/build.md §2.2; the ${c.name} row's \`owns\` in src/chunks/chunks.json${c.owns_note ? `; ${c.owns_note}` : ''}`,
      chunk: c.name,
    }));
}

/** Every rule on the built wasm's names: the build's own and one per chunk. */
export const RULES = [...BUILD_RULES, ...chunkRules()];

/** The name of the rule that each owned path of chunk `name` has code in its wasm. */
export const ownsRule = (name) =>
  `the chunk table's ${name} row owns what the ${name} chunk holds: each path of its \`owns\` has a function in split_${name}.wasm or a shared chunk_<n>.wasm`;

/** The rule lowMemoryProblem checks (release builds). */
export const LOW_MEMORY_RULE = 'wasm-opt --low-memory-unused needs nothing in the first 1 KB of memory';

/**
 * Why `wasm-opt --low-memory-unused` is sound for the wasm in `buf`, or the
 * problem: it assumes nothing lives in the first 1 KB of memory. rust-lld
 * puts the stack first, growing down from `__stack_pointer` to 0, then the
 * data: every active data segment must start at 1024 or above, and the
 * stack must be deep enough (64 KiB) that only a runaway one reaches 1 KB.
 */
export function lowMemoryProblem(buf) {
  const { leb, sections } = wasmRead;
  for (const { id, start, end } of sections(buf)) {
    if (id === 6) {
      // The globals: the first is __stack_pointer, an i32.const.
      let [count, p] = leb(buf, start);
      if (count > 0 && buf[p] === 0x7f && buf[p + 2] === 0x41) {
        const [sp] = sleb(buf, p + 3);
        if (sp < 65536) return `__stack_pointer starts at ${sp}, below 64 KiB`;
      }
    }
    if (id === 11) {
      let [count, p] = leb(buf, start);
      for (let i = 0; i < count && p < end; i++) {
        const [flags, q] = leb(buf, p);
        p = q;
        if (flags === 1) {
          // Passive: no offset; skip its bytes.
          const [len, r] = leb(buf, p);
          p = r + len;
          continue;
        }
        if (flags === 2) [, p] = leb(buf, p);
        if (buf[p] !== 0x41) return `data segment ${i} has an offset that is not a constant`;
        const [offset, r] = sleb(buf, p + 1);
        if (offset < 1024) return `data segment ${i} starts at ${offset}, in the first 1 KB`;
        p = r + 1; // the `end` opcode
        const [len, t] = leb(buf, p);
        p = t + len;
      }
    }
  }
  return null;
}

/** A signed LEB128 at `pos`: [value, next position]. */
function sleb(buf, pos) {
  let result = 0;
  let shift = 0;
  let byte;
  do {
    byte = buf[pos++];
    result |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80);
  if (shift < 32 && byte & 0x40) result |= -1 << shift;
  return [result, pos];
}

/** The path a function is defined in, as segments (see the top of this file). */
export function definedIn(name) {
  if (name.startsWith('_R')) {
    const m = /C(?:s[0-9A-Za-z]*_)?(\d+)/.exec(name.slice(2));
    if (!m) return [name];
    let p = 2 + m.index + m[0].length;
    const take = (len) => {
      // An identifier that starts with `_` or a digit has a `_` between
      // its length and itself.
      if (name[p] === '_') p++;
      const s = name.slice(p, p + len);
      p += len;
      return s;
    };
    const segs = [take(Number(m[1]))];
    for (;;) {
      const d = /^(?:s[0-9A-Za-z]*_)?(\d+)/.exec(name.slice(p));
      if (!d) break;
      p += d[0].length;
      segs.push(take(Number(d[1])));
    }
    return segs;
  }
  if (name.startsWith('_ZN')) {
    const segs = [];
    let p = 3;
    for (let d; (d = /^(\d+)/.exec(name.slice(p))); ) {
      p += d[0].length;
      segs.push(name.slice(p, p + Number(d[1])));
      p += Number(d[1]);
    }
    // The hash rustc appends is no module.
    if (/^h[0-9a-f]{16}$/.test(segs.at(-1))) segs.pop();
    // An impl's function (`<a::B<T> as c::D>::f`, `<a::B<T>>::f`): legacy
    // mangling keeps no path of the impl, so it counts as its type's.
    const impl = /^_?\$LT\$([A-Za-z_][\w.]*?)(?:\$LT\$|\$GT\$|\$u20\$|$)/.exec(segs[0] ?? '');
    if (impl) return [...impl[1].split('..'), ...segs.slice(1)];
    return segs;
  }
  return [name];
}

/** Whether `segs` (a function's path) starts with the path `prefix` ("a::b"). */
const under = (segs, prefix) => {
  const want = prefix.split('::');
  return want.every((w, i) => segs[i] === w);
};

/**
 * Whether the symbol `name` names the path `p` ("a::b") anywhere: as its
 * segments (`1a1b`, v0 or legacy) or inside a legacy generic (`a..b`).
 */
const mentions = (name, p) => {
  const segs = p.split('::');
  const seq = segs.map((x) => `${x.length}_?${x}`).join('');
  return new RegExp(`(?:^|[^0-9])${seq}|(?:^|[^\\w.])${segs.join('\\.\\.')}(?:\\.\\.|\\$)`).test(name);
};

/** Whether function path `segs` falls under one of `paths` and none of `except`. */
const inPaths = (segs, paths, except = []) => paths.some((p) => under(segs, p)) && !except.some((p) => under(segs, p));

/**
 * The rules broken by a build's wasm files, given as their function names:
 * `files` maps a file name (roofline-lab_bg.wasm, the first load;
 * split_NAME.wasm, chunk NAME; chunk_<n>.wasm, code chunks share) to its
 * functions' (mangled) names. [{ rule, read, file, found: [function paths] }].
 * `table`: the chunk table whose `owns` the chunk rules and the owns check
 * read (src/chunks/chunks.json unless given).
 */
export function brokenIn(files, { release = true, table = TABLE } = {}) {
  if (!('roofline-lab_bg.wasm' in files)) throw new Error('no roofline-lab_bg.wasm among the files');
  const rules = table === TABLE ? RULES : [...BUILD_RULES, ...chunkRules(table)];
  const defs = Object.fromEntries(Object.entries(files).map(([f, names]) => [f, names.map((n) => [n, definedIn(n)])]));
  const out = [];
  for (const [file, fileDefs] of Object.entries(defs)) {
    for (const r of rules) {
      if (r.release && !release) continue;
      if (r.in === 'main' && file !== 'roofline-lab_bg.wasm') continue;
      const found = new Set();
      for (const [n, segs] of fileDefs) {
        if (inPaths(segs, r.paths, r.except) || (r.symbols ?? []).includes(n)) found.add(segs.join('::'));
        else {
          const m = (r.mentions ?? []).find((p) => mentions(n, p));
          if (m) found.add(`${segs.join('::')} (for ${m})`);
        }
      }
      if (found.size) out.push({ rule: r.rule, read: r.read, file, found: [...found].sort() });
    }
  }
  // The other way round: what a row owns has code in that chunk's wasm (or
  // in a chunk_<n>.wasm, code it shares with another chunk), so that `owns`
  // names the chunk's code and not a path that moved or was renamed.
  const shared = Object.keys(defs).filter((f) => /^chunk_\w+\.wasm$/.test(f));
  for (const c of table.chunks) {
    if (!c.owns?.length) continue;
    const file = `split_${c.name}.wasm`;
    const where = [file, ...shared].filter((f) => f in defs).flatMap((f) => defs[f]);
    const missing = c.owns.filter((p) => !where.some(([, segs]) => inPaths(segs, [p], c.first_load_keeps)));
    if (missing.length) {
      out.push({
        rule: ownsRule(c.name),
        read: `src/chunks/chunks.json: take a path the chunk no longer has out of \`owns\`, or find where its code went${file in defs ? '' : ` (there is no ${file})`}`,
        file,
        found: missing.map((p) => `nothing of ${p}`),
      });
    }
  }
  return out;
}

/** The rules broken by the named wasm files in `dir` (see brokenIn). */
export function broken(dir, { release = true } = {}) {
  const wasm = fs.readdirSync(dir).filter((f) => f.endsWith('.wasm'));
  if (!wasm.includes('roofline-lab_bg.wasm')) throw new Error(`no roofline-lab_bg.wasm in ${dir}: build first (bash scripts/build.sh${release ? '' : ' --plain'})`);
  const files = Object.fromEntries(wasm.map((f) => [f, functions(fs.readFileSync(path.join(dir, f))).map((fn) => fn.name)]));
  return brokenIn(files, { release });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.env.CARGO_TARGET_DIR ?? path.join(root, 'target', ...(plain ? ['plain'] : []));
  const dir = path.join(target, 'split', 'release', 'named');
  let found;
  try {
    found = broken(dir, { release: !plain });
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
  const where = (f) => (f === 'roofline-lab_bg.wasm' ? 'the first load' : f);
  for (const b of found) {
    console.error(`size rule broken in ${where(b.file)}: ${b.rule}`);
    console.error(`  read: ${b.read}`);
    for (const f of b.found.slice(0, 8)) console.error(f.startsWith('nothing of ') ? `  has ${f}` : `  defines ${f}`);
    if (b.found.length > 8) console.error(`  ... and ${b.found.length - 8} more`);
  }
  // --low-memory-unused (release only): nothing in the first 1 KB.
  const low = plain ? null : lowMemoryProblem(fs.readFileSync(path.join(dir, 'roofline-lab_bg.wasm')));
  if (low) {
    console.error(`size rule broken in the first load: ${LOW_MEMORY_RULE}: ${low}`);
    console.error('  read: docs/build.md §2.4; take the flag out of scripts/build/build-wasm.sh, or move the data');
  }
  if (found.length || low) process.exit(1);
  const owned = TABLE.chunks.filter((c) => c.owns?.length).length;
  console.log(`size rules: all ${RULES.length + (plain ? 0 : 1)} hold in ${dir}, and each of the ${owned} chunks holds the code its row owns`);
}
