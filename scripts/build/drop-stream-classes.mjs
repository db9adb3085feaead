// Drops wasm-streams' three JS classes (IntoUnderlyingSource,
// IntoUnderlyingByteSource, IntoUnderlyingSink) from the wasm-bindgen glue.
// Run by scripts/build/build-wasm.sh right after wasm-bindgen:
//
//   node scripts/build/drop-stream-classes.mjs <glue.js>
//
// Why: scripts/build/link-wasm.sh leaves their exports out of the wasm (the app
// never streams), but wasm-bindgen still writes each class, with its free()
// and a FinalizationRegistry, into the glue: dead code that calls exports
// that are not there, about 0.2 KB of the gzipped first load. Nothing can
// construct them (build-wasm.sh stops if the glue imports a constructor).
//
// It removes each class, the line after it that sets Symbol.dispose, and
// its registry, as wasm-bindgen writes them; it stops with an error,
// leaving the file as it was, if the glue still names a class afterwards
// (a wasm-bindgen upgrade that writes them otherwise).
import fs from 'node:fs';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/build/drop-stream-classes.mjs <glue.js>');
  process.exit(2);
}
const glue = fs.readFileSync(file, 'utf8');
const name = 'IntoUnderlying(?:Source|ByteSource|Sink)';
const trimmed = glue
  // export class X { ...indented body... }
  // if (Symbol.dispose) X.prototype[Symbol.dispose] = X.prototype.free;
  .replace(
    new RegExp(
      `export class (${name}) \\{\\n(?:(?: {4}.*)?\\n)*?\\}\\n` +
        'if \\(Symbol\\.dispose\\) \\1\\.prototype\\[Symbol\\.dispose\\] = \\1\\.prototype\\.free;\\n',
      'g',
    ),
    '',
  )
  // const XFinalization = (typeof FinalizationRegistry === 'undefined')
  //     ? { ... } : new FinalizationRegistry(ptr => wasm.__wbg_x_free(ptr, 1));
  .replace(new RegExp(`const ${name}Finalization = [^;]*;\\n`, 'g'), '');
if (/IntoUnderlying/.test(trimmed)) {
  console.error(`drop-stream-classes: ${file} still names a wasm-streams class: the glue's shape changed`);
  process.exit(1);
}
fs.writeFileSync(file, trimmed);
