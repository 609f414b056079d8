#!/bin/sh
# Per state, the instructions of the count and of the whole analysis, under
# callgrind: count_modes_ir.sh DECK PLAYERS VIEW SUGGESTIONS SEEDS
# (build first: cargo build --release -p sleuth-testkit --features profiling --example count_modes)
set -e
dir=$(mktemp -d)
bin=${BIN:-target/release/examples/count_modes}
valgrind --tool=callgrind --callgrind-out-file="$dir/cg" \
  --dump-before='sleuth_core::count::count_marginals' --dump-after='sleuth_core::count::count_marginals' \
  --dump-before='sleuth_core::count::count_with_case_files' --dump-after='sleuth_core::count::count_with_case_files' \
  "$bin" "$@" both >/dev/null 2>&1
# Each dump holds the instructions since the previous one; the dumps after
# each function are the function's cost for one state (the dump before the
# count ends the generation of the state).
for f in $(ls "$dir" | sort -t. -k2 -n); do
  f="$dir/$f"
  grep -E '^(desc: Trigger|summary)' "$f" | tr '\n' ' '; echo
done | awk '/dump-after=.*count_marginals/ {c = $NF} /dump-after=.*count_with_case_files/ {printf "%d %d %.3f\n", c, $NF, $NF / c}'
rm -r "$dir"
