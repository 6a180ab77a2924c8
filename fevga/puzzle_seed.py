"""``python -m fevga.puzzle_seed --games N [--limit K] [--start S] [--themes race,bear_off] [--out FILE] [--append]``:
a seed set of puzzles from AI self-play; ``--recheck`` chooses the bank's own positions again instead (after the
network changed: new equities, and the positions that are no longer puzzles dropped).

Games between the ``medium`` and ``easy`` levels (fast, and varied) are looked at turn by turn; every turn
where the 0-ply network's best play leads its second by at least ``PREFILTER`` is given to :func:`select`
(the expert and the wide check). Found puzzles are written one compact JSON list per line (``fevga/puzzles-seed.json``
is made this way), the same position and roll only once. Prints what it did and how long it took.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from .ai import get_player
from .ai.evaluate import play_equities
from .ai.network import default_network
from .movegen import legal_plays
from .position import Position
from .puzzle_select import PREFILTER, select
from .puzzles import RETIRED_PATH, SEED_PATH, Puzzle, load_retired, load_seed, themes
from .rules import DEFAULT_RULES

MAX_TURNS = 400


def turns_of(seed: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """The turns of one self-play game (``medium`` against ``easy``, seeded dice) where the 0-ply network
    puts the best play at least PREFILTER ahead of the second: the ones worth the expert's time."""
    rng = random.Random(seed)
    players = (get_player("medium"), get_player("easy"))
    net = default_network()
    position = Position.start()
    turn = 0
    for _ in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice, DEFAULT_RULES)
        if len(plays) > 1:
            eq = sorted(play_equities(net, plays), reverse=True)
            if eq[0] - eq[1] >= PREFILTER:
                yield position, dice
        play = players[turn].choose(position, dice, DEFAULT_RULES)
        if play.result.me_off == 15:
            return
        position = play.result.flip()
        turn ^= 1


def seed(games: int, limit: int, start: int = 0, wanted: frozenset[str] = frozenset()) -> list[Puzzle]:
    """Up to ``limit`` puzzles from ``games`` self-play games (seeds ``start``..); with ``wanted``, only turns
    whose position has one of those themes are searched."""
    found: dict[str, Puzzle] = {}
    for k in range(start, start + games):
        for position, dice in turns_of(k):
            if wanted and not wanted & set(themes(position)):
                continue
            puzzle = select(position, dice)
            if puzzle is not None:
                found.setdefault(puzzle.id, puzzle)
            if len(found) >= limit:
                return list(found.values())
    return list(found.values())


def recheck(puzzles: list[Puzzle]) -> list[Puzzle]:
    """The puzzles chosen again on their own positions and rolls with today's network, in the same order;
    those that are no longer puzzles (the best play changed, or its lead fell under the margin) are left out."""
    again = (select(p.start(), p.dice) for p in puzzles)
    return [p for p in again if p is not None]


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m fevga.puzzle_seed", description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--out", type=Path, default=SEED_PATH)
    parser.add_argument("--themes", default="", help="only positions with one of these themes (race,bear_off)")
    parser.add_argument("--append", action="store_true", help="add to --out (new positions only)")
    parser.add_argument("--recheck", action="store_true", help="choose --out's puzzles again with today's network")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    if args.recheck:
        old = load_seed(args.out)
        kept = recheck(old)
        args.out.write_text("".join(p.encode() + "\n" for p in kept), encoding="utf-8")
        dropped = sorted({p.id for p in old} - {p.id for p in kept})
        if dropped and args.out == SEED_PATH:  # banks seeded from the shipped file drop them too
            retired = sorted(load_retired() | set(dropped))
            RETIRED_PATH.write_text("".join(pid + "\n" for pid in retired), encoding="utf-8")
        seconds = time.perf_counter() - began
        print(f"{len(kept)} of {len(old)} puzzles hold ({', '.join(dropped) or 'none'} dropped) in {seconds:.0f} s"
              f" -> {args.out}", file=sys.stderr)
        return 0
    puzzles = seed(args.games, args.limit, args.start, frozenset(t for t in args.themes.split(",") if t))
    kept = load_seed(args.out) if args.append else []
    new = [p for p in puzzles if p.id not in {k.id for k in kept}]
    args.out.write_text("".join(p.encode() + "\n" for p in [*kept, *new]), encoding="utf-8")
    seconds = time.perf_counter() - began
    print(f"{len(new)} new puzzles from {args.games} games in {seconds:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
