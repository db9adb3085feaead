// Profilers' exports pasted as they are printed (#40): Nsight Compute's
// CSV (default and raw page), XProf's roofline table and JAX's
// cost_analysis(), each recognised and named, each kernel's FLOPs, bytes
// and time on its row (data-flops, data-bytes, data-time) as worked out by
// hand from the example files in docs/measurements/; a JAX prediction (no
// time) drawn at the roof turns measured when its time is typed, and the
// link keeps it; the "Measure it yourself" snippets are shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveAndLaunch, openPage, waitForDraw, root } from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const input = '[data-testid="points-input"]';
const rowSel = '[data-testid="point-row"]';
const doc = (name) => fs.readFileSync(path.join(root, 'docs', 'measurements', name), 'utf8');
const rows = (page) => page.$$eval(rowSel, (rs) => rs.map((r) => ({
  name: r.querySelector('th').textContent,
  flops: r.dataset.flops,
  bytes: r.dataset.bytes,
  time: r.dataset.time,
  fraction: Number(r.dataset.fraction),
})));

/** `want`: [name start, FLOPs, bytes, seconds or null]; compares to 1e-9. */
function check(got, want, what) {
  assert.equal(got.length, want.length, `${what}: ${JSON.stringify(got)}`);
  for (const [name, flops, bytes, time] of want) {
    const r = got.find((g) => g.name.startsWith(name));
    assert.ok(r, `${what}: ${name} in ${got.map((g) => g.name)}`);
    const near = (a, b, k) => assert.ok(Math.abs(Number(a) / b - 1) < 1e-9, `${what} ${name} ${k}: ${a} against ${b}`);
    near(r.flops, flops, 'FLOPs');
    near(r.bytes, bytes, 'bytes');
    if (time === null) assert.equal(r.time, '', `${what} ${name}: a prediction has no time`);
    else near(r.time, time, 'time');
  }
}

async function pasteAndAdd(page, text, format) {
  await page.fill(input, text);
  await page.waitForFunction((f) => document.querySelector('[data-testid="points-format"]')?.dataset.value === f, format);
  await page.click('[data-testid="points-apply"]');
  await page.waitForSelector(rowSel);
  assert.equal(await page.locator('[data-testid="points-errors"] li').count(), 0, `${format}: no problems`);
}

// FLOPs as Nsight Compute's roofline sums them: 2·4096³ tensor ops,
// 2 × 16,777,216 FFMA and 4 × 8,388,608 HFMA (packed pairs) for the matmul.
const NCU = [
  ['void matmul_bf16', 137_438_953_472 + 33_554_432 + 33_554_432, 118_450_000, 196.38e-6],
  ['void rmsnorm_pass<float>(float *, const float *, const float *, int, int) #1', 136_314_880, 268_470_000, 62.43e-6],
  ['void rmsnorm_pass<float>(float *, const float *, const float *, int, int) #2', 134_217_728, 536_903_680, 124_862.08e-9],
];

test('Nsight Compute and XProf exports are read as printed, each kernel with its FLOPs, bytes and time', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=h200`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector(input);
    await pasteAndAdd(page, doc('ncu-details.csv'), 'Nsight Compute CSV (default page)');
    assert.match(await page.textContent('[data-testid="points-notes"]'), /FLOPs counted from/);
    check(await rows(page), NCU, 'ncu details');
    // The matmul's tensor work is all bf16: its data type is bf16 (the
    // roof drawn on H200 at bf16, so no other roof is named).
    const types = await page.$$eval(rowSel, (rs) => rs.map((r) => [r.querySelector('th').textContent, r.dataset.dtype]));
    assert.deepEqual(types.filter((t) => t[1]).map((t) => [t[0].slice(0, 16), t[1]]), [['void matmul_bf16', 'bf16']]);
    assert.equal(await page.locator('[data-testid="point-against"]').count(), 0);
    // Triage: the totals, and launches of one kernel grouped by name.
    const total = NCU.reduce((t, k) => t + k[3], 0);
    const totals = await page.textContent('[data-testid="points-totals"]');
    assert.match(totals, /^3 kernels measured: /);
    assert.ok(totals.includes(`${Math.round(total * 1e6)} µs in all`), totals);
    await page.click('[data-testid="points-groups"] summary');
    const groups = await page.$$eval('[data-testid="points-group"]', (gs) => gs.map((g) => [g.querySelector('th').textContent, g.dataset.count]));
    assert.deepEqual(groups.map((g) => g[1]), ['1', '2'], JSON.stringify(groups));
    assert.match(groups[1][0], /^void rmsnorm_pass<float>/);
    await pasteAndAdd(page, doc('ncu-raw.csv'), 'Nsight Compute CSV (raw page)');
    check(await rows(page), NCU, 'ncu raw');
    // XProf: normalized GFLOP/s × total µs, ÷ the HBM operational intensity.
    await pasteAndAdd(page, doc('xprof-roofline.csv'), 'XProf roofline table (CSV)');
    check(await rows(page), [
      ['fusion.12', 612_345e9 * 4100e-6, 612_345e9 * 4100e-6 / 713, 4100e-6],
      ['add_multiply_fusion.3', 410.5e9 * 850e-6, 410.5e9 * 850e-6 / 0.0833, 850e-6],
      ['reduce.7', 980e9 * 120e-6, 980e9 * 120e-6 / 0.25, 120e-6],
    ], 'xprof');
    // A plain table is still read as CSV, and says so.
    await page.fill(input, 'name,flops,bytes,time_ms\na,1e12,1e9,2\n');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-format"]')?.dataset.value === 'CSV');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a JAX cost analysis without a time is a prediction at the roof; typing its time measures it, and the link keeps both', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=h200`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector(input);
    await pasteAndAdd(page, doc('jax-cost-analysis.txt'), 'JAX cost_analysis()');
    // matmul 2·8192³ FLOPs over 3·8192²·2 bytes in 1.6 ms; gelu 8 FLOPs and
    // 4 bytes an element in 0.2 ms; softmax predicted.
    check(await rows(page), [
      ['matmul', 2 * 8192 ** 3, 3 * 8192 ** 2 * 2, 1.6e-3],
      ['gelu', 8 * 8192 ** 2, 4 * 8192 ** 2, 0.2e-3],
      ['softmax', 268_435_456, 268_435_456, null],
    ], 'jax');
    assert.match(await page.textContent('[data-testid="points-notes"]'), /without a measured time: predicted/);
    const softmax = page.locator(rowSel, { hasText: 'softmax' });
    assert.equal((await rows(page)).find((r) => r.name === 'softmax').fraction, 1, 'a prediction sits at the roof');
    assert.match(await softmax.textContent(), /predicted/);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('pts')?.includes('softmax:1:~268435456'));
    // A bad time says so beside the field; a good one measures it.
    const field = softmax.locator('[data-testid="point-time"]');
    await field.fill('soon');
    await field.press('Tab');
    assert.match(await page.textContent('[data-testid="point-time-error"]'), /Not a time/);
    await field.fill('0.5 ms');
    await field.press('Tab');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="point-row"]')]
      .some((r) => r.textContent.includes('softmax') && r.dataset.time === '0.0005'));
    check(await rows(page), [
      ['matmul', 2 * 8192 ** 3, 3 * 8192 ** 2 * 2, 1.6e-3],
      ['gelu', 8 * 8192 ** 2, 4 * 8192 ** 2, 0.2e-3],
      ['softmax', 268_435_456, 268_435_456, 0.5e-3],
    ], 'jax timed');
    await page.waitForFunction(() => !new URLSearchParams(location.search).get('pts')?.includes('~'));
    // The link reopens the same points.
    const again = await openPage(browser, page.url());
    try {
      await waitForDraw(again.page, 'roofline-canvas');
      await again.page.waitForSelector(rowSel);
      const back = await rows(again.page);
      assert.equal(back.find((r) => r.name === 'softmax').time, '0.0005');
    } finally {
      await again.context.close();
    }
    // The snippets to measure it yourself.
    await page.click('[data-testid="points-snippets"] summary');
    assert.match(await page.textContent('[data-testid="snippet-jax"]'), /cost_analysis\(\)/);
    assert.match(await page.textContent('[data-testid="snippet-torch"]'), /FlopCounterMode/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a kernel that names its data type is read against that roof, drawn, kept in the link; a profiler export can be read as a plain table', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=h200`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector(input);
    // 1.5 PFLOP/s at intensity 1000: above H200's bf16 roof (989 TFLOP/s),
    // under its fp8 one (1,979 TFLOP/s). `fp13` is no data type.
    await page.fill(input, 'name,flops,bytes,time_ms,dtype\ngemm_fp8,1.5e12,1.5e9,1,fp8\ngemm_bf16,1.5e12,1.5e9,1,\nbad,1e9,1e6,1,fp13\n');
    await page.waitForSelector('[data-testid="points-errors"] li');
    assert.match(await page.textContent('[data-testid="points-errors"]'), /'fp13' is not a data type/);
    const mapped = await page.$$eval('[data-testid="points-mapping"] select', (ss) => ss.map((s) => s.value));
    assert.equal(mapped[4], 'dtype', JSON.stringify(mapped));
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 2);
    const got = await page.$$eval(rowSel, (rs) => rs.map((r) => ({
      name: r.querySelector('th').firstChild.textContent,
      dtype: r.dataset.dtype,
      fraction: Number(r.dataset.fraction),
      binding: r.dataset.binding,
      against: r.querySelector('[data-testid="point-against"]')?.textContent ?? '',
    })));
    const fp8 = got.find((r) => r.name === 'gemm_fp8');
    const bf16 = got.find((r) => r.name === 'gemm_bf16');
    assert.equal(fp8.dtype, 'fp8');
    assert.equal(fp8.against, 'fp8 roof');
    assert.ok(Math.abs(fp8.fraction - 1.5e15 / 1.979e15) < 1e-9, JSON.stringify(fp8));
    assert.equal(fp8.binding, 'fp8');
    assert.equal(bf16.dtype, '');
    assert.ok(Math.abs(bf16.fraction - 1.5e15 / 9.89e14) < 1e-9, JSON.stringify(bf16));
    // The fp8 roof is drawn beside the roof of the calculator's type.
    await page.waitForFunction(() => (document.querySelector('[data-testid="points-canvas"]')?.dataset.roofs ?? '').split(',').includes('fp8'));
    // The link keeps the type; reopened, the same fraction.
    await page.waitForFunction(() => decodeURIComponent(location.href).includes(':fp8'));
    const url = page.url();
    assert.match(decodeURIComponent(url), /gemm_fp8:1e3:1\.5e15:1e-3:fp8,gemm_bf16:1e3:1\.5e15:1e-3(&|$)/);
    const again = await openPage(browser, url);
    try {
      await again.page.waitForSelector(rowSel);
      const f = await again.page.$eval(`${rowSel}[data-dtype="fp8"]`, (r) => Number(r.dataset.fraction));
      assert.ok(Math.abs(f - 1.5e15 / 1.979e15) < 1e-9, String(f));
      assert.deepEqual(again.problems, []);
    } finally {
      await again.context.close();
    }
    // A profiler's export read as a plain table, its columns mapped by
    // hand, and back.
    await page.fill(input, doc('ncu-raw.csv'));
    const format = () => page.getAttribute('[data-testid="points-format"]', 'data-value');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-format"]')?.dataset.value === 'Nsight Compute CSV (raw page)');
    await page.click('[data-testid="points-read-as"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-format"]')?.dataset.value === 'CSV');
    assert.ok(await page.locator('[data-testid="points-mapping"] select').count() > 3);
    assert.match(await page.textContent('[data-testid="points-read-as"]'), /Read it as Nsight Compute CSV \(raw page\)/);
    await page.click('[data-testid="points-read-as"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-format"]')?.dataset.value === 'Nsight Compute CSV (raw page)');
    assert.equal(await format(), 'Nsight Compute CSV (raw page)');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a TFLOPS column whose counts would put kernels far above the roof is read as a rate, and the preview offers the count', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=v5e`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector(input);
    // 650 in 1 ms: as TFLOP, 6.5e17 FLOP/s, thousands of times v5e's roof.
    await page.fill(input, 'name,TFLOPS,bytes,time_ms\na,650,1e9,1\nb,600,1e9,2\n');
    await page.waitForSelector('[data-testid="points-rate-note"]');
    assert.match(await page.textContent('[data-testid="points-rate-note"]'), /^'TFLOPS' is read as FLOP\/s, a rate: read as FLOPs \(a count\), it would put 2 of the 2 kernels more than 100 times above the roof\./);
    const field = () => page.$eval('[data-testid="points-mapping"] li:nth-child(2) select', (s) => s.value);
    assert.equal(await field(), 'rate');
    await page.click('[data-testid="points-apply"]');
    await page.waitForSelector(rowSel);
    const rate = await page.$eval(rowSel, (r) => Number(r.dataset.flops) / Number(r.dataset.time));
    assert.ok(Math.abs(rate / 650e12 - 1) < 1e-9, String(rate));
    // The other reading, by the user's choice: it sticks.
    await page.click('[data-testid="points-read-count"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="points-rate-note"]'));
    assert.equal(await field(), 'flops');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a large Nsight export pasted is taken a piece per task and read whole; a newer paste stops an older one', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=h200`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector(input);
    const res = await page.evaluate(async () => {
      // Five thousand kernels in the default page: 25,002 lines, 2 MB
      // (over the million characters taken at once).
      const q = (cells) => cells.map((c) => `"${c}"`).join(',');
      const rows = ['==PROF== Connected to process 1', q(['ID', 'Process Name', 'Kernel Name', 'Metric Name', 'Metric Unit', 'Metric Value'])];
      for (let i = 0; i < 5000; i++) {
        const head = [String(i), 'python3', `k${i}`];
        rows.push(q([...head, 'dram__bytes.sum', 'Mbyte', '1']));
        rows.push(q([...head, 'gpu__time_duration.sum', 'usecond', '10']));
        rows.push(q([...head, 'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum', 'inst', '1,000,000']));
        rows.push(q([...head, 'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum', 'inst', '0']));
        rows.push(q([...head, 'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum', 'inst', '0']));
      }
      const big = rows.join('\n');
      const box = document.querySelector('[data-testid="points-input"]');
      const apply = document.querySelector('[data-testid="points-apply"]');
      const paste = (text) => {
        const data = new DataTransfer();
        data.setData('text/plain', text);
        const ev = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
        box.dispatchEvent(ev);
        return ev.defaultPrevented;
      };
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const until = async (re) => {
        for (let f = 0; f < 2000 && !re.test(apply.textContent); f++) await frame();
        return apply.textContent;
      };
      const out = { size: big.length };
      out.prevented = paste(big);
      out.all = await until(/\(5000\)/);
      out.format = document.querySelector('[data-testid="points-format"]')?.dataset.value;
      // A large paste, then at once a newer one: the newer is what is read.
      const small = ['name,flops,bytes,time_us', ...Array.from({ length: 3000 }, (_, i) => `s${i},1e9,1e6,${5 + i}`)].join('\n');
      paste(big);
      await frame();
      paste(small + '\n' + '#'.repeat(70000));
      out.newer = await until(/\(3000\)/);
      for (let f = 0; f < 60; f++) await frame();
      out.after = apply.textContent;
      out.newerFormat = document.querySelector('[data-testid="points-format"]')?.dataset.value;
      return out;
    });
    assert.ok(res.size > 2 ** 20, String(res.size));
    assert.equal(res.prevented, true);
    assert.equal(res.all, 'Add measurements (5000)');
    assert.equal(res.format, 'Nsight Compute CSV (default page)');
    assert.equal(res.newer, 'Add measurements (3000)');
    assert.equal(res.after, 'Add measurements (3000)', 'the older copy did not come back');
    assert.equal(res.newerFormat, 'CSV');
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="points-canvas"]')?.getAttribute('data-points') === '3000');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/** `text` (an Nsight Compute CSV) as printed where the decimal mark is a comma: `118.450,00`, `137.438.953.472`. */
const commaLocale = (text) => text.split('\n').map((l) => (/^"\d+"/.test(l)
  ? l.split('","').map((f) => (/^[\d.,]+$/.test(f) ? f.replace(/[.,]/g, (c) => (c === ',' ? '.' : ',')) : f)).join('","')
  : l)).join('\n');

test('Nsight Compute (#46): the printed summary asks for CSV, a decimal-comma export is read, the advice asks for the tensor work, and the chart names every kernel', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&chip=h200`);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector(input);
    const errors = '[data-testid="points-errors"] li';
    // `ncu --print-summary per-kernel` is text: the message gives the
    // command that exports CSV, not "No column gives time".
    await page.fill(input, doc('ncu-summary.txt'));
    await page.waitForFunction((s) => document.querySelectorAll(s).length === 1, errors);
    const summary = await page.textContent(errors);
    assert.match(summary, /printed summary \(--print-summary per-kernel\)/);
    assert.ok(summary.includes("ncu --csv --page raw --metrics 'gpu__time_duration.sum,"), summary);
    assert.ok(!summary.includes('No column gives'), summary);

    // The raw page in a decimal-comma locale: the same kernels.
    const comma = commaLocale(doc('ncu-raw.csv'));
    assert.ok(comma.includes('"118.450,00","196.380,00","137.438.953.472"'));
    await pasteAndAdd(page, comma, 'Nsight Compute CSV (raw page)');
    check(await rows(page), NCU, 'ncu raw, decimal comma');
    // The chart names all three kernels, the two launches of one apart.
    await waitForDraw(page, 'points-canvas');
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="points-svg"]')]);
    const svg = fs.readFileSync(await dl.path(), 'utf8');
    for (const name of ['matmul_bf16&lt;128, 128, 64', 'rmsnorm_pass&lt;float&gt; #1', 'rmsnorm_pass&lt;float&gt; #2']) {
      assert.equal(svg.split(name).length - 1, 1, `'${name}' named once on the saved chart`);
    }

    // A GEMM with its FMAs alone reads at 0.257 FLOPs/byte: the note and a
    // kernel missing its time ask for the tensor cores' operations.
    const tensor = "regex:^sm__ops_path_tensor_src_.*\\.sum$";
    const head = '"ID","Kernel Name","Section Name","Metric Name","Metric Unit","Metric Value"';
    const line = (id, k, m, u, v) => `"${id}","${k}","Command line profiler metrics","${m}","${u}","${v}"`;
    const gemm = [
      head,
      line(0, 'gemm', 'gpu__time_duration.sum', 'usecond', '196.38'),
      line(0, 'gemm', 'dram__bytes.sum', 'byte', '100,663,296'),
      line(0, 'gemm', 'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum', 'inst', '12,935,234'),
      line(1, 'untimed', 'dram__bytes.sum', 'byte', '100'),
      line(1, 'untimed', 'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum', 'inst', '100'),
    ];
    await page.fill(input, gemm.join('\n'));
    await page.waitForFunction((s) => document.querySelectorAll(s).length === 1, errors);
    const missing = await page.textContent(errors);
    assert.ok(missing.includes(tensor), missing);
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="point-row"]').length === 1);
    assert.ok((await page.textContent('[data-testid="points-notes"]')).includes(tensor));
    let [row] = await rows(page);
    assert.ok(Math.abs(row.flops / row.bytes - 0.257) < 1e-3, `FMAs alone: ${row.flops / row.bytes}`);
    // With the tensor metric the advice asks for: 2·4096³ more FLOPs.
    gemm.splice(4, 0, line(0, 'gemm', 'sm__ops_path_tensor_src_bf16_dst_fp32.sum', '', '137,438,953,472'));
    await page.fill(input, gemm.join('\n'));
    await page.waitForFunction((s) => document.querySelectorAll(s).length === 1, errors);
    await page.click('[data-testid="points-apply"]');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="point-row"]')?.dataset.flops) > 1e11);
    [row] = await rows(page);
    assert.ok(Math.abs(row.flops / row.bytes - 1365.6) < 0.1, `with the tensor work: ${row.flops / row.bytes}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
