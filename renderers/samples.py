"""Fixed and random example scenes for docs, golden tests and the benchmark (no game rules involved).

``random_position`` gives any valid distribution of checkers; ``demo_game`` walks both sides
forward with random dice (without Fevga's rule checks) until one bears everything off, which is
enough to exercise the replay.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

from fevga.dice import RandomDice
from fevga.game import Game
from fevga.position import Position, opponent_point
from fevga.rules import OFF

from .board_png import render_board
from .from_game import replay_scenes
from .replay import render_replay
from .scene import BoardScene
from .text_board import render_text

NAMES = ("Νίκος", "Maria")


def mid_game() -> BoardScene:
    """A typical middle-game position (player 1 just played 6-4; player 0 to play 5-3)."""
    me = [4, 0, 0, 0, 0, 0, 2, 0, 1, 0, 3, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 1, 0, 0]
    opp = [6, 0, 0, 2, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 2, 0, 0, 0, 2, 0, 0, 0, 0]
    pos = Position.from_lists(me, opp, 0, 0)
    return BoardScene(
        pos,
        turn=0,
        dice=(5, 3),
        names=NAMES,
        last_play_steps=((1, 7), (7, 11)),
        last_mover=1,
        match_length=5,
        score=(1, 2),
    )


def start() -> BoardScene:
    """The opening position, player 1 to play 6-2 in a single game."""
    return BoardScene(Position.start(), turn=1, dice=(6, 2), names=("Alice", "Βασίλης"))


def bear_off() -> BoardScene:
    """Both sides bearing off, tall stacks with counts, player 0 just bore two off."""
    me = [0] * 18 + [0, 0, 7, 1, 2, 0]
    opp = [0] * 18 + [1, 2, 0, 0, 3, 6]
    pos = Position.from_lists(me, opp, 5, 3)
    return BoardScene(
        pos,
        turn=1,
        dice=(4, 4),
        names=NAMES,
        last_play_steps=((19, OFF), (24, OFF)),
        last_mover=0,
        match_length=7,
        score=(3, 3),
    )


def finished_mars() -> BoardScene:
    """Player 1 has borne off everything while player 0 has none off: a mars (2 points)."""
    me = [0] * 12 + [3, 0, 5, 0, 0, 0, 2, 0, 0, 5, 0, 0]
    pos = Position.from_lists(me, [0] * 24, 0, 15)
    return BoardScene(
        pos,
        turn=None,
        names=NAMES,
        last_play_steps=((23, OFF), (24, OFF)),
        last_mover=1,
        match_length=3,
        score=(0, 2),
        winner=1,
        mars=True,
    )


def random_position(rng: random.Random) -> Position:
    """Any valid position: random borne-off counts and checkers spread over disjoint points."""
    points = list(range(24))
    rng.shuffle(points)
    split = rng.randint(1, 23)
    mine_pts, theirs_pts = points[:split], points[split:]
    offs = [rng.choice((0, 0, rng.randint(0, 15))), rng.choice((0, 0, rng.randint(0, 15)))]
    board = [0] * 24
    for sign, pts, off in ((1, mine_pts, offs[0]), (-1, theirs_pts, offs[1])):
        used = rng.sample(pts, k=rng.randint(1, min(len(pts), 8)))
        for _ in range(15 - off):
            board[rng.choice(used)] += sign
    return Position(tuple(board), offs[0], offs[1])


def demo_game(seed: int = 1, names: tuple[str, str] = NAMES, max_plays: int = 400) -> list[BoardScene]:
    """Scenes of a random race (start, then one per play) ending when a side has borne off all 15."""
    rng = random.Random(seed)
    sides = [[15] + [0] * 23, [15] + [0] * 23]
    off = [0, 0]
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    scenes = [BoardScene(Position.start(), turn=0, dice=dice, names=names)]
    turn = 0
    for _ in range(max_plays):
        own, other = sides[turn], sides[1 - turn]
        steps = []
        for d in dice:
            step = _random_step(rng, own, other, d)
            if step:
                steps.append(step)
                own[step[0] - 1] -= 1
                if step[1] == OFF:
                    off[turn] += 1
                else:
                    own[step[1] - 1] += 1
        done = off[turn] == 15
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        me, opp = sides
        scenes.append(
            BoardScene(
                Position.from_lists(me, opp, off[0], off[1]),
                turn=None if done else 1 - turn,
                dice=None if done else dice,
                names=names,
                last_play_steps=tuple(steps),
                last_mover=turn,
                winner=turn if done else None,
                mars=done and off[1 - turn] == 0,
            )
        )
        if done:
            break
        turn = 1 - turn
    return scenes


def _random_step(rng: random.Random, own: list[int], other: list[int], die: int) -> tuple[int, int] | None:
    starts = [p for p in range(1, 25) if own[p - 1] > 0]
    rng.shuffle(starts)
    home_only = all(own[i] == 0 for i in range(18))
    for p in starts:
        q = p + die
        if q > 24:
            if home_only:
                return p, OFF
            continue
        if other[opponent_point(q) - 1] == 0:
            return p, q
    return None


def random_game_scenes(seed: int = 2) -> list[BoardScene]:
    """A whole legal game between two random players (fevga's move generator picks the plays)."""
    rng = random.Random(seed)
    game = Game.new(dice=RandomDice(seed))
    while not game.is_over():
        game.play(rng.choice(game.legal_plays()))
    return replay_scenes(game, NAMES)


def building_a_turn() -> BoardScene:
    """The mid-game position while its mover builds a turn with buttons: two steps made, with names as
    written in other scripts."""
    return replace(
        mid_game(), pending_steps=((1, 6), (9, 12)), dice_used=(5, 3), names=("Νίκος 🎲", "张伟 · محمد")
    )


def write_samples(directory: str) -> list[str]:
    """Write the README's sample pictures and a text board into ``directory``."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "board.png": render_board(mid_game(), 0),
        "board-player2-view.png": render_board(mid_game(), 1),
        "bear-off-night.png": render_board(bear_off(), 1, theme="night"),
        "game-over-mars.png": render_board(finished_mars(), 0),
        "building-a-turn.png": render_board(building_a_turn(), 0),
        "board.txt": (render_text(mid_game(), 0) + "\n").encode(),
        "replay.gif": render_replay(random_game_scenes(seed=2), 0, size=400),
    }
    for name, data in files.items():
        (out / name).write_bytes(data)
    return sorted(files)


if __name__ == "__main__":
    print("\n".join(write_samples(sys.argv[1] if len(sys.argv) > 1 else "docs/render-samples")))
