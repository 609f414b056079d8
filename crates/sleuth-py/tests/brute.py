"""A brute-force enumerator of consistent deals, written from
docs/game-format.md alone: the oracle the exact counter is checked against
on small decks. It reads a game through its file (``game.to_dict()``)
only, and computes the default hand sizes itself."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, product
from typing import Dict, Iterator, List, Optional, Sequence

CLASSIC = [
    ["mu", "pl", "gr", "pe", "sc", "wh"],
    ["kn", "ca", "re", "ro", "pi", "wr"],
    ["ha", "lo", "di", "ki", "ba", "co", "bi", "li", "st"],
]


def categories(file: dict) -> List[List[str]]:
    deck = file["deck"]
    if deck == "classic":
        return CLASSIC
    if isinstance(deck, str):
        raise ValueError(f"the brute force knows no deck {deck!r}")
    return [[c if isinstance(c, str) else c["id"] for c in cat["cards"]] for cat in deck["categories"]]


def hand_sizes(file: dict) -> List[int]:
    players = file["players"]
    if file.get("hand_sizes"):
        return [file["hand_sizes"][p] for p in players]
    cards = sum(len(c) for c in categories(file))
    dealt = cards - len(categories(file)) - len(file.get("face_up", []))
    n = len(players)
    return [dealt // n + (1 if i < dealt % n else 0) for i in range(n)]


def deals(file: dict, events: Optional[Sequence[int]] = None, hand: bool = True) -> Iterator[Dict[str, str]]:
    """Every consistent deal as {card: place} (face-up cards left out),
    keeping only the events at `events` (all by default) and the observer's
    hand only when `hand`."""
    cats = categories(file)
    players = file["players"]
    sizes = hand_sizes(file)
    face_up = set(file.get("face_up", []))
    known = set(file.get("hand") or []) if hand and file.get("me") else None
    me = players.index(file["me"]) if known is not None else None
    history = file.get("events", [])
    kept = [history[i] for i in (range(len(history)) if events is None else events)]
    for case in product(*cats):
        rest = [c for cat in cats for c in cat if c not in case and c not in face_up]
        for hands in _split(rest, sizes, me, known):
            owner = {c: "case_file" for c in case}
            for p, cards in zip(players, hands):
                owner.update((c, p) for c in cards)
            if all(_holds(e, owner, players) for e in kept):
                yield owner


def _split(cards, sizes, me, known, i=0):
    if i == len(sizes):
        if not cards:
            yield []
        return
    for hand in combinations(cards, sizes[i]):
        if i == me and set(hand) != known:
            continue
        rest = [c for c in cards if c not in hand]
        for tail in _split(rest, sizes, me, known, i + 1):
            yield [hand] + tail


def _holds(event: dict, owner: Dict[str, str], players: List[str]) -> bool:
    if "accusation" in event:
        e = event["accusation"]
        is_case = all(owner.get(c) == "case_file" for c in e["cards"])
        return is_case == e["correct"]
    e = event["suggestion"]
    n = len(players)
    by = players.index(e["by"])
    asked = [players[(by + k) % n] for k in range(1, n)]
    refuter = e["refuted_by"]
    passed = asked if refuter is None else asked[: asked.index(refuter)]
    if any(owner.get(c) in passed for c in e["cards"]):
        return False
    if refuter is not None and not any(owner.get(c) == refuter for c in e["cards"]):
        return False
    shown = e.get("shown")
    return shown is None or owner.get(shown) == refuter


def marginals(file: dict, **kw) -> tuple:
    """(number of deals, Counter of (card, place))."""
    total, cells = 0, Counter()
    for deal in deals(file, **kw):
        total += 1
        cells.update(deal.items())
    return total, cells


def fraction(total: int, cells: Counter, card: str, place: str) -> Fraction:
    return Fraction(cells[(card, place)], total) if total else Fraction(0)
