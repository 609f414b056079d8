#!/usr/bin/env bash
# Builds Sleuth's engine for WebAssembly into OUT_DIR: sleuth.wasm and its
# loader sleuth.mjs (see the README, "The engine in WebAssembly").
#   crates/sleuth-wasm/build.sh OUT_DIR
# The build goes to its own target directory (CARGO_TARGET_DIR, default
# target/wasm); see scripts/wasm-env.sh for the two ways it finds a wasm32
# standard library.
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
out=$1
root="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"

# shellcheck source=../../scripts/wasm-env.sh
. scripts/wasm-env.sh
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/wasm}"

cargo --version
# shellcheck disable=SC2086 # WASM_CARGO_FLAGS is empty or a few flags, split on purpose
cargo build --release $WASM_CARGO_FLAGS --target wasm32-unknown-unknown -p sleuth-wasm
cp "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/sleuth_wasm.wasm" "$out/sleuth.wasm.tmp"
mv "$out/sleuth.wasm.tmp" "$out/sleuth.wasm"
cp crates/sleuth-wasm/sleuth.mjs "$out/sleuth.mjs"
echo "built $out/sleuth.wasm ($(wc -c <"$out/sleuth.wasm") bytes) and $out/sleuth.mjs"
