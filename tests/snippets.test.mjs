// The "Measure it yourself" snippets (docs/measurements/measure_*.py), as
// the panel shows them: each is valid Python, shown by the panel from the
// file itself, and, where Python has its library (JAX, PyTorch), run, its
// output a table the reader takes (name, FLOPs, bytes, seconds per row).
// Where the library is missing the run is skipped, never faked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const panel = fs.readFileSync(path.join(root, 'src/chunks/measure/snippets.rs'), 'utf8');
const python = (args, opts = {}) => spawnSync('python3', args, { encoding: 'utf8', timeout: 600_000, ...opts });
const hasPython = python(['--version']).status === 0;

for (const [file, module] of [['measure_jax.py', 'jax'], ['measure_torch.py', 'torch']]) {
  const where = path.join(root, 'docs/measurements', file);
  test(`${file}: shown by the panel from the file, valid Python`, { skip: !hasPython && 'no python3' }, () => {
    assert.ok(panel.includes(`docs/measurements/${file}`), `the panel includes ${file}`);
    const r = python(['-c', 'import ast, sys; ast.parse(open(sys.argv[1]).read())', where]);
    assert.equal(r.status, 0, r.stderr);
  });
  const has = hasPython && python(['-c', `import ${module}`]).status === 0;
  test(`${file}: run, it prints rows the reader takes`, { skip: !has && `${module} is not installed` }, () => {
    const r = python([where]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines[0], 'name,flops,bytes,time_s');
    assert.ok(lines.length >= 3, r.stdout);
    for (const line of lines.slice(1)) {
      const [name, ...nums] = line.split(',');
      assert.ok(name.length > 0, line);
      assert.equal(nums.length, 3, line);
      for (const n of nums) assert.ok(Number(n) > 0 && Number.isFinite(Number(n)), line);
    }
  });
}
