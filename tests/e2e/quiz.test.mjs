// The quiz as a learner uses it: answer, see verdicts, hints and solutions,
// keep progress across a reload, get new numbers, open the calculator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, seriousAxeViolations, openPage, screenshot, lowContrastControls, waitForDraw,
  canvasStats,
} from './harness.mjs';

let server;
let browser;
serveAndLaunch((s, b) => {
  server = s;
  browser = b;
});

const verdict = (page, part) => page.textContent(`[data-testid="part-${part}"] .verdict`);

test('answers are checked, progress survives a reload', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q1`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="q1"]');
    // q1(b): total OPs as a formula; a wrong one first.
    await page.fill('[data-testid="answer-b"]', 'B*D*F');
    await page.click('[data-testid="check-b"]');
    assert.match(await verdict(page, 'b'), /^Not quite/);
    assert.equal(await page.$('[data-testid="part-b"] .solution'), null, 'no solution after one wrong try');
    await page.fill('[data-testid="answer-b"]', '2BDF');
    await page.click('[data-testid="check-b"]');
    assert.equal(await verdict(page, 'b'), 'Right.');
    assert.ok(await page.$('[data-testid="part-b"] .solution'), 'the worked solution shows once solved');

    // Two wrong tries on (e) reveal the answer.
    await page.fill('[data-testid="answer-e"]', '100');
    await page.click('[data-testid="check-e"]');
    await page.fill('[data-testid="answer-e"]', '5000');
    await page.click('[data-testid="check-e"]');
    assert.match(await page.textContent('[data-testid="part-e"] .solution'), /Answer:/);

    // q5 with a number.
    await page.click('[data-testid="question-q5"]');
    await page.waitForSelector('[data-testid="question"][data-question="q5"]');
    const first = page.locator('[data-testid="question"] .part').first();
    const pid = (await first.getAttribute('data-testid')).replace('part-', '');
    await page.fill(`[data-testid="answer-${pid}"]`, '~295');
    await page.click(`[data-testid="check-${pid}"]`);
    assert.equal(await verdict(page, pid), 'Right.');
    assert.match(page.url(), /q=q5/);
    await screenshot(page, 'quiz-q5');

    await page.reload();
    await page.waitForSelector('[data-testid="question"][data-question="q5"]');
    assert.match(await page.textContent('[data-testid="question-q1"] .q-progress'), /^1\//);
    assert.match(await page.textContent('[data-testid="question-q5"] .q-progress'), /^1\//);
    assert.ok(await page.$(`[data-testid="part-${pid}"] .solved-mark`), 'solved part keeps its tick');

    await page.click('[data-testid="progress-reset"]');
    assert.match(await page.textContent('[data-testid="question-q5"] .q-progress'), /^0\//);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('new numbers are seeded and travel in the link; the calculator opens the setup', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=ex-240`);
  try {
    await page.waitForSelector('[data-testid="question"][data-question="ex-240"]');
    const book = await page.textContent('.setup');
    await page.click('[data-testid="new-numbers"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="question"]').dataset.seed !== '0');
    const seed = await page.getAttribute('[data-testid="question"]', 'data-seed');
    const varied = await page.textContent('.setup');
    assert.notEqual(varied, book);
    assert.match(page.url(), new RegExp(`seed=${seed}`));
    // The same link in a fresh page shows the same numbers.
    const other = await context.newPage();
    await other.goto(page.url());
    await other.waitForSelector('[data-testid="question"]');
    assert.equal(await other.textContent('.setup'), varied);
    await other.close();

    // Open in calculator loads the question's chip and operation.
    await page.locator('.calc-link').first().click();
    await page.waitForSelector('[data-testid="roofline-canvas"][data-draws]');
    assert.match(page.url(), /view=calc|^[^?]*\?v=1(&|$)/);
    assert.ok(await page.$('[data-testid="result-critical-intensity"]'));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the quiz works with storage full of garbage or blocked', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    try { localStorage.setItem('roofline-lab/quiz-progress/v1', '{"not":"ours"}<script>'); } catch {}
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(`${server.url}?v=1&view=quiz`);
  await page.waitForSelector('[data-testid="question"]');
  assert.match(await page.textContent('[data-testid="question-q1"] .q-progress'), /^0\//);
  await context.close();

  // Storage that throws on every access.
  const blocked = await browser.newContext();
  await blocked.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } });
  });
  const p2 = await blocked.newPage();
  p2.on('pageerror', (e) => problems.push(e.message));
  await p2.goto(`${server.url}?v=1&view=quiz`);
  await p2.waitForSelector('[data-testid="question"]');
  await p2.fill('[data-testid="answer-b"]', '2*B*D*F');
  await p2.click('[data-testid="check-b"]');
  assert.equal(await p2.textContent('[data-testid="part-b"] .verdict'), 'Right.');
  assert.match(await p2.textContent('.q-list'), /does not let the page store data|could not be saved/);
  await blocked.close();
  assert.deepEqual(problems, []);
});

test('axe finds no serious or critical violation on the quiz, light and dark', async () => {
  for (const [scheme, width] of [['light', 1280], ['dark', 375]]) {
    const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q1`, {
      colorScheme: scheme, viewport: { width, height: 900 },
    });
    try {
      await page.waitForSelector('[data-testid="question"]');
      await page.fill('[data-testid="answer-b"]', 'B*D*F');
      await page.click('[data-testid="check-b"]');
      await page.click('[data-testid="reveal-b"]');
      assert.deepEqual(await seriousAxeViolations(page), [], `${scheme} ${width}px`);
      assert.deepEqual(await lowContrastControls(page), [], `${scheme} ${width}px: readable controls`);
      await screenshot(page, `quiz-${scheme}-${width}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

// Issue #38: the mistakes learners make, typed into the quiz as they type
// them; the feedback names the concept each one misses.
const MISTAKES = [
  // The seed learner's first answer to question 4: a formula where a number
  // is asked, growing with B.
  { q: 'q4', part: 'a', typed: '2B^2', reads: [/^Not quite/, /grows with B/, /2BDF, not B × 2BDF/, /its own D×F matrix/] },
  // A reader's question: bf16 × int8 counted as 4BDF.
  { q: 'q2', part: 'a', typed: '4BDF/(2BD+DF+2BF)', reads: [/whatever the data type/, /bf16 × int8 is still 2BDF FLOPs/, /not the FLOPs/] },
  { q: 'q4', part: 'a', typed: 'B*2BDF/(BD+BDF+BF)', reads: [/2BDF, not B × 2BDF/] },
  { q: 'q2', part: 'c', typed: '60', reads: [/whatever the data type/] },
  // FLOPs without the factor 2.
  { q: 'q1', part: 'b', typed: 'BDF', reads: [/half of 2BDF/, /a multiply and an add/] },
  // The approximation's crossing for the exact one.
  { q: 'q3', part: 'a', typed: '120', reads: [/approximation's crossing/, /D = F = 4096/] },
  // B in a chip's critical intensity.
  { q: 'q1', part: 'e', typed: '2B', reads: [/belongs to the chip alone/] },
  { q: 'q3', part: 'b', typed: '122', reads: [/approximation's crossing/, /D = F = 1024/] },
  // The sparse peak.
  { q: 'q5', part: 'a', typed: '591', reads: [/sparse figure/, /half of it/] },
  // An older version's number: right, with a note.
  { q: 'q1', part: 'f', typed: '243', reads: [/^Right\. /, /older TPU v5e HBM bandwidth, 8\.1e11 bytes\/s/, /the book now uses 8\.2e11 bytes\/s, which gives 240\./] },
  // The right formula where a number is asked: close, asked for its value.
  { q: 'q4', part: 'a', typed: '2BDF/(BD+BDF+BF)', reads: [/^Close\. Right formula; now give its value/] },
];

test('each typical mistake gets feedback naming its concept', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q1`);
  try {
    // Consecutive mistakes are on different questions: a switch builds the
    // parts afresh, so the verdict read is this answer's.
    for (const m of MISTAKES) {
      await page.click(`[data-testid="question-${m.q}"]`);
      await page.waitForSelector(`[data-testid="question"][data-question="${m.q}"]`);
      // The answer box starts empty: not the text typed into the question before.
      assert.equal(await page.inputValue(`[data-testid="answer-${m.part}"]`), '', `${m.q}(${m.part})`);
      await page.fill(`[data-testid="answer-${m.part}"]`, m.typed);
      await page.press(`[data-testid="answer-${m.part}"]`, 'Enter');
      await page.waitForFunction(
        ([p, t]) => document.querySelector(`[data-testid="part-${p}"] input`)?.value === t
          && document.querySelector(`[data-testid="part-${p}"] .verdict`),
        [m.part, m.typed],
      );
      const said = await verdict(page, m.part);
      for (const r of m.reads) assert.match(said, r, `${m.q}(${m.part}) '${m.typed}'`);
      assert.doesNotMatch(said, /NaN|\binf\b|times the expected|wants a number/, `${m.q}(${m.part}) '${m.typed}'`);
      if (m.q === 'q4' && m.typed === '2B^2') await screenshot(page, 'quiz-q4-two-b-squared');
      if (m.q === 'q1' && m.typed === '243') {
        assert.match(await page.getAttribute(`[data-testid="part-f"] .verdict`, 'class'), /\bright\b/);
        assert.ok(await page.$('[data-testid="part-f"] .solved-mark'), 'an older number solves the part');
        await screenshot(page, 'quiz-q1-older-bandwidth');
      }
    }
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('question 3\'s chart keeps each crossing out of its legend until its part is answered, and draws the approximation', async () => {
  const { page, context, problems } = await openPage(browser, `${server.url}?v=1&view=quiz&q=q3`);
  const legend = () => page.textContent('[data-testid="quiz-batch-legend"]');
  try {
    await page.waitForSelector('[data-testid="question"][data-question="q3"]');
    assert.equal(await page.$('[data-testid="quiz-batch-canvas"]'), null, 'no chart before an answer');
    // A wrong answer to (a) opens the chart, without a crossing.
    await page.fill('[data-testid="answer-a"]', '120');
    await page.click('[data-testid="check-a"]');
    let draws = await waitForDraw(page, 'quiz-batch-canvas');
    let text = await legend();
    assert.match(text, /D = F = 4096 \(crossing after part a\)/);
    assert.match(text, /D = F = 1024 \(crossing after part b\)/);
    assert.match(text, /approximation, intensity ≈ 2B \(crossing after part c\)/);
    assert.doesNotMatch(text, /B > |136|226|120/, 'no crossing before the answers');
    await screenshot(page, 'quiz-q3-chart-before');
    const before = await canvasStats(page, 'quiz-batch-canvas');

    // (a) solved: its crossing shows, (b)'s does not.
    await page.fill('[data-testid="answer-a"]', '136');
    await page.click('[data-testid="check-a"]');
    assert.equal(await verdict(page, 'a'), 'Right.');
    draws = await waitForDraw(page, 'quiz-batch-canvas', draws);
    text = await legend();
    assert.match(text, /D = F = 4096 \(B > 136\.1\)/);
    assert.match(text, /D = F = 1024 \(crossing after part b\)/);
    assert.doesNotMatch(text, /226/);
    // (b) revealed, (c) solved: every crossing shows.
    await page.click('[data-testid="reveal-b"]');
    draws = await waitForDraw(page, 'quiz-batch-canvas', draws);
    assert.match(await legend(), /D = F = 1024 \(B > 226\.3\)/);
    await page.fill('[data-testid="answer-c"]', '120');
    await page.click('[data-testid="check-c"]');
    assert.equal(await verdict(page, 'c'), 'Right.');
    await waitForDraw(page, 'quiz-batch-canvas', draws);
    assert.match(await legend(), /approximation, intensity ≈ 2B \(B > 120\.1\)/);
    const after = await canvasStats(page, 'quiz-batch-canvas');
    assert.notEqual(after.hash, before.hash, 'the legend redrew');
    await screenshot(page, 'quiz-q3-chart-after');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
