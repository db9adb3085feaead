// Docs that point at real things (issue #45): every citation in the docs,
// in source comments and in the tests' strings must resolve, or this test
// names the citing file and line and what did not resolve.
//
//   node --test tests/citations.test.mjs
//
// What counts as a citation:
// - a repository path (`src/page/app.rs`, `crates/roofline-core/src/url/`,
//   a Markdown link's target): a file or folder of `git ls-files`; NAME,
//   KEY, ID, N, a folder in capitals (`STAGE/`), <n>, ${...} and * stand
//   for any name (`src/chunks/NAME/mod.rs`); a path is from the root (a
//   crate's test: `crates/roofline-core/tests/presets.rs`); a bare file name
//   (`harness.mjs`) or a folder in backticks (`bank/`) must end a tracked
//   path, except in a test's strings (a download's name, a fixture); build
//   outputs are in BUILT below, each with its reason;
// - `docs/build.md §N` or `§N.M` (a bare § in build.md is its own): a
//   numbered heading of docs/build.md;
// - `ARCHITECTURE.md, <section>`, `ARCHITECTURE.md (<section>)` or
//   `ARCHITECTURE.md's <section>`: a heading of ARCHITECTURE.md, or words
//   (quoted or not) that are in it;
// - a Rust path (`roofline_core::calc::evaluate`, `crate::page::shown`,
//   `page::later::later`, `num::parse_f64`): its modules must be files of
//   the crate and its item must be defined (or `use`d) in the last one; a
//   path whose first name is no module of ours (`f64::powf`) is not ours;
// - the size rules a doc names (`size rules (`dlmalloc`)`): a path of
//   tests/size-rules.mjs's RULES; clippy's (`clippy (`signal`)`): a name in
//   clippy.toml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Paths the build or a tool makes (each is in .gitignore), or kept outside the repository: not checked. */
export const BUILT = [
  ['dist/', 'Trunk\'s output (scripts/build.sh)'],
  ['dist-plain/', 'the plain build\'s output (scripts/build.sh --plain)'],
  ['target/', 'cargo\'s output, and the named wasm copies build-wasm.sh keeps there'],
  ['node_modules/', 'what `npm ci` installs'],
  ['bench/node_modules/', 'what `npm ci` installs for the bench'],
  ['bench/out/', 'the bench\'s results (scripts/bench.sh)'],
  ['bench/peer/dist/', 'the peer app\'s build (bench/peer/build.mjs)'],
  ['tests/artifacts/', 'the browser tests\' screenshots (tests/e2e/harness.mjs)'],
  ['shared/', 'the project\'s reference notes, beside a checkout, not in the repository'],
];
/** File names the build writes and nothing tracked has: `app_bg.wasm`, `index.html.gz`. */
export const BUILT_ENDINGS = [
  ['.wasm', 'every wasm module is built (the main one, split_NAME.wasm, chunk_<n>.wasm)'],
  ['.gz', 'precompress.mjs writes each file\'s gzip copy'],
  ['_bg.js', 'wasm-bindgen\'s glue module'],
  ['__wasm_split.js', 'wasm-split-cli\'s loader of the chunks'],
];

const EXT = 'rs|mjs|js|sh|md|json|toml|html|css|csv|tsv|txt|py|png|svg|webmanifest|lock|wasm|gz';
/** A bare file name with one of these endings is one of ours (`harness.mjs`); `out.svg` may be anything. */
const OURS = 'rs|mjs|js|sh|md|toml|css|html';

// ---------------------------------------------------------------- passages

/**
 * The text a file cites things in, as passages `{ line, text }` (`line`:
 * the line `text` starts on; its newlines are the file's). Docs: the whole
 * file. Rust, JS, CSS: comments (a run of line comments is one passage);
 * shell and TOML: `#` comments; TOML also its strings; under tests/, JS
 * strings too (a template's `${...}` kept as `${}`, a wildcard).
 */
export function passages(file, text) {
  if (/\.md$/.test(file)) return [{ line: 1, text }];
  if (/\.rs$/.test(file)) return joinLines(scanRust(text));
  if (/\.(mjs|js)$/.test(file)) {
    const { comments, strings } = scanJs(text);
    // The rules' self-tests (this file, house, pages, rules, clippy-rules)
    // are made of fixtures that cite what does not exist on purpose.
    const fixtures = /^tests\/(citations|house|pages|rules|clippy-rules)\.test\.mjs$/.test(file);
    const own = file.startsWith('tests/') && !fixtures;
    return [...joinLines(comments), ...(own ? strings.map((x) => ({ ...x, string: true })) : [])];
  }
  if (/\.css$/.test(file)) return scanJs(text).comments;
  if (/\.html$/.test(file)) return [...text.matchAll(/<!--([\s\S]*?)-->/g)].map((m) => ({ line: lineAt(text, m.index), text: m[1] }));
  if (/\.sh$/.test(file) || /\.toml$/.test(file)) return joinLines(scanHash(text, /\.toml$/.test(file)));
  return [];
}

const lineAt = (text, index) => 1 + (text.slice(0, index).match(/\n/g)?.length ?? 0);

/** Line comments on consecutive lines become one passage (a citation may wrap). */
function joinLines(items) {
  const out = [];
  for (const it of items) {
    const last = out[out.length - 1];
    if (it.lineComment && last?.lineComment && last.line + last.text.split('\n').length === it.line) last.text += `\n${it.text}`;
    else out.push({ ...it });
  }
  return out.map(({ line, text, string }) => ({ line, text, string }));
}

/** Rust comments: `//`, `///`, `//!` and nested block comments, skipping strings, raw strings and char literals. */
export function scanRust(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i) === -1 ? n : text.indexOf('\n', i);
      out.push({ line: lineAt(text, i), text: text.slice(i, end).replace(/^\/\/[/!]?/, ''), lineComment: true });
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      let depth = 0;
      let j = i;
      while (j < n) {
        if (text.startsWith('/*', j)) { depth++; j += 2; } else if (text.startsWith('*/', j)) { depth--; j += 2; if (!depth) break; } else j++;
      }
      out.push({ line: lineAt(text, i), text: text.slice(i + 2, j - 2) });
      i = j;
    } else if (c === 'r' && /^r#*"/.test(text.slice(i, i + 10)) && !/\w/.test(text[i - 1] ?? '')) {
      const hashes = /^r(#*)"/.exec(text.slice(i, i + 10))[1];
      const end = text.indexOf(`"${hashes}`, i + 2 + hashes.length);
      i = end === -1 ? n : end + 1 + hashes.length;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else if (c === '\'') {
      const m = /^'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]*\}|.)|[^\\\n'])'/.exec(text.slice(i, i + 12));
      i += m ? m[0].length : 1; // a lifetime otherwise
    } else i++;
  }
  return out;
}

const REGEX_AFTER = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);
const REGEX_WORDS = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'yield', 'await', 'void', 'delete', 'instanceof', 'new']);

/** JS (and CSS) comments and strings, skipping regex literals; a template's `${...}` becomes `${}`. */
export function scanJs(text) {
  const comments = [];
  const strings = [];
  const templates = []; // open templates: { line, text, depth }
  let prev = ''; // the last significant character, or a word
  let i = 0;
  const n = text.length;
  const template = (start, acc) => {
    // reads template text from `start` to its closing backtick or a `${`
    let j = start;
    while (j < n && text[j] !== '`' && !text.startsWith('${', j)) j += text[j] === '\\' ? 2 : 1;
    acc.text += text.slice(start, j);
    if (text[j] === '`') { strings.push({ line: acc.line, text: acc.text }); prev = 'x'; return j + 1; }
    acc.text += '${}';
    acc.depth = 0;
    templates.push(acc);
    prev = '{';
    return j + 2;
  };
  while (i < n) {
    const c = text[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i) === -1 ? n : text.indexOf('\n', i);
      comments.push({ line: lineAt(text, i), text: text.slice(i + 2, end), lineComment: true });
      i = end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2) === -1 ? n : text.indexOf('*/', i + 2);
      comments.push({ line: lineAt(text, i), text: text.slice(i + 2, end).replace(/^[ \t]*\*(?!\/)/gm, ' ') });
      i = end + 2;
    } else if (c === '\'' || c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      strings.push({ line: lineAt(text, i), text: text.slice(i + 1, j) });
      i = j + 1;
      prev = 'x';
    } else if (c === '`') {
      i = template(i + 1, { line: lineAt(text, i), text: '' });
    } else if (c === '/' && (REGEX_AFTER.has(prev) || REGEX_WORDS.has(prev))) {
      let j = i + 1;
      let inClass = false;
      while (j < n && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      i = j + 1;
      while (/[a-z]/.test(text[i] ?? '')) i++;
      prev = 'x';
    } else if (c === '{' && templates.length) {
      templates[templates.length - 1].depth++;
      prev = c;
      i++;
    } else if (c === '}' && templates.length) {
      const top = templates[templates.length - 1];
      if (top.depth === 0) i = template(i + 1, templates.pop());
      else { top.depth--; prev = c; i++; }
    } else if (/[\w$]/.test(c)) {
      const m = /^[\w$]+/.exec(text.slice(i, i + 40));
      prev = REGEX_WORDS.has(m[0]) ? m[0] : 'x';
      i += m[0].length;
    } else {
      prev = c === ')' || c === ']' ? 'x' : c;
      i++;
    }
  }
  return { comments, strings };
}

/** Shell and TOML `#` comments (not in quotes, not `#!`, not `${#x}`); with `strings`, TOML's quoted strings too. */
export function scanHash(text, withStrings = false) {
  const out = [];
  text.split('\n').forEach((l, k) => {
    if (k === 0 && l.startsWith('#!')) return;
    let quote = '';
    for (let j = 0; j < l.length; j++) {
      const c = l[j];
      if (quote) {
        if (c === '\\' && quote === '"') j++;
        else if (c === quote) quote = '';
      } else if (c === '\'' || c === '"') {
        quote = c;
        if (withStrings) {
          const end = l.indexOf(c, j + 1);
          if (end > j) out.push({ line: k + 1, text: l.slice(j + 1, end) });
        }
      } else if (c === '#' && (j === 0 || /\s/.test(l[j - 1]))) {
        out.push({ line: k + 1, text: l.slice(j + 1), lineComment: true });
        return;
      }
    }
  });
  return out;
}

// ---------------------------------------------------------------- the repository

/**
 * What citations resolve against: `files` maps each tracked path to its
 * text ('' for binary files). `rules`: the paths and symbols of the size
 * rules.
 */
export function context(files, rules = []) {
  const paths = new Set(files.keys());
  const dirs = new Set();
  for (const f of paths) for (let k = f.indexOf('/'); k !== -1; k = f.indexOf('/', k + 1)) dirs.add(f.slice(0, k + 1));
  const build = files.get('docs/build.md') ?? '';
  const arch = files.get('ARCHITECTURE.md') ?? '';
  return {
    files,
    paths,
    dirs,
    tops: new Set([...paths, ...dirs].map((p) => p.split('/')[0])),
    sections: new Set([...build.matchAll(/^#{2,4}\s+(\d+(?:\.\d+)*)\.?\s/gm)].map((m) => m[1])),
    archHeadings: [...arch.matchAll(/^#{1,4}\s+(.*)$/gm)].map((m) => norm(m[1])),
    archText: norm(arch),
    rules,
  };
}

/** The repository's context: tracked files (and new ones not ignored), and the size rules. */
export async function repoContext() {
  const list = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && fs.existsSync(path.join(root, f)));
  const files = new Map(list.map((f) => [f, /\.(png|ico|wasm|gz)$/.test(f) ? '' : fs.readFileSync(path.join(root, f), 'utf8')]));
  const { RULES } = await import('./size-rules.mjs');
  if (!Array.isArray(RULES)) throw new Error('tests/size-rules.mjs exports no RULES: point repoContext at the size rules');
  return context(files, RULES.flatMap((r) => [...(r.paths ?? []), ...(r.symbols ?? [])]));
}

/** The files whose citations are checked: the docs, and the sources' comments (and tests' strings). */
export const cited = (ctx) =>
  [...ctx.paths].filter(
    (f) =>
      (/^[^/]+\.md$/.test(f) || /^docs\/.*\.md$/.test(f)) ||
      (/^[^/]+\.(toml|html)$/.test(f)) ||
      (/^(src|crates|scripts|tests|bench|web|style)\//.test(f) && /\.(rs|mjs|js|sh|css)$/.test(f) && !f.startsWith('bench/peer/')),
  );

const norm = (s) => s.toLowerCase().replace(/[`*_"“”]/g, '').replace(/[’‘]/g, '\'').replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------- the checks

const glob = (p) =>
  new RegExp(
    `^${p
      .split(/(\$\{[^}]*\}|<[^>/]*>|\*|\b(?:NAME|KEY|ID|N)\b|(?<=^|\/)[A-Z][A-Z_]*(?=\/))/)
      .map((part, k) => (k % 2 ? (part === '*' || part === '${}' ? '[^/]*' : '[^/]+') : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );

/** Why the path `p` cited in `file` does not resolve, or null. `how`: 'root', 'relative' or 'tail'. */
export function checkPath(ctx, p, file, how = 'root') {
  p = p.replace(/[:#].*$/, '');
  if (how === 'relative') p = path.posix.normalize(path.posix.join(path.posix.dirname(file), p)) + (p.endsWith('/') ? '/' : '');
  if (p.startsWith('./')) p = p.slice(2);
  if (!p || p === '.' || p === './' || p.startsWith('../')) return p.startsWith('../') ? `${p} is outside the repository` : null;
  if (BUILT.some(([b]) => p === b.slice(0, -1) || p.startsWith(b))) return null;
  if (BUILT_ENDINGS.some(([e]) => p.endsWith(e))) return null;
  const dir = p.endsWith('/');
  const has = (q) => (dir ? ctx.dirs.has(q) : ctx.paths.has(q) || ctx.dirs.has(`${q}/`));
  if (how !== 'tail' && has(p)) return null;
  const all = [...ctx.paths, ...ctx.dirs];
  if (how === 'tail' && all.some((q) => q === p || q.endsWith(`/${p}`) || (!dir && q.endsWith(`/${p}/`)))) return null;
  const re = glob(dir ? p : p.replace(/\/$/, ''));
  const tail = how === 'tail' ? new RegExp(`(^|/)${re.source.slice(1)}`) : re;
  if (all.some((q) => tail.test(q) || tail.test(q.replace(/\/$/, '')))) return null;
  return how === 'tail' ? `no tracked path ends in ${p}` : `${p} is not a tracked file or folder`;
}

/** Why `§n` of docs/build.md does not resolve, or null. */
export const checkSection = (ctx, n) => (ctx.sections.has(n) ? null : `docs/build.md has no section §${n} (its sections: ${[...ctx.sections].join(', ')})`);

/** Why the section or words `s` of ARCHITECTURE.md do not resolve, or null. */
export function checkArch(ctx, s) {
  const want = norm(s).replace(/^the /, '').replace(/ sections?$/, '');
  if (!want) return null;
  const bare = (h) => h.replace(/:.*$/, '').replace(/[^a-z0-9' ]/g, '').trim();
  const ok = ctx.archHeadings.some((h) => [h, bare(h)].some((x) => x === want || x === `${want}s` || `${x}s` === want || x.startsWith(`${want} `)));
  if (ok || ctx.archText.includes(want)) return null;
  return `ARCHITECTURE.md has no section or text "${s}" (its sections: ${ctx.archHeadings.join('; ')})`;
}

const CRATES = { roofline_core: 'crates/roofline-core/src', roofline_charts: 'crates/roofline-charts/src', send_wrapper: 'crates/send-wrapper/src' };
const crateOf = (file) =>
  file.startsWith('src/') ? 'src' : /^(crates\/[^/]+\/src|bench\/floor\/src)\//.exec(file)?.[1];
const rootFile = (ctx, dir) => [`${dir}/lib.rs`, `${dir}/main.rs`].find((f) => ctx.paths.has(f));
const defines = (text, name) =>
  new RegExp(`\\b(?:fn|struct|enum|const|static|type|trait|mod|union|macro_rules!)\\s+${name}\\b`).test(text) ||
  new RegExp(`\\buse\\s[^;]*\\b${name}\\b[^;]*;`).test(text) ||
  new RegExp(`\\b${name}\\s*[({,]`).test(text) && /^[A-Z]/.test(name); // an enum's variant

/** Walks `segs` from module file `file` (its children in `dir`): null, or why not. */
function walk(ctx, dir, file, segs) {
  for (let k = 0; k < segs.length; k++) {
    const s = segs[k];
    const child = [`${dir}/${s}.rs`, `${dir}/${s}/mod.rs`].find((f) => ctx.paths.has(f));
    if (child) { file = child; dir = `${dir}/${s}`; continue; }
    const text = ctx.files.get(file) ?? '';
    if (new RegExp(`\\bmod\\s+${s}\\s*\\{`).test(text)) { dir = `${dir}/${s}`; continue; }
    if (!defines(text, s)) return `${file} has no module or item \`${s}\``;
    const crate = [...ctx.paths].filter((f) => f.startsWith(dir.split('/src')[0]) && f.endsWith('.rs')).map((f) => ctx.files.get(f)).join('\n');
    const missing = segs.slice(k + 1).find((r) => !new RegExp(`\\b${r}\\b`).test(crate));
    return missing ? `nothing in its crate is named \`${missing}\` (after \`${s}\` in ${file})` : null;
  }
  return null;
}

/**
 * Why the Rust path `p` (`a::b::c`, or `a::{b, c}` as one of its names)
 * cited in `file` does not resolve, or null. A path that starts with no
 * crate or module of ours is not a citation (null).
 */
export function checkRust(ctx, p, file) {
  const segs = p.replace(/^roofline-(core|charts)::/, 'roofline_$1::').split('::');
  const [first, ...rest] = segs;
  if (first === 'self' || first === 'super' || /^[A-Z]/.test(first)) return null;
  let starts; // [dir, module file] pairs the rest is walked from
  if (CRATES[first]) starts = [[CRATES[first], rootFile(ctx, CRATES[first])]];
  else if (first === 'crate') {
    const c = crateOf(file);
    if (!c) return null;
    starts = [[c, rootFile(ctx, c)]];
  } else if (first === 'page' || first === 'chunks') {
    starts = [['src', 'src/main.rs']];
    rest.unshift(first);
  } else {
    starts = [...ctx.paths]
      .filter((f) => /^(src|crates\/[^/]+\/src)\//.test(f))
      .filter((f) => f.endsWith(`/${first}.rs`) || f.endsWith(`/${first}/mod.rs`))
      .map((f) => [f.replace(/(\/mod)?\.rs$/, ''), f]);
    if (!starts.length) return null; // std's, a dependency's, or a local name
  }
  if (!starts[0][1]) return `${p}: no crate root for ${first}`;
  const why = starts.map(([d, f]) => walk(ctx, d, f, rest));
  return why.includes(null) ? null : `${p} does not resolve: ${why.join('; ')}`;
}

/** Why the size rule's path `p` cited in docs is in no rule of tests/size-rules.mjs, or null. */
export const checkRule = (ctx, p) =>
  ctx.rules.some((r) => r === p || r.startsWith(`${p}::`)) ? null : `no size rule (tests/size-rules.mjs RULES) has the path ${p}`;

/** Why the name `p` cited as clippy's is not in clippy.toml, or null. */
export const checkClippy = (ctx, p) =>
  new RegExp(`(^|::|")${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`, 'm').test(ctx.files.get('clippy.toml') ?? '') ? null : `clippy.toml has no ${p}`;

const braces = (p) => {
  const m = /^(.*?)::\{([^}]*)\}$/.exec(p);
  return m ? m[2].split(',').map((s) => s.trim()).filter(Boolean).map((s) => `${m[1]}::${s}`) : [p];
};

/**
 * Every citation in one passage of `file` that does not resolve:
 * `{ file, line, what, why }`.
 */
export function checkPassage(ctx, file, { line, text, string = false }) {
  const out = [];
  const fail = (index, what, why) => why && out.push({ file, line: line + (text.slice(0, index).match(/\n/g)?.length ?? 0), what, why });
  let t = text.replace(/\b[a-z][\w+.-]*:\/\/[^\s)>`'"]*/g, (u) => ' '.repeat(u.length)); // URLs
  const isMd = file.endsWith('.md');

  // Markdown links: relative to the file.
  if (isMd) {
    t = t.replace(/\]\(([^)\s]+)\)/g, (all, target, index) => {
      if (!/^(#|mailto:)/.test(target)) fail(index, target, checkPath(ctx, target.replace(/#.*$/, ''), file, 'relative'));
      return ' '.repeat(all.length);
    });
  }

  // docs/build.md §N (and a bare § in build.md, or right after such a citation).
  for (const m of t.matchAll(/(build\.md\s*)?((?:§\s*\d+(?:\.\d+)*(?:\s*(?:,|and|or)\s*)?)+)/g)) {
    if (!m[1] && file !== 'docs/build.md' && !/build\.md[^.;\n]{0,40}$/.test(t.slice(Math.max(0, m.index - 60), m.index))) {
      fail(m.index, m[2].trim(), `a § with no document: write docs/build.md ${m[2].trim()}`);
      continue;
    }
    for (const s of m[2].matchAll(/§\s*(\d+(?:\.\d+)*)/g)) fail(m.index, `docs/build.md §${s[1]}`, checkSection(ctx, s[1]));
  }

  // ARCHITECTURE.md, <section> / (<section>) / 's <section>.
  for (const m of t.matchAll(/ARCHITECTURE\.md(?:'s\s+|’s\s+|,\s*|\s*\(\s*)(?:["“]([^"”]+)["”]|([A-Za-z'’ -]+))/g)) {
    const s = m[1] ?? m[2].trim();
    if (!m[1] && (/^(and|or|but|which|where|so|then|that|it|is|are|keeps|with|in|for|see)\b/i.test(s) || s.split(' ').length > 5)) continue;
    fail(m.index, `ARCHITECTURE.md, ${s}`, checkArch(ctx, s));
  }

  // The size rules and clippy's, named in the docs.
  if (isMd) {
    for (const m of t.matchAll(/size rules\s*\(([^)]*)\)/g)) {
      for (const b of m[1].matchAll(/`([^`]+)`/g)) for (const p of braces(b[1].replace(/\s/g, ''))) fail(m.index, `size rules (${p})`, checkRule(ctx, p));
    }
    for (const m of t.matchAll(/clippy\s*\(([^)]*)\)/g)) {
      for (const b of m[1].matchAll(/`([^`]+)`/g)) fail(m.index, `clippy (${b[1]})`, checkClippy(ctx, b[1]));
    }
  }

  // Rust paths.
  for (const m of t.matchAll(/(?<![\w:])((?:roofline-(?:core|charts)|[a-z_][a-z0-9_]*)(?:::[A-Za-z_][A-Za-z0-9_]*)+(?:::\{[^}]*\})?)/g)) {
    for (const p of braces(m[1])) fail(m.index, p, checkRust(ctx, p, file));
  }

  // Repository paths.
  const ticked = new Set();
  for (const m of t.matchAll(/`([^`\n]+)`/g)) ticked.add(m.index + 1);
  for (const m of t.matchAll(new RegExp(`(?<![\\w./\\-$<>{}*@~])((?:\\.\\.?/)*[\\w.<>*\${}-]+(?:/[\\w.<>*\${}-]*)+|[\\w<>*\${}-]+(?:\\.[\\w-]+)*\\.(?:${EXT}))(?![\\w/])`, 'g'))) {
    const p = m[1].replace(/[.,;:]+$/, '');
    const first = p.split('/')[0];
    if (/^\d|^\.+$/.test(p) || !/[a-z]/i.test(p)) continue;
    let how;
    if (p.startsWith('<') && !p.includes('>')) continue; // `<glue.js>`: a placeholder
    if (p.includes('/') && (ctx.tops.has(first) || BUILT.some(([b]) => b === `${first}/`))) how = 'root';
    else if (string) continue; // a test's string: a download's name, a fixture, a URL
    else if (/^\.\.?\//.test(p)) how = isMd ? 'relative' : 'tail';
    else if (new RegExp(`\\.(${OURS})$`).test(p)) how = 'tail';
    else if (ticked.has(m.index) && /^[a-z_][\w.-]*(\/[\w.<>*${}-]+)*\/?$/.test(p) && (p.endsWith('/') || /\/[\w-]+\.\w+$/.test(p))) how = 'tail';
    else continue;
    fail(m.index, p, checkPath(ctx, p.replace(/^(\.\.?\/)+/, how === 'tail' ? '' : '$&'), file, how));
  }
  return out;
}

/** Every citation of the repository (or of `ctx`) that does not resolve. */
export function checkAll(ctx) {
  return cited(ctx).flatMap((f) => passages(f, ctx.files.get(f)).flatMap((p) => checkPassage(ctx, f, p)));
}

// ---------------------------------------------------------------- the tests

test('checker: a broken citation of each kind fails, a sound one passes', () => {
  const ctx = context(
    new Map([
      ['docs/build.md', '# Build\n\n## 1. One\n\n### 2.2 The split\n\n## 4. Techniques\n\nsize rules (`dlmalloc`), size rules (`nosuch`); clippy (`signal`), clippy (`nosuch`)\n'],
      ['ARCHITECTURE.md', '# Architecture\n\n## Bird\'s-eye view\n\n## Invariants\n\nno source file is over 750 lines\n'],
      ['src/main.rs', 'mod page;\n'],
      ['src/page/mod.rs', 'pub mod shown;\n'],
      ['src/page/shown.rs', 'pub fn shown() {}\n'],
      ['crates/roofline-core/src/lib.rs', 'pub mod calc;\npub use calc::evaluate;\n'],
      ['crates/roofline-core/src/calc/mod.rs', 'pub struct CalcView;\nimpl CalcView { pub fn from_state() {} }\npub fn evaluate() {}\n'],
      ['clippy.toml', 'disallowed-methods = [{ path = "reactive_graph::signal::signal" }]\n'],
      ['tests/a.test.mjs', 'import x from "y";\n'],
    ]),
    ['dlmalloc', 'roofline_core::calc'],
  );
  const f = 'src/x.rs';
  assert.equal(checkPath(ctx, 'src/page/shown.rs', f), null);
  assert.equal(checkPath(ctx, 'crates/roofline-core/src/calc/', f), null);
  assert.equal(checkPath(ctx, 'src/chunks/NAME/mod.rs', f), 'src/chunks/NAME/mod.rs is not a tracked file or folder');
  assert.equal(checkPath(ctx, 'src/page/NAME.rs', f), null);
  assert.equal(checkPath(ctx, 'tests/*.test.mjs', f), null);
  assert.match(checkPath(ctx, 'docs/README.md', f), /not a tracked/); // capitals are a name, not a placeholder
  assert.equal(checkPath(ctx, 'STAGE/shown.rs', f, 'tail'), null);
  assert.equal(checkPath(ctx, 'target/split/release/named/', f), null);
  assert.match(checkPath(ctx, 'src/page/gone.rs', f), /not a tracked/);
  assert.equal(checkPath(ctx, 'shown.rs', f, 'tail'), null);
  assert.match(checkPath(ctx, 'gone.rs', f, 'tail'), /no tracked path/);
  assert.equal(checkPath(ctx, '../ARCHITECTURE.md', 'docs/build.md', 'relative'), null);
  assert.equal(checkSection(ctx, '2.2'), null);
  assert.match(checkSection(ctx, '2.3'), /no section §2.3/);
  assert.equal(checkArch(ctx, 'invariants'), null);
  assert.equal(checkArch(ctx, 'bird\'s-eye view'), null);
  assert.equal(checkArch(ctx, 'no source file is over 750 lines'), null);
  assert.match(checkArch(ctx, 'a room per concern'), /no section or text/);
  assert.equal(checkRust(ctx, 'roofline_core::calc::evaluate', f), null);
  assert.equal(checkRust(ctx, 'roofline_core::evaluate', f), null);
  assert.equal(checkRust(ctx, 'roofline_core::calc::CalcView::from_state', f), null);
  assert.equal(checkRust(ctx, 'page::shown::shown', f), null);
  assert.equal(checkRust(ctx, 'crate::page::shown', 'src/page/x.rs'), null);
  assert.equal(checkRust(ctx, 'calc::evaluate', f), null);
  assert.equal(checkRust(ctx, 'f64::powf', f), null);
  assert.match(checkRust(ctx, 'roofline_core::calcs::evaluate', f), /no module or item `calcs`/);
  assert.match(checkRust(ctx, 'roofline_core::calc::evaluat', f), /no module or item `evaluat`/);
  assert.match(checkRust(ctx, 'page::hidden::shown', f), /does not resolve/);
  assert.match(checkRust(ctx, 'calc::nothing', f), /does not resolve/);

  // Whole passages: each broken citation is found, on its line.
  const found = (file, text) => checkPassage(ctx, file, { line: 1, text }).map((x) => `${x.line} ${x.what}`);
  assert.deepEqual(found('src/x.rs', 'see `src/page/shown.rs` and\ncrates/roofline-core/src/gone.rs'), ['2 crates/roofline-core/src/gone.rs']);
  assert.deepEqual(found('src/x.rs', 'docs/build.md §2.2 and\ndocs/build.md\n§9.1'), ['2 docs/build.md §9.1']);
  assert.deepEqual(found('src/x.rs', '(ARCHITECTURE.md, invariants) (ARCHITECTURE.md, "a room per concern")'), ['1 ARCHITECTURE.md, a room per concern']);
  assert.deepEqual(found('src/x.rs', 'uses roofline_core::calc::{evaluate, gone} and f64::powf'), ['1 roofline_core::calc::gone']);
  assert.deepEqual(found('docs/x.md', 'a [link](../src/main.rs), a [dead one](../src/gone.rs), https://example.com/a/b.rs'), ['1 ../src/gone.rs']);
  assert.deepEqual(
    checkAll(ctx).map((x) => `${x.file}:${x.line} ${x.what}`),
    ['docs/build.md:9 size rules (nosuch)', 'docs/build.md:9 clippy (nosuch)'],
  );

  // The scanners: comments and strings, not code.
  assert.deepEqual(scanRust('let s = "// no"; // yes\nlet c = \'"\'; /* and /* nested */ this */ x').map((c) => c.text.trim()), ['yes', 'and /* nested */ this']);
  const js = scanJs('const a = "x // y"; // one\nconst r = /\\/\\/ no/g; const t = `src/${name}/mod.rs`; /* two */');
  assert.deepEqual(js.comments.map((c) => c.text.trim()), ['one', 'two']);
  assert.deepEqual(js.strings.map((s) => s.text), ['x // y', 'src/${}/mod.rs']);
  assert.deepEqual(scanHash('#!/bin/bash\necho "a # b" # real\nx=${#y}').map((c) => c.text.trim()), ['real']);
});

test('citations: every path, § of docs/build.md, ARCHITECTURE.md section, Rust path and rule cited resolves', async () => {
  const ctx = await repoContext();
  const broken = checkAll(ctx).map((x) => `${x.file}:${x.line}: ${x.what}: ${x.why}`);
  assert.deepEqual(broken, [], `${broken.length} citations do not resolve:\n${broken.join('\n')}\n`);
});
