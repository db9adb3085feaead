#!/usr/bin/env bash
# The one way Roofline Lab is built. Every build (check, serve, bench,
# deploying) goes through here.
#
#   bash scripts/build.sh                 release build into dist/
#   bash scripts/build.sh --plain         plain build into dist-plain/
#   bash scripts/build.sh [--plain] serve [trunk serve args]
#
# Release: std compiled alongside the app for size, and the post-link size
# steps of scripts/build/build-wasm.sh (wasm-opt -O2, functions in gzip's
# order, terser, zopfli), none of which rewrites the shape of generated
# code. docs/build.md says what each saves and how to take it out.
#
# Plain (--plain): stable compiler flags only, and none of those steps:
# cargo, wasm-split-cli, wasm-bindgen and wasm-opt as they come. The app
# works the same, only bigger (no size limit applies). CI runs the smoke
# tests on it (tests/e2e/smoke.test.mjs), so an upgrade of Leptos,
# wasm-bindgen or the compiler always has a build that goes through as it
# comes. It has its own
# cargo target folder (target/plain), so the two builds keep their caches.
#
# Release flags, and what each buys (gzip, measured on the app):
#   -Zbuild-std=std,panic_abort      about -12 KB (std built with opt-level z and LTO)
#   optimize_for_size (std feature)  about  -3 KB (smaller std algorithms)
#   -Zfmt-debug=none                 \ about -6 KB together: no Debug
#   -Zlocation-detail=none           / formatting, no file:line strings
# These are unstable cargo and rustc flags, accepted on the pinned compiler
# (rust-toolchain.toml) with RUSTC_BOOTSTRAP=1, so they cannot change under
# us. Both builds use `--cfg erase_components` (Leptos: each component's
# view is typed as AnyView, about -6 KB and a quicker compile).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

plain=0
if [ "${1:-}" = "--plain" ]; then
  plain=1
  shift
fi
command="${1:-build}"
[ $# -gt 0 ] && shift
case "$command" in
  build | serve) ;;
  *)
    echo "usage: bash scripts/build.sh [--plain] [build|serve] [trunk args]" >&2
    exit 2
    ;;
esac

export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg erase_components"
if [ "$plain" = 1 ]; then
  export ROOFLINE_PLAIN=1
  export CARGO_TARGET_DIR="$PWD/target/plain"
  exec trunk "$command" --release --dist dist-plain "$@"
fi
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zfmt-debug=none -Zlocation-detail=none --cfg erase_components"
exec trunk "$command" --release "$@"
