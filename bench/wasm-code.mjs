// Where a wasm's code goes: the size of each function body, from a wasm that
// still has its name section (scripts/build/build-wasm.sh keeps copies after
// wasm-bindgen and before wasm-opt in target/split/PROFILE/named/), summed
// by the crate that defines the function or its impl.
// Sizes are before wasm-opt, so they are larger than what ships; the shares
// are what this is for.
import fs from 'node:fs';
import { functions } from '../scripts/build/wasm-read.mjs';

export { functions };

/**
 * The crate a symbol belongs to: the first crate in a v0-mangled name
 * (`_R...Cs<hash>_<len><crate>...`, the crate of the function or of its
 * impl), the first path segment of a legacy one, else a bucket for glue.
 */
export function crateOf(symbol) {
  if (symbol.startsWith('__wbindgen_describe')) return '(wasm-bindgen descriptors, removed by wasm-bindgen)';
  const v0 = /C(?:s[0-9a-zA-Z]*_)?(\d+)([A-Za-z_][A-Za-z0-9_]*)/.exec(symbol.startsWith('_R') ? symbol : '');
  if (v0) return v0[2].slice(0, Number(v0[1]));
  const legacy = /^_ZN\d+([A-Za-z_][A-Za-z0-9_]*)/.exec(symbol);
  if (legacy) return legacy[1].replace(/17h[0-9a-f]{16}E$/, '');
  if (/^[a-z_][a-z0-9_]*::/.test(symbol)) return symbol.split('::')[0];
  return '(glue and unnamed)';
}

/** Code bytes of the wasm file at `path` by crate, largest first: [{ crate, bytes }], and the total. */
export function codeByCrate(path) {
  const totals = new Map();
  let total = 0;
  for (const f of functions(fs.readFileSync(path))) {
    const c = crateOf(f.name);
    totals.set(c, (totals.get(c) ?? 0) + f.size);
    if (!c.startsWith('(wasm-bindgen descriptors')) total += f.size;
  }
  const crates = [...totals].map(([crate, bytes]) => ({ crate, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { crates, total };
}
