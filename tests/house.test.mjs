// House rules that need no build: each names the rule it checks and where
// to read about it. Run by scripts/check.sh before clippy (node --test
// tests/house.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { TABLE } from './sizes.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && fs.existsSync(path.join(root, f)));
const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');
const rust = (dir) => tracked.filter((f) => f.startsWith(dir) && f.endsWith('.rs'));

/** The longest a source file may be (ARCHITECTURE.md, "a room per concern"). */
const MAX_LINES = 750;

test('rooms: no source file is over 750 lines', () => {
  const long = tracked
    .filter((f) => /\.(rs|mjs|js|sh)$/.test(f) && !f.startsWith('bench/peer/'))
    .map((f) => [f, read(f).split('\n').length - 1])
    .filter(([, n]) => n > MAX_LINES)
    .map(([f, n]) => `${f}: ${n} lines`);
  assert.deepEqual(long, [], `split these into files by concern (rule: no source file over ${MAX_LINES} lines)`);
});

test('docs: ARCHITECTURE.md stays under 200 lines; the budget\'s why under 1,500 characters', () => {
  const lines = read('ARCHITECTURE.md').split('\n').length - 1;
  assert.ok(lines < 200, `ARCHITECTURE.md is ${lines} lines: keep it a bird's-eye view; the long story goes in docs/`);
  const why = JSON.parse(read('tests/size-budget.json')).why;
  assert.ok(why.length < 1500, `tests/size-budget.json's why is ${why.length} characters: history goes in docs/build.md §5`);
});

test('chunks: every folder of src/chunks/ is a row of the chunk table, and every row a folder with its loader', () => {
  const folders = fs
    .readdirSync(path.join(root, 'src', 'chunks'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const rows = TABLE.chunks.map((c) => c.name).sort();
  assert.deepEqual(folders, rows, 'src/chunks/NAME/ and the rows of src/chunks/chunks.json must match (rule: a chunk is a folder and a row)');
  for (const name of rows) {
    const loader = `src/chunks/${name}/mod.rs`;
    assert.ok(tracked.includes(loader), `${loader} is the chunk's loader`);
    assert.match(read(loader), new RegExp(`#\\[wasm_split\\(${name}\\b`), `${loader} has the #[wasm_split(${name}, ...)] function`);
    for (const key of ['when', 'limit_kb', 'open']) assert.ok(key in TABLE.chunks.find((c) => c.name === name), `row ${name} has \`${key}\``);
  }
});

test('chunks: #[wasm_split(NAME)] appears only in the loader of chunk NAME', () => {
  const wrong = [];
  for (const f of rust('src/')) {
    for (const m of read(f).matchAll(/^\s*#\[wasm_split\((\w+)/gm)) {
      if (f !== `src/chunks/${m[1]}/mod.rs`) wrong.push(`${f}: #[wasm_split(${m[1]})] belongs in src/chunks/${m[1]}/mod.rs`);
    }
  }
  assert.deepEqual(wrong, [], 'rule: a chunk\'s split functions are its loader, in its folder\'s mod.rs');
});

test('chunks: nothing outside a chunk\'s folder reaches past its loader', () => {
  const wrong = [];
  for (const f of rust('src/')) {
    const own = /^src\/chunks\/(\w+)\//.exec(f)?.[1];
    for (const m of read(f).matchAll(/crate::chunks::(\w+)::(\w+)/g)) {
      const [, chunk, item] = m;
      const file = path.join(root, 'src', 'chunks', chunk, `${item}.rs`);
      if (chunk !== own && fs.existsSync(file)) {
        wrong.push(`${f} uses crate::chunks::${chunk}::${item}, code of the ${chunk} chunk: go through its loader (src/chunks/${chunk}/mod.rs), or the code comes back into the first load`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('core: roofline-core depends on no web crate', () => {
  const manifest = read('crates/roofline-core/Cargo.toml');
  const deps = manifest.split(/^\[/m).filter((s) => /dependencies\]/.test(s.split('\n')[0])).join('\n');
  for (const web of ['leptos', 'web-sys', 'js-sys', 'wasm-bindgen', 'gloo', 'plotters-canvas']) {
    assert.doesNotMatch(deps, new RegExp(`^${web}\\b`, 'm'), `rule: the core is pure Rust, tested natively (ARCHITECTURE.md); it depends on ${web}`);
  }
});
