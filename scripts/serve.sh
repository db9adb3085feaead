#!/usr/bin/env bash
# Sets up whatever is missing, then builds and serves Roofline Lab on
# 127.0.0.1 (release build; PORT=8080 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
port="${PORT:-8080}"
echo "[serve] Roofline Lab will be at http://127.0.0.1:$port/ (Ctrl-C stops it)"
exec bash scripts/build.sh serve --address 127.0.0.1 --port "$port"
