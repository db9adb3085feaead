// Every size rule's check can fail: each rule of tests/size-rules.mjs is
// fed a build (function names in memory, or a crafted wasm for the
// low-memory rule) that breaks it, and must come back broken, by its name;
// a clean build must break none. Needs no build: run by scripts/check.sh
// after the house rules (node --test tests/rules.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILD_RULES, LOW_MEMORY_RULE, RULES, brokenIn, chunkRules, definedIn, lowMemoryProblem, ownsRule } from './size-rules.mjs';
import { TABLE } from './sizes.mjs';
import { uleb } from '../scripts/build/wasm-read.mjs';

const MAIN = 'roofline-lab_bg.wasm';

/** A legacy-mangled symbol for the function `path` ("a::b::f"), as rustc writes it. */
const legacy = (path) => `_ZN${path.split('::').map((s) => `${s.length}${s}`).join('')}17h0123456789abcdefE`;
/** The same in v0 mangling (crate, then nested value/type namespaces). */
const v0 = (path) => {
  const [crate, ...rest] = path.split('::');
  let s = `Cs1a2b3c_${crate.length}${crate}`;
  rest.forEach((seg, i) => {
    s = `N${i === rest.length - 1 ? 'v' : 't'}${s}${seg.length}${seg}`;
  });
  return `_R${s}`;
};

/** A clean build: the first load has ordinary code; every chunk has code under each path its row owns. */
function cleanBuild(table = TABLE) {
  const files = { [MAIN]: [legacy('roofline_core::calc::evaluate'), legacy('roofline_lab::page::app::App'), 'memcpy'] };
  for (const c of table.chunks) {
    files[`split_${c.name}.wasm`] = [legacy(`roofline_lab::chunks::${c.name}::load`), ...(c.owns ?? []).map((p) => legacy(`${p}::f`))];
    // What the first load may keep of a chunk's paths is allowed there.
    for (const p of c.first_load_keeps ?? []) files[MAIN].push(legacy(`${p}::f`));
  }
  return files;
}

const names = (out) => out.map((b) => b.rule);

test('definedIn reads both manglings', () => {
  assert.deepEqual(definedIn(legacy('leptos::show::Show')), ['leptos', 'show', 'Show']);
  assert.deepEqual(definedIn(v0('leptos::show::Show')), ['leptos', 'show', 'Show']);
  assert.deepEqual(definedIn('pow'), ['pow']);
  // v0: an identifier that starts with `_` has a `_` after its length.
  assert.deepEqual(definedIn('_RNvNtNtCs1a2b3c_12roofline_lab4page22___component_chunk_view10chunk_view'), ['roofline_lab', 'page', '__component_chunk_view', 'chunk_view']);
  // Legacy mangling keeps no path for an impl: its function counts as its type's.
  const impl = (type, fn) => `_ZN${type.length}${type}${fn.length}${fn}17h0123456789abcdefE`;
  assert.deepEqual(definedIn(impl('_$LT$leptos..show..ShowProps$LT$W$C$C$GT$$u20$as$u20$core..clone..Clone$GT$', 'clone')), ['leptos', 'show', 'ShowProps', 'clone']);
  assert.deepEqual(definedIn(impl('_$LT$roofline_core..model..view..ModelView$GT$', 'new')), ['roofline_core', 'model', 'view', 'ModelView', 'new']);
  assert.equal(definedIn(impl('_$LT$$RF$T$u20$as$u20$core..fmt..Debug$GT$', 'fmt'))[0], '_$LT$$RF$T$u20$as$u20$core..fmt..Debug$GT$');
  const files = cleanBuild();
  files[MAIN].push(impl('_$LT$leptos..suspense_component..SuspenseBoundary$u20$as$u20$tachys..view..Render$GT$', 'build'));
  assert.deepEqual(names(brokenIn(files)), [BUILD_RULES.find((r) => r.paths.includes('leptos::suspense_component')).rule]);
});

test('a clean build breaks no rule, and every row of the chunk table has a rule', () => {
  assert.deepEqual(brokenIn(cleanBuild()), []);
  const rows = TABLE.chunks.map((c) => c.name);
  assert.deepEqual(chunkRules().map((r) => r.chunk), rows, 'every row of src/chunks/chunks.json has an `owns` list');
});

for (const r of RULES) {
  test(`breaks: ${r.rule}`, () => {
    const bad = [...r.paths.map((p) => `${p}::f`), ...(r.symbols ?? [])];
    for (const name of bad) {
      for (const mangle of r.symbols?.includes(name) ? [(x) => x] : [legacy, v0]) {
        const files = cleanBuild();
        const file = r.in === 'all' ? 'split_quiz.wasm' : MAIN;
        files[file] = [...files[file], mangle(name)];
        const out = brokenIn(files);
        assert.deepEqual(names(out), [r.rule], `${mangle(name)} in ${file}`);
        assert.equal(out[0].file, file);
        // The plain build skips the release-only rules.
        if (r.release) assert.deepEqual(brokenIn(files, { release: false }), []);
      }
    }
    if (r.in === 'main') {
      // A chunk may hold it.
      const files = cleanBuild();
      files['split_measure.wasm'].push(...bad.map(legacy));
      assert.deepEqual(brokenIn(files), [], 'a first-load rule says nothing of a chunk');
    }
  });
}

test('a component inlined away is still seen: its closures in other crates\' impls name it (`mentions`)', () => {
  // From a build with a <Show> in the app's view: tachys' Render impl for Show's closure.
  const real = '_RNvXs_NtCs4vVHG5ncwDh_6tachys14reactive_graphNCINvNtCsiIOWBYpCPaE_6leptos4show16___component_showNCNvNtNtCshxiyfucS2cg_12roofline_lab4page3app15___component_apps9_0INtNtNtB6_4html7element11HtmlElementNtNtB2F_8elements1PuINtNtNtB6_4view9iterators9StaticVecNtNtB3B_8any_view7AnyViewEEEs_0NtB3B_6Render5buildB1F_';
  const legacyGeneric = '_ZN6tachys4view3any83drop_in_place$LT$leptos..show..Show$LT$roofline_lab..page..app..App$GT$$GT$17h0123456789abcdefE';
  const rules = BUILD_RULES.filter((r) => r.mentions);
  assert.ok(rules.length >= 2, 'the <Show> and <Suspense> rules name what they mention');
  for (const r of rules) {
    for (const p of r.mentions) {
      const segs = p.split('::');
      const v0name = `_RNvXs_NtCs4vVHG5ncwDh_6tachys14reactive_graphNCINvNtCs1a2b3c_${segs.map((x) => `${x.length}${x}`).join('')}1f0E0B1F_`;
      for (const n of [v0name, legacyGeneric.replace('leptos..show', segs.join('..'))]) {
        const files = cleanBuild();
        files[MAIN].push(n);
        assert.deepEqual(names(brokenIn(files)), [r.rule], n);
      }
    }
  }
  const files = cleanBuild();
  files[MAIN].push(real);
  assert.deepEqual(names(brokenIn(files)), [BUILD_RULES.find((r) => r.paths.includes('leptos::show')).rule]);
  // Near misses: page::shown, a crate named leptos_show, show in another crate.
  const near = cleanBuild();
  near[MAIN].push(legacy('roofline_lab::page::shown::shown'), legacy('leptos_show::f'), '_RNvNtCs1a2b3c_6tachys4show1f', '_ZN3foo20f$LT$leptos..shows$GT$17h0123456789abcdefE');
  assert.deepEqual(brokenIn(near), []);
});

test('a chunk rule allows what the first load keeps of the chunk\'s paths, and only that', () => {
  const model = chunkRules().find((r) => r.chunk === 'model');
  assert.ok(model.except.length, 'the model row keeps its state in the first load');
  const files = cleanBuild();
  files[MAIN].push(legacy(`${model.except[0]}::ModelState::default`));
  assert.deepEqual(brokenIn(files), []);
  files[MAIN].push(legacy('roofline_core::model::view::evaluate_model'));
  assert.deepEqual(names(brokenIn(files)), [model.rule]);
});

test('a path is under a prefix by whole segments (learn::step is not learn::steps)', () => {
  const table = { chunks: [{ name: 'x', owns: ['roofline_core::learn::step'] }] };
  const files = { [MAIN]: [legacy('roofline_core::learn::steps::f')], 'split_x.wasm': [legacy('roofline_core::learn::step::f')] };
  assert.deepEqual(brokenIn(files, { table }), []);
});

test('the chunk rules come from the table: a new row gets its rule, naming the chunk and its folder', () => {
  const table = { chunks: [...TABLE.chunks, { name: 'extra', owns: ['roofline_core::extra'] }] };
  const files = { ...cleanBuild(table), [MAIN]: [legacy('roofline_core::extra::thing')] };
  const out = brokenIn(files, { table });
  assert.equal(out.length, 1);
  assert.match(out[0].rule, /the extra chunk's code stays out of the first load: .*src\/chunks\/extra\//);
});

for (const c of TABLE.chunks) {
  test(`breaks: ${ownsRule(c.name)}`, () => {
    for (const p of c.owns) {
      const files = cleanBuild();
      const file = `split_${c.name}.wasm`;
      files[file] = files[file].filter((n) => !definedIn(n).join('::').startsWith(`${p}::`));
      const out = brokenIn(files);
      assert.deepEqual(names(out), [ownsRule(c.name)], `nothing of ${p}`);
      assert.deepEqual(out[0].found, [`nothing of ${p}`]);
      // Code the chunk shares with another is in a chunk_<n>.wasm: that counts.
      files['chunk_3.wasm'] = [legacy(`${p}::shared`)];
      assert.deepEqual(brokenIn(files), [], `${p} in chunk_3.wasm`);
    }
    // A row whose chunk has no wasm at all.
    const files = cleanBuild();
    delete files[`split_${c.name}.wasm`];
    const out = brokenIn(files);
    assert.deepEqual(names(out), [ownsRule(c.name)]);
    assert.match(out[0].read, new RegExp(`there is no split_${c.name}\\.wasm`));
  });
}

test('the build rules are kept as they were', () => {
  // The non-chunk rules, by the paths they watch: a rule dropped by mistake shows here.
  const watched = BUILD_RULES.flatMap((r) => r.paths).sort();
  for (const p of ['core::num::dec2flt', 'compiler_builtins::math::libm_math::pow', 'plotters::chart', 'leptos::show', 'leptos::suspense_component', 'reactive_graph::wrappers', 'reactive_graph::owner::context', 'dlmalloc', 'plotters::style::font::web']) {
    assert.ok(watched.includes(p), p);
  }
});

/** A wasm module with a global section (its first global, `__stack_pointer`, at `sp`) and active data segments at `offsets`. */
function memoryWasm(sp, offsets) {
  const sleb = (n) => {
    const out = [];
    for (;;) {
      const b = n & 0x7f;
      n >>= 7;
      if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return Buffer.from([...out, b]);
      out.push(b | 0x80);
    }
  };
  const section = (id, body) => Buffer.concat([Buffer.from([id]), uleb(body.length), body]);
  const globals = Buffer.concat([uleb(1), Buffer.from([0x7f, 0x01, 0x41]), sleb(sp), Buffer.from([0x0b])]);
  const data = Buffer.concat([
    uleb(offsets.length + 1),
    // A passive segment first, which has no offset: skipped.
    Buffer.from([0x01]), uleb(2), Buffer.from([1, 2]),
    ...offsets.map((o) => Buffer.concat([Buffer.from([0x00, 0x41]), sleb(o), Buffer.from([0x0b]), uleb(3), Buffer.from([7, 7, 7])])),
  ]);
  return Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), section(6, globals), section(11, data)]);
}

test(`breaks: ${LOW_MEMORY_RULE}`, () => {
  assert.equal(lowMemoryProblem(memoryWasm(1048576, [1048576, 1050000])), null, 'the stack first, then the data');
  assert.match(lowMemoryProblem(memoryWasm(1048576, [1048576, 512])), /data segment 2 starts at 512, in the first 1 KB/);
  assert.match(lowMemoryProblem(memoryWasm(32768, [1048576])), /__stack_pointer starts at 32768, below 64 KiB/);
});
