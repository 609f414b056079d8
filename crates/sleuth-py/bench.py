"""Benchmarks of the Python package (figures in BENCHMARKS.md).

    python crates/sleuth-py/bench.py [--seconds 3]

analyze: calls per second on the sample game (testdata/seed-sat-sample.json)
from one Python thread, best of five timed rounds; analyze_many: games per
second on 2,000 generated six-player games with 1, 2, ... threads, and how many
cores were busy at once (processor time / wall time: on a shared machine the
rate cannot scale past the cores the others leave).
"""

import argparse
import os
import time
from pathlib import Path

import sleuth

REPO = Path(__file__).resolve().parents[2]


def rate(call, seconds):
    """Calls per second of `call`, best of five rounds of about `seconds` / 5."""
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < 0.2:
        call()
        n += 1
    per_round = max(1, int(n / (time.perf_counter() - start) * seconds / 5))
    best = 0.0
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(per_round):
            call()
        best = max(best, per_round / (time.perf_counter() - start))
    return best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    game = sleuth.Game.from_file(REPO / "testdata" / "seed-sat-sample.json")
    print(f"analyze, sample game: {rate(lambda: sleuth.analyze(game), args.seconds):,.0f} per second")
    games = [sleuth.generate(seed, players=6, suggestions=seed % 40) for seed in range(2000)]
    for threads in range(1, (os.cpu_count() or 1) + 1):
        start, cpu = time.perf_counter(), time.process_time()
        sleuth.analyze_many(games, threads=threads)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        # Processor time over wall time: the cores busy at once (1 when the threads took turns).
        print(f"analyze_many, 2,000 games, {threads} thread(s): {len(games) / wall:,.0f} games per second, "
              f"{cpu / wall:.2f} cores busy")


if __name__ == "__main__":
    main()
