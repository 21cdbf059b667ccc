"""kifu: read shogi game records (KIF, KI2, CSA, USI/SFEN, JKF), judge every
move by the full rules, and write them in every format the kifu CLI writes.

    >>> import kifu
    >>> game = kifu.read("game.kif")[0]
    >>> game.verdict
    Verdict(legal=True)

An illegal move is not an error: it ends the game as a foul (hansoku-make)
for the side that played it, and ``Game.verdict`` names the rule, the ply,
the loser and where the move is written.
"""

from ._kifu import (
    DecodeError,
    FormatWarning,
    Game,
    GameResult,
    GameStream,
    KifuError,
    NotARecord,
    ParseError,
    ReadWarning,
    VariantGame,
    Verdict,
    __version__,
    read,
    read_many,
)

__all__ = [
    "DecodeError",
    "FormatWarning",
    "Game",
    "GameResult",
    "GameStream",
    "KifuError",
    "NotARecord",
    "ParseError",
    "ReadWarning",
    "VariantGame",
    "Verdict",
    "__version__",
    "read",
    "read_many",
]
