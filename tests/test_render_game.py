"""Scenes built from a real fevga Game: the current board and a replay of a whole random game."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

from fevga import Game, RandomDice
from renderers import render_replay, render_text, replay_scenes, scene_from_game
from renderers.replay import MAX_BYTES


def _random_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(dice=RandomDice(seed))
    while not game.is_over():
        game.play(rng.choice(game.legal_plays()))
    return game


def test_replay_scenes_follow_the_games_own_positions():
    game = _random_game(5)
    scenes = replay_scenes(game, ("Νίκος", "Maria"), match_length=3, score=(1, 0))
    assert len(scenes) == len(game.history) + 1
    stack = game.board.move_stack
    assert len(stack) == len(game.history)
    for record, play, scene in zip(game.history, stack, scenes[1:], strict=True):
        assert scene.position_for(record.player) == play.result
        assert scene.last_mover == record.player and scene.last_play_steps == record.steps
    for record, scene in zip(game.history, scenes, strict=False):
        assert (scene.turn, scene.dice) == (record.player, record.dice)  # the turn about to be played
    outcome = game.outcome
    assert outcome is not None
    final = scenes[-1]
    assert final.position == game.view(0)
    assert (final.winner, final.mars, final.turn, final.dice) == (outcome.winner, outcome.mars, None, None)
    assert final == scene_from_game(game, ("Νίκος", "Maria"), match_length=3, score=(1, 0))


def test_replay_of_a_real_game_fits_and_has_a_frame_per_turn():
    game = _random_game(9)
    scenes = replay_scenes(game, ("Νίκος", "Maria"))
    data = render_replay(scenes, 1)
    assert len(data) <= MAX_BYTES
    assert Image.open(io.BytesIO(data)).n_frames == len(scenes)


def test_current_board_of_a_game_in_progress():
    game = Game.new(dice=RandomDice(3))
    game.play(game.legal_plays()[0])
    scene = scene_from_game(game, ("a", "b"))
    assert scene.position == game.view(0)
    assert scene.turn == game.turn and scene.dice == game.dice and scene.winner is None
    assert scene.last_play_steps == game.history[0].steps
    assert f"to play {game.dice[0]}-{game.dice[1]}" in render_text(scene, game.turn)


def test_resigning_before_any_play_ends_the_replay_with_the_winner():
    game = Game.new(dice=RandomDice(4))
    game.resign(game.turn)
    scenes = replay_scenes(game, ("a", "b"))
    outcome = game.outcome
    assert outcome is not None
    last = scenes[-1]
    assert last.winner == outcome.winner and last.turn is None
    assert last.resigned and not last.mars and last.points == 2 and last.win_kind == "resigned"


def test_a_result_is_said_with_its_own_points_and_a_resignation_as_one():
    """A Portes mars worth 3 (backgammon_value) says 3 points; a resignation worth 1 reads as a plain win, one
    worth 2 as a resignation (never a mars: the stats count only marses played out)."""
    game = _random_game(8)
    base = scene_from_game(game, ("Ann", "Bob"))
    three = dataclasses.replace(base, winner=0, mars=True, resigned=False, points=3)
    assert three.win_label("banner", name="Ann") == "Ann wins · mars, 3 points"
    assert "WINS (mars)" in render_text(three, 0)
    single = dataclasses.replace(base, winner=1, mars=False, resigned=True, points=1)
    assert single.win_kind == "" and single.win_label("result", name="Bob") == "Bob wins (1 point)"
    double = dataclasses.replace(single, points=2)
    assert double.win_label("result", name="Bob") == "Bob wins (2 points, resignation)"
    assert "WINS (resignation)" in render_text(double, 0)
    with pytest.raises(ValueError, match="resignation"):
        dataclasses.replace(double, mars=True)
