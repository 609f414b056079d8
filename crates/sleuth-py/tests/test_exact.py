"""Exact counts and fractions against the `sleuth` program's JSON and
against the brute-force enumerator of brute.py."""

from fractions import Fraction
from itertools import combinations

import pytest

import brute
import sleuth


def corpus(repo):
    files = sorted((repo / "testdata" / "corpus").glob("*.json")) + [repo / "testdata" / "seed-sat-sample.json"]
    assert len(files) > 10
    return files


def test_analysis_is_the_cli_json_contract(repo, cli_json):
    for path in corpus(repo):
        a = sleuth.analyze(sleuth.Game.from_file(path))
        expected = cli_json("analyze", "--json", path)
        assert a.to_dict() == expected, path
        models = int(expected["models"])
        assert a.models == models and isinstance(a.models, int)
        assert a.consistent == expected["consistent"]
        assert a.places == expected["places"] and a.cards == list(expected["probabilities"])
        for card, row in expected["models_by_place"].items():
            for place, count in row.items():
                assert a.count(card, place) == int(count)
                assert a.fraction(card, place) == (Fraction(int(count), models) if models else 0)
                assert a.probability(card, place) == expected["probabilities"][card][place]
                assert a.status(card, place) == expected["status"][card][place]
        assert a.counts() == [[int(expected["models_by_place"][c][p]) for p in a.places] for c in a.cards]
        table = a.to_numpy()
        assert table.shape == (len(a.cards), len(a.places)) and str(table.dtype) == "float64"
        for i, card in enumerate(a.cards):
            for j, place in enumerate(a.places):
                assert table[i, j] == expected["probabilities"][card][place]
        if a.consistent:
            assert [(list(cards), p) for cards, p in a.case_files()] == [
                (c["cards"], Fraction(int(c["models"]), models)) for c in expected["case_file"]
            ]
            assert a.conflict is None
        else:
            assert list(a.conflict.events) == expected["conflict"]
            assert a.conflict.hand == expected["conflict_hand"]


def test_why_is_the_cli_s(repo, cli_json):
    path = repo / "testdata" / "seed-sat-sample.json"
    game = sleuth.Game.from_file(path)
    a = sleuth.analyze(game)
    checked = 0
    for card in a.cards[:8]:
        for place in a.places:
            expected = cli_json("why", "--json", path, card, place)
            got = sleuth.why(game, card, place)
            if expected["reason"] is None:
                assert got is None
            else:
                checked += 1
                assert (got.events, got.hand, got.minimum) == (
                    expected["reason"]["events"],
                    expected["reason"]["hand"],
                    expected["reason"]["minimum"],
                )
    assert checked > 5


def small_games():
    """Generated games on decks small enough to enumerate, in every
    variety the generator has: observer and bystander, face-up cards,
    accusations, explicit hand sizes."""
    for seed in range(12):
        deck = [[3, 3, 3], [2, 3, 3], [3, 3, 4], [2, 2, 3, 2]][seed % 4]
        players = 3 + seed % 2
        yield sleuth.generate(
            seed,
            deck=deck,
            players=players,
            suggestions=2 + seed % 5,
            bystander=seed % 3 == 0,
            face_up=seed % 2,
            accusation_rate=0.3 if seed % 4 == 1 else 0.0,
            hand_sizes=seed % 5 == 0,
        )


def check_against_brute_force(game):
    a = sleuth.analyze(game)
    total, cells = brute.marginals(game.to_dict())
    assert a.models == total
    assert a.consistent == (total > 0)
    for card in a.cards:
        for place in a.places:
            assert a.count(card, place) == cells[(card, place)], (card, place)
            assert a.fraction(card, place) == brute.fraction(total, cells, card, place)
    return a


def test_fractions_are_brute_force_s_on_small_games():
    consistent = 0
    for game in small_games():
        consistent += check_against_brute_force(game).consistent
    assert consistent >= 8


def test_case_files_are_brute_force_s():
    for game in small_games():
        a = sleuth.analyze(game)
        if not a.consistent:
            continue
        deals = list(brute.deals(game.to_dict()))
        seen = {}
        for deal in deals:
            case = tuple(c for c in a.cards if deal.get(c) == "case_file")
            seen[case] = seen.get(case, 0) + 1
        got = a.case_files()
        assert {cards: p for cards, p in got} == {k: Fraction(v, len(deals)) for k, v in seen.items()}
        assert [p for _, p in got] == sorted((p for _, p in got), reverse=True)


def test_built_games_are_brute_force_s():
    game = sleuth.Game.new(deck=[["a", "b"], ["x", "y", "z"], ["p", "q"]], players=["u", "v", "w"], me="u", hand=["b", "z"])
    game = game.suggest("u", ["a", "x", "p"], refuted_by="w", shown="x")
    game = game.suggest("v", ["a", "y", "q"], refuted_by=None)
    game = game.accuse("w", ["b", "z", "p"], False)
    assert len(game.events) == 3
    check_against_brute_force(game)


def smaller(n, reason):
    """Every set of events and hand flag that a smallest `reason` beats,
    whether smallest counts events or items (events and the hand): fewer
    events and fewer items."""
    for k in range(len(reason.events)):
        for hand in (False, True):
            if k + hand < len(reason.events) + reason.hand:
                yield from ((s, hand) for s in combinations(range(n), k))


def one_fewer(reason):
    """The sets with one item of `reason` dropped."""
    for e in reason.events:
        yield [x for x in reason.events if x != e], reason.hand
    if reason.hand:
        yield reason.events, False


def test_conflicts_cannot_all_hold_and_are_smallest():
    checked = 0
    for seed in range(40):
        game = sleuth.generate(seed, deck=[3, 3, 3], players=3, suggestions=5, corrupt=True)
        a = sleuth.analyze(game)
        file = game.to_dict()
        if a.consistent:
            assert a.conflict is None
            continue
        checked += 1
        holds = lambda events, hand: next(brute.deals(file, events, hand), None) is not None  # noqa: E731
        assert not holds(a.conflict.events, a.conflict.hand)
        assert all(holds(*s) for s in one_fewer(a.conflict))
        if a.conflict.minimum:
            assert all(holds(*s) for s in smaller(len(file["events"]), a.conflict))
    assert checked >= 5


def test_why_forces_the_fact_and_nothing_smaller_does():
    checked = 0
    for game in small_games():
        a = sleuth.analyze(game)
        if not a.consistent:
            assert sleuth.why(game, a.cards[0], "case_file") is None
            continue
        file = game.to_dict()
        for card in a.cards:
            for place in a.places:
                reason = sleuth.why(game, card, place)
                if a.status(card, place) == "maybe":
                    assert reason is None
                    continue
                checked += 1
                want = a.status(card, place) == "yes"
                forces = lambda events, hand: all(  # noqa: E731
                    (d.get(card) == place) == want for d in brute.deals(file, events, hand)
                )
                assert forces(reason.events, reason.hand), (card, place, reason)
                assert not any(forces(*s) for s in one_fewer(reason)), (card, place, reason)
                if reason.minimum:
                    assert not any(forces(*s) for s in smaller(len(file["events"]), reason)), (card, place, reason)
    assert checked > 50
