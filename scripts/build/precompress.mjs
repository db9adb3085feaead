// Writes a gzip copy, FILE.gz, next to each html/js/wasm/css file under a
// folder, compressed with zopfli (npm @gfx/zopfli): a deflate encoder that
// searches much harder than zlib's level 9 and still writes plain gzip,
// which every browser reads. On this app's wasm it is about 5% smaller.
//
//   node scripts/build/precompress.mjs DIR
//
// A host that serves precompressed files (nginx `gzip_static on`, Caddy's
// `precompressed gzip`, the test server in tests/e2e/harness.mjs) sends
// these bytes to a browser that accepts gzip; the size budget counts them
// (tests/sizes.mjs). Both read a copy through `gzipCopy`, which checks that
// it still inflates to its file. The output is the same for the same input
// (zopfli writes no time stamp).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

/** The files that get a gzip copy: what a page downloads and a host compresses. */
export const COMPRESSED = /\.(html|js|wasm|css)$/;

/**
 * The build's gzip copy of `file` (whose content is `body`): null when
 * there is none; throws when it does not inflate to `body` (a stale copy).
 */
export function gzipCopy(file, body) {
  let gz;
  try {
    gz = fs.readFileSync(`${file}.gz`);
  } catch {
    return null;
  }
  if (!zlib.gunzipSync(gz).equals(body)) {
    throw new Error(`${path.basename(file)}.gz does not inflate to ${path.basename(file)}: a stale gzip copy (rebuild)`);
  }
  return gz;
}

/** Every file under `dir` that gets a gzip copy. */
function compressible(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return compressible(p);
    return COMPRESSED.test(e.name) ? [p] : [];
  });
}

async function main() {
  const dir = process.argv[2];
  if (!dir || !fs.existsSync(dir)) {
    console.error('usage: node scripts/build/precompress.mjs DIR');
    process.exit(2);
  }
  // 15 iterations and no cap on deflate blocks: more iterations save a few
  // bytes for seconds more; the block cap (15 by default) costs 0.8 KB on
  // the main wasm.
  const options = { numiterations: 15, blocksplitting: true, blocksplittingmax: 0 };
  // Loaded here, not at the top: the size test and the test server import
  // this file only for `gzipCopy`.
  const { default: zopfli } = await import('@gfx/zopfli');
  for (const file of compressible(dir)) {
    fs.writeFileSync(`${file}.gz`, await zopfli.gzipAsync(fs.readFileSync(file), options));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
