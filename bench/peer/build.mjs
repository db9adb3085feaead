// Builds the React + D3 peer page into bench/peer/dist/: index.html,
// app.js, the production UMD builds of React, ReactDOM and d3 from
// bench/node_modules, and a gzip copy (zlib level 9) of every .html/.js.
//
//   npm install --prefix bench && node bench/peer/build.mjs
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.join(here, '..', 'node_modules');
const dist = path.join(here, 'dist');

const files = [
  [path.join(here, 'index.html'), 'index.html'],
  [path.join(here, 'app.js'), 'app.js'],
  [path.join(modules, 'react', 'umd', 'react.production.min.js'), 'react.production.min.js'],
  [path.join(modules, 'react-dom', 'umd', 'react-dom.production.min.js'), 'react-dom.production.min.js'],
  [path.join(modules, 'd3', 'dist', 'd3.min.js'), 'd3.min.js'],
];

for (const [src] of files) {
  if (!fs.existsSync(src)) {
    console.error(`missing ${path.relative(process.cwd(), src)}: run npm install --prefix bench first`);
    process.exit(1);
  }
}

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
for (const [src, name] of files) {
  const body = fs.readFileSync(src);
  const out = path.join(dist, name);
  fs.writeFileSync(out, body);
  if (/\.(html|js)$/.test(name)) {
    const gz = zlib.gzipSync(body, { level: 9 });
    fs.writeFileSync(`${out}.gz`, gz);
    console.log(`${name.padEnd(30)} ${String(body.length).padStart(8)} B  gzip ${String(gz.length).padStart(7)} B`);
  }
}
