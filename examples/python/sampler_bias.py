"""How biased is a sampler? Its estimates against the exact marginals on
generated games.

    python examples/python/sampler_bias.py [--games 50] [--budget 20000] [--methods uniform alg1 alg2] [--out bias.png]

For each generated six-player classic game (seeds 0..N-1, 10 to 40
suggestions), the exact probabilities of every open card-place pair, and
each sampler's estimate at the same budget (uniform: draws; WalkSAT:
steps). Prints each sampler's RMSD and its mean signed error by bins of
the exact probability (a sampler without bias has errors around 0 in
every bin), and saves a calibration plot.
"""

import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import sleuth  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--budget", type=int, default=20_000, help="uniform draws, or WalkSAT steps")
    parser.add_argument("--methods", nargs="+", default=["uniform", "alg1", "alg2"])
    parser.add_argument("--out", default="bias.png")
    args = parser.parse_args()

    games = [sleuth.generate(seed, players=6, suggestions=10 + seed % 31) for seed in range(args.games)]
    analyses = sleuth.analyze_many(games)  # exact, on every core
    rows = []
    for seed, (game, a) in enumerate(zip(games, analyses)):
        exact = a.to_numpy()
        open_cells = (exact > 0) & (exact < 1)
        for method in args.methods:
            est = sleuth.estimate(game, args.budget, method=method, seed=seed)
            for p, q in zip(exact[open_cells], est[open_cells]):
                rows.append({"game": seed, "method": method, "exact": p, "estimate": q, "error": q - p})
    cells = pd.DataFrame(rows)
    cells["bin"] = pd.cut(cells["exact"], [0, 0.1, 0.25, 0.5, 0.75, 1.0])

    rmsd = cells.groupby("method")["error"].apply(lambda e: float(np.sqrt(np.mean(e**2))))
    print(f"{args.games} games, {len(cells) // len(args.methods)} open cells, budget {args.budget}")
    print("\nRMSD over open cells:\n" + rmsd.round(4).to_string())
    bias = cells.pivot_table(index="bin", columns="method", values="error", aggfunc="mean", observed=True)
    print("\nmean signed error (estimate - exact) by exact probability:\n" + bias.round(4).to_string())

    fig, ax = plt.subplots(figsize=(6, 6))
    for method, group in cells.groupby("method"):
        ax.scatter(group["exact"], group["estimate"], s=4, alpha=0.4, label=method)
    ax.plot([0, 1], [0, 1], color="black", linewidth=1)
    ax.set_xlabel("exact probability")
    ax.set_ylabel("estimated probability")
    ax.set_title(f"Samplers against the exact marginals ({args.games} games)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"\nfigure: {args.out}")


if __name__ == "__main__":
    main()
