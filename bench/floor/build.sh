#!/usr/bin/env bash
# The size floor: builds the three apps in bench/floor/src/bin with the app's
# release settings (scripts/build.sh: std built for size, no Debug
# formatting or panic locations, erase_components; opt-level z, LTO; the
# app's SendWrapper and heap (see Cargo.toml);
# wasm-bindgen as it comes, wasm-opt -O2 --low-memory-unused from npm
# binaryen 132 without the custom sections, functions in gzip's order
# (scripts/build/gzip-order.mjs), terser on the glue, zopfli's gzip copies) and
# prints each one's gzip size. The app's first load is these plus
# everything Roofline Lab itself does. Needs `bash scripts/setup.sh` first
# (npm tools); usage: bash bench/floor/build.sh
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)
export PATH="$HOME/.cargo/bin:$root/node_modules/.bin:$PATH"
export CARGO_TARGET_DIR="$root/target/floor"
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
export CARGO_UNSTABLE_BUILD_STD_FEATURES=optimize_for_size
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zfmt-debug=none -Zlocation-detail=none --cfg erase_components"
apps=(hello form chart)
cargo build --release --target wasm32-unknown-unknown --locked "${apps[@]/#/--bin=}" >&2
out="$CARGO_TARGET_DIR/out"
# gzip as the size budget counts it (tests/sizes.mjs): the zopfli copy the
# release build ships (scripts/build/precompress.mjs).
gz() { stat -c %s "$1.gz"; }
printf '%-6s %10s %10s %10s %12s\n' app 'wasm raw' 'wasm gzip' 'js gzip' 'total gzip'
for app in "${apps[@]}"; do
  d="$out/$app"
  rm -rf "$d" && mkdir -p "$d"
  wasm-bindgen --target web --no-typescript --out-name "$app" --out-dir "$d" \
    "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/$app.wasm"
  wasm-opt -O2 --low-memory-unused --strip-producers "$d/${app}_bg.wasm" -o "$d/${app}_bg.wasm"
  node "$root/scripts/build/gzip-order.mjs" "$d/${app}_bg.wasm" "$d/${app}_bg.wasm"
  terser "$d/$app.js" --module --compress --mangle --output "$d/$app.js"
  node "$root/scripts/build/precompress.mjs" "$d"
  w=$(gz "$d/${app}_bg.wasm")
  j=$(gz "$d/$app.js")
  awk -v a="$app" -v r="$(stat -c %s "$d/${app}_bg.wasm")" -v w="$w" -v j="$j" \
    'BEGIN { printf "%-6s %10d %10d %10d %8.1f KB\n", a, r, w, j, (w + j) / 1024 }'
done
