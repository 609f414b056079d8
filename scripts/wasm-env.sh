# Sourced by the WebAssembly builds (crates/sleuth-wasm/build.sh): sets up
# `cargo` to build for wasm32-unknown-unknown, and WASM_CARGO_FLAGS.
#
# Where rustup has the target (`rustup target add wasm32-unknown-unknown`,
# an ordinary developer machine), that toolchain builds it as it is.
#
# Our CI machine's rustup toolchain has no wasm32 standard library and cannot
# download one. It builds the standard library from source with Debian's
# packages instead: rustc-web and cargo-web (a Rust at least the workspace's
# rust-version), rust-web-src (the standard library's source) and lld-16
# (wasm-ld). RUSTC_BOOTSTRAP=1 allows -Zbuild-std on that stable compiler.
# This is a build-time workaround only: the .wasm is the same kind of file,
# and the first build of the standard library takes minutes.

# Without debug information: the release profile keeps it for native
# profiling, and it would make the .wasm several times larger.
export CARGO_PROFILE_RELEASE_DEBUG=0

if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    WASM_CARGO_FLAGS=""
else
    if [ ! -x /usr/bin/cargo ] || [ ! -d /usr/lib/rustlib/src/rust ] || ! command -v wasm-ld-16 >/dev/null 2>&1; then
        echo "error: building for wasm32 needs either rustup's wasm32-unknown-unknown target or Debian's rustc-web cargo-web rust-web-src lld-16 (apt-get install -y rustc-web cargo-web rust-web-src lld-16)" >&2
        exit 1
    fi
    export PATH="/usr/bin:$PATH"
    export RUSTC_BOOTSTRAP=1
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-16
    # The workspace's rust-version (1.88) is what the locked dev-dependencies
    # (proptest) need; the engine itself builds with Debian's 1.85.
    WASM_CARGO_FLAGS="--ignore-rust-version -Zbuild-std=std,panic_abort"
fi
