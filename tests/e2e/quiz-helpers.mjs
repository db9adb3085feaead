// What the quiz chapters' browser tests share: a part's verdict, a
// result's unrounded value once the page has it, and a tight comparison.
import assert from 'node:assert/strict';

/** The verdict line of part `part` of the open question. */
export const verdict = (page, part) => page.textContent(`[data-testid="part-${part}"] .verdict`);

/** The `data-value` of the element `testid`, once it holds one. */
export async function dataValue(page, testid) {
  await page.waitForSelector(`[data-testid="${testid}"][data-value]:not([data-value=""])`);
  return page.getAttribute(`[data-testid="${testid}"]`, 'data-value');
}

/** `got` equals `want` but for float rounding. */
export const near = (got, want, what) => assert.ok(Math.abs(got - want) <= 1e-9 * Math.abs(want), `${what}: ${got} vs ${want}`);
