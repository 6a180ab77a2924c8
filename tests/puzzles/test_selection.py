"""Choosing puzzles with the network: every shipped puzzle is confirmed by the wide 2-ply check, selection is
deterministic and refuses positions without a clear best play, and an analysed game's blunders feed it."""

from __future__ import annotations

import pytest

from fevga import DEFAULT_RULES, Position, legal_plays
from fevga.ai import get_player
from fevga.analysis import BLUNDER, analyse
from fevga.dice import RandomDice
from fevga.game import Game
from fevga.puzzle_select import candidates_of_report, select, verify
from fevga.puzzles import MARGIN, load_seed

SEED = load_seed()
pytestmark = pytest.mark.timeout(600)


@pytest.mark.parametrize("puzzle", SEED, ids=lambda p: p.id)
def test_every_seed_puzzle_holds_at_the_wide_two_ply_check(puzzle) -> None:
    assert verify(puzzle)


def test_selection_is_deterministic_and_matches_the_stored_puzzle() -> None:
    puzzle = SEED[0]
    again = select(puzzle.start(), puzzle.dice)
    assert again == puzzle


def test_no_puzzle_without_a_choice_or_without_a_clear_best() -> None:
    me = [0] * 24
    me[23] = 1
    opp = [0] * 24
    opp[0] = 15
    lone = Position.from_lists(me, opp, 14, 0)  # one checker left: a single play (bear it off)
    assert len(legal_plays(lone, (6, 5), DEFAULT_RULES)) == 1 and select(lone, (6, 5)) is None
    game = Game.new(dice=RandomDice(5))  # the first turn with a choice but no clear best play is no puzzle
    expert = get_player("expert")
    while True:
        assert game.dice is not None and not game.is_over()
        position, dice = game.position, game.dice
        ranked = expert.rank(position, dice, DEFAULT_RULES)
        if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < MARGIN / 2:
            assert select(position, dice) is None
            break
        game.play(ranked[0][0])


def test_candidates_of_a_report_are_its_blunders() -> None:
    game = Game.new(dice=RandomDice(3))
    players = (get_player("random"), get_player("heuristic"))
    while not game.is_over():
        assert game.dice is not None
        game.play(players[game.turn].choose(game.position, game.dice, DEFAULT_RULES))
    report = analyse(game, 0, luck=False)
    found = list(candidates_of_report(report))
    blunders = [m for m in report.blunders() if m.loss >= BLUNDER]
    assert [(p.id(), d) for p, d in found] == [(m.position, m.dice) for m in blunders]
