#!/usr/bin/env bash
# Installs whatever Roofline Lab needs that this machine lacks, and skips what
# is already there. Safe to run again and again. Tools come only from package
# registries (crates, npm, Debian) and rustup: nothing is downloaded from
# elsewhere, so Trunk runs offline (see Trunk.toml).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[setup] missing:\033[0m %s\n' "$*" >&2; exit 1; }

TRUNK_VERSION=0.21.14

# --quick: only what `scripts/check.sh --quick` needs (Rust with its wasm
# target and components, node): no build tools, browser or npm packages.
quick=false
[ "${1:-}" = "--quick" ] && quick=true

# 1. Rust: the toolchain pinned in rust-toolchain.toml, with the wasm target.
command -v rustup >/dev/null || fail "rustup (install Rust 1.95 with rustup first)"
command -v cargo >/dev/null || fail "cargo (install Rust 1.95 with rustup first)"
toolchain=$(sed -n 's/^channel *= *"\(.*\)"/\1/p' rust-toolchain.toml)
if rustup toolchain list | grep -q "^$toolchain"; then
  say "Rust $toolchain present"
else
  say "installing Rust $toolchain"
  rustup toolchain install "$toolchain" --profile minimal -c rustfmt -c clippy -c rust-src -t wasm32-unknown-unknown \
    || fail "Rust toolchain $toolchain (rustup could not install it)"
fi
if rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
  say "wasm32-unknown-unknown target present"
else
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || fail "wasm32-unknown-unknown target"
fi
for comp in rustfmt clippy rust-src; do
  if ! rustup component list --installed | grep -q "^$comp"; then
    say "adding $comp"
    rustup component add "$comp" || fail "$comp"
  fi
done

# The release build compiles std from rust-src (scripts/build.sh), and
# Trunk builds offline: fetch std's own crates now. Quick when they are cached.
sysroot=$(rustc --print sysroot)
if RUSTC_BOOTSTRAP=1 cargo fetch --locked --quiet \
    --manifest-path "$sysroot/lib/rustlib/src/rust/library/Cargo.toml"; then
  say "std sources and their crates present"
else
  fail "the crates std is built from (cargo fetch of rust-src's library workspace)"
fi

if $quick; then
  command -v node >/dev/null || fail "node (Node 20)"
  say "ready for the quick check"
  exit 0
fi

# The three tools below are compiled from crates (no registry ships them
# built). They are built for this machine's jobs, not for speed: no LTO
# (Trunk's own profile asks for fat LTO and one codegen unit), many codegen
# units and opt-level 1, in one target folder so that the crates they share
# are compiled once. They still run each of their jobs in well under a
# second; the first setup takes about half as long.
tools_target="$PWD/target/tools"
install_tool() {
  CARGO_TARGET_DIR="$tools_target" \
  CARGO_PROFILE_RELEASE_LTO=false \
  CARGO_PROFILE_RELEASE_CODEGEN_UNITS=64 \
  CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
  CARGO_PROFILE_RELEASE_DEBUG=false \
  CARGO_PROFILE_RELEASE_INCREMENTAL=false \
    cargo install "$@"
}

# 2. Trunk, pinned: 0.22 needs a newer rustc than this machine has.
if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
  say "trunk $TRUNK_VERSION present"
else
  say "building trunk $TRUNK_VERSION from crates (a few minutes on 2 cores)"
  install_tool trunk --version "$TRUNK_VERSION" --locked || fail "trunk $TRUNK_VERSION (cargo install failed)"
fi

# 3. wasm-bindgen CLI, exactly the version in Cargo.lock (the generated JS
#    must match the wasm-bindgen crate the app links). Without --locked: the locked tree needs a crate the registry lacks.
bindgen=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$bindgen" ] || fail "wasm-bindgen in Cargo.lock (run cargo generate-lockfile)"
if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $bindgen" ] \
  && [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" = "wasm-bindgen-test-runner $bindgen" ]; then
  say "wasm-bindgen $bindgen present"
else
  say "building wasm-bindgen-cli $bindgen (a few minutes)"
  install_tool wasm-bindgen-cli --version "$bindgen" --force || fail "wasm-bindgen-cli $bindgen"
fi

# 3b. wasm-split-cli, pinned: scripts/build/build-wasm.sh uses it to move the quiz
#     into its own wasm chunk (the page loads it when the quiz is opened).
SPLIT_VERSION=0.2.4
if command -v wasm-split-cli >/dev/null \
  && cargo install --list | grep -q "^wasm_split_cli_support v$SPLIT_VERSION:"; then
  say "wasm-split-cli $SPLIT_VERSION present"
else
  say "building wasm-split-cli $SPLIT_VERSION (a few minutes)"
  install_tool wasm_split_cli_support --version "$SPLIT_VERSION" --features build-binary --locked \
    || fail "wasm-split-cli $SPLIT_VERSION (cargo install wasm_split_cli_support failed)"
fi

# 4. Chromium and its driver from Debian (never a browser download).
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  say "chromium and chromedriver present"
else
  say "installing Debian chromium and chromium-driver"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq || fail "apt-get update"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver \
    || fail "chromium and chromium-driver (apt-get install failed)"
fi

# 5. npm packages from the lockfile: playwright-core, axe-core, binaryen 132,
#    terser (minifies the JS glue in release builds), @gfx/zopfli (the
#    release build's gzip copies, scripts/build/precompress.mjs).
command -v npm >/dev/null || fail "node and npm (Node 20)"
npm_current() {
  node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")).packages;
    for (const [path, meta] of Object.entries(lock)) {
      if (!path) continue;
      try {
        const got = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version;
        if (got !== meta.version) process.exit(1);
      } catch { process.exit(1); }
    }'
}
if npm_current; then
  say "npm packages present"
else
  say "installing npm packages from package-lock.json"
  npm ci --no-audit --no-fund --loglevel=error || fail "npm packages (npm ci failed)"
fi
[ "$(wasm-opt --version 2>/dev/null | awk '{print $3}')" = "132" ] || fail "wasm-opt 132 (npm binaryen@132)"

say "ready"
