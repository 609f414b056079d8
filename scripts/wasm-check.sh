#!/usr/bin/env bash
# Builds sleuth-core for wasm32-unknown-unknown, so that it stays true that
# the core does no IO, starts no threads and takes no OS random source
# (seeds are passed in): the browser app needs exactly that.
#
# The rustup toolchain of our CI machine has no wasm32 standard library and
# cannot download one, so this builds the standard library from source with
# Debian's packages: rustc-web and cargo-web (Rust 1.85), rust-web-src (the standard library's source) and lld-16
# (wasm-ld). RUSTC_BOOTSTRAP=1 allows -Zbuild-std on that stable compiler.
# With rustup and a network, `rustup target add wasm32-unknown-unknown` and
# `cargo build --target wasm32-unknown-unknown -p sleuth-core` do the same.
#
# The first build of the standard library takes minutes; it goes to its own
# target directory (CARGO_TARGET_DIR, default target/wasm-check).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/cargo ] || [ ! -d /usr/lib/rustlib/src/rust ] || ! command -v wasm-ld-16 >/dev/null 2>&1; then
    echo "error: needs Debian's rustc-web cargo-web rust-web-src lld-16 (apt-get install -y rustc-web cargo-web rust-web-src lld-16)" >&2
    exit 1
fi

export PATH="/usr/bin:$PATH"
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-16
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/wasm-check}"

cargo --version
rustc --version
# The workspace's rust-version (1.88) is what the locked dev-dependencies
# (proptest) need; sleuth-core itself builds with Debian's 1.85.
cargo build --ignore-rust-version --release -Zbuild-std=std,panic_abort --target wasm32-unknown-unknown -p sleuth-core
echo "sleuth-core builds for wasm32-unknown-unknown"
