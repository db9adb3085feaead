#!/usr/bin/env bash
# Runs Trunk for the release build, with std compiled alongside the app so
# that it can be optimised for size. Usage: bash scripts/trunk-release.sh
# build|serve [trunk args]. Every release build (check, serve, bench) goes
# through here so that all three measure and ship the same bytes.
#
# -Zbuild-std is a cargo feature that stable cargo only accepts with
# RUSTC_BOOTSTRAP=1. The compiler stays the pinned one (rust-toolchain.toml),
# so the flags cannot change under us; a plain `trunk build --release`
# without this script still works and is just about 21 KB gzip larger.
# What each flag buys (gzip, measured on the app):
#   build-std + panic_abort          about -12 KB (std built with opt-level z and LTO)
#   optimize_for_size (std feature)  about  -3 KB (smaller std algorithms)
#   -Zfmt-debug=none                 \ about -6 KB together: no Debug
#   -Zlocation-detail=none           / formatting, no file:line strings
#   --cfg erase_components           about -6 KB first load, -8 KB quiz chunk:
#                                    Leptos types each component's view as
#                                    AnyView instead of its nested type.
#     The cost: an erased element re-sets all of its attributes when it is
#     rebuilt, which invalidates style before the next canvas draw (+1.3 ms
#     per edit, measured). So the lists that change on each edit keep their
#     elements and update only text (src/components/results.rs).
# Panics still abort with their message (console_error_panic_hook), without
# the file and line. Nothing the app shows uses Debug formatting.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zfmt-debug=none -Zlocation-detail=none --cfg erase_components"
exec trunk "$@"
