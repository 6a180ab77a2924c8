"""Hand-made evaluations: a race count (``greedy``) and Fevga's strategic features (``heuristic``).

Both score an *afterstate*: the position a play leaves, still from the mover's view (the
opponent is to roll next). Higher is better for the mover. The features are computed for each
side on its own numbering and the opponent's are subtracted, so the score is antisymmetric.
"""

from __future__ import annotations

from dataclasses import dataclass

from fevga import Position

POINTS = 24


@dataclass(frozen=True, slots=True)
class SideFeatures:
    """One side's strategic features, seen on his own track (points 1..24, 25 = off)."""

    pips: int  # distance to bear everything off
    off: int  # checkers borne off
    blocks: int  # made points ahead of the other side's rearmost checker, within 12 of it
    prime: int  # longest run of such made points
    on_start: int  # checkers still on point 1
    runner: int  # how far the most advanced checker has gone (0..24) while not yet unlocked
    unlocked: bool  # has a checker on 13+ or borne off
    home: int  # checkers on 19..24 or off
    trapped: int  # own checkers with all six points in front of them held by the other side


def side_features(mine: list[int], theirs_in_my_numbering: list[int], off: int) -> SideFeatures:
    """Features of the side whose checkers per own point are ``mine`` (index 0 = point 1).

    ``theirs_in_my_numbering[i]`` counts the other side's checkers on my point i+1.
    """
    pips = 0
    home = off
    furthest = -1
    for i, c in enumerate(mine):
        if c:
            pips += c * (POINTS - i)
            furthest = i
            if i >= 18:
                home += c
    # The other side runs my points 13..24 then 1..12; his rearmost checker is the first he meets.
    rear = -1
    for k in range(POINTS):
        i = (k + 12) % POINTS
        if theirs_in_my_numbering[i]:
            rear = k
            break
    blocks = 0
    prime = 0
    if rear >= 0:
        run = 0
        for k in range(rear + 1, min(rear + 13, POINTS)):
            if mine[(k + 12) % POINTS] > 0:
                blocks += 1
                run += 1
                if run > prime:
                    prime = run
            else:
                run = 0
    trapped = 0
    for i, c in enumerate(mine):
        if c and i < 18:
            held = 0
            for d in range(1, 7):
                j = i + d
                if j < POINTS and theirs_in_my_numbering[j] > 0:
                    held += 1
            if held == 6:
                trapped += c
    unlocked = off > 0 or any(mine[12:])
    runner = 0 if unlocked else max(furthest, 0)
    return SideFeatures(pips, off, blocks, prime, mine[0], runner, unlocked, home, trapped)


def both_sides(position: Position) -> tuple[SideFeatures, SideFeatures]:
    """(mover's features, opponent's features), each on its own track."""
    board = position.board
    mine = [c if c > 0 else 0 for c in board]
    theirs = [-c if c < 0 else 0 for c in board]  # at my numbering
    opp_own = theirs[12:] + theirs[:12]  # opponent's point q is my index (q + 11) % 24
    mine_in_opp = mine[12:] + mine[:12]
    me = side_features(mine, theirs, position.me_off)
    opp = side_features(opp_own, mine_in_opp, position.opp_off)
    return me, opp


def race_score(position: Position) -> float:
    """``greedy``: pip lead plus a little for borne-off checkers and for bringing up the rear."""
    board = position.board
    mine = 0
    rear_cost = 0.0
    for i, c in enumerate(board):
        if c > 0:
            mine += c * (POINTS - i)
            rear_cost += c * (POINTS - i) ** 2
    _, theirs = position.pips()
    return (theirs - mine) + 0.5 * position.me_off - 0.002 * rear_cost


def _side_value(f: SideFeatures, other: SideFeatures) -> float:
    """Strategic value of one side; weights set by hand and checked by bench_ai.py."""
    contact = f.blocks > 0 or other.blocks > 0 or f.trapped > 0 or other.trapped > 0
    value = -1.0 * f.pips + 2.0 * f.off
    if contact:
        value += 6.0 * f.blocks + 3.0 * f.prime * f.prime
        value -= 8.0 * f.trapped
        value -= 1.5 * max(0, f.on_start - 2) if f.unlocked else 0.0
    if not f.unlocked:
        value += 1.5 * f.runner - 3.0 * f.on_start
    else:
        value += 10.0
    value += 0.8 * f.home
    return value


def heuristic_score(position: Position) -> float:
    """``heuristic``: pips, blocking points and primes ahead of his rearmost checkers, checkers on
    the start point, the runner's progress and bear-off progress, mover minus opponent."""
    if position.me_off == 15:
        return 1000.0 * (2 if position.opp_off == 0 else 1)
    me, opp = both_sides(position)
    return _side_value(me, opp) - _side_value(opp, me)
