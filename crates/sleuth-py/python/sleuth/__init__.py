"""Sleuth: exact reasoning for Clue (Cluedo).

Exact counts of the deals consistent with a game's history, exact
probabilities (``fractions.Fraction``), complete deduction, smallest
explanations, exactly uniform sampling and Neller and Luo's WalkSAT
samplers, and move advice; the core is Rust (``sleuth_core``).

>>> import sleuth
>>> game = sleuth.Game.new(players=["sc", "mu", "wh"], me="sc",
...                        hand=["mu", "pl", "gr", "kn", "ca", "ha"])
>>> game = game.suggest("sc", ["pe", "ro", "ki"], refuted_by="mu", shown="ro")
>>> a = sleuth.analyze(game)
>>> a.fraction("pe", "case_file")
Fraction(1, 3)

The game file format and the JSON contract of ``to_dict()`` are in the
repository's docs/game-format.md and docs/schema/.
"""

from ._types import Explanation, GameError, SleuthError, TooLargeError
from ._sleuth import (
    Analysis,
    Game,
    advise,
    analyze,
    analyze_many,
    estimate,
    estimate_report,
    generate,
    sample,
    why,
)

__all__ = [
    "Analysis",
    "Explanation",
    "Game",
    "GameError",
    "SleuthError",
    "TooLargeError",
    "advise",
    "analyze",
    "analyze_many",
    "estimate",
    "estimate_report",
    "generate",
    "sample",
    "why",
]
