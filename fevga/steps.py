"""The rule of one step, in one place: where a die takes a checker (rules 2-4, strict R1), applying
it, and the canonical order of a play's steps. Move generation, diagnosis, the step builder and
``Play`` all judge steps with these functions."""

from __future__ import annotations

from collections.abc import Iterator

from .rules import CHECKERS, OFF, Rules

Step = tuple[int, int]  # (from point, to point) in the mover's numbering; to == OFF bears off

# Reasons a single step is illegal (negative codes of step_target).
NO_CHECKER = -1
BLOCKED = -2
RUNNER_LOCK = -3
NOT_ALL_HOME = -4
OVERSHOOT = -5
STRICT_R1 = -6

OFF_INDEX = OFF - 1  # step_target's answer for a step that bears off (the board index past point 24)


def is_unlocked(board: list[int] | tuple[int, ...], off: int, unlock_point: int) -> bool:
    """True once the mover has a checker on his ``unlock_point`` or beyond, or borne off."""
    if off:
        return True
    for i in range(unlock_point - 1, 24):
        if board[i] > 0:
            return True
    return False


def all_home(board: list[int] | tuple[int, ...]) -> bool:
    """True when none of the mover's checkers stands on points 1-18."""
    for i in range(18):
        if board[i] > 0:
            return False
    return True


def holds_start_quarter(board: list[int] | tuple[int, ...]) -> bool:
    """R1: the mover holds all six of his points 1-6."""
    return board[0] > 0 and board[1] > 0 and board[2] > 0 and board[3] > 0 and board[4] > 0 and board[5] > 0


def state_facts(board: list[int] | tuple[int, ...], off: int, rules: Rules) -> tuple[int, bool, bool]:
    """What every step from this state shares: (index of the mover's rearmost checker or -1,
    all home (rule 4), runner locked (rule 3: the runner has left and nothing reached the unlock point))."""
    unlock_index = rules.unlock_point - 1
    unlocked = off > 0
    home = True
    lowest = -1
    for j in range(24):
        if board[j] > 0:
            if lowest < 0:
                lowest = j
            if j < 18:
                home = False
            if j >= unlock_index:
                unlocked = True
    return lowest, home, not unlocked and board[0] < CHECKERS - off


def landing(board: list[int], i: int, d: int, lowest: int, home: bool, runner_locked: bool, rules: Rules) -> int:
    """THE rule of one step (rules 2-4, strict R1), given the state's facts (see ``state_facts``):
    the index a step of ``d`` from index ``i`` lands on (OFF_INDEX = off), or a negative reason code."""
    if board[i] <= 0:
        return NO_CHECKER
    if i == 0 and runner_locked:
        return RUNNER_LOCK
    t = i + d
    if t < OFF_INDEX:
        if board[t] < 0:
            return BLOCKED
        if rules.strict_start_quarter:
            board[i] -= 1
            board[t] += 1
            bad = holds_start_quarter(board)
            board[t] -= 1
            board[i] += 1
            if bad:
                return STRICT_R1
        return t
    if not home:
        return NOT_ALL_HOME
    if t > OFF_INDEX and i > lowest:  # a higher die bears off only the rearmost checker
        return OVERSHOOT
    return OFF_INDEX


def step_target(board: list[int], off: int, i: int, d: int, rules: Rules) -> int:
    """Index where a step of ``d`` from index ``i`` lands (OFF_INDEX = off), or a negative reason code,
    judged on the board as it is now (``landing`` with this state's facts)."""
    lowest, home, runner_locked = state_facts(board, off, rules)
    return landing(board, i, d, lowest, home, runner_locked, rules)


def apply_step(board: list[int], off: int, i: int, d: int, rules: Rules) -> tuple[int, int] | int:
    """Play die ``d`` from index ``i`` on ``board`` in place: (point reached, borne-off count after),
    or the negative reason code (board untouched) when the step is illegal now."""
    t = step_target(board, off, i, d, rules)
    return t if t < 0 else _move(board, off, i, t)


def _move(board: list[int], off: int, i: int, t: int) -> tuple[int, int]:
    """Move a checker from index ``i`` to index ``t`` (OFF_INDEX = off): (point reached, borne-off count)."""
    board[i] -= 1
    if t == OFF_INDEX:
        return OFF, off + 1
    board[t] += 1
    return t + 1, off


def next_steps(
    board: list[int], off: int, dice_left: tuple[int, ...], rules: Rules
) -> Iterator[tuple[int, int, list[int], int, tuple[int, ...]]]:
    """Every legal single step from this state, dice in rising order then points 1-24: (index, die,
    board after (a new list), borne-off count after, dice left after). The state's facts are
    worked out once for all its steps."""
    lowest, home, runner_locked = state_facts(board, off, rules)
    for d in sorted(set(dice_left)):
        rest = list(dice_left)
        rest.remove(d)
        after = tuple(rest)
        for i in range(24):
            if board[i] <= 0:
                continue
            t = landing(board, i, d, lowest, home, runner_locked, rules)
            if t >= 0:
                nb = list(board)
                yield i, d, nb, _move(nb, off, i, t)[1], after


def undo_step(board: list[int], i: int, dst: int) -> None:
    """Take back a step from index ``i`` that reached point ``dst`` (OFF included) on ``board``."""
    board[i] += 1
    if dst != OFF:
        board[dst - 1] -= 1


def die_of(step: Step, dice: tuple[int, int]) -> int:
    """The die a single-die step uses: its length, or for a bear-off the exact die if rolled, else the higher."""
    src, dst = step
    need = dst - src
    if dst != OFF or need in dice:
        return need
    return max(dice)


def canonical_order(
    board: tuple[int, ...], off: int, steps: tuple[Step, ...], dice: tuple[int, int], rules: Rules
) -> tuple[Step, ...]:
    """The play's steps in canonical order: the smallest by (from, to) among the orders that are a
    valid sequence from ``board``; the plain sorted order when none is (a hand-built illegal play).

    Sorted order is valid unless the runner lock or strict R1 can bite (a step from point 1 while
    locked, or the strict variant); only then are other orders searched (at most 4! of them).
    """
    ordered = tuple(sorted(steps))
    if len(ordered) < 2:
        return ordered
    if not rules.strict_start_quarter and (ordered[0][0] != 1 or is_unlocked(board, off, rules.unlock_point)):
        return ordered
    found = _smallest_valid(list(board), off, ordered, dice, rules)
    return found if found is not None else ordered


def _smallest_valid(
    board: list[int], off: int, left: tuple[Step, ...], dice: tuple[int, int], rules: Rules
) -> tuple[Step, ...] | None:
    """Depth-first over the sorted ``left`` steps: the first (smallest) order whose every step is legal."""
    if not left:
        return ()
    tried: set[Step] = set()
    for k, step in enumerate(left):
        if step in tried:
            continue
        tried.add(step)
        moved = apply_step(board, off, step[0] - 1, die_of(step, dice), rules)
        if isinstance(moved, int) or moved[0] != step[1]:
            if not isinstance(moved, int):
                undo_step(board, step[0] - 1, moved[0])
            continue
        rest = _smallest_valid(board, moved[1], left[:k] + left[k + 1 :], dice, rules)
        undo_step(board, step[0] - 1, moved[0])
        if rest is not None:
            return (step, *rest)
    return None
