// The quiz as a learner uses it: answer, see verdicts, hints and solutions,
// keep progress across a reload, get new numbers, open the calculator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  serveAndLaunch, seriousAxeViolations, openPage, screenshot, lowContrastControls,
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
