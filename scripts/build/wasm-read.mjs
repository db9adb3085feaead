// Reading (and writing the few pieces gzip-order.mjs rewrites of) a wasm module's
// binary format, for the scripts that look inside one:
// scripts/build/gzip-order.mjs (orders functions for gzip) and bench/wasm-code.mjs
// (code size by crate), and the names tests/size-rules.mjs checks.

/** Reads an unsigned LEB128 at `pos`: [value, next position]. */
export function leb(buf, pos) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    value += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [value, pos];
    shift += 7;
  }
}

/** Encodes `n` as an unsigned LEB128. */
export function uleb(n) {
  const out = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return Buffer.from(out);
}

/** Encodes `s` as a length-prefixed UTF-8 name. */
export function encName(s) {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([uleb(b.length), b]);
}

/** Reads a length-prefixed UTF-8 name at `pos`: [string, next position]. */
export function readName(buf, pos) {
  const [len, p] = leb(buf, pos);
  return [buf.toString('utf8', p, p + len), p + len];
}

/** Skips one import's description (kind byte at `pos`), returns the next position. */
export function skipImportDesc(buf, pos) {
  const kind = buf[pos++];
  const limits = (p) => {
    const flags = buf[p++];
    let q = leb(buf, p)[1];
    if (flags & 1) q = leb(buf, q)[1];
    return q;
  };
  switch (kind) {
    case 0: return leb(buf, pos)[1]; // function: type index
    case 1: return limits(pos + 1); // table: reftype, limits
    case 2: return limits(pos); // memory: limits
    case 3: return pos + 2; // global: valtype, mutability
    case 4: return leb(buf, pos + 1)[1]; // tag: attribute, type index
    default: throw new Error(`unknown import kind ${kind}`);
  }
}

/**
 * The sections of the wasm in `buf`, in order: [{ id, pos, start, end }],
 * where `pos` is the section's first byte (its id) and `start`..`end` its
 * contents. Throws if `buf` is not a wasm module.
 */
export function sections(buf) {
  if (buf.length < 8 || buf.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const out = [];
  let pos = 8;
  while (pos < buf.length) {
    const id = buf[pos];
    const [size, start] = leb(buf, pos + 1);
    out.push({ id, pos, start, end: start + size });
    pos = start + size;
  }
  return out;
}

/**
 * The functions of the wasm in `buf`: `imported`, how many are imports
 * (they come first in the index space), and `bodies`, each defined
 * function's body as { start, size } (`start`: its offset in `buf`, after
 * its size), in code order.
 */
export function functionBodies(buf) {
  let imported = 0;
  const bodies = [];
  for (const { id, start } of sections(buf)) {
    if (id === 2) {
      let [count, p] = leb(buf, start);
      for (let i = 0; i < count; i++) {
        p = readName(buf, p)[1];
        p = readName(buf, p)[1];
        if (buf[p] === 0) imported++;
        p = skipImportDesc(buf, p);
      }
    } else if (id === 10) {
      let [count, p] = leb(buf, start);
      for (let i = 0; i < count; i++) {
        const [size, q] = leb(buf, p);
        bodies.push({ start: q, size });
        p = q + size;
      }
    }
  }
  return { imported, bodies };
}

/**
 * Function bodies of the wasm in `buf`, in code order: [{ name, size, start }]
 * (`start`: the body's offset in `buf`, after its size).
 */
export function functions(buf) {
  const { imported, bodies } = functionBodies(buf);
  const names = new Map();
  for (const { id, start, end } of sections(buf)) {
    if (id === 0) {
      const [section, p0] = readName(buf, start);
      if (section === 'name') {
        let p = p0;
        while (p < end) {
          const sub = buf[p];
          const [len, q] = leb(buf, p + 1);
          if (sub === 1) {
            let [count, r] = leb(buf, q);
            for (let i = 0; i < count; i++) {
              let idx;
              let fname;
              [idx, r] = leb(buf, r);
              [fname, r] = readName(buf, r);
              names.set(idx, fname);
            }
          }
          p = q + len;
        }
      }
    }
  }
  return bodies.map((b, i) => ({ name: names.get(imported + i) ?? '', ...b }));
}
