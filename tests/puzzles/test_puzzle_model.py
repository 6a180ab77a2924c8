"""Puzzles without the network: the compact form, the answer check (every spelling and step order of the best
play is right, judged by the position it leaves), equity losses, themes, and the shipped seed set's shape."""

from __future__ import annotations

import itertools

import pytest

from fevga import FevgaError, Position
from fevga.errors import SerializationError
from fevga.notation import GREEK_POINTS
from fevga.play import format_steps
from fevga.puzzles import MARGIN, Puzzle, check, load_seed, ordered_plays, themes
from fevga.rules import OFF

ALL = load_seed()
SEED = [p for p in ALL if p.game == "fevga"]  # Portes and Plakoto: tests/puzzles/test_tavli_puzzles.py


def test_the_seed_set_ships_a_few_dozen_distinct_puzzles_of_each_game() -> None:
    assert 24 <= len(SEED) <= 60
    for game in ("portes", "plakoto"):
        assert 20 <= sum(1 for p in ALL if p.game == game) <= 60
    assert len({p.id for p in ALL}) == len(ALL)


@pytest.mark.parametrize("puzzle", ALL, ids=lambda p: p.id)
def test_every_seed_puzzle_has_one_best_play_by_the_margin(puzzle: Puzzle) -> None:
    plays = ordered_plays(puzzle.start(), puzzle.dice)
    assert len(plays) == len(puzzle.equities) >= 2
    ranked = sorted(puzzle.equities, reverse=True)
    assert ranked[0] - ranked[1] >= MARGIN * 1000
    best = plays[puzzle.equities.index(ranked[0])]
    assert best.result.id() == puzzle.result
    assert Puzzle.decode(puzzle.encode()) == puzzle


def _orders(steps: tuple[tuple[int, int], ...]) -> set[str]:
    """Every order of the steps, written ``a/b c/d`` (off as ``off``)."""
    return {" ".join(f"{a}/{'off' if b == OFF else b}" for a, b in order) for order in itertools.permutations(steps)}


@pytest.mark.parametrize("puzzle", SEED[:12], ids=lambda p: p.id)
def test_every_order_and_spelling_of_the_best_play_is_right(puzzle: Puzzle) -> None:
    plays = ordered_plays(puzzle.start(), puzzle.dice)
    best = next(p for p in plays if p.result.id() == puzzle.result)
    texts = _orders(best.steps) | {puzzle.answer, format_steps(best.steps)}
    greek = " ".join(f"{GREEK_POINTS[a - 1]}/{'off' if b == OFF else GREEK_POINTS[b - 1]}" for a, b in best.steps)
    texts.add(greek)
    texts.add(", ".join(f"{a}/{'off' if b == OFF else b}" for a, b in reversed(best.steps)))
    for text in texts:
        verdict = check(puzzle, text)
        assert verdict.correct and verdict.loss == 0.0, text


@pytest.mark.parametrize("puzzle", SEED[:12] + [p for p in ALL if p.game != "fevga"], ids=lambda p: p.id)
def test_a_wrong_play_gets_its_equity_loss(puzzle: Puzzle) -> None:
    plays = ordered_plays(puzzle.start(), puzzle.dice)
    for k, play in enumerate(plays):
        if play.result.id() == puzzle.result:
            continue
        verdict = check(puzzle, format_steps(play.steps))
        assert not verdict.correct
        assert verdict.loss == pytest.approx((max(puzzle.equities) - puzzle.equities[k]) / 1000)
        assert verdict.loss >= MARGIN - 1e-9
        assert verdict.best == puzzle.answer


def test_an_illegal_or_unreadable_answer_is_refused_with_a_reason() -> None:
    puzzle = SEED[0]
    with pytest.raises(FevgaError) as caught:
        check(puzzle, "24/1")
    assert caught.value.key
    with pytest.raises(FevgaError):
        check(puzzle, "hello")


def test_a_damaged_stored_puzzle_is_a_serialization_error() -> None:
    for blob in ("", "{}", "[1,2]", '["x","65","a","b",[1],"",1500]'):
        with pytest.raises(SerializationError):
            Puzzle.decode(blob)


def test_themes_read_off_the_position() -> None:
    assert "opening_runner" in themes(Position.start())
    me = [0] * 24
    me[20], me[22], me[23] = 5, 5, 3
    opp = [0] * 24
    opp[21] = 15
    assert themes(Position.from_lists(me, opp, 2, 0)) == ("bear_off",)
    me = [0] * 24
    me[12], me[15], me[17] = 5, 5, 5  # all past the opponent, who is home on his 19-24 (my 7-12)
    opp = [0] * 24
    opp[19] = 15
    assert themes(Position.from_lists(me, opp)) == ("race",)
    me = [0] * 24
    me[0], me[1], me[2], me[3], me[4] = 11, 1, 1, 1, 1  # five of 1-6 held: close to R1
    opp = [0] * 24
    opp[0] = 15
    found = themes(Position.from_lists(me, opp))
    assert "blocks" in found and "prime" in found


def test_retired_puzzles_are_not_shipped() -> None:
    from fevga.puzzles import load_retired

    retired = load_retired()
    assert retired and all(len(pid) == 10 for pid in retired)
    assert not retired & {p.id for p in ALL}
