#!/usr/bin/env bash
# Builds the app's wasm as a main module and chunks and puts them into Trunk's staging
# directory. Trunk runs this as its post_build hook (Trunk.toml), for
# `trunk build` and for every rebuild of `trunk serve`; it is not meant to be
# run by hand.
#
# Why not Trunk's own Rust pipeline: the page loads the calculator first, and
# the quiz, the Learn page, the chip comparison, the measurements panel, the
# SVG export and the link reader and writer only when they are used
# (src/components/quiz_loader.rs, learn_loader.rs, compare_panel.rs,
# measure_panel.rs, src/svg_export.rs, src/link.rs). The
# code that only one of them reaches is moved into its own wasm by
# wasm-split-cli, and
# that has to happen between the link and wasm-bindgen, where Trunk has no
# step. So this script does what Trunk's pipeline did, plus the split:
#
#   cargo build (linked with --emit-relocs, which wasm-split-cli needs, by
#     scripts/build/link-wasm.sh: rust-lld without wasm-streams' unused exports)
#   -> wasm-split-cli: main module + split_quiz.wasm + split_learn.wasm
#      + split_compare.wasm + split_measure.wasm + split_link.wasm
#      + split_svg.wasm (+ chunk_<n>.wasm, code two of them use)
#      + __wasm_split.js (the loader)
#   -> wasm-bindgen --target web on the main module (--keep-lld-exports: the
#      chunks import the main module's memory, table and shared functions)
#   -> scripts/build/drop-stream-classes.mjs: wasm-streams' classes out of the
#      glue (their exports are not in the wasm)
#   -> scripts/build/short-names.mjs: short names for the imports and exports
#      between the main module and its glue (about -5 KB gzip)
#   -> wasm-opt -O2 on each wasm, its functions ordered for gzip
#      (scripts/build/gzip-order.mjs), terser on the JS (release)
#   -> copied to <staging>/app-<hash>/, hash of the content (a new build never
#      reuses a cached file), and index.html pointed at that folder.
#   -> scripts/build/offline.mjs: the manifest and icons (web/), and sw.js,
#      the service worker that caches every file of this build.
#
# The release flags (std built for size and so on) come from the environment
# that scripts/trunk-release.sh sets up for Trunk, which hooks inherit.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

stage="${TRUNK_STAGING_DIR:?Trunk runs this script (Trunk.toml hook); build with scripts/trunk-release.sh}"
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
# rust-lld without wasm-streams' unused class exports (see the script).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$PWD/scripts/build/link-wasm.sh"
say "cargo build ($profile)"
cargo build --target wasm32-unknown-unknown --bin roofline-lab --locked "${profile_flag[@]}"

rm -rf "$work"
mkdir -p "$work/split" "$work/pkg"
say "wasm-split-cli: calculator, quiz, learn, compare, measure, link and svg chunks"
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
# link-wasm.sh left wasm-streams' class exports out of the link; a glue that
# imports one of their constructors would call exports that are not there.
if grep -q 'new_with_into_underlying' "$work/pkg/roofline-lab.js"; then
  say "the app now builds a wasm-streams stream: drop the export filter in scripts/build/link-wasm.sh"
  exit 1
fi
# Their classes are still written into the glue: dead code, dropped.
node scripts/build/drop-stream-classes.mjs "$work/pkg/roofline-lab.js"
cp "$work/split/__wasm_split.js" "${chunks[@]}" "$work/pkg/"
# The page's side of offline use (registers sw.js once the page has drawn),
# in the build's folder so that each build has its own.
cp web/offline.js "$work/pkg/"
# The files the link, quiz and learn chunks' loaders fetch, for index.html's preloads.
link_files=$(node scripts/build/chunk-deps.mjs "$work/split" link)
quiz_files=$(node scripts/build/chunk-deps.mjs "$work/split" quiz)
learn_files=$(node scripts/build/chunk-deps.mjs "$work/split" learn)
say "short import and export names"
node scripts/build/short-names.mjs "$work/pkg" roofline-lab

# With names, for the bench's code-by-crate table (bench/wasm-code.mjs).
mkdir -p "$work/named"
cp "$work/pkg"/*.wasm "$work/named/"

if [ "$profile" = release ]; then
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
for p in '{link-files}' '{quiz-files}' '{learn-files}'; do
  grep -q "$p" "$stage/index.html" || { say "index.html has no $p placeholder"; exit 1; }
done
sed -i -e "s#{app}#./$dir#g" -e "s#{link-files}#$link_files#" -e "s#{quiz-files}#$quiz_files#" \
  -e "s#{learn-files}#$learn_files#" \
  -e 's#<link[^>]*data-trunk-skip[^>]*>##' "$stage/index.html"
# Offline: the manifest, the icons, and sw.js with this build's file list.
node scripts/build/offline.mjs "$stage" "$dir"
if [ "$profile" = release ]; then
  # The page's inline scripts, minified (Trunk keeps their text as it is).
  node scripts/build/inline-js.mjs "$stage/index.html"
  # gzip copies next to each file, for hosts that serve them as they are
  # (zopfli: about 5% smaller than gzip -9; the size budget counts these).
  say "gzip copies (zopfli)"
  node scripts/build/precompress.mjs "$stage"
fi
say "wrote $dir/"
