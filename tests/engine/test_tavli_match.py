"""The tavli match (RULES-TAVLI.md "The tavli match"): M-1 played through with fixed dice, the
rotation, who starts after a win and after a draw, single-game matches."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from fevga import Board, FevgaError, FixedDice, Game, GameStateError, Match, Position
from fevga.dice import DiceSource
from fevga.match import game_kind
from fevga.variants import PlakotoRules, PortesRules

from .positions import pos
from .tavli_positions import tpos


def _factory(rolls: list[list[tuple[int, int]]]) -> Callable[[], DiceSource]:
    games: Iterator[list[tuple[int, int]]] = iter(rolls)
    return lambda: FixedDice(next(games))


def _set(game: Game, position: Position) -> None:
    """Put the game at ``position`` (seen by the player to move), keeping its dice and turn."""
    game.board = Board(position, game.turn, game.rules)


def test_rotation() -> None:
    assert [game_kind("tavli", k) for k in range(1, 8)] == [
        "portes", "plakoto", "fevga", "portes", "plakoto", "fevga", "portes",
    ]
    assert game_kind("plakoto", 3) == "plakoto"


def test_m1_a_tavli_match_to_five() -> None:
    rolls = [
        [(6, 1), (3, 1)],  # 1 Portes: A wins the opening roll, then rolls 3-1
        [(1, 1), (6, 3)],  # 2 Plakoto: A rolls 1-1, B 6-3
        [(1, 2), (6, 6)],  # 3 Fevga: B rolls 1-2, A 6-6
        [(3, 1)],  # 4 Portes: A rolls, B resigns
        [(4, 1)],  # 5 Plakoto: A rolls 4-1
        [(5, 2), (6, 6)],  # 6 Fevga: A wins the opening roll, rolls 6-6
    ]
    match = Match.new(5, dice_factory=_factory(rolls), kind="tavli")
    A, B = 0, 1
    # game 1, Portes: A bears off his last checker; B has none off and a checker in A's home
    g = match.game
    assert (g.game, g.first, g.turn) == ("portes", None, A)
    _set(g, tpos("portes", {23: 1}, {20: 1, 13: 14}, me_off=14))
    g.play("23/off")
    assert g.outcome is not None and (g.outcome.winner, g.outcome.points) == (A, 2) and match.score == (2, 0)
    # game 2, Plakoto: A (last winner) rolls both dice; B pins A's mother with none left on his 1
    g = match.next_game()
    assert (g.game, g.first, g.turn, g.opening) == ("plakoto", A, A, [])
    k5_for_b = tpos("plakoto", {16: 1, 18: 2, 19: 4, 20: 4, 21: 4}, {24: 1, 5: 7, 3: 7})
    _set(g, k5_for_b.flip())
    g.play("20/21(4)")
    assert g.turn == B and g.dice == (6, 3)
    g.play("18/24* 16/19")
    assert g.outcome is not None and (g.outcome.winner, g.outcome.points) == (B, 2) and match.score == (2, 2)
    # game 3, Fevga: B starts; A wins a single game
    g = match.next_game()
    assert (g.game, g.first, g.turn) == ("fevga", B, B)
    _set(g, pos({19: 14}, {24: 1}, me_off=1, opp_off=14))
    g.play("19/20 19/21")
    g.play("24/off")
    assert g.outcome is not None and (g.outcome.winner, g.outcome.points) == (A, 1) and match.score == (3, 2)
    # game 4, Portes: A starts; B resigns with 3 borne off
    g = match.next_game()
    assert (g.game, g.first) == ("portes", A)
    _set(g, tpos("portes", {12: 15}, {24: 12}, opp_off=3))
    match.resign(B)
    assert match.score == (4, 2)
    # game 5, Plakoto: A starts; both mothers end pinned: a draw
    g = match.next_game()
    assert (g.game, g.first, g.turn) == ("plakoto", A, A)
    k6c = tpos("plakoto", {1: 1, 7: 1, 12: 2, 17: 1, 18: 4, 19: 5, 24: 1}, {24: 1, 5: 7, 3: 7}, his_pinned=(24,))
    _set(g, k6c.flip())
    g.play("20/24* 20/21")
    assert g.outcome is not None and g.outcome.is_draw and g.outcome.points == 0 and match.score == (4, 2)
    assert not match.is_over()
    # game 6, Fevga: the opening roll decides (A), A wins a mars
    g = match.next_game()
    assert (g.game, g.first, g.opening, g.turn) == ("fevga", None, [(5, 2)], A)
    _set(g, pos({24: 1}, {1: 15}, me_off=14))
    g.play("24/off")
    assert match.score == (6, 2) and match.is_over() and match.winner() == A
    with pytest.raises(GameStateError):
        match.next_game()


def test_single_game_matches_keep_their_kind_and_options() -> None:
    match = Match.new(3, PlakotoRules(mother_rule="strict"), dice_factory=_factory([[(6, 1), (3, 1)]] * 3))
    assert match.kind == "plakoto" and match.game.game == "plakoto"
    assert match.game.rules == PlakotoRules(mother_rule="strict")
    match.resign(1)
    assert match.score == (2, 0)
    assert match.next_game().game == "plakoto"


def test_tavli_variants_per_game() -> None:
    match = Match(5, kind="tavli", variants={"portes": PortesRules(backgammon_value=3)})
    assert match.rules_of(1) == PortesRules(backgammon_value=3)
    assert match.rules_of(2) == PlakotoRules()
    with pytest.raises(GameStateError):
        Match(5, kind="chess")



def test_a_tavli_match_takes_portes_or_plakoto_options_as_its_rules_and_refuses_unknown_games() -> None:
    assert Match(5, PortesRules(backgammon_value=3), kind="tavli").rules_of(1) == PortesRules(backgammon_value=3)
    strict = Match(5, PlakotoRules(mother_rule="strict"), kind="tavli")
    assert strict.rules_of(2) == PlakotoRules(mother_rule="strict") and strict.rules_of(1) == PortesRules()
    with pytest.raises(FevgaError) as unknown:
        Match(5, kind="tavli", variants={"backgammon": PortesRules(backgammon_value=3)})
    assert unknown.value.key == "bad_game"
