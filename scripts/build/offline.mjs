// Makes the build work offline: copies the web app manifest and the icons
// (web/) next to index.html, and writes the service worker, sw.js, from
// web/sw.js with this build's folder and the list of every file the build
// ships (the page, the app, every chunk, the manifest, the icons; not the
// gzip copies, which a browser never asks for by name). Run by
// scripts/build/build-wasm.sh after index.html points at the build's folder:
//
//   node scripts/build/offline.mjs STAGE app-<hash>
//
// Every build writes a different sw.js (its folder name is in it), so an
// open page finds the new build as a worker update (web/offline.js).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const [stage, build] = process.argv.slice(2);
if (!stage || !/^app-[0-9a-f]+$/.test(build ?? '')) {
  throw new Error('usage: node scripts/build/offline.mjs STAGE app-<hash>');
}
const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
for (const f of ['manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png']) {
  fs.copyFileSync(path.join(web, f), path.join(stage, f));
}

/** Every file under `d`, relative to `stage`, with `/` separators. */
function walk(d) {
  return fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(d, e.name);
    if (e.isDirectory()) return walk(p);
    return [path.relative(stage, p).split(path.sep).join('/')];
  });
}
const files = walk(stage)
  .filter((f) => !f.endsWith('.gz') && f !== 'sw.js')
  // Only this build's folder: a stage folder may keep an older one.
  .filter((f) => !/^app-[0-9a-f]+\//.test(f) || f.startsWith(`${build}/`))
  .sort();
for (const needed of ['index.html', `${build}/roofline-lab_bg.wasm`, `${build}/offline.js`]) {
  if (!files.includes(needed)) throw new Error(`offline.mjs: ${needed} is not in ${stage}`);
}
const template = fs.readFileSync(path.join(web, 'sw.js'), 'utf8');
for (const placeholder of ['"{build}"', '["{files}"]']) {
  if (!template.includes(placeholder)) throw new Error(`offline.mjs: web/sw.js has no ${placeholder}`);
}
const sw = template
  .replace('"{build}"', JSON.stringify(build))
  .replace('["{files}"]', JSON.stringify(files));
fs.writeFileSync(path.join(stage, 'sw.js'), sw);
console.log(`offline.mjs: sw.js caches ${files.length} files of ${build}`);
