// Gives the main module's JS imports and the exports its glue calls short
// names, in the wasm and in the wasm-bindgen glue together. Run by
// scripts/build/build-wasm.sh right after wasm-bindgen:
//
//   node scripts/build/short-names.mjs <pkg dir> <out-name>
//
// Why: wasm-bindgen names each import `__wbg_<method>_<16 hex digits>`, and
// some exports after a closure's whole mangled Rust path (over 100
// characters). Every name is written twice, once in the wasm and once in the
// glue, and the hex digits do not compress: about 5 KB gzip of the first
// load was names. wasm-opt's own `--minify-imports` only renames the imports
// of C toolchains ("env"), so this does the same for wasm-bindgen's.
//
// What it renames, and what it leaves:
// - each import from the glue module (`./<out-name>_bg.js`), which the glue
//   defines once as a key of its imports object;
// - each export the glue reads as `wasm.<name>`, except `memory`;
// - nothing that __wasm_split.js names: the chunks reach the main module's
//   memory, table and shared functions through those exports.
// It stops with an error, leaving the files as they were, when a name is not
// where it expects it (a wasm-bindgen upgrade that changed the glue).
import fs from 'node:fs';
import path from 'node:path';
import { encName, leb, readName, sections, skipImportDesc, uleb } from './wasm-read.mjs';

const [dir, outName] = process.argv.slice(2);
if (!dir || !outName) {
  console.error('usage: node scripts/build/short-names.mjs <pkg dir> <out-name>');
  process.exit(2);
}
const wasmPath = path.join(dir, `${outName}_bg.wasm`);
const jsPath = path.join(dir, `${outName}.js`);
const loaderPath = path.join(dir, '__wasm_split.js');
const glueModule = `./${outName}_bg.js`;

const fail = (msg) => {
  console.error(`short-names: ${msg}`);
  process.exit(1);
};

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** The i-th short name: a..Z, then ba, bb, ... */
function shortName(i, prefix = '') {
  let s = '';
  do {
    s = ALPHABET[i % ALPHABET.length] + s;
    i = Math.floor(i / ALPHABET.length);
  } while (i > 0);
  return prefix + s;
}

/** `s` as a literal inside a regular expression. */
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const count = (text, re) => (text.match(re) || []).length;

const wasm = fs.readFileSync(wasmPath);
let js = fs.readFileSync(jsPath, 'utf8');
const loader = fs.existsSync(loaderPath) ? fs.readFileSync(loaderPath, 'utf8') : '';
let parts;
try {
  parts = sections(wasm);
} catch {
  fail(`${wasmPath} is not a wasm module`);
}

const imports = new Map();
const exports = new Map();
const out = [wasm.subarray(0, 8)];
for (const { id, pos, start, end } of parts) {
  if (id === 2) {
    let [n, p] = leb(wasm, start);
    const body = [uleb(n)];
    for (let i = 0; i < n; i++) {
      const [module, q] = readName(wasm, p);
      const [name, r] = readName(wasm, q);
      const descEnd = skipImportDesc(wasm, r);
      let renamed = name;
      if (module === glueModule) {
        if (!imports.has(name)) imports.set(name, shortName(imports.size));
        renamed = imports.get(name);
      }
      body.push(encName(module), encName(renamed), wasm.subarray(r, descEnd));
      p = descEnd;
    }
    const section = Buffer.concat(body);
    out.push(Buffer.from([2]), uleb(section.length), section);
  } else if (id === 7) {
    let [n, p] = leb(wasm, start);
    const body = [uleb(n)];
    for (let i = 0; i < n; i++) {
      const [name, q] = readName(wasm, p);
      const descEnd = leb(wasm, q + 1)[1];
      let renamed = name;
      const used = new RegExp(`\\bwasm\\.${escape(name)}\\b`).test(js);
      const shared = new RegExp(`\\b${escape(name)}\\b`).test(loader);
      if (used && !shared && name !== 'memory') {
        // `_` first: no clash with an export left as it is.
        renamed = shortName(exports.size, '_');
        exports.set(name, renamed);
      }
      body.push(encName(renamed), wasm.subarray(q, descEnd));
      p = descEnd;
    }
    const section = Buffer.concat(body);
    out.push(Buffer.from([7]), uleb(section.length), section);
  } else {
    out.push(wasm.subarray(pos, end));
  }
}
if (imports.size === 0) fail(`no import from ${glueModule} in ${wasmPath}`);

for (const [name, short] of imports) {
  const re = new RegExp(`\\b${escape(name)}\\b`, 'g');
  const n = count(js, re);
  if (n !== 1) fail(`import ${name} is named ${n} times in ${jsPath}, expected once`);
  js = js.replace(re, short);
}
for (const [name, short] of exports) {
  js = js.replace(new RegExp(`\\bwasm\\.${escape(name)}\\b`, 'g'), `wasm.${short}`);
}
fs.writeFileSync(wasmPath, Buffer.concat(out));
fs.writeFileSync(jsPath, js);
console.error(`short-names: ${imports.size} imports and ${exports.size} exports renamed`);
