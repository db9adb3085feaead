#!/usr/bin/env bash
# The linker of the app's wasm (scripts/build/build-wasm.sh sets it for the
# wasm32 target): rust-lld, given the arguments rustc gives it minus the
# exports of wasm-streams' three JS classes (IntoUnderlyingSource,
# IntoUnderlyingByteSource, IntoUnderlyingSink).
#
# Why: Leptos always turns on server_fn's `browser` feature, which brings
# wasm-streams, whose `#[wasm_bindgen]` classes are exports. An export keeps
# its code, and the futures and error text that code reaches, in the wasm,
# although this app has no server function and never streams a response.
# wasm-opt cannot drop that code afterwards: it is in the function table,
# which the chunks share. Left out of the link, it is never in the table,
# and the first load is about 5.7 KB gzip smaller.
#
# Nothing in the app constructs those classes: build-wasm.sh stops the build
# if the glue ever imports one of their constructors (code that would
# then call an export that is not there).
set -euo pipefail
rustc="${RUSTC:-rustc}"
host=$("$rustc" -vV | sed -n 's/^host: //p')
lld="$("$rustc" --print sysroot)/lib/rustlib/$host/bin/rust-lld"

# Streams' export names are like intounderlyingsink_write_<hash> and
# __wbg_intounderlyingsink_free_<hash>.
streams() { [[ "$1" == *intounderlying* ]]; }

args=()
[ "${1:-}" = -flavor ] || args+=(-flavor wasm)
while [ $# -gt 0 ]; do
  case "$1" in
    --export)
      streams "${2:-}" || args+=("$1" "${2:-}")
      shift 2 || shift
      continue
      ;;
    --export=*)
      streams "${1#--export=}" || args+=("$1")
      ;;
    *) args+=("$1") ;;
  esac
  shift
done
exec "$lld" "${args[@]}"
