"""The step builder of Portes and Plakoto (``fevga.builder.step_options`` dispatches here): which
(point, die) steps can start or continue a legal play; point 0 is the bar. Each pending step, and
each offered step, says whether its landing hits (Portes) or pins (Plakoto), so buttons can show it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..builder_state import PendingStep, StepState
from ..errors import IllegalStepError
from ..play import Play, Step
from .position import TavliPosition
from .state import StepState as WalkState
from .tavli import BAR_ONLY, POINTS_1_24, dice_pool, step_rule


def tavli_step_options(
    position: TavliPosition, dice: tuple[int, int], legal: list[Play], pending: Sequence[PendingStep]
) -> StepState:
    """Apply the pending (from point, die) steps and list the next possible ones; raise
    IllegalStepError for a pending step that no legal play can use."""
    if not legal or legal[0].is_pass:
        return StepState((), (), {}, None)
    rule = step_rule(position)
    n = len(legal[0].steps)
    targets: dict[tuple[Any, ...], Play] = {}
    for candidate in legal:
        assert isinstance(candidate.result, TavliPosition)
        targets[rule.key(WalkState(candidate.result))] = candidate
    s = WalkState(position)
    memo: dict[tuple[tuple[Any, ...], tuple[int, ...]], bool] = {}

    def moves(rest: tuple[int, ...]) -> list[tuple[int, int, int]]:
        """Every legal single step now: (from point, die, landing point)."""
        facts = rule.facts(s)
        found = []
        for d in sorted(set(rest)):
            for p in BAR_ONLY if s.bar else POINTS_1_24:
                t = rule.landing(s, p, d, facts)
                if t >= 0:
                    found.append((p, d, t))
        return found

    def completes(rest: tuple[int, ...], depth: int) -> bool:
        """Can the steps still to come, with dice ``rest``, end in one of the legal plays?"""
        key = rule.key(s)
        if depth == n:
            return key in targets
        if (key, rest) not in memo:
            ok = False
            for p, d, t in moves(rest):
                flag = rule.apply(s, p, t)
                ok = completes(_without(rest, d), depth + 1)
                rule.undo(s, p, t, flag)
                if ok:
                    break
            memo[(key, rest)] = ok
        return memo[(key, rest)]

    left = dice_pool(dice)
    done: list[Step] = []
    hits: list[bool] = []
    for src, die in pending:
        if die not in left or not 0 <= src <= 24 or len(done) >= n:
            raise IllegalStepError(f"step {src} with {die}", point=src, die=die)
        t = rule.landing(s, src, die, rule.facts(s))
        if t < 0:
            raise IllegalStepError(f"step {src} with {die}", point=src, die=die)
        flag = rule.apply(s, src, t)
        rest = _without(left, die)
        if not completes(rest, len(done) + 1):
            rule.undo(s, src, t, flag)
            raise IllegalStepError(f"step {src} with {die}", point=src, die=die)
        left = rest
        done.append((src, t))
        hits.append(bool(flag & 1))
    options: dict[int, list[int]] = {}
    hitting: set[tuple[int, int]] = set()
    if len(done) < n:
        for p, d, t in moves(left):
            flag = rule.apply(s, p, t)
            ok = completes(_without(left, d), len(done) + 1)
            rule.undo(s, p, t, flag)
            if ok:
                options.setdefault(p, []).append(d)
                if flag & 1:
                    hitting.add((p, d))
    play = targets.get(rule.key(s)) if len(done) == n else None
    return StepState(tuple(done), left, options, play, tuple(hits), frozenset(hitting))


def _without(dice: tuple[int, ...], d: int) -> tuple[int, ...]:
    """``dice`` with one ``d`` taken out."""
    rest = list(dice)
    rest.remove(d)
    return tuple(rest)
