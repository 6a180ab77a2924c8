"""Random self-play of whole Portes and Plakoto games and tavli matches: every game ends (15 off, a
mother win or a draw), the invariants never break, and the JSON record replays to the same game."""

from __future__ import annotations

import random

import pytest

from fevga import FairDice, Game, Match, RandomDice, dumps, game_from_dict, game_to_dict, loads, match_to_dict
from fevga.variants import PlakotoRules, PortesRules, TavliPosition
from fevga.variants.plakoto import mothers

from .test_tavli_properties import check_invariants

GAMES_PER_KIND = 200


def _play_out(game: Game, rng: random.Random) -> None:
    """Random legal plays until the game ends, checking the invariants after every turn."""
    while not game.is_over():
        position = game.position
        assert isinstance(position, TavliPosition) or game.game == "fevga"
        if isinstance(position, TavliPosition):
            check_invariants(position)
        game.play(rng.choice(game.legal_plays()))


@pytest.mark.parametrize("rules", [PortesRules(), PlakotoRules(), PlakotoRules(mother_rule="strict")])
def test_random_games_end_properly(rules: PortesRules | PlakotoRules) -> None:
    rng = random.Random(7)
    ends = {"off": 0, "mother": 0, "draw": 0}
    for n in range(GAMES_PER_KIND):
        game = Game.new(rules, RandomDice(n))
        _play_out(game, rng)
        outcome = game.outcome
        assert outcome is not None
        final = game.position
        assert isinstance(final, TavliPosition)
        check_invariants(final)
        if outcome.winner is None:
            assert isinstance(rules, PlakotoRules) and rules.mother_rule == "exception"
            assert mothers(final) == (True, True) and outcome.points == 0
            ends["draw"] += 1
        elif 15 in (final.me_off, final.opp_off):
            assert outcome.points in (1, 2)
            ends["off"] += 1
        else:
            assert isinstance(rules, PlakotoRules) and any(mothers(final)) and outcome.points == 2
            ends["mother"] += 1
    assert ends["off"] > 0
    if isinstance(rules, PlakotoRules):
        assert ends["mother"] > 0


@pytest.mark.parametrize("rules", [PortesRules(backgammon_value=3), PlakotoRules()])
def test_game_json_replays(rules: PortesRules | PlakotoRules) -> None:
    rng = random.Random(3)
    for n in range(5):
        game = Game.new(rules, FairDice(bytes([n]) * 32))
        _play_out(game, rng)
        data = game_to_dict(game)
        assert data["game"] == game.game and data["rules"] == rules.to_dict()
        for replay in (True, False):
            back = game_from_dict(data, replay=replay)
            assert back.game == game.game and back.rules == rules and back.outcome == game.outcome
            assert [r.text() for r in back.history] == [r.text() for r in game.history]
            assert game_to_dict(back) == data


def test_running_game_json_replays_mid_game() -> None:
    rng = random.Random(5)
    game = Game.new(PortesRules(), FairDice(b"p" * 32))
    for _ in range(30):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_plays()))
    data = game_to_dict(game, reveal_seed=True)
    back = game_from_dict(data)
    assert back.position == game.position and back.dice == game.dice and game_to_dict(back, reveal_seed=True) == data


def test_tampered_tavli_record_is_refused() -> None:
    rng = random.Random(9)
    game = Game.new(PlakotoRules(), FairDice(b"k" * 32))
    _play_out(game, rng)
    data = game_to_dict(game)
    data["game"] = "portes"
    with pytest.raises(ValueError):
        game_from_dict(data)


def test_tavli_match_plays_out_and_round_trips() -> None:
    rng = random.Random(11)
    seeds = iter(range(1000))
    match = Match.new(5, kind="tavli", dice_factory=lambda: FairDice(bytes([next(seeds)]) * 32))
    while True:
        _play_out(match.game, rng)
        if match.is_over():
            break
        match.next_game()
    kinds = [g.game for g in match.games]
    assert kinds == [("fevga", "portes", "plakoto")[k % 3] for k in range(1, len(kinds) + 1)]
    assert max(match.score) >= 5
    data = match_to_dict(match)
    back = loads(dumps(match))
    assert isinstance(back, Match) and match_to_dict(back) == data and back.score == match.score
