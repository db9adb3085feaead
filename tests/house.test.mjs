// House rules that need no build: each names the rule it checks and where
// to read about it. Run by scripts/check.sh before clippy (node --test
// tests/house.test.mjs).
//
// Each rule is a check, a function of its inputs (files and their texts,
// the chunk table, the manifests) that returns the problems it finds; a
// test runs it on the repository, and another feeds it a fixture that
// breaks the rule, so that no check passes because it cannot fail.
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
/** The repository's files under `dir` ending in `ext`, as { path: text }. */
const texts = (dir, ext) => Object.fromEntries(tracked.filter((f) => f.startsWith(dir) && ext.test(f)).map((f) => [f, read(f)]));

/** Asserts `problems` is empty, failing with the rule's name and the problems. */
function holds(rule, problems) {
  assert.deepEqual(problems, [], `rule broken: ${rule}`);
}

/** Asserts that `problems` breaks `rule`: the check fails, naming the rule. */
function breaks(rule, problems) {
  assert.throws(() => holds(rule, problems), (e) => e.message.includes(`rule broken: ${rule}`));
}

// ---------------------------------------------------------------------------
// Rooms: no source file is over 750 lines (ARCHITECTURE.md, invariants).

const ROOMS = 'no source file (.rs, .mjs, .js, .sh) is over 750 lines: split it into files by concern (ARCHITECTURE.md)';
const MAX_LINES = 750;

/** Files of `files` ({ path: text }) over the limit. */
function longFiles(files) {
  return Object.entries(files)
    .filter(([f]) => /\.(rs|mjs|js|sh)$/.test(f) && !f.startsWith('bench/peer/'))
    .map(([f, text]) => [f, text.split('\n').length - 1])
    .filter(([, n]) => n > MAX_LINES)
    .map(([f, n]) => `${f}: ${n} lines`);
}

test(`rooms: ${ROOMS}`, () => {
  holds(ROOMS, longFiles(texts('', /\.(rs|mjs|js|sh)$/)));
});

test(`rooms, broken: ${ROOMS}`, () => {
  const lines = (n) => 'x\n'.repeat(n);
  holds(ROOMS, longFiles({ 'src/a.rs': lines(750), 'bench/peer/big.js': lines(2000), 'docs/long.md': lines(2000) }));
  breaks(ROOMS, longFiles({ 'src/a.rs': lines(751) }));
  assert.deepEqual(longFiles({ 'scripts/a.sh': lines(751) }), ['scripts/a.sh: 751 lines']);
});

// ---------------------------------------------------------------------------
// Docs: short enough to be read.

const DOCS = 'ARCHITECTURE.md stays under 200 lines (a bird\'s-eye view; the long story goes in docs/), and the size budget\'s why under 1,500 characters (history goes in docs/build.md §5)';

/** What is too long: the text of ARCHITECTURE.md, or the why of tests/size-budget.json. */
function longDocs(architecture, budget) {
  const out = [];
  const lines = architecture.split('\n').length - 1;
  if (lines >= 200) out.push(`ARCHITECTURE.md is ${lines} lines`);
  const why = JSON.parse(budget).why;
  if (why.length >= 1500) out.push(`tests/size-budget.json's why is ${why.length} characters`);
  return out;
}

test(`docs: ${DOCS}`, () => {
  holds(DOCS, longDocs(read('ARCHITECTURE.md'), read('tests/size-budget.json')));
});

test(`docs, broken: ${DOCS}`, () => {
  breaks(DOCS, longDocs('x\n'.repeat(200), JSON.stringify({ why: 'short' })));
  breaks(DOCS, longDocs('x\n', JSON.stringify({ why: 'w'.repeat(1500) })));
});

// ---------------------------------------------------------------------------
// Chunks: a chunk is a folder and a row (docs/build.md §2.2).

const FOLDER_ROW = 'a chunk is a folder and a row: every folder of src/chunks/ is a row of src/chunks/chunks.json, every row a folder whose mod.rs has its #[wasm_split(NAME, ...)] loader, and every row has `when`, `limit_kb`, `open` and `owns`';

/** `folders`: the folders of src/chunks/; `table`: the chunk table; `loader(name)`: the text of src/chunks/NAME/mod.rs, or null. */
function folderRowProblems(folders, table, loader) {
  const out = [];
  const rows = table.chunks.map((c) => c.name);
  for (const f of folders) if (!rows.includes(f)) out.push(`src/chunks/${f}/ has no row in src/chunks/chunks.json`);
  for (const row of table.chunks) {
    const { name } = row;
    if (!folders.includes(name)) out.push(`row ${name} has no folder src/chunks/${name}/`);
    const text = loader(name);
    if (text === null) out.push(`src/chunks/${name}/mod.rs, the chunk's loader, is missing`);
    else if (!new RegExp(`#\\[wasm_split\\(${name}\\b`).test(text)) out.push(`src/chunks/${name}/mod.rs has no #[wasm_split(${name}, ...)] function`);
    for (const key of ['when', 'limit_kb', 'open', 'owns']) if (!(key in row)) out.push(`row ${name} has no \`${key}\``);
  }
  return out;
}

const repoFolders = () =>
  fs
    .readdirSync(path.join(root, 'src', 'chunks'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
const repoLoader = (name) => (tracked.includes(`src/chunks/${name}/mod.rs`) ? read(`src/chunks/${name}/mod.rs`) : null);

test(`chunks: ${FOLDER_ROW}`, () => {
  holds(FOLDER_ROW, folderRowProblems(repoFolders(), TABLE, repoLoader));
});

test(`chunks, broken: ${FOLDER_ROW}`, () => {
  const row = { name: 'quiz', when: 'w', limit_kb: 1, open: {}, owns: ['x'] };
  const loader = (name) => `#[wasm_split(${name}, wasm_split_path = crate::wasm_split)]\nfn load() {}`;
  holds(FOLDER_ROW, folderRowProblems(['quiz'], { chunks: [row] }, loader));
  breaks(FOLDER_ROW, folderRowProblems(['quiz', 'extra'], { chunks: [row] }, loader)); // a folder without a row
  breaks(FOLDER_ROW, folderRowProblems([], { chunks: [row] }, loader)); // a row without a folder
  breaks(FOLDER_ROW, folderRowProblems(['quiz'], { chunks: [row] }, () => null)); // no loader
  breaks(FOLDER_ROW, folderRowProblems(['quiz'], { chunks: [row] }, () => '#[wasm_split(quizzes)]')); // another chunk's loader
  const { owns, ...noOwns } = row;
  breaks(FOLDER_ROW, folderRowProblems(['quiz'], { chunks: [noOwns] }, loader)); // a row without `owns`
});

const SPLIT_PLACE = 'a chunk\'s split functions are its loader: #[wasm_split(NAME)] appears only in src/chunks/NAME/mod.rs';

/** The #[wasm_split(NAME)] of `files` ({ path: text }) outside src/chunks/NAME/mod.rs. */
function misplacedSplits(files) {
  const out = [];
  for (const [f, text] of Object.entries(files)) {
    for (const m of text.matchAll(/^\s*#\[wasm_split\((\w+)/gm)) {
      if (f !== `src/chunks/${m[1]}/mod.rs`) out.push(`${f}: #[wasm_split(${m[1]})] belongs in src/chunks/${m[1]}/mod.rs`);
    }
  }
  return out;
}

test(`chunks: ${SPLIT_PLACE}`, () => {
  holds(SPLIT_PLACE, misplacedSplits(texts('src/', /\.rs$/)));
});

test(`chunks, broken: ${SPLIT_PLACE}`, () => {
  const split = '#[wasm_split(quiz)]\nasync fn load() {}\n';
  holds(SPLIT_PLACE, misplacedSplits({ 'src/chunks/quiz/mod.rs': split }));
  breaks(SPLIT_PLACE, misplacedSplits({ 'src/chunks/quiz/page.rs': split }));
  breaks(SPLIT_PLACE, misplacedSplits({ 'src/chunks/learn/mod.rs': split }));
  breaks(SPLIT_PLACE, misplacedSplits({ 'src/page/app.rs': `fn a() {}\n    ${split}` }));
});

const PAST_LOADER = 'nothing outside a chunk\'s folder reaches past its loader (crate::chunks::NAME::ITEM for a file ITEM.rs of the chunk), or the code comes back into the first load';

/** `files` ({ path: text }) that use a chunk's own files from outside it; `isFile(p)`: whether the repository has p. */
function pastLoaders(files, isFile) {
  const out = [];
  for (const [f, text] of Object.entries(files)) {
    const own = /^src\/chunks\/(\w+)\//.exec(f)?.[1];
    for (const [, chunk, item] of text.matchAll(/crate::chunks::(\w+)::(\w+)/g)) {
      if (chunk !== own && isFile(`src/chunks/${chunk}/${item}.rs`)) {
        out.push(`${f} uses crate::chunks::${chunk}::${item}, code of the ${chunk} chunk: go through its loader (src/chunks/${chunk}/mod.rs)`);
      }
    }
  }
  return out;
}

test(`chunks: ${PAST_LOADER}`, () => {
  holds(PAST_LOADER, pastLoaders(texts('src/', /\.rs$/), (p) => fs.existsSync(path.join(root, p))));
});

test(`chunks, broken: ${PAST_LOADER}`, () => {
  const isFile = (p) => p === 'src/chunks/quiz/page.rs';
  holds(PAST_LOADER, pastLoaders({ 'src/page/app.rs': 'use crate::chunks::quiz::{prefetch_quiz, QuizLoader};', 'src/chunks/quiz/mod.rs': 'use crate::chunks::quiz::page::QuizPage;' }, isFile));
  breaks(PAST_LOADER, pastLoaders({ 'src/page/app.rs': 'use crate::chunks::quiz::page::QuizPage;' }, isFile));
  breaks(PAST_LOADER, pastLoaders({ 'src/chunks/learn/page.rs': 'crate::chunks::quiz::page::QuizPage' }, isFile));
});

// ---------------------------------------------------------------------------
// The core: pure Rust, tested natively (ARCHITECTURE.md).

const PURE_CORE = 'roofline-core depends on no web crate (leptos, web-sys, js-sys, wasm-bindgen, gloo, plotters-canvas): the core is pure Rust, tested natively (ARCHITECTURE.md)';

/** The web crates among the dependencies of `manifest` (a Cargo.toml's text). */
function webDeps(manifest) {
  const deps = manifest
    .split(/^\[/m)
    .filter((s) => /dependencies\]/.test(s.split('\n')[0]))
    .join('\n');
  return ['leptos', 'web-sys', 'js-sys', 'wasm-bindgen', 'gloo', 'plotters-canvas'].filter((web) => new RegExp(`^${web}\\b`, 'm').test(deps));
}

test(`core: ${PURE_CORE}`, () => {
  holds(PURE_CORE, webDeps(read('crates/roofline-core/Cargo.toml')));
});

test(`core, broken: ${PURE_CORE}`, () => {
  const manifest = (deps) => `[package]\nname = "roofline-core"\ndescription = "no leptos here"\n\n[dependencies]\n${deps}\n[features]\nweb-sys = []\n`;
  holds(PURE_CORE, webDeps(manifest('serde = "1"\n')));
  breaks(PURE_CORE, webDeps(manifest('web-sys = { version = "0.3" }\n')));
  breaks(PURE_CORE, webDeps(`${manifest('')}\n[target.'cfg(target_arch = "wasm32")'.dev-dependencies]\nwasm-bindgen = "0.2"\n`));
});

// ---------------------------------------------------------------------------
// send_wrapper: the workspace's copy, without the thread check (docs/build.md §4).

const SEND_WRAPPER = 'send_wrapper is crates/send-wrapper (Cargo.toml\'s [patch.crates-io]), without the thread check that single-threaded wasm never needs (1.4 KB; docs/build.md §4)';

/** Whether Cargo.toml (`manifest`) patches send_wrapper to the path crate, and Cargo.lock (`lock`) resolves it there. */
function sendWrapperProblems(manifest, lock) {
  const out = [];
  const patch = manifest.split(/^\[/m).find((s) => s.startsWith('patch.crates-io]'));
  if (!patch || !/^send_wrapper\s*=\s*\{[^}]*\bpath\s*=\s*"crates\/send-wrapper"/m.test(patch)) {
    out.push('Cargo.toml has no [patch.crates-io] send_wrapper = { path = "crates/send-wrapper" }');
  }
  const packages = lock.split(/^\[\[package\]\]$/m).filter((p) => /^name = "send_wrapper"$/m.test(p));
  if (!packages.length) out.push('Cargo.lock has no send_wrapper: if nothing uses it any more, drop the patch and this rule');
  for (const p of packages) {
    const source = /^source = "([^"]*)"/m.exec(p);
    if (source) out.push(`Cargo.lock resolves send_wrapper ${/^version = "([^"]*)"/m.exec(p)?.[1]} from ${source[1].split('+')[0]}, not the path crate (is the patch's version still the one the dependencies ask for?)`);
  }
  return out;
}

test(`send_wrapper: ${SEND_WRAPPER}`, () => {
  holds(SEND_WRAPPER, sendWrapperProblems(read('Cargo.toml'), read('Cargo.lock')));
});

test(`send_wrapper, broken: ${SEND_WRAPPER}`, () => {
  const manifest = '[workspace]\nmembers = ["."]\n\n[patch.crates-io]\nsend_wrapper = { path = "crates/send-wrapper" }\n';
  const pkg = (source) => `[[package]]\nname = "send_wrapper"\nversion = "0.6.0"\n${source}dependencies = [\n "futures-core",\n]\n`;
  const lock = (p) => `version = 4\n\n[[package]]\nname = "leptos"\nversion = "0.8.23"\nsource = "registry+https://example.invalid/index"\n\n${p}\n[[package]]\nname = "serde"\nversion = "1.0.0"\n`;
  holds(SEND_WRAPPER, sendWrapperProblems(manifest, lock(pkg(''))));
  breaks(SEND_WRAPPER, sendWrapperProblems(manifest, lock(pkg('source = "registry+https://example.invalid/index"\nchecksum = "00"\n'))));
  breaks(SEND_WRAPPER, sendWrapperProblems('[workspace]\nmembers = ["."]\n', lock(pkg(''))));
  breaks(SEND_WRAPPER, sendWrapperProblems(manifest.replace('[patch.crates-io]', '[patch.other]'), lock(pkg(''))));
});
