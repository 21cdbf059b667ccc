"""Type stubs of the kifu package (the native module ``kifu._kifu``)."""

import os
from typing import Iterable, Iterator, Literal, Optional, Union, overload

__version__: str

Side = Literal["sente", "gote"]
TextFormat = Literal["kifu", "ki2u", "csa", "csa3", "jkf", "usi", "sfen", "json"]
BytesFormat = Literal["kif", "ki2", "hcpe", "psv"]

class KifuError(Exception):
    """Base class of kifu's errors."""

    path: Optional[str]
    line: Optional[int]
    column: Optional[int]
    message: str

class ParseError(KifuError):
    """The record breaks its format's grammar, or its start position is illegal."""

class NotARecord(KifuError):
    """The input is no game record kifu can tell the format of."""

class DecodeError(KifuError):
    """The bytes could not be decoded in any encoding a record uses."""

class ReadWarning(UserWarning):
    """A game of a multi-game file could not be read, or bytes were replaced."""

class FormatWarning(UserWarning):
    """``Game.to`` could not write something of the game; the message starts with its code."""

class Verdict:
    """Whether every move of the main line was legal, or the first foul."""

    legal: bool
    rule: Optional[str]
    ply: Optional[int]
    move_number: Optional[int]
    loser: Optional[Side]
    move: Optional[str]
    message: Optional[str]
    line: Optional[int]
    column: Optional[int]
    def to_dict(self) -> dict:
        """The verdict as ``kifu check --json`` writes it."""

class GameResult:
    """Who won, and why."""

    winner: Optional[Side]
    reason: str
    def to_dict(self) -> dict:
        """The result as ``kifu check --json`` writes it."""

class Game:
    """A game read and replayed."""

    source: str
    index: int
    format: Literal["kif", "ki2", "csa", "usi", "jkf"]
    encoding: str
    header: dict[str, str]
    start_sfen: str
    moves: list[str]
    verdict: Verdict
    result: GameResult
    start_comments: list[str]
    error: Optional["ParseError"]
    comments: list[list[str]]
    evals: list[Optional[int]]
    times: list[Optional[tuple[Optional[int], Optional[int]]]]
    opening: dict
    """The opening kifu names: ``{"game", "type", "sente": {"strategy", "castle"}, "gote": ...}``."""
    def losses(
        self, dubious: float = 0.1, mistake: float = 0.2, blunder: float = 0.3
    ) -> list[dict]:
        """Each judged main-line move: ``{"ply", "side", "loss", "judgement"}``."""
    def sfens(self) -> list[str]:
        """The position after each legal ply of the main line."""
    def report(self) -> dict:
        """The game as ``kifu check --json`` reports it."""
    def json(self) -> dict:
        """The game as ``kifu convert --to json`` writes it."""
    @overload
    def to(self, fmt: TextFormat) -> str: ...
    @overload
    def to(self, fmt: BytesFormat) -> bytes: ...
    def __len__(self) -> int: ...

class GameStream(Iterator[Union[Game, Exception]]):
    """Games of ``read_many``, in input order; an unreadable input is an exception object."""

    def __iter__(self) -> "GameStream": ...
    def __next__(self) -> Union[Game, Exception]: ...

class VariantGame:
    """A game of a shogi variant, judged by its rules (``kifu check --variant``)."""

    source: str
    index: int
    format: Literal["kif", "usi"]
    variant: Literal["shoshogi", "torishogi", "minishogi", "judkins", "micro", "chushogi"]
    start_sfen: str
    moves: list[str]
    verdict: Verdict
    result: GameResult
    def sfens(self) -> list[str]:
        """The position after each legal ply."""
    def report(self) -> dict:
        """The game as ``kifu check --json`` reports it."""
    def __len__(self) -> int: ...

def read(
    source: Union[str, bytes, os.PathLike[str]],
    *,
    format: Optional[Literal["kif", "ki2", "csa", "usi", "jkf"]] = None,
    encoding: Optional[str] = None,
    lenient: bool = False,
    variant: Optional[str] = None,
) -> list[Union[Game, VariantGame]]:
    """Read every game of one record (a path, bytes, or record text); a
    variant's record (sniffed, or named by ``variant``) gives VariantGames."""

def read_many(
    paths: Iterable[Union[str, os.PathLike[str]]], *, jobs: Optional[int] = None
) -> GameStream:
    """Read many inputs in parallel; yield games in input order, and an
    exception object (not raised) for each input or game that cannot be read."""
