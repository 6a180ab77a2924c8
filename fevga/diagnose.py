"""Say which rule an entered play breaks: replay its steps die by die and check each rule in order."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from .errors import IllegalPlayError
from .movegen import holds_before_opp_start, opponent_can_move
from .play import Play, Step, apply_steps
from .position import Position
from .rules import OFF, Rules
from .steps import (
    BLOCKED,
    NO_CHECKER,
    NOT_ALL_HOME,
    OVERSHOOT,
    RUNNER_LOCK,
    STRICT_R1,
    apply_step,
    holds_start_quarter,
)


def _decompositions(src: int, dst: int, dice: tuple[int, ...]) -> Iterator[tuple[list[int], tuple[int, ...]]]:
    """Ways to cover the move src->dst with dice from ``dice``: (dice used in order, dice left)."""

    def rec(at: int, used: list[int], left: tuple[int, ...]) -> Iterator[tuple[list[int], tuple[int, ...]]]:
        tried: set[int] = set()
        for k, d in enumerate(left):
            if d in tried:
                continue
            tried.add(d)
            nxt = at + d
            rest = left[:k] + left[k + 1 :]
            if nxt == dst or (dst == OFF and nxt > OFF):
                yield [*used, d], rest
            elif nxt < dst and nxt < OFF:
                yield from rec(nxt, [*used, d], rest)

    yield from rec(src, [], dice)


def _step_message(code: int, src: int, d: int, rules: Rules) -> IllegalPlayError:
    dst = min(src + d, OFF)
    if code == NO_CHECKER:
        return IllegalPlayError(f"you have no checker on point {src}", key="no_checker", rule="steps", point=src)
    if code == BLOCKED:
        return IllegalPlayError(
            f"point {dst} is held by your opponent", key="point_held", rule="no-hitting", point=dst
        )
    if code == RUNNER_LOCK:
        return IllegalPlayError(
            f"only your runner may move until it reaches point {rules.unlock_point}",
            key="runner_lock",
            rule="runner",
            point=rules.unlock_point,
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
    if code == STRICT_R1:
        return IllegalPlayError(
            "this would leave all of your points 1-6 blocked (R1)", key="r1", rule="R1"
        )
    return IllegalPlayError("that play is not legal", key="illegal_play", rule="")


def _chains(moves: list[Step], dice: tuple[int, ...]) -> Iterator[list[list[tuple[int, int]]]]:
    """Every way to split each typed move into single-die steps (from point, die): one chain per move."""

    def rec(k: int, left: tuple[int, ...], acc: list[list[tuple[int, int]]]) -> Iterator[list[list[tuple[int, int]]]]:
        if k == len(moves):
            yield acc
            return
        src, dst = moves[k]
        for used, rest in _decompositions(src, dst, left):
            chain = []
            at = src
            for d in used:
                chain.append((at, d))
                at += d
            yield from rec(k + 1, rest, [*acc, chain])

    yield from rec(0, dice, [])


def sequences(moves: list[Step], dice: tuple[int, ...]) -> Iterator[list[tuple[int, int]]]:
    """Every way to split the typed moves into single-die steps (from point, die), move after move."""
    for chains in _chains(moves, dice):
        yield [step for chain in chains for step in chain]


def step_orders(moves: list[Step], dice: tuple[int, ...]) -> Iterator[list[tuple[int, int]]]:
    """Every single-die step order (from point, die) that plays all the typed ``moves``: each move split
    into dice in every way, and the moves' steps interleaved in every order that keeps each checker's own
    steps in order (so two checkers may enter from the bar before either moves on). The typed order
    comes first; no order twice."""

    def weave(chains: list[list[tuple[int, int]]]) -> Iterator[list[tuple[int, int]]]:
        if not any(chains):
            yield []
            return
        for i, chain in enumerate(chains):
            if chain:
                for tail in weave([*chains[:i], chain[1:], *chains[i + 1 :]]):
                    yield [chain[0], *tail]

    seen: set[tuple[tuple[int, int], ...]] = set()
    for chains in _chains(moves, dice):
        for seq in weave(chains):
            if (key := tuple(seq)) not in seen:
                seen.add(key)
                yield seq


def orders(moves: list[Step]) -> Iterator[list[Step]]:
    """The typed order first, then every other distinct order of the moves."""
    yield moves
    seen = {tuple(moves)}
    for order in itertools.permutations(moves):
        if order not in seen:
            seen.add(order)
            yield list(order)


def explain_illegal(
    position: Position, dice: tuple[int, int], rules: Rules, moves: list[Step], plays: list[Play]
) -> IllegalPlayError:
    """The error for typed ``moves`` that match none of the legal ``plays``."""
    a, b = dice
    pool = (a, a, a, a) if a == b else (a, b)
    best = len(plays[0].steps)
    deepest: tuple[int, IllegalPlayError] | None = None
    candidates = (seq for order in orders(moves) for seq in sequences(order, pool))
    for seq in candidates:
        board = list(position.board)
        off = position.me_off
        failed = False
        for n, (src, d) in enumerate(seq):
            moved = apply_step(board, off, src - 1, d, rules)
            if isinstance(moved, int):
                if deepest is None or n > deepest[0]:
                    deepest = (n, _step_message(moved, src, d, rules))
                failed = True
                break
            off = moved[1]
        if failed:
            continue
        return _end_of_play_error(board, off, position, dice, rules, seq, best)
    if deepest is not None:
        return deepest[1]
    try:
        apply_steps(position, tuple(moves))
    except IllegalPlayError as exc:
        return exc
    used = "-".join(str(d) for d in dice)
    return IllegalPlayError(
        f"those steps do not fit your dice {used}", key="dice_mismatch", rule="dice", dice=used
    )


def _end_of_play_error(
    board: list[int],
    off: int,
    position: Position,
    dice: tuple[int, int],
    rules: Rules,
    seq: list[tuple[int, int]],
    best: int,
) -> IllegalPlayError:
    """All steps were legal one by one: the play breaks R1, R2, rule 6 or R3."""
    if holds_start_quarter(board):
        return IllegalPlayError("this would leave all of your points 1-6 blocked (R1)", key="r1", rule="R1")
    if holds_before_opp_start(board):
        return IllegalPlayError(
            "this would hold all six of your points 14-19, a wall in front of your opponent's start (R2)",
            key="r2",
            rule="R2",
        )
    a, b = dice
    if len(seq) < best:
        if a != b and best == 2:
            return IllegalPlayError("you must use both dice", key="use_both", rule="max-dice")
        return IllegalPlayError(
            f"you must use as many dice as possible: {best} steps", key="use_more", rule="max-dice", steps=best
        )
    if best == 1 and a != b and seq[0][1] != max(a, b):
        return IllegalPlayError(
            f"you must play the higher die ({max(a, b)})", key="higher_die", rule="higher-die", die=max(a, b)
        )
    if off < 15 and not opponent_can_move(board, position.opp_off, rules):
        return IllegalPlayError(
            "this would leave your opponent without any move (R3): you must leave him a way out",
            key="r3",
            rule="R3",
        )
    return IllegalPlayError("that play is not legal", key="illegal_play", rule="")
