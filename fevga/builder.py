"""The step builder behind buttons: which (point, die) steps can start or continue a legal play.

A step is offered only if some legal play (as the engine judges it, by the position it leaves) can
still be completed after it, so a player clicking steps can never build an illegal play. Steps are
judged with ``fevga.steps.apply_step``, the same rule the move generator and the diagnosis use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .builder_state import PendingStep, StepState
from .errors import IllegalStepError
from .play import Play
from .position import Position
from .steps import Step, apply_step, next_steps
from .variants.builder import tavli_step_options
from .variants.position import TavliPosition

__all__ = ["PendingStep", "StepState", "step_options"]

def _dice_list(dice: tuple[int, int]) -> list[int]:
    """The dice to spend this turn: four of a double, else the two."""
    return [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]


def step_options(
    position: Position, dice: tuple[int, int], rules: Any, legal: list[Play], pending: Sequence[PendingStep]
) -> StepState:
    """Apply the pending (from, die) steps and list the next possible ones; raise IllegalStepError
    for a pending step that no legal play (``legal``: the plays of ``position`` and ``dice``) can use.
    Portes and Plakoto positions go to their builder (``fevga.variants.builder``; bar = point 0)."""
    if isinstance(position, TavliPosition):
        return tavli_step_options(position, dice, legal, pending)
    if not legal or legal[0].is_pass:
        return StepState((), (), {}, None)
    n = len(legal[0].steps)
    targets = {(p.result.board, p.result.me_off): p for p in legal}
    board = list(position.board)
    off = position.me_off
    left = _dice_list(dice)
    done: list[Step] = []
    memo: dict[tuple[tuple[int, ...], int, tuple[int, ...]], bool] = {}

    def completes(b: list[int], o: int, rest: tuple[int, ...], depth: int) -> bool:
        """Can the steps still to come, with dice ``rest``, end in one of the legal plays?"""
        if depth == n:
            return (tuple(b), o) in targets
        key = (tuple(b), o, rest)
        if key not in memo:
            steps = next_steps(b, o, rest, rules)
            memo[key] = any(completes(nb, no, after, depth + 1) for _i, _d, nb, no, after in steps)
        return memo[key]

    for src, die in pending:
        if die not in left or not 1 <= src <= 24 or len(done) >= n:
            raise IllegalStepError(f"step {src} with {die}", point=src, die=die)
        nb = list(board)
        moved = apply_step(nb, off, src - 1, die, rules)
        rest = list(left)
        rest.remove(die)
        if isinstance(moved, int) or not completes(nb, moved[1], tuple(rest), len(done) + 1):
            raise IllegalStepError(f"step {src} with {die}", point=src, die=die)
        board, off, left = nb, moved[1], rest
        done.append((src, moved[0]))
    options: dict[int, list[int]] = {}
    if len(done) < n:
        for i, d, nb, no, after in next_steps(board, off, tuple(left), rules):
            if completes(nb, no, after, len(done) + 1):
                options.setdefault(i + 1, []).append(d)
    play = targets.get((tuple(board), off)) if len(done) == n else None
    return StepState(tuple(done), tuple(left), options, play)
