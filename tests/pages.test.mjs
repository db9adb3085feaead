// The page table against the folders (ARCHITECTURE.md, "Recipes": add a
// page). A page is a row of crates/roofline-core/src/pages.rs (PAGES), its
// state's link keys live in its core folder's link.rs (or link/), a page in a chunk
// has that chunk's row in src/chunks/chunks.json (fetched with view=KEY),
// and the app's shell has its row in src/page/pages.rs (APP_PAGES).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const read = (f) => fs.readFileSync(path.join(root, f), 'utf8');

/** The rows of the core's PAGES: [{ variant, key, chunk }]. */
export function coreRows(src) {
  const table = /pub const PAGES: \[Page; (\d+)\] = \[([\s\S]*?)\n\];/.exec(src);
  if (!table) throw new Error('crates/roofline-core/src/pages.rs has no `pub const PAGES: [Page; N] = [...]`');
  const rows = [...table[2].matchAll(/Page \{([\s\S]*?)\n    \}/g)].map(([, body]) => ({
    variant: /view: View::(\w+)/.exec(body)?.[1],
    key: /key: "([^"]+)"/.exec(body)?.[1],
    chunk: /chunk: Some\("([^"]+)"\)/.exec(body)?.[1] ?? null,
  }));
  if (rows.length !== Number(table[1])) throw new Error(`PAGES says ${table[1]} rows and lists ${rows.length}`);
  return rows;
}

/** The variants of `enum View`. */
export function variants(src) {
  const body = /pub enum View \{([\s\S]*?)\n\}/.exec(src)?.[1] ?? '';
  return [...body.matchAll(/^\s*(\w+),\s*$/gm)].map((m) => m[1]);
}

/** The views of the app's APP_PAGES rows. */
export function appRows(src) {
  return [...src.matchAll(/view: View::(\w+),/g)].map((m) => m[1]);
}

/**
 * What is wrong with the table against the folders: a list of messages,
 * each naming the rule. `has(path)` says whether a file or folder exists;
 * `chunks` is the chunk table's rows.
 */
export function problems({ core, app, chunks, has }) {
  const out = [];
  const rows = coreRows(core);
  const vs = variants(core);
  for (const v of vs) {
    if (rows.filter((r) => r.variant === v).length !== 1) out.push(`View::${v} needs exactly one row of PAGES (rule: a page is a row)`);
  }
  for (const r of rows) {
    if (!vs.includes(r.variant)) out.push(`row ${r.key} names View::${r.variant}, which is not a variant`);
    if (!has(`crates/roofline-core/src/${r.key}/link.rs`) && !has(`crates/roofline-core/src/${r.key}/link/mod.rs`)) {
      out.push(`page ${r.key}: its link keys belong in crates/roofline-core/src/${r.key}/link.rs (rule: a page's state and link keys live in its core folder)`);
    }
    if (r.chunk) {
      const row = chunks.find((c) => c.name === r.chunk);
      if (!row) out.push(`page ${r.key} is in chunk ${r.chunk}, which is not a row of src/chunks/chunks.json`);
      else if (row.preload !== 'view') out.push(`chunk ${r.chunk} holds page ${r.key}: its row needs "preload": "view" (view=${r.key} fetches it with the app)`);
      if (!has(`src/chunks/${r.chunk}/mod.rs`)) out.push(`page ${r.key}: src/chunks/${r.chunk}/mod.rs (its loader) is missing`);
    }
  }
  const shell = appRows(app);
  for (const v of vs) {
    if (shell.filter((x) => x === v).length !== 1) out.push(`View::${v} needs exactly one row of APP_PAGES in src/page/pages.rs (rule: the shell goes through the table)`);
  }
  return out;
}

const live = () => ({
  core: read('crates/roofline-core/src/pages.rs'),
  app: read('src/page/pages.rs'),
  chunks: JSON.parse(read('src/chunks/chunks.json')).chunks,
  has: (f) => fs.existsSync(path.join(root, f)),
});

test('pages: the page table agrees with the enum, the core folders, the chunk table and the shell', () => {
  assert.deepEqual(problems(live()), []);
});

test('pages: the check fails on a page missing from any of them', () => {
  const l = live();
  const extra = l.core
    .replace('pub enum View {', 'pub enum View {\n    /// New.\n    Extra,')
    .replace(/pub const PAGES: \[Page; (\d+)\]/, (_, n) => `pub const PAGES: [Page; ${Number(n) + 1}]`)
    .replace(/\n\];/, '\n    Page {\n        view: View::Extra,\n        key: "extra",\n        aliases: &[],\n        label: "Extra",\n        chunk: Some("extra"),\n    },\n];');
  const found = problems({ ...l, core: extra });
  assert.ok(found.some((m) => m.includes('/extra/link.rs')), found.join('\n'));
  assert.ok(found.some((m) => m.includes('chunk extra, which is not a row')), found.join('\n'));
  assert.ok(found.some((m) => m.includes('View::Extra needs exactly one row of APP_PAGES')), found.join('\n'));
  const noRow = l.core.replace('pub enum View {', 'pub enum View {\n    /// New.\n    Extra,');
  assert.ok(problems({ ...l, core: noRow }).some((m) => m.includes('View::Extra needs exactly one row of PAGES')));
  const noPreload = l.chunks.map((c) => (c.name === 'model' ? { ...c, preload: undefined } : c));
  assert.ok(problems({ ...l, chunks: noPreload }).some((m) => m.includes('"preload": "view"')));
});
