#!/usr/bin/env bash
# Benchmarks the release build: gzip sizes of dist/, first chart and redraw
# latency in headless Chromium, and Lighthouse 12.2.3 mobile scores. Prints a
# table and writes bench/out/bench-<commit>.json (git-ignored).
#
#   bash scripts/bench.sh                          build the release and measure it
#   bash scripts/bench.sh --compare A.json B.json  print B minus A, figure by figure
#
# Not part of scripts/check.sh: timings depend on the machine and its load.
# Knobs (environment): BENCH_LOADS, BENCH_INPUTS, BENCH_LH_RUNS,
# BENCH_SKIP_LIGHTHOUSE=1, BENCH_OUT (see bench/bench.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m[bench]\033[0m %s\n' "$*"; }

if [ "${1:-}" = "--compare" ]; then
  if [ "$#" -ne 3 ]; then
    echo "usage: bash scripts/bench.sh --compare A.json B.json" >&2
    exit 2
  fi
  exec node bench/bench.mjs --compare "$2" "$3"
fi
if [ "$#" -ne 0 ]; then
  echo "usage: bash scripts/bench.sh [--compare A.json B.json]" >&2
  exit 2
fi

bash scripts/setup.sh

# Lighthouse and the peer page's React, ReactDOM and d3 live in their own npm
# project (bench/) so the test command never
# installs it. Install from the lockfile only when node_modules is missing or
# does not match it.
bench_current() {
  node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("bench/package-lock.json", "utf8")).packages;
    for (const [path, meta] of Object.entries(lock)) {
      if (!path) continue;
      let got = null;
      try { got = JSON.parse(fs.readFileSync("bench/" + path + "/package.json", "utf8")).version; } catch {}
      if (got === null && meta.optional) continue;
      if (got !== meta.version) process.exit(1);
    }'
}
if [ -d bench/node_modules ] && bench_current; then
  say "bench npm packages present"
else
  say "installing bench npm packages (Lighthouse, the peer page) from bench/package-lock.json"
  npm ci --prefix bench --no-audit --no-fund --loglevel=error
fi

say "building the release"
bash scripts/build.sh

say "measuring dist/"
node bench/bench.mjs dist
