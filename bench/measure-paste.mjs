// Ten thousand measured kernels pasted (as JSON, as Nsight Compute's long
// form, then as CSV), read, added to the points chart and redrawn after an
// edit (measurements).
import { openPage, waitForDraw } from '../tests/e2e/harness.mjs';
import { median, round } from './common.mjs';

/**
 * Ten thousand measured kernels: the time from pasting them (as JSON, then
 * as CSV) to the preview rendered, to the next frame and to the frame after
 * all are read, the longest frame while they are read, from "Add measurements" to the points
 * chart drawn, and a redraw of that chart after an edit of the HBM
 * bandwidth (the calculator's charts and the points chart). `runs` each.
 */
export async function measurements(browser, url, runs) {
  const { page, context, problems } = await openPage(browser, url);
  try {
    await waitForDraw(page, 'roofline-canvas');
    await page.click('[data-testid="points-open"]');
    await page.waitForSelector('[data-testid="points-input"]');
    await page.click('.chip-numbers summary');
    await page.waitForSelector('[data-testid="field-bw-hbm"]', { state: 'visible' });
    const res = await page.evaluate(async (n) => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
      // Each run's kernels differ (their times), so that each is a change.
      const table = (run) => {
        const rows = ['name,flops,bytes,time_us'];
        for (let i = 0; i < 10000; i++) {
          const f = 1e9 * (1 + (i % 97));
          rows.push(`k${i},${f},${f / (0.5 + (i % 613))},${5 + (i % 211) + run}`);
        }
        return rows.join('\n');
      };
      const input = document.querySelector('[data-testid="points-input"]');
      const apply = document.querySelector('[data-testid="points-apply"]');
      const hbm = document.querySelector('[data-testid="field-bw-hbm"]');
      const drawnAfter = (name, t0) => new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} not drawn within 10 s`)), 10000);
        const poll = () => {
          const e = performance.getEntriesByName(`${name}:drawn`).filter((m) => m.startTime >= t0);
          if (e.length) { clearTimeout(timer); resolve(e[e.length - 1].startTime); } else setTimeout(poll, 1);
        };
        poll();
      });
      const out = { rendered: [], preview: [], read: [], longest: [], after: [], apply: [], redraw: [] };
      const json = { rendered: [], preview: [], read: [], longest: [], after: [] };
      const ncu = { rendered: [], preview: [], read: [], longest: [], after: [] };
      // The same kernels as Nsight Compute prints its default page: a row
      // per kernel and metric (bytes, time, FMA, add and mul counts), 50,002
      // lines.
      const ncuTable = (run) => {
        const q = (cells) => cells.map((c) => `"${c}"`).join(',');
        const rows = ['==PROF== Disconnected from process 1', q(['ID', 'Process ID', 'Process Name', 'Host Name', 'Kernel Name', 'Context', 'Stream', 'Section Name', 'Metric Name', 'Metric Unit', 'Metric Value'])];
        for (let i = 0; i < 10000; i++) {
          const f = 1e9 * (1 + (i % 97));
          const head = [String(i), '1', 'python3', 'host', `k${i}`, '1', '7', 'Command line profiler metrics'];
          rows.push(q([...head, 'dram__bytes.sum', 'byte', String(Math.round(f / (0.5 + (i % 613))))]));
          rows.push(q([...head, 'gpu__time_duration.sum', 'usecond', String(5 + (i % 211) + run)]));
          rows.push(q([...head, 'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum', 'inst', String(f / 2 - 2)]));
          rows.push(q([...head, 'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum', 'inst', '2']));
          rows.push(q([...head, 'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum', 'inst', '2']));
        }
        return rows.join('\n');
      };
      // The same kernels as a JSON list of objects.
      const jsonTable = (run) => JSON.stringify(table(run).split('\n').slice(1).map((line) => {
        const [name, flops, bytes, t] = line.split(',');
        return { name, flops: Number(flops), bytes: Number(bytes), time_us: Number(t) };
      }));
      // Pastes `text` and times it into `into`.
      const pasteAndRead = async (text, into) => {
        // The text is on the clipboard before the paste (its making is
        // not timed, nor, as far as frames allow, its garbage).
        const data = new DataTransfer();
        data.setData('text/plain', text);
        // The box in view, where a user pastes.
        input.scrollIntoView({ block: 'center' });
        await frame();
        input.value = '';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await frame();
        await frame();
        // Pasted as a user pastes: a paste event carrying the text.
        const t0 = performance.now();
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
        // The paste comes in a frame's callbacks (the awaits above resume
        // there), so that frame shows the preview: its style, layout and
        // paint follow at once, and a task posted now runs after them. That
        // task's time is when the preview is rendered; within 16.7 ms, it is
        // in the next frame on screen. (The next frame's callback comes at
        // least a frame later however little there is to do.)
        const rendered = new Promise((r) => {
          const c = new MessageChannel();
          c.port1.onmessage = () => r(performance.now());
          c.port2.postMessage(0);
        });
        // The rest are read a slice per task. Each frame until all 10,000
        // are read: the longest gap between two frames is the longest the
        // page waited.
        let last = await frame();
        into.rendered.push((await rendered) - t0);
        into.preview.push(last - t0);
        let longest = last - t0;
        // The longest frame after the paste's own (which carries the
        // clipboard's text into the page: 6.5 MB for Nsight's form).
        let after = 0;
        while (!/\(10000\)/.test(apply.textContent)) {
          if (last - t0 > 10000) throw new Error(`not read within 10 s: ${apply.textContent}`);
          const now = await frame();
          longest = Math.max(longest, now - last);
          after = Math.max(after, now - last);
          last = now;
        }
        into.read.push(last - t0);
        into.longest.push(longest);
        into.after.push(after);
      };
      for (let i = 0; i < n; i++) {
        await pasteAndRead(jsonTable(i), json);
        await pasteAndRead(ncuTable(i), ncu);
        await pasteAndRead(table(i), out);
        let t0;
        await frame();
        t0 = performance.now();
        apply.click();
        out.apply.push((await drawnAfter('points', t0)) - t0);
        await frame();
        await frame();
        t0 = performance.now();
        hbm.value = i % 2 ? '8.2e11' : '9e11';
        hbm.dispatchEvent(new Event('input', { bubbles: true }));
        out.redraw.push((await drawnAfter('points', t0)) - t0);
      }
      out.points = document.querySelector('[data-testid="points-canvas"]')?.getAttribute('data-points');
      out.json = json;
      out.ncu = ncu;
      return out;
    }, runs);
    if (res.points !== '10000') throw new Error(`the chart holds ${res.points} points, not 10000`);
    const fig = (xs) => ({ median: round(median(xs), 2), max: round(Math.max(...xs), 2) });
    return {
      rows: 10000, runs,
      paste_to_preview_rendered: fig(res.rendered),
      paste_to_preview_frame: fig(res.preview),
      paste_to_all_read_frame: fig(res.read),
      longest_frame_while_reading: fig(res.longest),
      longest_frame_after_the_paste: fig(res.after),
      json_paste_to_preview_rendered: fig(res.json.rendered),
      json_paste_to_preview_frame: fig(res.json.preview),
      json_paste_to_all_read_frame: fig(res.json.read),
      json_longest_frame_while_reading: fig(res.json.longest),
      json_longest_frame_after_the_paste: fig(res.json.after),
      ncu_paste_to_preview_frame: fig(res.ncu.preview),
      ncu_paste_to_all_read_frame: fig(res.ncu.read),
      ncu_longest_frame_while_reading: fig(res.ncu.longest),
      ncu_longest_frame_after_the_paste: fig(res.ncu.after),
      apply_to_drawn: fig(res.apply),
      edit_to_points_redrawn: fig(res.redraw),
      problems,
    };
  } finally {
    await context.close();
  }
}
