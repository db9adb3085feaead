// Helpers shared by the benchmark's modules: the bench folder, the
// browser binary, medians and quantiles, rounding, and text tables.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = path.dirname(fileURLToPath(import.meta.url));
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export const median = (xs) => quantile(xs, 0.5);
/** Linear-interpolated quantile (q in [0, 1]) of a non-empty list. */
export function quantile(xs, q) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
export const round = (x, d = 2) => (x == null ? null : Math.round(x * 10 ** d) / 10 ** d);
export const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
export const ms = (x) => (x == null ? '-' : `${x.toFixed(1)} ms`);

export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  return rows
    .map((r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  '))
    .join('\n');
}
