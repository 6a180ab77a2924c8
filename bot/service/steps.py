"""The step builder behind buttons: which (point, die) steps can start or continue a legal play.

A step is offered only if some legal play (as the engine judges it, by the position it leaves) can
still be completed after it, so a player clicking steps can never build an illegal play.
"""

from __future__ import annotations

from dataclasses import dataclass

from fevga import Play, Position, Rules
from fevga.movegen import step_target
from fevga.play import Step

from .session import Session

OFF = 25


@dataclass(frozen=True, slots=True)
class StepState:
    """Where the builder stands: board after the pending steps, dice left, next steps, finished play."""

    steps: tuple[Step, ...]  # pending steps as (from, to)
    dice_left: tuple[int, ...]
    options: dict[int, list[int]]  # from point -> dice that can be used from it now
    play: Play | None  # the legal play the pending steps make, once complete


class StepError(ValueError):
    """A step that cannot be part of any legal play."""


def _dice_list(dice: tuple[int, int]) -> list[int]:
    return [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]


def build(
    position: Position, dice: tuple[int, int], rules: Rules, legal: list[Play], pending: list[tuple[int, int]]
) -> StepState:
    """Apply the pending (from, die) steps and list the next possible ones; raise StepError if lost."""
    if not legal or legal[0].is_pass:
        return StepState((), (), {}, None)
    n = len(legal[0].steps)
    targets = {(p.result.board, p.result.me_off): p for p in legal}
    board = list(position.board)
    off = position.me_off
    left = _dice_list(dice)
    done: list[Step] = []
    memo: dict[tuple[tuple[int, ...], int, tuple[int, ...]], bool] = {}

    def step(b: list[int], o: int, i: int, d: int) -> tuple[int, int] | None:
        t = step_target(b, o, i, d, rules)
        if t < 0:
            return None
        b[i] -= 1
        if t >= 24:
            return OFF, o + 1
        b[t] += 1
        return t + 1, o

    def completes(b: list[int], o: int, rest: tuple[int, ...], depth: int) -> bool:
        if depth == n:
            return (tuple(b), o) in targets
        key = (tuple(b), o, rest)
        if key in memo:
            return memo[key]
        ok = False
        for d in sorted(set(rest)):
            after = list(rest)
            after.remove(d)
            for i in range(24):
                if b[i] <= 0:
                    continue
                nb = list(b)
                moved = step(nb, o, i, d)
                if moved is not None and completes(nb, moved[1], tuple(after), depth + 1):
                    ok = True
                    break
            if ok:
                break
        memo[key] = ok
        return ok

    for src, die in pending:
        if die not in left or not 1 <= src <= 24 or len(done) >= n:
            raise StepError(f"step {src} with {die}")
        nb = list(board)
        moved = step(nb, off, src - 1, die)
        rest = list(left)
        rest.remove(die)
        if moved is None or not completes(nb, moved[1], tuple(rest), len(done) + 1):
            raise StepError(f"step {src} with {die}")
        board, off, left = nb, moved[1], rest
        done.append((src, moved[0]))
    options: dict[int, list[int]] = {}
    if len(done) < n:
        for d in sorted(set(left)):
            rest = list(left)
            rest.remove(d)
            for i in range(24):
                if board[i] <= 0:
                    continue
                nb = list(board)
                moved = step(nb, off, i, d)
                if moved is not None and completes(nb, moved[1], tuple(rest), len(done) + 1):
                    options.setdefault(i + 1, []).append(d)
    play = targets.get((tuple(board), off)) if len(done) == n else None
    return StepState(tuple(done), tuple(left), options, play)


def session_steps(s: Session, pending: list[tuple[int, int]]) -> StepState:
    """The builder on the session's current roll with ``pending`` steps (the service's one call of
    :func:`build`); raise StepError for a step no legal play continues."""
    game = s.game
    assert game.dice is not None
    return build(game.position, game.dice, s.rules, game.legal_plays(), pending)
