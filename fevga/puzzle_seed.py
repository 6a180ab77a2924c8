"""``python -m fevga.puzzle_seed --games N [--game G] [--limit K] [--start S] [--themes race,bear_off] [--out FILE]
[--append] [--per-game N] [--skip-turns N]``: a seed set of puzzles of a game (fevga, portes or plakoto) from AI
self-play; ``--recheck`` chooses the bank's own positions again instead (after the
network changed: new equities, and the positions that are no longer puzzles dropped).

Games between the game's ``medium`` and ``easy`` levels (fast, and varied) are looked at turn by turn; every
turn where the game's 0-ply network's best play leads its second by at least ``PREFILTER`` is given to :func:`select`
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
from .ai.evaluate import play_equities, terminal_points
from .movegen import legal_plays
from .position import Position
from .puzzle_select import PREFILTER, expert_network, select
from .puzzles import RETIRED_PATH, SEED_PATH, Puzzle, load_retired, load_seed, themes
from .variants import GAMES, default_rules, start_position

MAX_TURNS = 400


def turns_of(seed: int, game: str = "fevga", skip: int = 0) -> Iterator[tuple[Position, tuple[int, int]]]:
    """The turns of one self-play game of ``game`` (``medium`` against ``easy``, seeded dice) where the game's
    0-ply network puts the best play at least PREFILTER ahead of the second: the ones worth the expert's time.
    The first ``skip`` turns are passed over (Plakoto's first moves off the mother are much alike). Nothing
    without the game's network."""
    rng = random.Random(seed)
    players = (get_player("medium", game), get_player("easy", game))
    net = expert_network(game)
    if net is None:
        return
    rules = default_rules(game)
    position = start_position(game)
    turn = 0
    for number in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice, rules)
        if len(plays) > 1 and number >= skip:
            eq = sorted(play_equities(net, plays), reverse=True)
            if eq[0] - eq[1] >= PREFILTER:
                yield position, dice
        play = players[turn].choose(position, dice, rules)  # type: ignore[arg-type]
        if terminal_points(play.result) is not None:  # borne off, or Plakoto's mother rule
            return
        position = play.result.flip()
        turn ^= 1


def seed(games: int, limit: int, start: int = 0, wanted: frozenset[str] = frozenset(),
         game: str = "fevga", per_game: int = 0, skip: int = 0) -> list[Puzzle]:
    """Up to ``limit`` puzzles of ``game`` from ``games`` self-play games (seeds ``start``..); with ``wanted``,
    only turns whose position has one of those themes are searched; with ``per_game``, at most that many
    puzzles come from one game (so that the set is not a few games' turns); ``skip``: see :func:`turns_of`."""
    found: dict[str, Puzzle] = {}
    for k in range(start, start + games):
        this_game = 0
        for position, dice in turns_of(k, game, skip):
            if wanted and not wanted & set(themes(position)):
                continue
            puzzle = select(position, dice)
            if puzzle is not None and puzzle.id not in found:
                found[puzzle.id] = puzzle
                this_game += 1
            if len(found) >= limit:
                return list(found.values())
            if this_game == per_game:
                break
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
    parser.add_argument("--game", choices=GAMES, default="fevga", help="the game whose puzzles to find")
    parser.add_argument("--limit", type=int, default=40)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--skip-turns", type=int, default=0, help="pass over each game's first N turns")
    parser.add_argument("--per-game", type=int, default=0, help="at most this many puzzles from one game (0: any)")
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
    puzzles = seed(args.games, args.limit, args.start, frozenset(t for t in args.themes.split(",") if t), args.game,
                   args.per_game, args.skip_turns)
    kept = load_seed(args.out) if args.append else []
    new = [p for p in puzzles if p.id not in {k.id for k in kept}]
    args.out.write_text("".join(p.encode() + "\n" for p in [*kept, *new]), encoding="utf-8")
    seconds = time.perf_counter() - began
    print(f"{len(new)} new puzzles from {args.games} games in {seconds:.0f} s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
