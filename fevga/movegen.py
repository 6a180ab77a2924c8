"""Legal plays of a roll, exactly as RULES.md says (rules 1-8: steps, no hitting, the runner,
bearing off, R1/R2 on the final position, maximum dice, higher die, R3).

The generator walks every order of steps depth-first on one mutable board, remembering visited
(position, dice left) states, so permutations that meet again are expanded once. Its inner loop
judges each step with the facts of the state computed once (the same rule as
``fevga.steps.step_target``, which it calls for the strict variant); see docs/engine.md.
"""

from __future__ import annotations

from typing import Any

from . import accel as _accel
from .dice import check_dice
from .play import Play
from .position import Position
from .rules import CHECKERS, DEFAULT_RULES, OFF, Rules
from .steps import (
    BLOCKED,
    NO_CHECKER,
    NOT_ALL_HOME,
    OFF_INDEX,
    OVERSHOOT,
    RUNNER_LOCK,
    STRICT_R1,
    Step,
    all_home,
    holds_start_quarter,
    is_unlocked,
    landing,
    state_facts,
    step_target,
)
from .variants.position import TavliPosition
from .variants.tavli import tavli_legal_plays

__all__ = [
    "BLOCKED",
    "NOT_ALL_HOME",
    "NO_CHECKER",
    "OVERSHOOT",
    "RUNNER_LOCK",
    "STRICT_R1",
    "all_home",
    "check_dice",
    "holds_before_opp_start",
    "holds_start_quarter",
    "is_unlocked",
    "legal_plays",
    "opponent_can_move",
    "opponent_targets",
    "step_target",
]

def holds_before_opp_start(board: list[int] | tuple[int, ...]) -> bool:
    """R2: the mover holds all six of his points 14-19 (the opponent's 2-7)."""
    return (
        board[13] > 0 and board[14] > 0 and board[15] > 0 and board[16] > 0 and board[17] > 0 and board[18] > 0
    )


def opponent_can_move(board: tuple[int, ...] | list[int], opp_off: int, rules: Rules) -> bool:
    """R3: does the opponent have at least one legal step (rules 2-4) for some die 1..6?

    Works on the mover's board: the opponent's point q is the mover's index (q + 11) % 24.
    """
    if opp_off >= CHECKERS:
        return True
    unlocked = opp_off > 0
    home = True
    first = 0  # opponent's lowest occupied point
    for q in range(1, 25):
        c = board[(q + 11) % 24]
        if c < 0:
            if not first:
                first = q
            if q >= rules.unlock_point:
                unlocked = True
            if q < 19:
                home = False
    start_count = -board[12] if board[12] < 0 else 0
    runner_locked = not unlocked and start_count < CHECKERS - opp_off
    for q in range(1, 25):
        if board[(q + 11) % 24] >= 0:
            continue
        if q == 1 and runner_locked:
            continue
        for d in range(1, 7):
            t = q + d
            if t <= 24:
                if board[(t + 11) % 24] <= 0:
                    return True
            elif home and (t == OFF or q == first):
                return True
    return False


Ends = dict[tuple[tuple[int, ...], int], tuple[tuple[Step, ...], int]]


def _explore(position: Position, dice: tuple[int, int], rules: Rules) -> Ends:
    """Every position reachable with 1..n steps: key -> (steps, bitmask of dice of 1-step plays)."""
    a, b = dice
    board = list(position.board)
    ends: Ends = {}
    seen: set[tuple[tuple[int, ...], int, tuple[int, ...]]] = set()
    orders: list[tuple[int, ...]] = [(a, a, a, a)] if a == b else [(a, b), (b, a)]
    steps: list[Step] = []

    strict = rules.strict_start_quarter

    def walk(off: int, left: tuple[int, ...]) -> None:
        """Play the die ``left[0]`` from every checker that may move, record the end, go deeper."""
        d = left[0]
        rest = left[1:]
        lowest, home, runner_locked = state_facts(board, off, rules)
        for i in range(lowest, 24):
            # ``landing(board, i, d, lowest, home, runner_locked, rules) < 0`` inlined: the hot path.
            if board[i] <= 0 or (i == 0 and runner_locked):
                continue
            t = i + d
            if t < OFF_INDEX:
                if board[t] < 0 or (strict and landing(board, i, d, lowest, home, runner_locked, rules) < 0):
                    continue
            elif not home or (t > OFF_INDEX and i > lowest):
                continue
            else:
                t = OFF_INDEX
            board[i] -= 1
            if t == OFF_INDEX:
                new_off = off + 1
                dst = OFF
            else:
                board[t] += 1
                new_off = off
                dst = t + 1
            key = (tuple(board), new_off)
            steps.append((i + 1, dst))
            depth = len(steps)
            prev = ends.get(key)
            if prev is None:
                ends[key] = (tuple(steps), 1 << d if depth == 1 else 0)
            elif depth == 1:
                ends[key] = (prev[0], prev[1] | 1 << d)
            elif len(prev[0]) < depth:  # overshooting bear-offs can leave one position in fewer steps
                ends[key] = (tuple(steps), prev[1])
            if rest and new_off < CHECKERS:
                seen_key = (key[0], new_off, rest)
                if seen_key not in seen:
                    seen.add(seen_key)
                    walk(new_off, rest)
            steps.pop()
            if t != OFF_INDEX:
                board[t] -= 1
            board[i] += 1

    for order in orders:
        walk(position.me_off, order)
    return ends


def legal_plays(position: Position, dice: tuple[int, int], rules: Any = DEFAULT_RULES) -> list[Play]:
    """All legal plays for ``dice``, one per distinct final position; ``[pass]`` if none moves.

    A Portes or Plakoto position (``fevga.variants.TavliPosition``) goes to its game's generator
    (its ``rules`` only score games, so they do not matter here). Both use the compiled core
    (fevga.accel) when it is loaded; it computes what the pure-Python generators do."""
    if isinstance(position, TavliPosition):
        if _accel.core is not None:
            return _accel.core.tavli_legal_plays(position, dice)
        return tavli_legal_plays(position, dice)
    if _accel.core is not None:
        return _accel.core.legal_plays(position, dice, rules)
    return legal_plays_reference(position, dice, rules)


def legal_plays_reference(position: Position, dice: tuple[int, int], rules: Rules = DEFAULT_RULES) -> list[Play]:
    """The pure-Python generator (the reference the compiled core is checked against)."""
    dice = check_dice(dice)
    if position.me_off >= CHECKERS or position.opp_off >= CHECKERS:
        return [Play(position, dice, (), position)]
    ends = _explore(position, dice, rules)
    best = 0
    allowed = []
    for (board, off), (steps, mask) in ends.items():
        if holds_start_quarter(board) or holds_before_opp_start(board):
            continue
        n = len(steps)
        if n > best:
            best = n
            allowed = [(board, off, steps, mask)]
        elif n == best:
            allowed.append((board, off, steps, mask))
    if not allowed:
        return [Play(position, dice, (), position)]
    a, b = dice
    if best == 1 and a != b:
        high = 1 << max(a, b)
        higher = [item for item in allowed if item[3] & high]
        if higher:
            allowed = higher
    opp_off = position.opp_off
    plays = [
        Play._trusted(position, dice, steps, Position._trusted(board, off, opp_off), rules)
        for board, off, steps, _ in allowed
    ]
    if len(opponent_targets(position.board, opp_off, rules)) > best:
        return plays  # a play of `best` steps cannot cover all his landing points: R3 holds for all
    free = [p for p in plays if p.result.me_off >= CHECKERS or opponent_can_move(p.result.board, opp_off, rules)]
    return free if free else plays


def opponent_targets(board: tuple[int, ...], opp_off: int, rules: Rules) -> set[int]:
    """Indices (mover's numbering) where the opponent could land a step now; {-1} stands for
    bearing off, which no play of the mover can take from him."""
    targets: set[int] = set()
    unlocked = opp_off > 0
    home = True
    for q in range(1, 25):
        if board[(q + 11) % 24] < 0:
            if q >= rules.unlock_point:
                unlocked = True
            if q < 19:
                home = False
    if home and opp_off < CHECKERS:
        return {-1, -2, -3, -4, -5}  # he can always bear off his rearmost checker
    runner_locked = not unlocked and -board[12] < CHECKERS - opp_off
    for q in range(1, 25):
        if board[(q + 11) % 24] >= 0 or (q == 1 and runner_locked):
            continue
        for d in range(1, 7):
            t = q + d
            if t <= 24 and board[(t + 11) % 24] <= 0:
                targets.add((t + 11) % 24)
    return targets

