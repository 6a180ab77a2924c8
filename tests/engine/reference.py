"""A slow, literal reading of RULES.md used only to cross-check the fast generator.

Positions are (mine, theirs, my_off, their_off): mine[p] for my points 1..24 (index 0 unused),
theirs[q] for the opponent's own points 1..24.
"""

from __future__ import annotations

from itertools import permutations

Pos = tuple[tuple[int, ...], tuple[int, ...], int, int]


def mine_at(pos: Pos, p: int) -> int:
    return pos[0][p]


def theirs_at_my(pos: Pos, p: int) -> int:
    return pos[1][(p + 11) % 24 + 1]


def unlocked(pos: Pos, unlock: int) -> bool:
    return pos[2] > 0 or any(pos[0][p] for p in range(unlock, 25))


def step(pos: Pos, p: int, d: int, unlock: int, strict: bool) -> Pos | None:
    mine, theirs, off, toff = pos
    if mine[p] == 0:
        return None
    if p == 1 and not unlocked(pos, unlock) and any(mine[q] for q in range(2, 25)):
        return None
    t = p + d
    new = list(mine)
    new[p] -= 1
    if t <= 24:
        if theirs_at_my(pos, t):
            return None
        new[t] += 1
        result = (tuple(new), theirs, off, toff)
        if strict and all(new[q] for q in range(1, 7)):
            return None
        return result
    if any(mine[q] for q in range(1, 19)):
        return None
    if t > 25 and any(mine[q] for q in range(19, p)):
        return None
    return (tuple(new), theirs, off + 1, toff)


def opponent_moves(pos: Pos, unlock: int) -> bool:
    mine, theirs, off, toff = pos
    flipped: Pos = (theirs, mine, toff, off)  # each side keeps its own numbering
    return any(step(flipped, q, d, unlock, False) for q in range(1, 25) for d in range(1, 7))


def legal_results(pos: Pos, dice: tuple[int, int], unlock: int = 13, strict: bool = False) -> set[Pos]:
    a, b = dice
    orders = [(a,) * 4] if a == b else list(set(permutations((a, b))))
    reached: dict[Pos, tuple[int, set[int]]] = {}

    def walk(cur: Pos, left: tuple[int, ...], n: int, first: int) -> None:
        if n:
            prev = reached.get(cur)
            used = {first} if n == 1 else set()
            reached[cur] = (max(n, prev[0]), prev[1] | used) if prev else (n, used)
        if not left or cur[2] == 15:
            return
        for p in range(1, 25):
            nxt = step(cur, p, left[0], unlock, strict)
            if nxt is not None:
                walk(nxt, left[1:], n + 1, first if n else left[0])

    for order in orders:
        walk(pos, order, 0, 0)
    ok = {
        q: v
        for q, v in reached.items()
        if not all(q[0][p] for p in range(1, 7)) and not all(q[0][p] for p in range(14, 20))
    }
    if not ok:
        return {pos}
    best = max(n for n, _ in ok.values())
    keep = {q: v for q, v in ok.items() if v[0] == best}
    if best == 1 and a != b:
        high = {q for q, v in keep.items() if max(a, b) in v[1]}
        if high:
            keep = {q: keep[q] for q in high}
    free = {q for q in keep if q[2] == 15 or opponent_moves(q, unlock)}
    return free or set(keep)
