"""Fixed and random Portes/Plakoto scenes for the docs, the pixel tests and the benchmark.

``portes_bars`` has checkers on both bars and a hit; ``plakoto_pins`` a checker pinned under one
pinner, one under three, a pinned mother and a pin of the other colour; ``random_tavli_game`` a whole
legal game between random players. Run as a script to write the sample pictures.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from fevga.dice import RandomDice
from fevga.game import Game
from fevga.variants import TavliPosition

from .board_png import render_board
from .scene import BoardScene
from .text_board import render_text

NAMES = ("Νίκος", "Maria")


def _lists(points: dict[int, int]) -> list[int]:
    """24 counts from {own point: count}."""
    return [points.get(p, 0) for p in range(1, 25)]


def portes_bars() -> BoardScene:
    """Portes, game 4 of a tavli match to 5: two of player 0's checkers and one of player 1's on the bar;
    player 1 just hit with ``12/17*`` (his numbering); player 0 to enter with 6-3."""
    position = TavliPosition.from_tavli_lists(
        "portes",
        _lists({12: 4, 17: 3, 19: 4, 20: 2}),
        _lists({1: 1, 12: 5, 17: 3, 19: 3, 20: 2}),
        me_bar=2,
        opp_bar=1,
    )
    return BoardScene(
        position,
        turn=0,
        dice=(6, 3),
        names=NAMES,
        last_play_steps=((12, 17),),
        last_play_hits=(True,),
        last_mover=1,
        match_length=5,
        score=(2, 1),
        match_kind="tavli",
        game_number=4,
    )


def plakoto_pins() -> BoardScene:
    """Plakoto, game 2 of a tavli match to 5: player 0's mother pinned, his checker on 7 under one pinner
    and on 10 under three; one of player 1's pinned under four on player 0's 20; player 1 just pinned."""
    position = TavliPosition.from_tavli_lists(
        "plakoto",
        _lists({1: 1, 7: 1, 10: 1, 13: 4, 18: 4, 20: 4}),
        _lists({24: 1, 18: 1, 15: 3, 5: 1, 1: 9}),
        me_pin=(1, 7, 10),
        opp_pin=(5,),
    )
    return BoardScene(
        position,
        turn=0,
        dice=(4, 2),
        names=NAMES,
        last_play_steps=((13, 18),),
        last_play_hits=(True,),
        last_mover=1,
        match_length=5,
        score=(2, 0),
        match_kind="tavli",
        game_number=2,
    )


def random_tavli_game(game: str, seed: int = 2, max_plays: int = 1000) -> Game:
    """A whole legal ``game`` ("portes" or "plakoto") between two random players (or ``max_plays`` plays)."""
    rng = random.Random(seed)
    played = Game.new(dice=RandomDice(seed), game=game)
    while not played.is_over() and len(played.history) < max_plays:
        played.play(rng.choice(played.legal_plays()))
    return played


def write_tavli_samples(directory: str) -> list[str]:
    """Write a picture of each game from both sides and their text boards."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "portes.png": render_board(portes_bars(), 0),
        "portes-player2-view.png": render_board(portes_bars(), 1),
        "plakoto.png": render_board(plakoto_pins(), 0),
        "plakoto-player2-view.png": render_board(plakoto_pins(), 1),
        "portes.txt": (render_text(portes_bars(), 0) + "\n").encode(),
        "plakoto.txt": (render_text(plakoto_pins(), 0) + "\n").encode(),
    }
    for name, data in files.items():
        (out / name).write_bytes(data)
    return sorted(files)


if __name__ == "__main__":
    print("\n".join(write_tavli_samples(sys.argv[1] if len(sys.argv) > 1 else "docs/render-samples")))
