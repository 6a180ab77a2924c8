"""The position of Portes and Plakoto (RULES-TAVLI.md): the players move in opposite directions.

``board[i]`` is the mover's point ``i + 1``: positive his checkers, negative the opponent's, whose own
point q is the mover's point ``25 - q`` (so flipping the view reverses the board and changes signs).
Portes adds the bars (``me_bar``/``opp_bar``). In Plakoto ``board[i]`` is the count of the player who
holds the point and ``pins[i]`` says who is pinned under him: +1 a checker of the mover's (under
the opponent's stack), -1 one of the opponent's (under the mover's), 0 none. A subclass of the Fevga
``Position`` so every function typed for a position accepts it; ``game`` names the variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import PositionError
from ..position import Position
from ..rules import CHECKERS, POINTS

TAVLI_GAMES = ("portes", "plakoto")
NO_PINS: tuple[int, ...] = (0,) * POINTS
_ID_MINE = "ABCDEFGHIJKLMNO"
_ID_THEIRS = "abcdefghijklmno"
_PIN_CHARS = {0: ".", 1: "+", -1: "-"}


def tavli_opponent_point(point: int) -> int:
    """The opponent's number for my point ``point`` in Portes and Plakoto: ``25 - point``."""
    return 25 - point


@dataclass(frozen=True, slots=True)
class TavliPosition(Position):
    """A Portes or Plakoto position from the mover's view: board, pins, bars, borne-off counts."""

    game: str = "portes"
    pins: tuple[int, ...] = NO_PINS
    me_bar: int = 0
    opp_bar: int = 0

    def __post_init__(self) -> None:
        validate_tavli(self.game, self.board, self.pins, self.me_bar, self.opp_bar, self.me_off, self.opp_off)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def start(cls, game: str = "portes") -> TavliPosition:
        """The starting position of ``game`` (Portes: 2-5-3-5 on 1, 12, 17, 19; Plakoto: 15 on 1)."""
        board = [0] * POINTS
        if game == "plakoto":
            board[0] = CHECKERS
            board[23] = -CHECKERS
        elif game == "portes":
            for point, count in ((1, 2), (12, 5), (17, 3), (19, 5)):
                board[point - 1] = count
                board[POINTS - point] = -count
        else:
            raise PositionError(f"unknown game {game!r}", key="bad_game", game=game)
        return cls(tuple(board), 0, 0, game)

    @classmethod
    def from_lists(cls, me: Sequence[int], opp: Sequence[int], me_off: int = 0, opp_off: int = 0) -> TavliPosition:
        """Refused: Fevga's numbering does not fit these games; use ``from_tavli_lists`` with the game."""
        raise PositionError(
            "a Portes or Plakoto position is built with TavliPosition.from_tavli_lists(game, me, opp, ...)",
            key="wrong_game",
        )

    @classmethod
    def from_tavli_lists(
        cls,
        game: str,
        me: Sequence[int],
        opp: Sequence[int],
        me_off: int = 0,
        opp_off: int = 0,
        *,
        me_bar: int = 0,
        opp_bar: int = 0,
        me_pin: Sequence[int] = (),
        opp_pin: Sequence[int] = (),
    ) -> TavliPosition:
        """Build from each player's counts in his own numbering; ``me_pin``/``opp_pin`` are the points
        (owner's numbering) of that player's pinned checkers, which ``me``/``opp`` also count."""
        if game not in TAVLI_GAMES:
            raise PositionError(f"unknown game {game!r}", key="bad_game", game=game)
        if len(me) != POINTS or len(opp) != POINTS:
            raise PositionError("me and opp must each list 24 points", key="bad_position_length")
        for value in (*me, *opp, me_off, opp_off, me_bar, opp_bar, *me_pin, *opp_pin):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise PositionError("checker counts must be whole numbers of 0 or more", key="bad_count")
        if game != "plakoto" and (me_pin or opp_pin):
            raise PositionError("only Plakoto has pinned checkers", key="no_pins_here")
        if game != "portes" and (me_bar or opp_bar):
            raise PositionError("only Portes has a bar", key="no_bar_here")
        pins = [0] * POINTS
        for points, sign in ((me_pin, 1), (opp_pin, -1)):
            for p in points:
                if not 1 <= p <= POINTS:
                    raise PositionError(f"there is no point {p}", key="bad_point", point=p)
                i = p - 1 if sign > 0 else POINTS - p
                if pins[i]:
                    raise PositionError(f"two pinned checkers on point {i + 1}", key="two_pinned", point=i + 1)
                pins[i] = sign
        board = [0] * POINTS
        for i in range(POINTS):
            mine, theirs = me[i], opp[POINTS - 1 - i]
            if mine and theirs:
                # only a pinned point has both colours: one pinned checker under the holder's stack
                if pins[i] == 1 and mine == 1:
                    board[i] = -theirs
                elif pins[i] == -1 and theirs == 1:
                    board[i] = mine
                else:
                    raise PositionError(
                        f"both players have checkers on point {i + 1}", key="two_colours", point=i + 1
                    )
            elif pins[i]:
                raise PositionError(f"the pinned checker on point {i + 1} has no pinner", key="bad_pin", point=i + 1)
            else:
                board[i] = mine - theirs
        return cls(tuple(board), me_off, opp_off, game, tuple(pins), me_bar, opp_bar)

    @classmethod
    def _make(
        cls,
        game: str,
        board: tuple[int, ...],
        pins: tuple[int, ...],
        me_bar: int,
        opp_bar: int,
        me_off: int,
        opp_off: int,
    ) -> TavliPosition:
        """Build without validation, for the move generator's hot path."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "board", board)
        object.__setattr__(pos, "me_off", me_off)
        object.__setattr__(pos, "opp_off", opp_off)
        object.__setattr__(pos, "game", game)
        object.__setattr__(pos, "pins", pins)
        object.__setattr__(pos, "me_bar", me_bar)
        object.__setattr__(pos, "opp_bar", opp_bar)
        return pos

    # --- views -------------------------------------------------------------------------------
    @property
    def me(self) -> list[int]:
        """The mover's checkers per his own point 1..24, pinned ones included."""
        b, pins = self.board, self.pins
        return [b[i] if b[i] > 0 else (1 if pins[i] == 1 else 0) for i in range(POINTS)]

    @property
    def opp(self) -> list[int]:
        """The opponent's checkers per his own point 1..24 (his q is my 25 - q), pinned ones included."""
        b, pins = self.board, self.pins
        out = []
        for q in range(1, POINTS + 1):
            i = POINTS - q
            out.append(-b[i] if b[i] < 0 else (1 if pins[i] == -1 else 0))
        return out

    @property
    def me_pin(self) -> list[int]:
        """Points (mover's numbering) where a checker of the mover's is pinned."""
        return [i + 1 for i, v in enumerate(self.pins) if v == 1]

    @property
    def opp_pin(self) -> list[int]:
        """Points (opponent's numbering) where a checker of the opponent's is pinned."""
        return sorted(POINTS - i for i, v in enumerate(self.pins) if v == -1)

    def flip(self) -> TavliPosition:
        """The same position seen by the other player (reverse the board, change the signs)."""
        b, p = self.board, self.pins
        return TavliPosition._make(
            self.game,
            tuple(-b[POINTS - 1 - i] for i in range(POINTS)),
            p if p is NO_PINS else tuple(-p[POINTS - 1 - i] for i in range(POINTS)),
            self.opp_bar,
            self.me_bar,
            self.opp_off,
            self.me_off,
        )

    def pips(self) -> tuple[int, int]:
        """Pip counts for the mover and the opponent (a checker on the bar is 25 pips away)."""
        me, opp = self.me, self.opp
        mine = sum(c * (25 - p) for p, c in enumerate(me, 1)) + 25 * self.me_bar
        theirs = sum(c * (25 - q) for q, c in enumerate(opp, 1)) + 25 * self.opp_bar
        return mine, theirs

    # --- position id -------------------------------------------------------------------------
    def id(self) -> str:
        """Compact id naming the game: ``portes:<24 points>:me_bar:opp_bar:me_off:opp_off`` or
        ``plakoto:<24 points>:<24 pins>:me_off:opp_off`` (pins: ``.`` none, ``+`` a checker of the
        mover's pinned there, ``-`` one of the opponent's). Points as in Fevga's id: ``A``..``O`` the
        mover's count, ``a``..``o`` the opponent's, ``.`` empty; in Plakoto the holder's count."""
        chars = "".join("." if c == 0 else _ID_MINE[c - 1] if c > 0 else _ID_THEIRS[-c - 1] for c in self.board)
        if self.game == "plakoto":
            pins = "".join(_PIN_CHARS[v] for v in self.pins)
            return f"plakoto:{chars}:{pins}:{self.me_off}:{self.opp_off}"
        return f"{self.game}:{chars}:{self.me_bar}:{self.opp_bar}:{self.me_off}:{self.opp_off}"

    @classmethod
    def from_id(cls, text: str) -> TavliPosition:
        """Parse a Portes or Plakoto position id (see :meth:`id`); raise PositionError if it is not one."""
        if not isinstance(text, str):
            raise PositionError("a position id is a string", key="bad_position_id")
        parts = text.strip().split(":")
        game = parts[0] if parts else ""
        size = {"portes": 6, "plakoto": 5}.get(game)
        if size is None or len(parts) != size or len(parts[1]) != POINTS:
            raise PositionError(
                "a Portes id is portes:<24 points>:me_bar:opp_bar:me_off:opp_off, "
                "a Plakoto id plakoto:<24 points>:<24 pins>:me_off:opp_off",
                key="bad_position_id",
            )
        board = []
        for ch in parts[1]:
            if ch == ".":
                board.append(0)
            elif ch in _ID_MINE:
                board.append(_ID_MINE.index(ch) + 1)
            elif ch in _ID_THEIRS:
                board.append(-(_ID_THEIRS.index(ch) + 1))
            else:
                raise PositionError(f"unexpected character {ch!r} in position id", key="bad_position_id")
        pins: tuple[int, ...] = NO_PINS
        numbers = parts[2:]
        if game == "plakoto":
            codes = {v: k for k, v in _PIN_CHARS.items()}
            if len(parts[2]) != POINTS or any(ch not in codes for ch in parts[2]):
                raise PositionError("the pins of a Plakoto id are 24 of . + -", key="bad_position_id")
            pins = tuple(codes[ch] for ch in parts[2])
            numbers = ["0", "0", *parts[3:]]
        if not all(n.isdigit() for n in numbers):
            raise PositionError("counts in a position id must be numbers", key="bad_position_id")
        me_bar, opp_bar, me_off, opp_off = (int(n) for n in numbers)
        return cls(tuple(board), me_off, opp_off, game, pins, me_bar, opp_bar)

    def __repr__(self) -> str:
        return f"TavliPosition.from_id({self.id()!r})"

    def __str__(self) -> str:
        return self.id()


def validate_tavli(
    game: str,
    board: Sequence[int],
    pins: Sequence[int],
    me_bar: int,
    opp_bar: int,
    me_off: int,
    opp_off: int,
) -> None:
    """Raise PositionError unless this is a real Portes/Plakoto position (15 checkers each, counting
    the bar, the pinned ones and the borne-off ones; at most one pinned checker, under a holder)."""
    if game not in TAVLI_GAMES:
        raise PositionError(f"unknown game {game!r}", key="bad_game", game=game)
    if not isinstance(board, tuple) or len(board) != POINTS or not isinstance(pins, tuple) or len(pins) != POINTS:
        raise PositionError("a position has exactly 24 points", key="bad_position_length")
    for value in (*board, *pins, me_bar, opp_bar, me_off, opp_off):
        if not isinstance(value, int) or isinstance(value, bool):
            raise PositionError("checker counts must be whole numbers", key="bad_count")
    if min(me_bar, opp_bar, me_off, opp_off) < 0:
        raise PositionError("bar and borne-off counts cannot be negative", key="bad_count")
    if game != "portes" and (me_bar or opp_bar):
        raise PositionError("only Portes has a bar", key="no_bar_here")
    for i, v in enumerate(pins):
        if v not in (-1, 0, 1):
            raise PositionError("a pin is -1, 0 or 1", key="bad_pin", point=i + 1)
        if v and game != "plakoto":
            raise PositionError("only Plakoto has pinned checkers", key="no_pins_here")
        if v and not board[i] * v < 0:
            raise PositionError(f"the pinned checker on point {i + 1} has no pinner", key="bad_pin", point=i + 1)
    mine = sum(c for c in board if c > 0) + pins.count(1) + me_bar + me_off
    theirs = -sum(c for c in board if c < 0) + pins.count(-1) + opp_bar + opp_off
    if mine != CHECKERS:
        raise PositionError(f"the mover has {mine} checkers, not 15", key="wrong_count", side="me", count=mine)
    if theirs != CHECKERS:
        raise PositionError(
            f"the opponent has {theirs} checkers, not 15", key="wrong_count", side="opp", count=theirs
        )
