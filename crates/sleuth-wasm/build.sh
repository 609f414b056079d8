#!/usr/bin/env bash
# Builds Sleuth's engine for WebAssembly into OUT_DIR: sleuth.wasm and its
# loader sleuth.mjs (see the README, "The engine in WebAssembly"), and
# around them the whole offline app for any static HTTPS host (the README,
# "The offline app"): the notepad page of `sleuth serve` with its local
# backend (app/), web manifest, icons and service worker.
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

# The offline app: sleuth-web's page (one UI for both backends), told by a
# <meta> to use the local backend, with the manifest and icons in its head.
web=crates/sleuth-web/assets
app=crates/sleuth-wasm/app
app_files="local.mjs store.mjs engine.mjs worker.mjs manifest.webmanifest icon.svg icon-192.png icon-512.png icon-maskable-512.png"
cp "$web/app.js" "$web/style.css" "$out/"
for f in $app_files; do cp "$app/$f" "$out/"; done
# They go right after <meta charset>, before anything the policy governs.
anchor='<meta charset="utf-8">'
if [ "$(grep -c "$anchor" "$web/index.html")" != 1 ]; then
    echo "error: $web/index.html must have one $anchor line for the offline app's tags" >&2
    exit 1
fi
# The content security policy of `sleuth serve`'s page, allowing WebAssembly.
csp="default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; object-src 'none'; base-uri 'none'"
head="$anchor"'\
<meta http-equiv="Content-Security-Policy" content="'"$csp"'">\
<meta name="sleuth-backend" content="local">\
<meta name="theme-color" content="#222a3a">\
<link rel="manifest" href="manifest.webmanifest">\
<link rel="icon" href="icon.svg" type="image/svg+xml">\
<link rel="apple-touch-icon" href="icon-192.png">'
sed "s|$anchor|$head|" "$web/index.html" >"$out/index.html"
# The service worker caches every file under a name made from their hash,
# so that any change to any file makes a new version.
files="index.html app.js style.css $app_files sleuth.wasm sleuth.mjs"
# shellcheck disable=SC2086 # a list of file names
version=$( (cd "$out" && cat $files && cat "$root/$app/sw.js") | sha256sum | cut -c1-16)
sed -e "s|@VERSION@|$version|" -e "s|@FILES@|./ $files|" "$app/sw.js" >"$out/sw.js.tmp"
mv "$out/sw.js.tmp" "$out/sw.js"
echo "built the offline app in $out (version $version): host the folder over HTTPS and open it"
