"""Say which rule an entered Portes/Plakoto play breaks (like ``fevga.diagnose`` for Fevga): replay
its steps die by die with the game's step rule, and name the first broken rule, each with its key."""

from __future__ import annotations

from ..diagnose import orders, sequences
from ..errors import IllegalPlayError
from ..play import Play, Step
from ..rules import OFF
from .codes import BAR_FIRST, BEAR_OFF_PINNED, BLOCKED, NO_BAR, NO_CHECKER, NOT_ALL_HOME, OVERSHOOT, OWN_PINNED, PINNED
from .position import TavliPosition
from .tavli import dice_pool, play_sequence


def step_error(code: int, src: int, d: int) -> IllegalPlayError:
    """The error of an illegal single step from ``src`` with die ``d`` (``code`` from the step rule)."""
    dst = min(src + d, OFF)
    if code == BAR_FIRST:
        return IllegalPlayError("a checker on the bar must enter first", key="bar_first", rule="bar")
    if code == NO_BAR:
        return IllegalPlayError("you have no checker on the bar", key="no_bar_checker", rule="steps")
    if code == NO_CHECKER:
        return IllegalPlayError(f"you have no checker on point {src}", key="no_checker", rule="steps", point=src)
    if code == BLOCKED:
        return IllegalPlayError(f"point {dst} is blocked", key="blocked", rule="blocked", point=dst)
    if code == PINNED:
        return IllegalPlayError(f"your checker on {src} is pinned", key="pinned", rule="pinned", point=src)
    if code == OWN_PINNED:
        return IllegalPlayError(
            f"you cannot land on {dst}: your own checker is pinned there",
            key="own_pinned_point",
            rule="pinned",
            point=dst,
        )
    if code == BEAR_OFF_PINNED:
        return IllegalPlayError(
            "you cannot bear off while a checker of yours is pinned", key="bear_off_pinned", rule="bear-off"
        )
    if code == NOT_ALL_HOME:
        return IllegalPlayError(
            "you may not bear off while checkers are outside 19-24", key="not_all_home", rule="bear-off"
        )
    if code == OVERSHOOT:
        return IllegalPlayError(
            f"a {d} bears off from point {src} only when no checker of yours is on a lower point of 19-24",
            key="overshoot",
            rule="bear-off",
            point=src,
            die=d,
        )
    return IllegalPlayError("that play is not legal", key="illegal_play", rule="")


def explain_tavli(
    position: TavliPosition, dice: tuple[int, int], moves: list[Step], plays: list[Play]
) -> IllegalPlayError:
    """The error for typed ``moves`` that match none of the legal ``plays`` of a Portes/Plakoto turn."""
    best = len(plays[0].steps)
    deepest: tuple[int, IllegalPlayError] | None = None
    for order in orders(moves):
        for seq in sequences(order, dice_pool(dice)):
            result, code, done = play_sequence(position, seq)
            if result is None:
                if deepest is None or done > deepest[0]:
                    src, d = seq[done]
                    deepest = (done, _too_many_from(seq, done, code) or step_error(code, src, d))
                continue
            return _end_of_play_error(dice, len(seq), seq, best)
    if deepest is not None:
        return deepest[1]
    used = "-".join(str(d) for d in dice)
    return IllegalPlayError(f"those steps do not fit your dice {used}", key="dice_mismatch", rule="dice", dice=used)


def _too_many_from(seq: list[tuple[int, int]], done: int, code: int) -> IllegalPlayError | None:
    """When step ``done`` finds no checker on its point because the steps before it have moved every checker
    there away (``15/21(4)`` with three on 15), the error says how many there were; else None."""
    src = seq[done][0]
    moved = sum(1 for p, _d in seq[:done] if p == src)  # every checker that was there, or came, and has left
    if moved and src == 0 and code == NO_BAR:  # bar/5(3) with two on the bar
        return IllegalPlayError(
            f"you have only {moved} checker{'' if moved == 1 else 's'} on the bar",
            key="only_bar_checkers",
            rule="steps",
            count=moved,
        )
    if code != NO_CHECKER or src == 0 or moved == 0:
        return None
    return IllegalPlayError(
        f"you have only {moved} checker{'' if moved == 1 else 's'} on point {src}",
        key="only_checkers",
        rule="steps",
        point=src,
        count=moved,
    )


def _end_of_play_error(dice: tuple[int, int], n: int, seq: list[tuple[int, int]], best: int) -> IllegalPlayError:
    """Every step was legal one by one: the play breaks the maximum-dice or the higher-die rule."""
    a, b = dice
    if n < best:
        if a != b and best == 2:
            return IllegalPlayError("you must use both dice", key="use_both", rule="max-dice")
        return IllegalPlayError(
            f"you must use as many dice as possible: {best} steps", key="use_more", rule="max-dice", steps=best
        )
    if best == 1 and a != b and seq[0][1] != max(a, b):
        return IllegalPlayError(
            f"you must play the higher die ({max(a, b)})", key="higher_die", rule="higher-die", die=max(a, b)
        )
    return IllegalPlayError("that play is not legal", key="illegal_play", rule="")
