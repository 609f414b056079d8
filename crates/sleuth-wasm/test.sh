#!/usr/bin/env bash
# Checks OUT_DIR/sleuth.mjs (from build.sh) under Node against the command
# line: the testdata corpus, refused game files and generated games, every
# answer the same text (tests/compare.mjs); and the offline app's game
# history against a model of the server's (tests/store.mjs).
#   crates/sleuth-wasm/test.sh OUT_DIR
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 OUT_DIR" >&2
    exit 2
fi
out="$(cd "$1" && pwd)"
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "error: needs Node 20 (node)" >&2; exit 1; }

cargo build -p sleuth-cli
sleuth=target/debug/sleuth
games="$(mktemp -d)"
trap 'rm -rf "$games"' EXIT

# Refused files: the engine must give the command line's message.
printf '{"version": 1, "deck": "classic"' >"$games/bad-json.json"
printf '{"version": 2, "deck": "classic", "players": ["a", "b", "c"], "events": []}' >"$games/bad-version.json"
printf '{"version": 1, "deck": "classic", "players": ["a", "b", "c"], "me": "a", "hand": ["mu", "zz"], "events": []}' >"$games/bad-card.json"
# Generated games: classic and master, observer and bystander, some
# corrupted (inconsistent), with face-up cards and accusations.
for seed in 1 2 3 4; do
    "$sleuth" generate --seed "$seed" --players $((3 + seed)) --suggestions $((6 * seed)) >"$games/classic-$seed.json"
    "$sleuth" generate --seed "$seed" --players 4 --bystander --face-up 2 --accusation-rate 0.1 >"$games/bystander-$seed.json"
done
"$sleuth" generate --seed 5 --deck master --players 10 --suggestions 25 >"$games/master-10.json"
"$sleuth" generate --seed 6 --players 5 --corrupt >"$games/corrupt-6.json"
"$sleuth" generate --seed 7 --deck 3,3,4 --players 3 --hand-sizes >"$games/custom-7.json"

node crates/sleuth-wasm/tests/compare.mjs "$out" "$sleuth" testdata/*.json testdata/corpus/*.json "$games"/*.json
node crates/sleuth-wasm/tests/store.mjs
