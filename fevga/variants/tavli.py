"""Legal plays of Portes and Plakoto, and their Play, over one game's step rule (``StepRule``).

The walk is Fevga's (``fevga.movegen``): every order of steps depth-first on one mutable state,
remembering visited (position, dice left) states, so orders that meet again are expanded once. Plays
are deduplicated by the whole position they leave (both sides: a hit or pin of a different checker
is a different play), then the maximum-dice and higher-die rules (RULES.md rule 6) filter them.
"""

from __future__ import annotations

from typing import Any

from ..dice import check_dice
from ..errors import DiceError, IllegalPlayError
from ..play import Play, Step
from ..rules import CHECKERS, OFF
from .plakoto import PlakotoSteps
from .portes import PortesSteps
from .position import TavliPosition
from .state import StepRule, StepState

STEP_RULES: dict[str, StepRule] = {"portes": PortesSteps, "plakoto": PlakotoSteps}
POINTS_1_24 = tuple(range(1, 25))  # where a step may start: the points...
BAR_ONLY = (0,)  # ...or only the bar while a checker of the mover's is on it (Portes)


def step_rule(position: TavliPosition) -> StepRule:
    """The step rule of the position's game."""
    return STEP_RULES[position.game]


def dice_pool(dice: tuple[int, int]) -> tuple[int, ...]:
    """The dice to spend this turn: four of a double, else the two."""
    a, b = dice
    return (a, a, a, a) if a == b else (a, b)


Ends = dict[tuple[Any, ...], list[Any]]  # position key -> [steps, bitmask of the dice of 1-step plays]


def explore(position: TavliPosition, dice: tuple[int, int], rule: StepRule) -> Ends:
    """Every position reachable with 1..n legal steps: key -> [steps, dice mask of 1-step ways]."""
    a, b = dice
    s = StepState(position)
    ends: Ends = {}
    seen: set[tuple[tuple[Any, ...], tuple[int, ...]]] = set()
    steps: list[Step] = []
    facts_of, landing, apply, undo, key_of = rule.facts, rule.landing, rule.apply, rule.undo, rule.key
    board = s.board

    def walk(left: tuple[int, ...]) -> None:
        """Play the die ``left[0]`` from every checker that may move, record the end, go deeper."""
        d = left[0]
        rest = left[1:]
        facts = facts_of(s)
        for p in BAR_ONLY if s.bar else POINTS_1_24:
            if p and board[p - 1] <= 0:  # no free checker here (the rule would say so too)
                continue
            t = landing(s, p, d, facts)
            if t < 0:
                continue
            flag = apply(s, p, t)
            key = key_of(s)
            steps.append((p, t))
            depth = len(steps)
            prev = ends.get(key)
            if prev is None:
                ends[key] = [tuple(steps), 1 << d if depth == 1 else 0]
            elif depth == 1:
                prev[1] |= 1 << d
            elif len(prev[0]) < depth:  # overshooting bear-offs can leave one position in fewer steps
                prev[0] = tuple(steps)
            if rest and s.off < CHECKERS:
                seen_key = (key, rest)
                if seen_key not in seen:
                    seen.add(seen_key)
                    walk(rest)
            steps.pop()
            undo(s, p, t, flag)

    for order in [(a, a, a, a)] if a == b else [(a, b), (b, a)]:
        walk(order)
    return ends


def tavli_legal_plays(position: TavliPosition, dice: tuple[int, int]) -> list[Play]:
    """All legal plays of a Portes/Plakoto position for ``dice``, one per distinct position left
    (both sides); ``[pass]`` when nothing moves."""
    dice = check_dice(dice)
    rule = step_rule(position)
    passing = TavliPlay._trusted(position, dice, (), position, rule)
    if position.me_off >= CHECKERS or position.opp_off >= CHECKERS:
        return [passing]
    ends = explore(position, dice, rule)
    best = max((len(v[0]) for v in ends.values()), default=0)
    if not best:
        return [passing]
    allowed = [(k, v) for k, v in ends.items() if len(v[0]) == best]
    a, b = dice
    if best == 1 and a != b:
        high = 1 << max(a, b)
        higher = [(k, v) for k, v in allowed if v[1] & high]
        if higher:
            allowed = higher
    from_key = rule.from_key
    return [TavliPlay._trusted(position, dice, v[0], from_key(k, position), rule) for k, v in allowed]


def replay(
    start: TavliPosition, steps: tuple[Step, ...], dice: tuple[int, int]
) -> tuple[TavliPosition, tuple[bool, ...]]:
    """Play ``steps`` in the order given, each judged by the game's step rule with a die of the roll
    (a bear-off may use a higher die; every choice of dice is tried): the position left and which
    landings hit or pinned. Raises IllegalPlayError when no choice of dice plays them all."""
    rule = step_rule(start)
    s = StepState(start)

    def walk(k: int, left: list[int]) -> list[bool] | None:
        if k == len(steps):
            return []
        p, t = steps[k]
        facts = rule.facts(s)
        for d in _dice_for(p, t, left):
            if rule.landing(s, p, d, facts) != t:
                continue
            flag = rule.apply(s, p, t)
            rest = list(left)
            rest.remove(d)
            found = walk(k + 1, rest)
            if found is not None:
                return [bool(flag & 1), *found]
            rule.undo(s, p, t, flag)
        return None

    hits = walk(0, list(dice_pool(dice)))
    if hits is None:
        raise IllegalPlayError("those steps cannot be played in this order", key="bad_step", rule="steps")
    return rule.position(s, start), tuple(hits)


def play_sequence(start: TavliPosition, seq: list[tuple[int, int]]) -> tuple[TavliPosition | None, int, int]:
    """Play (from point, die) steps in order by the game's step rule: (position left, 0, n) when all
    n are legal, else (None, reason code of the first illegal step, how many were legal before it)."""
    rule = step_rule(start)
    s = StepState(start)
    for n, (p, d) in enumerate(seq):
        t = rule.landing(s, p, d, rule.facts(s))
        if t < 0:
            return None, t, n
        rule.apply(s, p, t)
    return rule.position(s, start), 0, len(seq)


def _dice_for(p: int, t: int, left: list[int]) -> list[int]:
    """The dice that could make the step p -> t: its length, or for a bear-off any higher die too."""
    need = t - p
    if t != OFF:
        return [need] if need in left else []
    return sorted({d for d in left if d >= need})


def canonical_order(play: TavliPlay) -> tuple[tuple[Step, ...], tuple[bool, ...]]:
    """The steps in canonical order (the smallest by (from, to) among the orders that are a valid
    sequence from the start and leave the play's result) and which of them hit or pinned."""
    start, target = play.start, play.result
    assert isinstance(start, TavliPosition) and isinstance(target, TavliPosition)
    rule = play._rule or step_rule(start)
    s = StepState(start)
    goal = rule.key(StepState(target))

    def search(left: tuple[Step, ...], dice: list[int]) -> list[tuple[Step, bool]] | None:
        if not left:
            return [] if rule.key(s) == goal else None
        tried: set[Step] = set()
        facts = rule.facts(s)
        for k, (p, t) in enumerate(left):
            if (p, t) in tried:
                continue
            tried.add((p, t))
            for d in _dice_for(p, t, dice):
                if rule.landing(s, p, d, facts) != t:
                    continue
                flag = rule.apply(s, p, t)
                rest = list(dice)
                rest.remove(d)
                found = search(left[:k] + left[k + 1 :], rest)
                rule.undo(s, p, t, flag)
                if found is not None:
                    return [((p, t), bool(flag & 1)), *found]
        return None

    ordered = tuple(sorted(play._steps))
    found = search(ordered, list(dice_pool(play.dice)))
    if found is None:
        return ordered, (False,) * len(ordered)
    return tuple(st for st, _ in found), tuple(h for _, h in found)


class TavliPlay(Play):
    """A Portes or Plakoto play: like Fevga's ``Play`` (equal when it leaves the same position, both
    sides included), with steps from the bar (point 0) and ``hits``: which landings hit or pinned."""

    __slots__ = ("_hits", "_rule")

    def __init__(
        self,
        start: TavliPosition,
        dice: tuple[int, int],
        steps: tuple[Step, ...] = (),
        result: TavliPosition | None = None,
    ) -> None:
        if not isinstance(start, TavliPosition):
            raise IllegalPlayError("a TavliPlay starts from a Portes or Plakoto position", key="wrong_game")
        self.start = start
        self.dice = (int(dice[0]), int(dice[1]))
        if not all(1 <= d <= 6 for d in self.dice):
            raise DiceError("each die is a number from 1 to 6", key="bad_dice")
        self._steps = tuple((int(a), int(b)) for a, b in steps)
        self._rules = None
        self._rule: StepRule | None = step_rule(start)
        self._hits: tuple[bool, ...] | None = None
        self.result = result if result is not None else replay(start, self._steps, self.dice)[0]

    @classmethod
    def _trusted(  # type: ignore[override]
        cls, start: TavliPosition, dice: tuple[int, int], steps: tuple[Step, ...], result: TavliPosition, rule: StepRule
    ) -> TavliPlay:
        """Build without checks, for the move generator's hot path."""
        play = object.__new__(cls)
        play.start = start
        play.dice = dice
        play._steps = steps
        play._rules = None
        play._rule = rule
        play._hits = None
        play.result = result
        return play

    def _canonical(self) -> None:
        if self._hits is None:
            self._steps, self._hits = canonical_order(self) if self._steps else ((), ())

    @property
    def steps(self) -> tuple[Step, ...]:
        """The (from, to) steps in canonical order; 0 is the bar, 25 off."""
        self._canonical()
        return self._steps

    @property
    def hits(self) -> tuple[bool, ...]:
        """For each step of ``steps``: did its landing hit (Portes) or pin (Plakoto)?"""
        self._canonical()
        assert self._hits is not None
        return self._hits

    def __repr__(self) -> str:
        return f"TavliPlay({self.start!r}, {self.dice!r}, {self.steps!r})"
