"""The samplers: exactly uniform (a chi-square test against the
brute-force list of deals), and the same deals and estimates as the CLI."""

import json

import numpy as np
from scipy.stats import chisquare

import brute
import sleuth


def small_game():
    game = sleuth.generate(4, deck=[3, 3, 3], players=3, suggestions=3)
    assert 20 < sleuth.analyze(game).models < 500
    return game


def test_uniform_draws_are_uniform():
    game = small_game()
    deals = list(brute.deals(game.to_dict()))
    index = {tuple(d[c] for c in game.cards): i for i, d in enumerate(deals)}
    n = 200 * len(deals)
    drawn = sleuth.sample(game, n, seed=11)
    assert drawn.shape == (n, len(game.cards)) and drawn.dtype == np.int8
    counts = frequencies(game, drawn, index)
    assert counts.min() > 0
    assert chisquare(counts).pvalue > 0.001
    # The same test tells a biased sampler: Algorithm 1's recorded deals.
    walked = sleuth.sample(game, 400_000, method="alg1", seed=11)
    assert chisquare(frequencies(game, walked, index)).pvalue < 1e-6


def frequencies(game, drawn, index):
    counts = np.zeros(len(index))
    for row in drawn:
        counts[index[tuple(game.places[p] for p in row)]] += 1  # KeyError: a deal that does not fit
    return counts


def test_walksat_draws_are_consistent_deals():
    game = small_game()
    deals = {tuple(d[c] for c in game.cards) for d in brute.deals(game.to_dict())}
    for method in ("alg1", "alg2", "a", "e"):
        drawn = sleuth.sample(game, 5000, method=method, seed=2)
        assert 0 < len(drawn) <= 5000
        assert all(tuple(game.places[p] for p in row) in deals for row in drawn)


def test_estimates_converge_to_the_exact_marginals():
    game = sleuth.generate(5, players=4, suggestions=12)
    exact = sleuth.analyze(game).to_numpy()
    uniform = sleuth.estimate(game, 40_000, seed=3)
    assert uniform.shape == exact.shape
    # 40,000 independent draws: a standard error of at most 0.0025 per cell.
    assert np.abs(uniform - exact).max() < 0.015


def test_deals_and_estimates_are_the_cli_s(repo, cli, cli_json, tmp_path):
    game = sleuth.generate(9, players=4, suggestions=10, face_up=2)
    path = tmp_path / "game.json"
    path.write_text(game.to_json())
    out = cli("sample", path, "--deals", "--samples", 30, "--seed", 5)
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    drawn = sleuth.sample(game, 30, seed=5)
    assert [{c: game.places[p] for c, p in zip(game.cards, row) if p >= 0} for row in drawn] == lines
    assert all((row[[game.cards.index(c) for c in game.face_up]] == -1).all() for row in drawn)
    for method, budget in (("uniform", ["--samples", 3000]), ("alg1", ["--iterations", 3000]), ("alg2", ["--iterations", 3000])):
        expected = cli_json("sample", path, "--json", "--method", method, "--seed", 8, *budget)
        report = sleuth.estimate_report(game, 3000, method=method, seed=8)
        assert report == expected, method
        table = sleuth.estimate(game, 3000, method=method, seed=8)
        assert table.tolist() == [[expected["probabilities"][c][p] for p in game.places] for c in game.cards]
    walk = cli("sample", path, "--deals", "--method", "alg2", "--iterations", 500, "--seed", 1)
    drawn = sleuth.sample(game, 500, method="alg2", seed=1)
    assert len(drawn) == len(walk.stdout.splitlines())
