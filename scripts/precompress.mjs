// Writes a gzip copy, FILE.gz, next to each html/js/wasm/css file under a
// folder, compressed with zopfli (npm @gfx/zopfli): a deflate encoder that
// searches much harder than zlib's level 9 and still writes plain gzip,
// which every browser reads. On this app's wasm it is about 5% smaller.
//
//   node scripts/precompress.mjs DIR
//
// A host that serves precompressed files (nginx `gzip_static on`, Caddy's
// `precompressed gzip`, the test server in tests/e2e/harness.mjs) sends
// these bytes to a browser that accepts gzip; the size budget counts them
// (tests/sizes.mjs), and checks that each still inflates to its file.
// The output is the same for the same input (zopfli writes no time stamp).
import fs from 'node:fs';
import path from 'node:path';
import zopfli from '@gfx/zopfli';

/** Every file under `dir` that a page downloads and a host compresses. */
function compressible(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return compressible(p);
    return /\.(html|js|wasm|css)$/.test(e.name) ? [p] : [];
  });
}

const dir = process.argv[2];
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: node scripts/precompress.mjs DIR');
  process.exit(2);
}
// 15 iterations and no cap on deflate blocks: more iterations save a few
// bytes for seconds more; the block cap (15 by default) costs 0.8 KB on the
// main wasm.
const options = { numiterations: 15, blocksplitting: true, blocksplittingmax: 0 };
for (const file of compressible(dir)) {
  const gz = await zopfli.gzipAsync(fs.readFileSync(file), options);
  fs.writeFileSync(`${file}.gz`, gz);
}
