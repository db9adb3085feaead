// clippy.toml's rules can fail: clippy, run with the workspace's
// clippy.toml on a crate that breaks each rule once
// (tests/fixtures/clippy-rules/), must report every path clippy.toml
// disallows. A rule that clippy no longer matches (a path that moved in a
// new version, a typo) fails here by its path and reason. Needs cargo
// (clippy), not a build: run by scripts/check.sh after the house rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const fixture = path.join(root, 'tests', 'fixtures', 'clippy-rules');

/** The rules of clippy.toml's `disallowed-methods` and `disallowed-types`: [{ kind, path, reason }]. */
function clippyRules(toml) {
  const out = [];
  for (const [, kind, body] of toml.matchAll(/^disallowed-(methods|types)\s*=\s*\[([\s\S]*?)^\]/gm)) {
    for (const [, p, reason] of body.matchAll(/\{\s*path\s*=\s*"([^"]+)"\s*,\s*reason\s*=\s*"([^"]*)"\s*\}/g)) out.push({ kind, path: p, reason });
  }
  return out;
}

test('clippy.toml: every disallowed method and type is reported by clippy on a crate that uses it', () => {
  const rules = clippyRules(fs.readFileSync(path.join(root, 'clippy.toml'), 'utf8'));
  assert.ok(rules.length >= 6, `read ${rules.length} rules from clippy.toml`);
  assert.ok(!fs.existsSync(path.join(fixture, 'clippy.toml')), 'the fixture must use the workspace\'s clippy.toml, not its own');
  const out = execFileSync(
    'cargo',
    ['clippy', '--quiet', '--offline', '--locked', '--manifest-path', path.join(fixture, 'Cargo.toml'), '--message-format', 'json'],
    { cwd: root, encoding: 'utf8', env: { ...process.env, CARGO_TARGET_DIR: path.join(root, 'target', 'clippy-rules') } },
  );
  const reported = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .filter((m) => m.reason === 'compiler-message' && /^clippy::disallowed_(methods|types)$/.test(m.message.code?.code ?? ''))
    .map((m) => /`([^`]+)`/.exec(m.message.message)?.[1]);
  const missed = rules.filter((r) => !reported.includes(r.path)).map((r) => `clippy.toml's disallowed-${r.kind} ${r.path} ("${r.reason}")`);
  assert.deepEqual(missed, [], 'rule never reported by clippy: add a use to tests/fixtures/clippy-rules/src/lib.rs (or a stand-in), or mend its path');
});
