// Minifies the scripts written inline in index.html (Trunk's HTML minifier
// leaves their text, comments included, as it is): each <script> without a
// src goes through terser, a module script as a module. Run by
// scripts/build/build-wasm.sh on release builds, after the placeholders are
// filled:
//
//   node scripts/build/inline-js.mjs STAGE/index.html
import fs from 'node:fs';
import { minify } from 'terser';

const file = process.argv[2];
const html = fs.readFileSync(file, 'utf8');
const scripts = [...html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)];
let out = html;
let saved = 0;
for (const [whole, attrs = '', code] of scripts) {
  if (/\bsrc=/.test(attrs) || !code.trim()) continue;
  const module = /type=["']?module/.test(attrs);
  const result = await minify(code, { module, compress: true, mangle: true });
  if (!result.code) throw new Error(`inline-js.mjs: terser gave nothing for a script in ${file}`);
  out = out.replace(whole, `<script${attrs}>${result.code}</script>`);
  saved += code.length - result.code.length;
}
fs.writeFileSync(file, out);
console.log(`inline-js.mjs: ${scripts.length} inline scripts, ${saved} characters fewer`);
