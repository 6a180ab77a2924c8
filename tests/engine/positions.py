"""Position helpers for tests: build positions from {point: count} maps and random positions."""

from __future__ import annotations

import random

from fevga import Position, legal_plays


def pos(mine: dict[int, int], theirs: dict[int, int], me_off: int = 0, opp_off: int = 0) -> Position:
    """Mine on my points, theirs on THEIR OWN points; counts must add up to 15 each."""
    me = [0] * 24
    opp = [0] * 24
    for p, c in mine.items():
        me[p - 1] = c
    for q, c in theirs.items():
        opp[q - 1] = c
    return Position.from_lists(me, opp, me_off, opp_off)


def random_game_position(rng: random.Random, max_turns: int = 150) -> Position:
    """A position reached by random self-play from the start (a realistic position)."""
    p = Position.start()
    for _ in range(rng.randint(0, max_turns)):
        plays = legal_plays(p, (rng.randint(1, 6), rng.randint(1, 6)))
        after = rng.choice(plays).result.flip()
        if after.is_over():
            break
        p = after
    return p


def random_placement(rng: random.Random) -> Position:
    """Any valid placement of 15 + 15 checkers (not necessarily reachable in a game)."""
    board = [0] * 24
    me_off = rng.choice([0, 0, 0, rng.randint(0, 14)])
    opp_off = rng.choice([0, 0, 0, rng.randint(0, 14)])
    for _ in range(15 - me_off):
        board[rng.randrange(24)] += 1
    free = [i for i in range(24) if board[i] == 0]
    for _ in range(15 - opp_off):
        board[rng.choice(free)] -= 1
    return Position(tuple(board), me_off, opp_off)
