"""Portes and Plakoto puzzles: the shipped ones of each game are answered in every spelling the engine reads (``*``
written or not, ``bar/3``, any order, Greek letters), the themes are every game's and
the game's own (the bar, pins, the mother), each is selected again by its game's own network, an analysed game adds
puzzles of its game, and a stored puzzle names its game."""

from __future__ import annotations

import itertools

import pytest

from fevga import FevgaError
from fevga.ai import get_player
from fevga.ai.players import RandomPlayer
from fevga.analysis import analyse
from fevga.dice import RandomDice
from fevga.game import Game
from fevga.notation import GREEK_POINTS
from fevga.play import format_play
from fevga.puzzle_seed import seed
from fevga.puzzle_select import candidates_of_report, puzzles_of_report, select
from fevga.puzzles import Puzzle, check, load_seed, ordered_plays, stored_game, themes
from fevga.rules import OFF
from fevga.variants import TavliPosition, game_of

TAVLI = [p for p in load_seed() if p.game != "fevga"]
pytestmark = pytest.mark.timeout(600)


def _point(n: int, greek: bool = False) -> str:
    """A point as typed: 0 is the bar, OFF is off."""
    if n == 0:
        return "bar"
    if n == OFF:
        return "off"
    return GREEK_POINTS[n - 1] if greek else str(n)


def _spellings(puzzle: Puzzle) -> set[str]:
    """The best play written in every step order, with and without ``*``, and in Greek letters."""
    best = next(p for p in ordered_plays(puzzle.start(), puzzle.dice) if p.result.id() == puzzle.result)
    texts = {puzzle.answer, puzzle.answer.replace("*", ""), format_play(best)}
    for order in itertools.permutations(best.steps):
        texts.add(" ".join(f"{_point(a)}/{_point(b)}" for a, b in order))
    texts.add(" ".join(f"{_point(a, True)}/{_point(b, True)}" for a, b in best.steps))
    return texts


def test_both_games_ship_puzzles_with_hits_pins_the_bar_and_bear_offs() -> None:
    portes = [p for p in TAVLI if p.game == "portes"]
    plakoto = [p for p in TAVLI if p.game == "plakoto"]
    assert len(portes) >= 20 and len(plakoto) >= 20
    assert any("*" in p.answer for p in portes) and any("*" in p.answer for p in plakoto)  # a hit, a pin
    assert any(p.answer.startswith("bar/") for p in portes)
    for game in (portes, plakoto):
        assert any("bear_off" in p.themes for p in game)


@pytest.mark.parametrize("puzzle", TAVLI, ids=lambda p: f"{p.game}-{p.id}")
def test_every_spelling_of_the_answer_is_right(puzzle: Puzzle) -> None:
    for text in _spellings(puzzle):
        verdict = check(puzzle, text)
        assert verdict.correct and verdict.loss == 0.0, text
        assert verdict.best == puzzle.answer


@pytest.mark.parametrize("puzzle", TAVLI, ids=lambda p: f"{p.game}-{p.id}")
def test_the_themes_are_every_games_and_the_games_own(puzzle: Puzzle) -> None:
    # (a wrong play's loss, for these puzzles too: tests/puzzles/test_puzzle_model.py)
    assert puzzle.themes == themes(puzzle.start())
    assert not {"opening_runner", "blocks"} & set(puzzle.themes)  # Fevga's
    assert not ({"pins", "mother"} if puzzle.game == "portes" else {"bar"}) & set(puzzle.themes)
    assert stored_game(puzzle.encode()) == stored_game(puzzle.encode().encode()) == puzzle.game


def _lists(**points: int) -> list[int]:
    """24 counts from ``p<point>=count`` keywords."""
    out = [0] * 24
    for name, count in points.items():
        out[int(name[1:]) - 1] = count
    return out


def test_the_themes_of_portes_and_plakoto() -> None:
    def portes(me: list[int], bar: int = 0) -> tuple[str, ...]:
        return themes(TavliPosition.from_tavli_lists("portes", me, _lists(p1=15), me_bar=bar))

    assert "prime" in portes(_lists(p1=2, p2=2, p3=2, p4=2, p19=7))  # four made points in a row
    assert "prime" not in portes(_lists(p1=1, p2=1, p3=1, p4=1, p19=11))  # four blots block nothing here
    assert portes(_lists(p19=14), bar=1) == ("bar",)
    pinned = TavliPosition.from_tavli_lists("plakoto", _lists(p1=14, p5=1), _lists(p1=13, p20=2), me_pin=(5,))
    assert themes(pinned) == ("pins",)
    mother = TavliPosition.from_tavli_lists("plakoto", _lists(p1=1, p19=14), _lists(p1=15))
    assert themes(mother) == ("mother",)
    assert themes(TavliPosition.start("plakoto")) == ()


def test_a_portes_answer_must_enter_from_the_bar_first() -> None:
    puzzle = next(p for p in TAVLI if p.game == "portes" and p.answer.startswith("bar/"))
    assert puzzle.start().me_bar >= 1  # type: ignore[attr-defined]
    plays = ordered_plays(puzzle.start(), puzzle.dice)
    assert all(play.steps[0][0] == 0 for play in plays)  # every legal play enters first
    d1, d2 = puzzle.dice
    with pytest.raises(FevgaError) as refused:
        check(puzzle, f"1/{1 + d1} 1/{1 + d2}")  # the roll's dice, but the checker left on the bar
    assert refused.value.key == "bar_first"


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_each_games_puzzle_is_selected_again_the_same_by_its_network(game: str) -> None:
    # (every shipped puzzle of every game holds at the wide check: tests/puzzles/test_selection.py)
    puzzle = next(p for p in TAVLI if p.game == game)
    assert select(puzzle.start(), puzzle.dice) == puzzle


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_the_seed_script_finds_puzzles_of_the_game_asked(game: str) -> None:
    found = seed(games=6, limit=2, game=game, per_game=1, skip=8)
    assert found and all(p.game == game for p in found)
    assert len({p.id for p in found}) == len(found)


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_an_analysed_game_adds_puzzles_of_its_game(game: str) -> None:
    played = Game.new(dice=RandomDice(5), game=game)
    players = (RandomPlayer(2), get_player("heuristic", game))  # seeded: the same game every run
    while not played.is_over():
        assert played.dice is not None
        played.play(players[played.turn].choose(played.position, played.dice, played.rules))
    report = analyse(played, 0, luck=False)
    candidates = list(candidates_of_report(report))
    assert candidates and all(game_of(position) == game for position, _dice in candidates)
    found = puzzles_of_report(report)
    assert found and all(p.game == game and p.answer for p in found)  # a random player leaves clear best plays
