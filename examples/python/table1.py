"""Table 1 of Neller and Luo (2018) from Python: the exact probabilities
(b) of their ten-suggestion game against Algorithms 1 (c) and 2 (d).

    python examples/python/table1.py [--iterations 100000] [--seeds 20] [--out table1.png]

Prints (b), (c) and (d) at seed 0 in percent (pandas), each algorithm's
RMSD from the exact table over the seeds (the paper's error measure), and
saves a figure: the exact probabilities beside each algorithm's error.
`sleuth experiment table1` prints the same tables from the command line.
"""

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # a file, not a window
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import sleuth  # noqa: E402

GAME = Path(__file__).resolve().parents[2] / "testdata" / "seeds" / "neller-luo-table1.json"


def frame(table, game):
    return pd.DataFrame(100 * table, index=game.cards, columns=game.places).round(1)


def rmsd(estimate, exact):
    return float(np.sqrt(np.mean((estimate - exact) ** 2)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000, help="WalkSAT steps per run (the paper's 100,000)")
    parser.add_argument("--seeds", type=int, default=20, help="runs of each algorithm (seeds 0..N-1)")
    parser.add_argument("--out", default="table1.png", help="the figure's file")
    args = parser.parse_args()

    game = sleuth.Game.from_file(GAME)
    a = sleuth.analyze(game)
    exact = a.to_numpy()
    print(f"{a.models} consistent deals (exact)\n")
    print("(b) exact, %\n", frame(exact, game).to_string(), "\n", sep="")

    errors, first = {}, {}
    for label, method in (("(c) Algorithm 1", "alg1"), ("(d) Algorithm 2", "alg2")):
        runs = [sleuth.estimate(game, args.iterations, method=method, seed=s) for s in range(args.seeds)]
        print(f"{label}, seed 0, %\n{frame(runs[0], game).to_string()}\n")
        errors[method] = [rmsd(r, exact) for r in runs]
        first[method] = runs[0]

    summary = pd.DataFrame(errors).describe().loc[["mean", "std", "min", "max"]]
    print(f"RMSD from the exact table over {args.seeds} seeds, {args.iterations} iterations each:")
    print(summary.round(4).to_string())

    fig, axes = plt.subplots(1, 3, figsize=(13, 7), sharey=True)
    panels = [("(b) exact", exact, "viridis", (0, 1))]
    for method, label in (("alg1", "(c) Algorithm 1 - exact"), ("alg2", "(d) Algorithm 2 - exact")):
        panels.append((label + ", seed 0", first[method] - exact, "coolwarm", (-0.2, 0.2)))
    for ax, (title, values, cmap, (lo, hi)) in zip(axes, panels):
        image = ax.imshow(values, cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
        ax.set_title(title)
        ax.set_xticks(range(len(game.places)), [p.replace("case_file", "case") for p in game.places])
        ax.set_yticks(range(len(game.cards)), game.cards)
        fig.colorbar(image, ax=ax, shrink=0.6)
    fig.suptitle(f"Neller and Luo's Table 1: {a.models} deals; {args.iterations} WalkSAT iterations")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"\nfigure: {args.out}")


if __name__ == "__main__":
    main()
