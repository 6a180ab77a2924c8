"""An independent brute-force generator for Portes and Plakoto, written from RULES-TAVLI.md alone in
each player's OWN numbering (no signed board, no shared code with fevga.variants), to check
``legal_plays`` against. Slow and simple on purpose."""

from __future__ import annotations

from dataclasses import dataclass, replace

Key = tuple[object, ...]


@dataclass(frozen=True)
class Side:
    """One player's checkers in his own numbering: counts on 1..24 (index 0 unused, pinned ones
    counted), the points of his pinned checkers, his bar and his borne-off count."""

    points: tuple[int, ...]
    pinned: frozenset[int]
    bar: int
    off: int


def _set(points: tuple[int, ...], p: int, delta: int) -> tuple[int, ...]:
    out = list(points)
    out[p] += delta
    return tuple(out)


def step(game: str, me: Side, him: Side, p: int, d: int) -> tuple[Side, Side] | None:
    """One step of die ``d`` from my point ``p`` (0 = bar), or None if the rules forbid it."""
    if game == "portes":
        if me.bar and p != 0:
            return None
        if p == 0 and not me.bar:
            return None
    elif p == 0:
        return None
    if p:
        free = me.points[p] - (1 if p in me.pinned else 0)
        if free <= 0:
            return None
    t = p + d
    if p == 0:
        me = replace(me, bar=me.bar - 1)
    else:
        me = replace(me, points=_set(me.points, p, -1))
        if game == "plakoto" and (25 - p) in him.pinned and me.points[p] == 0:
            him = replace(him, pinned=him.pinned - {25 - p})  # the last pinner left: released
    if t <= 24:
        q = 25 - t  # his number for my point t
        if game == "plakoto" and t in me.pinned:
            return None  # my own checker is pinned there
        if him.points[q] >= 2:
            return None
        if him.points[q] == 1 and q not in him.pinned:
            if game == "portes":
                him = replace(him, points=_set(him.points, q, -1), bar=him.bar + 1)
            else:
                him = replace(him, pinned=him.pinned | {q})
        return replace(me, points=_set(me.points, t, 1)), him
    if me.bar or any(me.points[x] for x in range(1, 19)):
        return None
    if game == "plakoto" and me.pinned:
        return None
    if t > 25 and any(me.points[x] for x in range(19, p)):
        return None
    return replace(me, off=me.off + 1), him


def key(me: Side, him: Side) -> Key:
    """Both sides, comparable with ``engine_key``."""
    mine = (me.points[1:], tuple(sorted(me.pinned)), me.bar, me.off)
    return (*mine, him.points[1:], tuple(sorted(him.pinned)), him.bar, him.off)


def reference_plays(game: str, me: Side, him: Side, dice: tuple[int, int]) -> set[Key]:
    """The positions the legal plays leave (RULES.md rule 6 with RULES-TAVLI.md's higher-die wording)."""
    a, b = dice
    orders = [(a,) * 4] if a == b else [(a, b), (b, a)]
    found: dict[Key, tuple[int, set[int]]] = {}  # key -> (most steps, dice of one-step ways)
    seen: set[tuple[Key, tuple[int, ...]]] = set()

    def walk(m: Side, h: Side, left: tuple[int, ...], n: int) -> None:
        if not left or m.off == 15:
            return
        for p in range(25):
            nxt = step(game, m, h, p, left[0])
            if nxt is None:
                continue
            k = key(*nxt)
            depth, firsts = found.get(k, (0, set()))
            if n + 1 == 1:
                firsts = firsts | {left[0]}
            found[k] = (max(depth, n + 1), firsts)
            if (k, left[1:]) not in seen:
                seen.add((k, left[1:]))
                walk(nxt[0], nxt[1], left[1:], n + 1)

    for order in orders:
        walk(me, him, order, 0)
    if not found:
        return {key(me, him)}
    best = max(depth for depth, _ in found.values())
    plays = {k for k, (depth, _) in found.items() if depth == best}
    if best == 1 and a != b:
        higher = {k for k in plays if max(a, b) in found[k][1]}
        if higher:
            plays = higher
    return plays


def sides(position: object) -> tuple[Side, Side]:
    """A ``TavliPosition`` as two Sides (through its public per-player views)."""
    from fevga.variants import TavliPosition

    assert isinstance(position, TavliPosition)
    me = Side((0, *position.me), frozenset(position.me_pin), position.me_bar, position.me_off)
    him = Side((0, *position.opp), frozenset(position.opp_pin), position.opp_bar, position.opp_off)
    return me, him
