// Prints the files the loader of a split chunk fetches, comma-separated:
// the chunk and the shared chunk_<n>.wasm files it needs, as
// __wasm_split.js lists them. Run by scripts/build/build-wasm.sh, which puts the
// lists of the link and quiz chunks in index.html, so that a link (or a quiz
// link) starts every file its chunk needs at once, alongside the app, rather
// than one round trip after the app starts:
//
//   node scripts/build/chunk-deps.mjs <dir with __wasm_split.js> link
//   -> split_link.wasm,chunk_6.wasm
// It fails when the loader's shape is not the one it knows, so a new
// version of wasm-split-cli cannot silently drop the preloads.
import fs from 'node:fs';
import path from 'node:path';

const js = fs.readFileSync(path.join(process.argv[2], '__wasm_split.js'), 'utf8');
const shared = {};
for (const m of js.matchAll(/const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/(chunk_\d+\.wasm)"/g)) {
  shared[m[1]] = m[2];
}
const deps = {};
for (const m of js.matchAll(/export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/(split_\w+\.wasm)"[\s\S]*?\n, \[([^\]]*)\]\)\);/g)) {
  const names = m[3].split(',').map((s) => s.trim()).filter(Boolean);
  const files = names.map((n) => {
    if (!(n in shared)) throw new Error(`chunk-deps: ${m[1]} needs ${n}, which __wasm_split.js does not define`);
    return shared[n];
  });
  deps[m[1]] = [m[2], ...files];
}
const name = process.argv[3];
if (!deps[name]) {
  throw new Error(`chunk-deps: found loaders for ${Object.keys(deps).join(', ') || 'nothing'} in __wasm_split.js, not for ${name}`);
}
process.stdout.write(deps[name].join(','));
