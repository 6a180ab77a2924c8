"""Arbitrary Portes and Plakoto positions for the compiled-core tests: placements with both bars,
blots, pins (a mother too) and crowded home boards, or positions met in random self-play."""

from __future__ import annotations

import random

from fevga.variants import TavliPosition

from .tavli_positions import random_tavli_position


def portes_placement(rng: random.Random) -> TavliPosition:
    """Any Portes placement: checkers on both bars, blots everywhere, often packed near the mover's
    home (bearing off, hits during the bear-off, blocked entries)."""
    board = [0] * 24
    me_off = rng.choice([0, 0, rng.randint(0, 14)])
    me_bar = rng.choice([0, 0, 0, rng.randint(1, min(4, 15 - me_off))])
    low = rng.choice((0, 0, 12, 18))
    for _ in range(15 - me_off - me_bar):
        board[rng.randrange(low, 24)] += 1
    opp_off = rng.choice([0, 0, rng.randint(0, 14)])
    opp_bar = rng.choice([0, 0, rng.randint(0, 15 - opp_off)])
    free = [i for i in range(24) if board[i] == 0]
    for _ in range(15 - opp_off - opp_bar):
        board[rng.choice(free)] -= 1
    return TavliPosition(tuple(board), me_off, opp_off, "portes", me_bar=me_bar, opp_bar=opp_bar)


def plakoto_placement(rng: random.Random) -> TavliPosition:
    """Any Plakoto placement: checkers of either side pinned (a mother too), lone checkers to pin,
    often packed near the mover's home (bearing off refused while pinned, release by bearing off)."""
    board = [0] * 24
    pins = [0] * 24
    me_off = rng.choice([0, 0, rng.randint(0, 12)])
    opp_off = rng.choice([0, 0, rng.randint(0, 12)])
    low = rng.choice((0, 0, 12, 18))
    mine = 15 - me_off
    theirs = 15 - opp_off
    for i in rng.sample(range(24), rng.choice((0, 0, 1, 2))):  # my checkers pinned under his
        if mine > 1 and theirs > 1:
            board[i], pins[i] = -1, 1
            mine -= 1
            theirs -= 1
    spots = [i for i in range(low, 24) if not pins[i]]
    for _ in range(mine):
        board[rng.choice(spots)] += 1
    held = [i for i in range(24) if board[i] > 0]
    for i in rng.sample(held, min(len(held), rng.choice((0, 0, 1, 2)))):
        if theirs > 1:  # one of his pinned under my checkers
            pins[i] = -1
            theirs -= 1
    others = [i for i in range(24) if board[i] == 0 or pins[i] == 1]
    for _ in range(theirs):
        board[rng.choice(others)] -= 1
    return TavliPosition(tuple(board), me_off, opp_off, "plakoto", tuple(pins))


def any_position(game: str, rng: random.Random) -> TavliPosition:
    """A self-play position (half the time) or an arbitrary placement of ``game``."""
    if rng.random() < 0.5:
        return random_tavli_position(game, rng)
    return portes_placement(rng) if game == "portes" else plakoto_placement(rng)
