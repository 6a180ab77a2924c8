"""Games and matches: opening roll, forced passes, win, mars, resignation, fair dice, JSON."""

from __future__ import annotations

import json
import random

import pytest

from fevga import (
    Board,
    FairDice,
    FixedDice,
    Game,
    GameStateError,
    Match,
    Position,
    SerializationError,
    game_from_dict,
    game_to_dict,
    legal_plays,
    match_from_dict,
    match_to_dict,
    verify,
)
from fevga.dice import _dice_from_bytes

from .positions import pos


def play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over():
        game.play(rng.choice(game.legal_plays()))


def test_opening_roll_ties_are_rolled_again_and_the_starter_rolls_afresh() -> None:
    game = Game.new(dice=FixedDice([(3, 3), (2, 5), (6, 4)]))
    assert game.opening == [(3, 3), (2, 5)]
    assert game.turn == 1 and game.starter == 1
    assert game.dice == (6, 4)  # not the opening dice


def test_the_given_first_player_starts_without_an_opening_roll() -> None:
    game = Game.new(dice=FixedDice([(6, 5)]), first=0)
    assert game.opening == [] and game.turn == 0 and game.dice == (6, 5)


def test_play_by_text_and_turns_alternate() -> None:
    game = Game.new(dice=FixedDice([(5, 2), (6, 5), (4, 3)]))
    assert game.turn == 0
    records = game.play("1/7 7/12")
    assert [r.player for r in records] == [0]
    assert game.turn == 1 and game.dice == (4, 3)
    assert game.view(0).board[11] == 1  # my runner on 12
    with pytest.raises(GameStateError, match="not your turn"):
        game.play("1/5/8", player=0)


def test_forced_pass_happens_by_itself() -> None:
    shut = pos({13: 1, 14: 2, 15: 3, 16: 3, 17: 3, 18: 3}, {8: 3, 9: 3, 10: 3, 11: 3, 12: 3})
    game = Game.new(dice=FixedDice([(1, 2), (5, 6), (6, 6), (2, 1)]), first=0)
    # Player 1 sees `shut` (6-6 leaves him nothing legal); player 0 is to move with 5-6 first.
    game.board = Board(shut.flip(), 0)
    game.dice = (5, 6)
    game.roll_index = 2
    before = game.view(0)
    plays = game.legal_plays()
    assert not plays[0].is_pass
    records = game.play(plays[0])
    # player 1 rolled 6-6 and had to pass; player 0 rolls again (2-1)
    assert [(r.player, r.dice, r.is_pass) for r in records][1:] == [(1, (6, 6), True)]
    assert game.turn == 0 and game.dice == (2, 1) and game.view(0) != before


def test_win_and_mars_points() -> None:
    board = Board(pos({24: 1}, {1: 15}, me_off=14), 0)
    board.push(legal_plays(board.position, (1, 1))[0])
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.points == 2 and outcome.mars
    board = Board(pos({24: 1}, {24: 12}, me_off=14, opp_off=3), 1)
    board.push(legal_plays(board.position, (1, 1))[0])
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.points == 1 and not outcome.mars


def test_push_and_pop_restore_the_position() -> None:
    board = Board()
    start = board.position
    play = board.legal_plays((6, 5))[0]
    board.push(play)
    assert board.turn == 1 and board.position == play.result.flip()
    assert board.pop() == play and board.position == start and board.turn == 0


def test_resignation_points() -> None:
    game = Game.new(dice=FixedDice([(6, 5), (3, 1)]), first=0)
    outcome = game.resign(0)
    assert outcome.winner == 1 and outcome.points == 2 and outcome.resigned
    with pytest.raises(GameStateError):
        game.play("1/7 7/12")


def test_fair_dice_are_verifiable_and_unbiased() -> None:
    dice = FairDice(bytes(range(32)))
    rolls = [dice.roll(k) for k in range(6000)]
    assert verify(dice.seed.hex(), dice.commitment, rolls)
    assert not verify(dice.seed.hex(), dice.commitment, [*rolls[:10], (rolls[10][0] % 6 + 1, rolls[10][1])])
    assert not verify(bytes(32).hex(), dice.commitment, rolls[:5])
    counts = [0] * 7
    for a, b in rolls:
        counts[a] += 1
        counts[b] += 1
    assert all(abs(c - 2000) < 200 for c in counts[1:])  # 12,000 dice, σ ≈ 41
    assert _dice_from_bytes(dice.seed, 3) == dice.roll(3)


def test_a_finished_game_reveals_its_seed_and_verifies() -> None:
    game = Game.new()
    play_out(game, random.Random(5))
    data = game_to_dict(game)
    assert "seed" in data["dice"]
    rolls = [(int(r[0]), int(r[1])) for r in data["opening"]] + [(int(t[0]), int(t[1])) for t in data["turns"]]
    assert verify(data["dice"]["seed"], data["dice"]["commitment"], rolls)


def test_a_game_in_progress_hides_its_seed() -> None:
    game = Game.new()
    game.play(game.legal_plays()[0])
    assert "seed" not in game_to_dict(game)["dice"]
    assert "seed" in game_to_dict(game, reveal_seed=True)["dice"]


@pytest.mark.parametrize("replay", [True, False])
def test_json_round_trip(replay: bool) -> None:
    rng = random.Random(11)
    game = Game.new()
    for _ in range(12):
        game.play(rng.choice(game.legal_plays()))
    data = json.loads(json.dumps(game_to_dict(game, reveal_seed=True)))
    again = game_from_dict(data, replay=replay)
    assert again.position == game.position and again.turn == game.turn and again.dice == game.dice
    assert again.history == game.history


def _other_roll(roll: str) -> str:
    """A roll that is not ``roll`` (the dice are random: the tampered roll must really differ)."""
    return "55" if roll == "66" else "66"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d["turns"].__setitem__(0, d["turns"][0].split(":")[0] + ":1/2 2/3"),
        lambda d: d["turns"].__setitem__(1, _other_roll(d["turns"][1][:2]) + ":" + d["turns"][1].split(":")[1]),
        lambda d: d["dice"].__setitem__("seed", "00" * 32),
        lambda d: d.__setitem__("position", Position.start().id()),
        lambda d: d.__setitem__("v", 99),
        lambda d: d.__setitem__("turns", "nonsense"),
        lambda d: d["opening"].append("12"),
        lambda d: d.__setitem__("rules", {"unlock_point": 99}),
    ],
)
def test_tampered_or_corrupt_data_is_refused(tamper: object) -> None:
    rng = random.Random(2)
    game = Game.new()
    for _ in range(6):
        game.play(rng.choice(game.legal_plays()))
    data = game_to_dict(game, reveal_seed=True)
    tamper(data)  # type: ignore[operator]
    with pytest.raises(SerializationError):
        game_from_dict(data)


def test_match_to_three_previous_winner_starts_and_round_trips() -> None:
    rng = random.Random(4)
    match = Match.new(3)
    while not match.is_over():
        play_out(match.game, rng)
        if not match.is_over():
            winner = match.game.outcome.winner  # type: ignore[union-attr]
            game = match.next_game()
            assert game.first == winner and game.turn == winner and game.opening == []
    assert max(match.score) >= 3 and match.winner() == match.score.index(max(match.score))
    again = match_from_dict(json.loads(json.dumps(match_to_dict(match))))
    assert again.score == match.score and again.winner() == match.winner()
    data = match_to_dict(match)
    data["score"] = [9, 9]
    with pytest.raises(SerializationError):
        match_from_dict(data)


def test_match_resignation_and_length_bounds() -> None:
    match = Match.new(5)
    match.resign(1, whole_match=True)
    assert match.is_over() and match.winner() == 0
    for bad in (0, 26, "3"):
        with pytest.raises(ValueError):
            Match(bad)  # type: ignore[arg-type]
