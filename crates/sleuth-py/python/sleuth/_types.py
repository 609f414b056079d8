"""The package's exceptions and `Explanation`, defined in Python so that the
native module can raise and build them (``GameError`` is both a
``SleuthError`` and a ``ValueError``)."""

from __future__ import annotations

from typing import List


class SleuthError(Exception):
    """Base class of Sleuth's errors."""


class GameError(SleuthError, ValueError):
    """The input is not a valid game, or not one the operation can use (an
    inconsistent history to sample, a bystander's game to advise). The
    message is the one the ``sleuth`` command prints."""


class TooLargeError(SleuthError):
    """The game is valid but too large for the exact counter (or has too
    many possible case files to list). ``max_states=`` raises the counter's
    limit; ``sleuth.estimate(game, n, method="alg2")`` can still estimate it."""


class Explanation(tuple):
    """A set of events (and perhaps the observer's hand) that forces a fact
    or cannot all be true together: the pair ``(events, hand)``.

    ``events`` are 0-based event indices, ascending; ``hand`` says whether
    the observer's hand takes part; ``minimum`` whether the set is proven
    smallest (``False``: minimal, found within a search budget).

    >>> events, hand = Explanation([0, 3], True)
    """

    minimum: bool

    def __new__(cls, events: List[int], hand: bool, minimum: bool = True) -> "Explanation":
        self = super().__new__(cls, (list(events), bool(hand)))
        self.minimum = bool(minimum)
        return self

    @property
    def events(self) -> List[int]:
        return self[0]

    @property
    def hand(self) -> bool:
        return self[1]

    def __getnewargs__(self):  # type: ignore[override]
        return (self[0], self[1], self.minimum)

    def __repr__(self) -> str:
        return f"Explanation(events={self[0]!r}, hand={self[1]!r}, minimum={self.minimum!r})"
