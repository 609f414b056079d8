"""The rest of the API: building games, errors with the CLI's messages,
threads, the GIL, pickling, notebooks."""

import inspect
import json
import pickle
import signal
import threading
import time
from fractions import Fraction

import pytest

import sleuth

HAND = ["mu", "pl", "gr", "kn", "ca", "ha"]


def three_players():
    return sleuth.Game.new(players=["sc", "mu", "wh"], me="sc", hand=HAND)


def test_builder_round_trips_through_json():
    game = three_players().suggest("sc", ["pe", "ro", "ki"], refuted_by="mu", shown="ro")
    game = game.accuse("wh", ["pe", "ro", "ki"], False)
    assert len(game.events) == 2 and game.events[1] == {"accusation": {"by": "wh", "cards": ["pe", "ro", "ki"], "correct": False}}
    again = sleuth.Game.from_json(game.to_json())
    assert again == game and json.loads(game.to_json()) == game.to_dict()
    assert (game.players, game.me, game.hand, game.deck) == (["sc", "mu", "wh"], "sc", HAND, "classic")
    assert game.places == ["sc", "mu", "wh", "case_file"] and len(game.cards) == 21
    assert game.hand_sizes == {"sc": 6, "mu": 6, "wh": 6}
    assert game.describe_event(0) == "sc suggested pe, ro, ki; mu refuted and showed ro"
    assert pickle.loads(pickle.dumps(game)) == game
    # The original is unchanged: games are values.
    assert len(three_players().events) == 0


def test_signatures_read_as_python():
    assert str(inspect.signature(sleuth.Game.new)) == "(deck='classic', players=[], me=None, hand=[], hand_sizes=None, face_up=[])"
    assert "deck='classic', players=6, suggestions=20" in str(inspect.signature(sleuth.generate))
    assert str(inspect.signature(sleuth.sample)).startswith("(game, n, method='uniform', seed=0")
    assert "exactly" in sleuth.analyze.__doc__ and "Fraction" in sleuth.Analysis.fraction.__doc__


def test_decks():
    assert len(sleuth.Game.new(deck="master", players=["a", "b", "c"]).cards) == 30
    sizes = sleuth.Game.new(deck=[2, 3], players=["a", "b"])
    assert sizes.categories == [("category a", ["a0", "a1"]), ("category b", ["b0", "b1", "b2"])]
    named = sleuth.Game.new(deck={"who": ["x", "y"], "what": ["p", "q", "r"]}, players=["a", "b"], face_up=["r"])
    assert named.categories[0] == ("who", ["x", "y"]) and named.face_up == ["r"]
    assert sleuth.analyze(named).models == 2 * 2 * 2  # case file x, y / p, q; the other two split 1-1
    with pytest.raises(TypeError):
        sleuth.Game.new(deck=3, players=["a", "b"])


def test_one_third():
    a = sleuth.analyze(three_players().suggest("sc", ["pe", "ro", "ki"], refuted_by="mu", shown="ro"))
    assert a.fraction("pe", "case_file") == Fraction(1, 3)
    assert a.fraction("ro", "mu") == 1 and a.status("ro", "mu") == "yes"
    assert isinstance(a.models, int) and a.models == a.count("pe", "case_file") * 3


def test_errors_are_the_cli_s(tmp_path, cli):
    bad = {
        "not-json.json": "{",
        "no-version.json": '{"deck": "classic", "players": ["a", "b"]}',
        "unknown-card.json": json.dumps(
            {"version": 1, "deck": "classic", "players": ["a", "b", "c"],
             "events": [{"suggestion": {"by": "a", "cards": ["mu", "kn", "xx"], "refuted_by": "b"}}]}),
        "misspelt.json": '{"version": 1, "deck": "classic", "players": ["a", "b"], "handSizes": {}}',
        "not-utf8.json": b'{"version": 1, "deck": "cl\xffassic"}',
    }
    for name, text in bad.items():
        path = tmp_path / name
        (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
        out = cli("check", path)
        assert out.returncode == 2
        with pytest.raises(sleuth.GameError) as e:
            sleuth.Game.from_file(path)
        assert isinstance(e.value, ValueError)
        assert out.stderr.strip() == f"error: {e.value}"
    with pytest.raises(FileNotFoundError):
        sleuth.Game.from_file(tmp_path / "missing.json")


def test_error_messages_name_what_is_wrong():
    game = three_players()
    with pytest.raises(sleuth.GameError, match="unknown card 'zz'"):
        sleuth.analyze(game).fraction("zz", "mu")
    with pytest.raises(sleuth.GameError, match="unknown place 'nobody'; the places are sc, mu, wh, case_file"):
        sleuth.analyze(game).count("mu", "nobody")
    with pytest.raises(sleuth.GameError, match="did you mean 'kn'"):
        sleuth.why(game, "kni", "mu")
    with pytest.raises(sleuth.GameError, match="event 0: no room named"):
        game.suggest("sc", ["pe", "ro"], refuted_by="mu")
    with pytest.raises(sleuth.GameError, match="players"):
        sleuth.Game.new(players=["a"])
    with pytest.raises(sleuth.GameError, match="players: between 2 and 10"):
        sleuth.generate(1, players=11)
    with pytest.raises(sleuth.GameError, match="'me' and 'hand'"):
        sleuth.advise(game.bystander())
    with pytest.raises(ValueError, match="unknown method 'alg3'"):
        sleuth.estimate(game, 10, method="alg3")


def test_too_large_is_its_own_error():
    # 60 cards in 20 categories of 3, ten players, nothing known: far past a small state limit.
    game = sleuth.Game.new(deck=[3] * 20, players=[f"p{i}" for i in range(10)])
    with pytest.raises(sleuth.TooLargeError) as e:
        sleuth.analyze(game, max_states=1000)
    assert not isinstance(e.value, sleuth.GameError) and isinstance(e.value, sleuth.SleuthError)
    assert "method=\"alg2\"" in str(e.value)
    # WalkSAT still estimates it, from what propagation settles.
    report = sleuth.estimate_report(game, 2000, method="alg2", max_states=1000)
    assert report["models"] is None and report["samples"] > 0


def test_inconsistent_game_names_its_conflict():
    game = three_players().suggest("sc", ["pe", "ro", "ki"], refuted_by=None).accuse("mu", ["sc", "kn", "ha"], True)
    a = sleuth.analyze(game)
    assert not a.consistent and a.models == 0 and a.fraction("pe", "case_file") == 0
    assert a.conflict == ([1], True) and a.conflict.minimum
    events, hand = a.conflict
    assert (events, hand) == ([1], True)
    assert sleuth.why(game, "pe", "mu") is None
    assert "Inconsistent" in a._repr_html_()
    with pytest.raises(sleuth.GameError, match="no deal fits"):
        sleuth.sample(game, 10)


def test_analyze_many_equals_analyze(repo):
    games = [sleuth.generate(seed, players=3 + seed % 4, suggestions=seed % 30) for seed in range(40)]
    one = [sleuth.analyze(g).to_dict() for g in games]
    for threads in (None, 1, 3):
        assert [a.to_dict() for a in sleuth.analyze_many(games, threads=threads)] == one
    with pytest.raises(ValueError):
        sleuth.analyze_many(games, threads=0)
    assert sleuth.analyze_many([]) == []
    big = sleuth.Game.new(deck=[3] * 20, players=[f"p{i}" for i in range(10)])
    with pytest.raises(sleuth.TooLargeError, match=r"games\[2\]"):
        sleuth.analyze_many(games[:2] + [big], max_states=1000)


def test_the_gil_is_released_while_sampling():
    game = sleuth.generate(1, deck="master", players=4, suggestions=10)
    started = threading.Event()

    def work():
        started.set()
        sleuth.estimate(game, 3_000_000, method="alg1", seed=1)

    worker = threading.Thread(target=work)
    worker.start()
    started.wait()
    time.sleep(0.2)
    # Python code runs here while the worker is still inside the sampler.
    total = sum(range(100_000))
    assert worker.is_alive(), "the sampler finished too soon to tell; give it more steps"
    worker.join()
    assert total == 4999950000


def test_repr_html_is_the_notepad():
    a = sleuth.analyze(three_players().suggest("sc", ["pe", "ro", "ki"], refuted_by="mu", shown="ro"))
    html = a._repr_html_()
    assert html.count("<tr>") == 21 + 3 + 1  # cards, category rows, header
    assert "33.3%" in html and "✔" in html and "case file" in html
    weird = sleuth.Game.new(deck={"<b>": ["<i>", "x"]}, players=["a&b", "c"])
    assert "<i>" not in sleuth.analyze(weird)._repr_html_()


def test_advise_is_the_cli_s(repo, cli_json):
    path = repo / "testdata" / "seed-sat-sample.json"
    advice = sleuth.advise(sleuth.Game.from_file(path), seed=3)
    assert advice == cli_json("advise", "--json", "--seed", 3, path)


def test_advise_hands_on_update_the_ranking_as_it_firms_up():
    game = sleuth.generate(3, deck="master", players=6, suggestions=10)
    updates = []
    advice = sleuth.advise(game, on_update=updates.append)
    assert advice == sleuth.advise(game), "the same advice, with or without updates"
    first, last = updates[0], updates[-1]
    assert first["evaluated"] == 0 and first["suggestions"] == []
    assert first["models"] == advice["models"] and first["entropy"] == advice["entropy"]
    shortlisted = first["shortlisted"]
    assert shortlisted > 1 and [u["evaluated"] for u in updates] == list(range(shortlisted + 1))
    assert all(u["shortlisted"] == shortlisted for u in updates)
    # Each update keeps the exact numbers the final advice lists.
    assert last["suggestions"] == advice["suggestions"]


def test_advise_stops_where_on_update_raises_or_ctrl_c_is_pressed():
    game = sleuth.generate(3, deck="master", players=6, suggestions=10)

    class Enough(Exception):
        pass

    def raising(update):
        calls.append(update)
        if len(calls) == 2:
            raise Enough

    def interrupting(update):
        calls.append(update)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C: KeyboardInterrupt under Python's own handler

    # Python's own Ctrl-C handler, which a shell's background job starts without (SIGINT ignored).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for callback, error in [(raising, Enough), (interrupting, KeyboardInterrupt)]:
            calls = []
            with pytest.raises(error):
                sleuth.advise(game, on_update=callback)
            assert len(calls) == 2, "no update after the one that stopped it"
    finally:
        signal.signal(signal.SIGINT, previous)


def test_generate_is_the_cli_s(cli, tmp_path):
    game, deal = sleuth.generate(7, deck=[3, 3, 4], players=4, suggestions=9, face_up=1, return_deal=True)
    out = cli("generate", "--seed", 7, "--deck", "3,3,4", "--players", 4, "--suggestions", 9, "--face-up", 1,
              "--deal", tmp_path / "deal.json")
    assert sleuth.Game.from_json(out.stdout) == game
    assert json.loads((tmp_path / "deal.json").read_text()) == deal
    assert sleuth.generate(7, deck=[3, 3, 4], players=4, suggestions=9, face_up=1) == game
