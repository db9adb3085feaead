// Prints, as JSON, the files that the loader of each preloaded chunk
// fetches: the chunk and the shared chunk_<n>.wasm files it needs, as
// __wasm_split.js lists them, comma-separated. Which chunks are preloaded
// is the chunk table's `preload` column (src/chunks/chunks.json): `query`
// for the one any address with a link needs, `view` for those an address
// with view=NAME opens on. Run by scripts/build/build-wasm.sh, which puts
// the lists in index.html, so that a link starts every file its chunks need
// at once, alongside the app, rather than one round trip after it starts.
// `start` lists, once each, the files of the rows marked `start` (the chunks
// fetched after the first chart), which the page preloads a few per task
// before their loader runs (index.html, `rooflineStart`):
//
//   node scripts/build/chunk-deps.mjs <dir with __wasm_split.js> src/chunks/chunks.json
//   -> {"link":"split_link.wasm,chunk_6.wasm","views":{"quiz":"split_quiz.wasm,chunk_2.wasm",...},
//       "start":"split_batch.wasm,chunk_3.wasm,...,split_why.wasm"}
//
// The loader is code that wasm-split-cli generates: when its shape is not
// the one this script knows, a release build fails (a new version of the
// tool must not silently drop the preloads), and a plain build
// (ROOFLINE_PLAIN=1) preloads each chunk's own file alone, with a warning.
import fs from 'node:fs';
import path from 'node:path';

const [dir, tablePath] = process.argv.slice(2);
const js = fs.readFileSync(path.join(dir, '__wasm_split.js'), 'utf8');
const table = JSON.parse(fs.readFileSync(tablePath, 'utf8'));
const plain = process.env.ROOFLINE_PLAIN === '1';

const shared = {};
for (const m of js.matchAll(/const (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/(chunk_\d+\.wasm)"/g)) {
  shared[m[1]] = m[2];
}
const deps = {};
for (const m of js.matchAll(/export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/(split_\w+\.wasm)"[\s\S]*?\n, \[([^\]]*)\]\)\);/g)) {
  const names = m[3].split(',').map((s) => s.trim()).filter(Boolean);
  deps[m[1]] = [m[2], ...names.map((n) => shared[n] ?? `?${n}`)];
}

/** The files chunk `name` needs, comma-separated. */
function filesOf(name) {
  const files = deps[name];
  const broken = !files || files.some((f) => f.startsWith('?'));
  if (!broken) return files.join(',');
  const why = files
    ? `${name} needs ${files.filter((f) => f.startsWith('?')).join(', ')}, which __wasm_split.js does not define`
    : `found loaders for ${Object.keys(deps).join(', ') || 'nothing'} in __wasm_split.js, not for ${name}`;
  if (!plain) throw new Error(`chunk-deps: ${why} (a new wasm-split-cli? read its loader and mend the patterns here)`);
  console.error(`chunk-deps: ${why}; the plain build preloads split_${name}.wasm alone`);
  return `split_${name}.wasm`;
}

const out = { link: '', views: {}, start: '' };
const start = new Set();
for (const row of table.chunks) {
  if (row.preload === 'query') out.link = filesOf(row.name);
  else if (row.preload === 'view') out.views[row.name] = filesOf(row.name);
  if (row.start) filesOf(row.name).split(',').forEach((f) => start.add(f));
}
out.start = [...start].join(',');
process.stdout.write(JSON.stringify(out));
