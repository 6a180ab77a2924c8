"""An immutable Fevga position seen from the player to move, and its compact position id.

``board[i]`` holds the checkers on the mover's own point ``i + 1``: positive for the mover's,
negative for the opponent's (placed at the mover's numbering). My point p is the opponent's
point ``(p + 11) % 24 + 1``, so flipping the view is a rotation by 12 and a change of sign.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import PositionError
from .rules import CHECKERS, POINTS

_ID_MINE = "ABCDEFGHIJKLMNO"  # 1..15 of the mover's checkers
_ID_THEIRS = "abcdefghijklmno"  # 1..15 of the opponent's checkers


def opponent_point(point: int) -> int:
    """The opponent's number for my point ``point`` (and vice versa: the map is its own inverse)."""
    return (point + 11) % POINTS + 1


@dataclass(frozen=True, slots=True)
class Position:
    """24 signed counts from the mover's view plus both players' borne-off counts."""

    board: tuple[int, ...]
    me_off: int = 0
    opp_off: int = 0

    def __post_init__(self) -> None:
        validate(self.board, self.me_off, self.opp_off)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def start(cls) -> Position:
        """All 15 checkers of each player on his own point 1 (the opponent's 1 is my 13)."""
        board = [0] * POINTS
        board[0] = CHECKERS
        board[12] = -CHECKERS
        return cls(tuple(board), 0, 0)

    @classmethod
    def from_lists(cls, me: Sequence[int], opp: Sequence[int], me_off: int = 0, opp_off: int = 0) -> Position:
        """Build from each player's counts in his own numbering (``me[i]`` is my point i+1)."""
        if len(me) != POINTS or len(opp) != POINTS:
            raise PositionError("me and opp must each list 24 points", key="bad_position_length")
        for value in (*me, *opp, me_off, opp_off):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PositionError("checker counts must be whole numbers of 0 or more", key="bad_count")
        board = list(me)
        for j, count in enumerate(opp):
            if count:
                i = (j + 12) % POINTS
                if board[i]:
                    raise PositionError(
                        f"both players have checkers on point {i + 1}", key="two_colours", point=i + 1
                    )
                board[i] = -count
        return cls(tuple(board), me_off, opp_off)

    @classmethod
    def _trusted(cls, board: tuple[int, ...], me_off: int, opp_off: int) -> Position:
        """Build without validation, for the move generator's hot path."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "board", board)
        object.__setattr__(pos, "me_off", me_off)
        object.__setattr__(pos, "opp_off", opp_off)
        return pos

    # --- views -------------------------------------------------------------------------------
    @property
    def me(self) -> list[int]:
        """The mover's checkers per his own point 1..24 (index 0 is point 1)."""
        return [c if c > 0 else 0 for c in self.board]

    @property
    def opp(self) -> list[int]:
        """The opponent's checkers per the opponent's own point 1..24."""
        b = self.board
        return [-b[(j + 12) % POINTS] if b[(j + 12) % POINTS] < 0 else 0 for j in range(POINTS)]

    def flip(self) -> Position:
        """The same position seen by the other player."""
        b = self.board
        return Position._trusted(tuple(-b[(i + 12) % POINTS] for i in range(POINTS)), self.opp_off, self.me_off)

    def pips(self) -> tuple[int, int]:
        """Pip counts (distance to bear everything off) for the mover and the opponent."""
        mine = sum(c * (25 - i - 1) for i, c in enumerate(self.board) if c > 0)
        theirs = 0
        for i, c in enumerate(self.board):
            if c < 0:
                theirs += -c * (25 - opponent_point(i + 1))
        return mine, theirs

    def is_over(self) -> bool:
        return self.me_off == CHECKERS or self.opp_off == CHECKERS

    # --- position id -------------------------------------------------------------------------
    def id(self) -> str:
        """Compact id: 24 letters for my points 1..24 then ``:me_off:opp_off``.

        ``.`` is an empty point, ``A``..``O`` 1..15 of the mover's checkers, ``a``..``o`` 1..15 of
        the opponent's (at the mover's numbering). The start is ``O...........o...........:0:0``.
        """
        chars = []
        for c in self.board:
            chars.append("." if c == 0 else _ID_MINE[c - 1] if c > 0 else _ID_THEIRS[-c - 1])
        return f"{''.join(chars)}:{self.me_off}:{self.opp_off}"

    @classmethod
    def from_id(cls, text: str) -> Position:
        """Parse a position id (see :meth:`id`); raise PositionError if it is not one."""
        if not isinstance(text, str):
            raise PositionError("a position id is a string", key="bad_position_id")
        parts = text.strip().split(":")
        if len(parts) != 3 or len(parts[0]) != POINTS:
            raise PositionError(
                "a position id is 24 letters, then ':' my borne-off count ':' the opponent's",
                key="bad_position_id",
            )
        board = []
        for ch in parts[0]:
            if ch == ".":
                board.append(0)
            elif ch in _ID_MINE:
                board.append(_ID_MINE.index(ch) + 1)
            elif ch in _ID_THEIRS:
                board.append(-(_ID_THEIRS.index(ch) + 1))
            else:
                raise PositionError(f"unexpected character {ch!r} in position id", key="bad_position_id")
        if not (parts[1].isdigit() and parts[2].isdigit()):
            raise PositionError("borne-off counts in a position id must be numbers", key="bad_position_id")
        return cls(tuple(board), int(parts[1]), int(parts[2]))

    def __repr__(self) -> str:
        return f"Position.from_id({self.id()!r})"

    def __str__(self) -> str:
        return self.id()


def validate(board: Sequence[int], me_off: int, opp_off: int) -> None:
    """Raise PositionError unless the counts make a real position (15 checkers each)."""
    if not isinstance(board, tuple) or len(board) != POINTS:
        raise PositionError("a position has exactly 24 points", key="bad_position_length")
    for value in (*board, me_off, opp_off):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PositionError("checker counts must be whole numbers", key="bad_count")
    if me_off < 0 or opp_off < 0:
        raise PositionError("borne-off counts cannot be negative", key="bad_count")
    mine = sum(c for c in board if c > 0) + me_off
    theirs = -sum(c for c in board if c < 0) + opp_off
    if mine != CHECKERS:
        raise PositionError(f"the mover has {mine} checkers, not 15", key="wrong_count", side="me", count=mine)
    if theirs != CHECKERS:
        raise PositionError(
            f"the opponent has {theirs} checkers, not 15", key="wrong_count", side="opp", count=theirs
        )
