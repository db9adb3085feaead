#!/usr/bin/env bash
# Sets up whatever is missing, then runs every check Roofline Lab has:
# formatting, the house rules (tests/house.test.mjs, tests/pages.test.mjs,
# tests/citations.test.mjs), every rule's check fed a break (tests/rules.test.mjs,
# tests/clippy-rules.test.mjs), clippy (host and wasm32), native tests, wasm
# tests in headless Chromium, the release build, its size budget and size
# rules, the end-to-end tests, and the plain build with the smoke tests.
# CI runs exactly this (.ci/run). Each step's time is printed at the end.
#
#   bash scripts/check.sh            every check
#   bash scripts/check.sh --quick    fmt, house rules, clippy and native
#                                    tests: no browser, no release build
set -euo pipefail
cd "$(dirname "$0")/.."
quick=false
[ "${1:-}" = "--quick" ] && quick=true
if $quick; then bash scripts/setup.sh --quick; else bash scripts/setup.sh; fi
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

times=()
current=""
started=$SECONDS
begun=$SECONDS
# Closes the step that is running, if any, and records its time.
close_step() {
  if [ -n "$current" ]; then
    times+=("$(printf '%5ds  %s' $((SECONDS - started)) "$current")")
  fi
}
step() {
  close_step
  current="$*"
  started=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}
report() {
  local status=$?
  close_step
  printf '\n\033[1m== time per step\033[0m\n'
  printf '%s\n' "${times[@]}"
  printf '%5ds  in all%s\n' $((SECONDS - begun)) "$([ $status -ne 0 ] && echo ' (stopped by a failure in the last step)')"
}
trap report EXIT

step "cargo fmt --check"
cargo fmt --all --check

step "house rules (rooms, the chunk and page tables, imports across chunks, citations)"
node --test tests/house.test.mjs tests/pages.test.mjs tests/citations.test.mjs

step "every size rule and clippy.toml rule fails on code that breaks it (no build needed)"
node --test tests/rules.test.mjs tests/clippy-rules.test.mjs

step "clippy (host, all targets)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "clippy (wasm32)"
cargo clippy --workspace --target wasm32-unknown-unknown --locked -- -D warnings
# The browser tests (tests/wasm_*.rs) only build for wasm32. Not the whole
# workspace's tests: the core's proptest needs a random source wasm32 lacks.
cargo clippy -p roofline-lab --target wasm32-unknown-unknown --tests --locked -- -D warnings

step "native tests"
cargo test --workspace --locked

if $quick; then
  exit 0
fi

step "measurement snippets (valid Python; run where JAX or PyTorch is installed)"
node --test tests/snippets.test.mjs

step "wasm tests in headless Chromium"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
CHROMEDRIVER=/usr/bin/chromedriver \
WASM_BINDGEN_TEST_TIMEOUT=120 \
  cargo test --target wasm32-unknown-unknown -p roofline-lab --test wasm_canvas --test wasm_parse --locked

step "release build (trunk, std built for size, wasm-opt -O2, gzip order)"
bash scripts/build.sh

step "size budget"
node tests/size-budget.mjs dist

step "size rules (what the first load and each chunk may hold)"
node tests/size-rules.mjs

step "end-to-end tests (playwright-core + Debian Chromium)"
node --test --test-concurrency=1 tests/e2e/

step "plain build (no size steps) and its smoke tests"
bash scripts/build.sh --plain
ROOFLINE_DIST=dist-plain node --test --test-concurrency=1 tests/e2e/smoke.test.mjs
