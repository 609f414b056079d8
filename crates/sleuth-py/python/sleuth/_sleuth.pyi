"""Type stubs of the native module; the docstrings are the module's own (help())."""

from fractions import Fraction
from os import PathLike
from typing import Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

from ._types import Explanation

_Deck = Union[str, Sequence[int], Sequence[Sequence[str]], Mapping[str, Sequence[str]]]
_Method = Literal["uniform", "alg1", "alg2", "a", "b", "c", "d", "e"]

@final
class Game:
    """A Clue game: deck, players, the observer's hand, and what happened. Immutable."""

    @staticmethod
    def from_json(text: str) -> Game: ...
    @staticmethod
    def from_file(path: Union[str, PathLike[str]]) -> Game: ...
    @staticmethod
    def new(
        deck: _Deck = "classic",
        players: Sequence[str] = ...,
        me: Optional[str] = None,
        hand: Sequence[str] = ...,
        hand_sizes: Optional[Mapping[str, int]] = None,
        face_up: Sequence[str] = ...,
    ) -> Game: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def suggest(
        self, by: str, cards: Sequence[str], refuted_by: Optional[str] = None, shown: Optional[str] = None
    ) -> Game: ...
    def accuse(self, by: str, cards: Sequence[str], correct: bool) -> Game: ...
    def bystander(self) -> Game: ...
    def describe_event(self, index: int) -> str: ...
    @property
    def events(self) -> List[Dict[str, Any]]: ...
    @property
    def deck(self) -> Literal["classic", "master", "custom"]: ...
    @property
    def categories(self) -> List[Tuple[str, List[str]]]: ...
    @property
    def cards(self) -> List[str]: ...
    @property
    def players(self) -> List[str]: ...
    @property
    def places(self) -> List[str]: ...
    @property
    def hand_sizes(self) -> Dict[str, int]: ...
    @property
    def me(self) -> Optional[str]: ...
    @property
    def hand(self) -> List[str]: ...
    @property
    def face_up(self) -> List[str]: ...

@final
class Analysis:
    """The exact analysis of a game."""

    @property
    def consistent(self) -> bool: ...
    @property
    def models(self) -> int: ...
    @property
    def game(self) -> Game: ...
    @property
    def cards(self) -> List[str]: ...
    @property
    def places(self) -> List[str]: ...
    @property
    def conflict(self) -> Optional[Explanation]: ...
    def count(self, card: str, place: str) -> int: ...
    def fraction(self, card: str, place: str) -> Fraction: ...
    def probability(self, card: str, place: str) -> float: ...
    def status(self, card: str, place: str) -> Literal["yes", "no", "maybe"]: ...
    def to_numpy(self) -> npt.NDArray[np.float64]: ...
    def counts(self) -> List[List[int]]: ...
    def case_files(self) -> List[Tuple[Tuple[str, ...], Fraction]]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_json(self) -> str: ...
    def _repr_html_(self) -> str: ...

def analyze(game: Game, *, max_states: Optional[int] = None) -> Analysis: ...
def analyze_many(
    games: Sequence[Game], threads: Optional[int] = None, *, max_states: Optional[int] = None
) -> List[Analysis]: ...
def why(game: Game, card: str, place: str, *, max_states: Optional[int] = None) -> Optional[Explanation]: ...
def sample(
    game: Game,
    n: int,
    method: _Method = "uniform",
    seed: int = 0,
    *,
    tenure: Optional[int] = None,
    noise: Optional[float] = None,
    restart: Optional[float] = None,
    max_states: Optional[int] = None,
) -> npt.NDArray[np.int8]: ...
def estimate(
    game: Game,
    n: int,
    method: _Method = "uniform",
    seed: int = 0,
    *,
    tenure: Optional[int] = None,
    noise: Optional[float] = None,
    restart: Optional[float] = None,
    max_states: Optional[int] = None,
) -> npt.NDArray[np.float64]: ...
def estimate_report(
    game: Game,
    n: int,
    method: _Method = "uniform",
    seed: int = 0,
    *,
    tenure: Optional[int] = None,
    noise: Optional[float] = None,
    restart: Optional[float] = None,
    max_states: Optional[int] = None,
) -> Dict[str, Any]: ...
def advise(
    game: Game,
    *,
    suggestions: int = 5,
    shortlist: int = 12,
    samples: int = 32,
    opponent_states: int = ...,
    entropy_samples: int = 8,
    exact_views: int = 64,
    seed: int = 0,
    tell_samples: int = ...,
    max_states: Optional[int] = None,
    on_update: Optional[Callable[[Dict[str, Any]], object]] = None,
) -> Dict[str, Any]: ...
@overload
def generate(
    seed: int,
    deck: Union[str, Sequence[int]] = "classic",
    players: int = 6,
    suggestions: int = 20,
    *,
    bystander: bool = False,
    face_up: int = 0,
    accusation_rate: float = 0.0,
    hand_sizes: bool = False,
    corrupt: bool = False,
    return_deal: Literal[False] = False,
) -> Game: ...
@overload
def generate(
    seed: int,
    deck: Union[str, Sequence[int]] = "classic",
    players: int = 6,
    suggestions: int = 20,
    *,
    bystander: bool = False,
    face_up: int = 0,
    accusation_rate: float = 0.0,
    hand_sizes: bool = False,
    corrupt: bool = False,
    return_deal: Literal[True],
) -> Tuple[Game, Dict[str, str]]: ...
