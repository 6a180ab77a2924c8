"""A play: the steps of one turn and the position they leave; equal when they leave the same one."""

from __future__ import annotations

from .errors import IllegalPlayError
from .position import Position
from .rules import DEFAULT_RULES, OFF, Rules
from .steps import Step, canonical_order

__all__ = ["Play", "Step", "apply_moves_unordered", "apply_steps", "format_play", "format_steps"]


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
    ``steps`` always reads in the canonical order (see ``fevga.steps.canonical_order``), worked out
    on first use so the move generator's hot path does not pay for it.
    """

    __slots__ = ("_rules", "_steps", "dice", "result", "start")

    def __init__(
        self,
        start: Position,
        dice: tuple[int, int],
        steps: tuple[Step, ...] = (),
        result: Position | None = None,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        self.start = start
        self.dice = (int(dice[0]), int(dice[1]))
        self._steps = tuple((int(a), int(b)) for a, b in steps)
        self._rules: Rules | None = rules  # None once _steps is in canonical order
        self.result = result if result is not None else apply_steps(start, self._steps)

    @classmethod
    def _trusted(
        cls, start: Position, dice: tuple[int, int], steps: tuple[Step, ...], result: Position, rules: Rules
    ) -> Play:
        """Build without conversions, for the move generator's hot path."""
        play = object.__new__(cls)
        play.start = start
        play.dice = dice
        play._steps = steps
        play._rules = rules
        play.result = result
        return play

    @property
    def steps(self) -> tuple[Step, ...]:
        """The (from, to) steps in canonical order (the same for every way of playing them)."""
        rules = self._rules
        if rules is not None:
            start = self.start
            self._steps = canonical_order(start.board, start.me_off, self._steps, self.dice, rules)
            self._rules = None
        return self._steps

    @property
    def hits(self) -> tuple[bool, ...]:
        """For each step of ``steps``: did its landing hit or pin? Never in Fevga (Portes/Plakoto
        plays override this)."""
        return (False,) * len(self.steps)

    @property
    def is_pass(self) -> bool:
        """True for the empty play (nothing could move)."""
        return not self._steps

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
        return format_play(self)


def format_play(play: Play, *, compact: bool = False) -> str:
    """Steps as ``1/7 7/12`` in canonical order (``19/off`` to bear off, ``bar/3`` to enter, ``*``
    after a landing that hit or pinned, ``pass`` for none).

    With ``compact``, a checker's consecutive steps become a chain and equal steps a repeat:
    ``1/7/12``, ``1/6(2)``, ``10/14*/20``.
    """
    if not play.steps or not compact:
        return format_steps(play.steps, play.hits)
    chains: list[list[tuple[int, bool]]] = []
    for (a, b), hit in zip(play.steps, play.hits, strict=True):
        for chain in chains:
            if chain[-1][0] == a and a != OFF:
                chain.append((b, hit))
                break
        else:
            chains.append([(a, False), (b, hit)])
    parts: list[str] = []
    counts: dict[str, int] = {}
    for chain in chains:
        key = "/".join(_fmt(p) + ("*" if hit else "") for p, hit in chain)
        if key not in counts:
            parts.append(key)
        counts[key] = counts.get(key, 0) + 1
    return " ".join(f"{k}({counts[k]})" if counts[k] > 1 else k for k in parts)


def format_steps(steps: tuple[Step, ...], hits: tuple[bool, ...] = ()) -> str:
    """Steps as written, in the order given: ``1/7 7/12``, ``19/off``, ``bar/3*`` (``hits`` marks the
    landings that hit or pinned); ``pass`` for none."""
    if not steps:
        return "pass"
    marks = hits or (False,) * len(steps)
    return " ".join(f"{_fmt(a)}/{_fmt(b)}{'*' if hit else ''}" for (a, b), hit in zip(steps, marks, strict=True))


def _fmt(point: int) -> str:
    """A point as written in a play: its number, ``off`` (25) or ``bar`` (0, Portes)."""
    return "off" if point == OFF else "bar" if point == 0 else str(point)
