#!/usr/bin/env bash
# Builds the app's wasm as a main module and chunks and puts them into
# Trunk's staging directory. Trunk runs this as its post_build hook
# (Trunk.toml) for every build and rebuild; build with scripts/build.sh.
#
# Why not Trunk's own Rust pipeline: the page loads the calculator first,
# and each folder of src/chunks/ (a row of src/chunks/chunks.json) only
# when it is used. The code only one chunk's `#[wasm_split]` functions reach
# is moved into its own wasm by wasm-split-cli, between the link and
# wasm-bindgen, where Trunk has no step. So this script does what Trunk's
# pipeline did, plus the split (docs/build.md §2 says what each step saves):
#
#   cargo build, linked with --emit-relocs (which wasm-split-cli needs)
#   -> wasm-split-cli: the main module, split_NAME.wasm per chunk,
#      chunk_<n>.wasm for code two chunks share, and __wasm_split.js
#   -> wasm-bindgen --target web on the main module
#   -> copied to <staging>/app-<hash>/ (a new build never reuses a cached
#      file), index.html pointed at it, with the files each preloaded chunk
#      needs; the manifest, icons and sw.js (scripts/build/offline.mjs)
#
# The release build (not ROOFLINE_PLAIN) adds size steps that leave the
# shape of what wasm-bindgen and Leptos generate alone: wasm-opt -O2 with
# --low-memory-unused and functions in gzip's order (gzip-order.mjs),
# terser on the JS, the page's inline scripts minified (inline-js.mjs),
# zopfli gzip copies (precompress.mjs). No step rewrites generated code
# (issue #47 dropped the three that did: docs/build.md §2.1), so a
# wasm-bindgen upgrade is a version change.
# A plain build (scripts/build.sh --plain) runs wasm-opt -Oz as it comes
# and none of these: it works the same, only bigger.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

stage="${TRUNK_STAGING_DIR:?Trunk runs this script (Trunk.toml hook); build with scripts/build.sh}"
plain="${ROOFLINE_PLAIN:-0}"
profile="${TRUNK_PROFILE:-release}"
target_dir="${CARGO_TARGET_DIR:-target}"
work="$target_dir/split/$profile"

say() { printf '\033[1m[build-wasm]\033[0m %s\n' "$*" >&2; }

# One build at a time: a hook left running by a stopped `trunk serve` would
# otherwise write into the same folders as the next one.
mkdir -p "$target_dir"
exec 9>"$target_dir/build-wasm.lock"
flock 9

profile_flag=()
[ "$profile" = release ] && profile_flag=(--release)
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-} -Clink-arg=--emit-relocs"
say "cargo build ($profile)"
cargo build --target wasm32-unknown-unknown --bin roofline-lab --locked "${profile_flag[@]}"

rm -rf "$work"
mkdir -p "$work/split" "$work/pkg"
say "wasm-split-cli: the main module and the chunks"
wasm-split-cli --out-name roofline-lab \
  "$target_dir/wasm32-unknown-unknown/$profile/roofline-lab.wasm" "$work/split"
chunks=("$work/split"/split_*.wasm)
[ -e "${chunks[0]}" ] || { say "no chunk was split off: is the quiz still behind #[wasm_split]?"; exit 1; }
# Code that two split chunks need and the main module does not goes into
# shared chunk_<n>.wasm files, which the loader fetches alongside either.
shopt -s nullglob
chunks+=("$work/split"/chunk_*.wasm)
shopt -u nullglob

say "wasm-bindgen"
wasm-bindgen --target web --keep-lld-exports --no-demangle --no-typescript \
  --out-name roofline-lab --out-dir "$work/pkg" "$work/split/roofline-lab.wasm"
cp "$work/split/__wasm_split.js" "${chunks[@]}" "$work/pkg/"
# The page's side of offline use (registers sw.js once the page has drawn),
# in the build's folder so that each build has its own.
cp web/offline.js "$work/pkg/"
# The files each preloaded chunk's loader fetches (the chunk table's
# `preload` rows), for index.html: {link-files} for any link, {view-files}
# by view; and {start-files}, those of the `start` rows, which the page
# preloads a few per task after the first chart.
preloads=$(node scripts/build/chunk-deps.mjs "$work/split" src/chunks/chunks.json)
link_files=$(node -e 'process.stdout.write(JSON.parse(process.argv[1]).link ?? "")' "$preloads")
view_files=$(node -e 'process.stdout.write(JSON.stringify(JSON.parse(process.argv[1]).views))' "$preloads")
start_files=$(node -e 'process.stdout.write(JSON.parse(process.argv[1]).start ?? "")' "$preloads")

# With names, for the bench's code-by-crate table (bench/wasm-code.mjs).
mkdir -p "$work/named"
cp "$work/pkg"/*.wasm "$work/named/"

if [ "$plain" = 1 ]; then
  say "wasm-opt -Oz"
  for f in "$work/pkg"/*.wasm; do
    wasm-opt -Oz "$f" -o "$f"
  done
elif [ "$profile" = release ]; then
  say "wasm-opt -O2, functions in gzip's order, terser"
  # The two custom sections say which tools and wasm features built the
  # module; a browser does not read them (-0.3 KB gzip per file). The
  # target features go after gzip-order.mjs, whose wasm-opt reads them.
  # gzip-order.mjs lays each wasm's functions out so that gzip finds more
  # of each in the ones before it (about -4% gzip).
  # --low-memory-unused lets wasm-opt fold constant offsets into loads and
  # stores: nothing lives in the first 1 KB of memory (rust-lld puts the
  # stack first, growing down from 1 MiB to 0, and the data after it; only
  # a stack nearly 1 MiB deep would reach it). About -1.2 KB gzip.
  # -O2 rather than -Oz: its code is 7% larger raw but gzips about 1 KB
  # smaller once ordered (gzip finds more repeats in less squeezed code),
  # and runs at -O2 speed.
  for f in "$work/pkg"/*.wasm; do
    wasm-opt -O2 --low-memory-unused --strip-producers "$f" -o "$f"
    node scripts/build/gzip-order.mjs "$f" "$f"
  done
  # The JS glue, minified as Trunk minifies its own (about -2.3 KB gzip).
  for f in "$work/pkg"/*.js; do
    terser "$f" --module --compress --mangle --output "$f"
  done
fi

hash=$(cd "$work/pkg" && find . -type f | LC_ALL=C sort | xargs cat | sha256sum | cut -c1-16)
dir="app-$hash"
# Which build the named copies belong to, so the bench reads them only for
# the dist/ it measures.
echo "$dir" > "$work/named/app"
mkdir -p "$stage/$dir"
cp -r "$work/pkg"/. "$stage/$dir/"
grep -q '{app}' "$stage/index.html" || { say "index.html has no {app} placeholder"; exit 1; }
for p in '{link-files}' '{view-files}' '{start-files}'; do
  grep -q "$p" "$stage/index.html" || { say "index.html has no $p placeholder"; exit 1; }
done
sed -i -e "s#{app}#./$dir#g" -e "s#{link-files}#$link_files#" -e "s#{view-files}#$view_files#" \
  -e "s#{start-files}#$start_files#" \
  -e 's#<link[^>]*data-trunk-skip[^>]*>##' "$stage/index.html"
# The default page, written into index.html by the core and the chart crate
# (crates/roofline-prerender): a native program, built in cargo's own
# folder (where the native tests build its crates) and with none of the
# wasm build's unstable settings.
say "the default page, prerendered"
env -u CARGO_UNSTABLE_BUILD_STD -u CARGO_UNSTABLE_BUILD_STD_FEATURES -u RUSTC_BOOTSTRAP \
  CARGO_TARGET_DIR="$PWD/target" \
  cargo run --quiet --locked -p roofline-prerender -- "$stage/index.html"
# Offline: the manifest, the icons, and sw.js with this build's file list.
node scripts/build/offline.mjs "$stage" "$dir"
if [ "$profile" = release ] && [ "$plain" != 1 ]; then
  # The page's inline scripts, minified (Trunk keeps their text as it is).
  node scripts/build/inline-js.mjs "$stage/index.html"
  # gzip copies next to each file, for hosts that serve them as they are
  # (zopfli: about 5% smaller than gzip -9; the size budget counts these).
  say "gzip copies (zopfli)"
  node scripts/build/precompress.mjs "$stage"
fi
say "wrote $dir/"
