"""A play: the steps of one turn and the position they leave; equal when they leave the same one."""

from __future__ import annotations

from .errors import IllegalPlayError
from .position import Position
from .rules import OFF

Step = tuple[int, int]


def apply_steps(start: Position, steps: tuple[Step, ...]) -> Position:
    """Move checkers along ``steps`` (mover's numbering, 25 = off) without judging legality."""
    board = list(start.board)
    off = start.me_off
    for src, dst in steps:
        if not (1 <= src <= 24) or not (src < dst <= OFF) or board[src - 1] <= 0:
            raise IllegalPlayError(
                f"you have no checker on point {src}" if 1 <= src <= 24 else f"there is no point {src}",
                key="no_checker",
                rule="steps",
                point=src,
            )
        board[src - 1] -= 1
        if dst == OFF:
            off += 1
        else:
            if board[dst - 1] < 0:
                raise IllegalPlayError(
                    f"point {dst} is held by your opponent", key="point_held", rule="R2-land", point=dst
                )
            board[dst - 1] += 1
    return Position._trusted(tuple(board), off, start.opp_off)


def apply_moves_unordered(start: Position, moves: tuple[Step, ...]) -> Position | None:
    """The position left by ``moves`` taken together in any order, or None if no order could work."""
    board = list(start.board)
    off = start.me_off
    for src, dst in moves:
        if not (1 <= src <= 24 and src < dst <= OFF):
            return None
        board[src - 1] -= 1
        if dst == OFF:
            off += 1
        else:
            board[dst - 1] += 1
    for before, after in zip(start.board, board, strict=True):
        if (before < 0 and after != before) or (before >= 0 and after < 0):
            return None
    return Position._trusted(tuple(board), off, start.opp_off)


class Play:
    """One turn's play: ``start`` position, ``dice``, ``steps`` and the ``result`` (mover's view).

    Two plays are equal when they start from and leave the same positions, whatever the step order.
    """

    __slots__ = ("dice", "result", "start", "steps")

    def __init__(
        self,
        start: Position,
        dice: tuple[int, int],
        steps: tuple[Step, ...] = (),
        result: Position | None = None,
    ) -> None:
        self.start = start
        self.dice = (int(dice[0]), int(dice[1]))
        self.steps = tuple((int(a), int(b)) for a, b in steps)
        self.result = result if result is not None else apply_steps(start, self.steps)

    @classmethod
    def _trusted(cls, start: Position, dice: tuple[int, int], steps: tuple[Step, ...], result: Position) -> Play:
        """Build without conversions, for the move generator's hot path."""
        play = object.__new__(cls)
        play.start = start
        play.dice = dice
        play.steps = steps
        play.result = result
        return play

    @property
    def is_pass(self) -> bool:
        return not self.steps

    def _key(self) -> tuple[Position, Position]:
        return (self.start, self.result)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Play({self.start!r}, {self.dice!r}, {self.steps!r})"

    def __str__(self) -> str:
        from .notation import format_play

        return format_play(self)
