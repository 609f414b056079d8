#!/usr/bin/env python3
"""Times `sleuth advise --json` of two builds, process by process, on the same states.

Usage: scripts/advise-cpu.py OLD_SLEUTH NEW_SLEUTH STATE_FILE... [--out FILE]

OLD_SLEUTH and NEW_SLEUTH are programs, each with advise's options if any (one
argument, split as a shell would): `"target/release/sleuth --entropy-samples 1"`
times one build against itself with another option.

Per state the two builds run one after the other, twice, and each keeps the
fewer CPU seconds (user + system, from the operating system's accounting of
the finished process) of its two runs: alternating spreads a machine's slow
spells over both builds. Prints the totals, each build's median, 90th
percentile and maximum, and the per-state ratios; with --out, a line per
state (`name old_ms new_ms`). The states of BENCHMARKS.md's issue 57 figures:

    for s in $(seq 0 199); do for n in 10 20; do
      sleuth generate --deck master --players 10 --suggestions $n --seed $s > states/m_${n}_$s.json
    done; done
"""
import os
import resource
import shlex
import subprocess
import sys


def cpu_ms(sleuth, state):
    """`sleuth`: the program and its advise options, as a list."""
    program, *options = sleuth
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([program, "advise", "--json", *options, state], stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1e3 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def quantile(values, q):
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


def main(args):
    out = None
    if "--out" in args:
        at = args.index("--out")
        out = open(args[at + 1], "w")
        args = args[:at] + args[at + 2 :]
    if len(args) < 3:
        sys.exit(__doc__)
    old, new, states = shlex.split(args[0]), shlex.split(args[1]), args[2:]
    rows = []
    for i, state in enumerate(states):
        runs = [(cpu_ms(old, state), cpu_ms(new, state)) for _ in range(2)]
        row = (min(r[0] for r in runs), min(r[1] for r in runs))
        rows.append(row)
        if out:
            out.write(f"{os.path.basename(state)} {row[0]:.1f} {row[1]:.1f}\n")
            out.flush()
        print(f"\r{i + 1}/{len(states)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    olds, news = [r[0] for r in rows], [r[1] for r in rows]
    ratios = [o / n for o, n in rows]
    print(f"{len(rows)} states; CPU in all: old {sum(olds) / 1e3:.1f} s, new {sum(news) / 1e3:.1f} s, "
          f"{sum(olds) / sum(news):.2f}x")
    for name, v in (("old", olds), ("new", news)):
        print(f"{name}: median {quantile(v, 0.5):.1f} ms, p90 {quantile(v, 0.9):.1f}, max {max(v):.1f}")
    print(f"per state old/new: median {quantile(ratios, 0.5):.2f}x, least {min(ratios):.2f}x, "
          f"10x or more on {sum(r >= 10 for r in ratios)}")


if __name__ == "__main__":
    main(sys.argv[1:])
