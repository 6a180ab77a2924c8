"""Portes and Plakoto AI: shipped weights, every level's play, hints, the analysis of a game."""

from __future__ import annotations

import importlib.resources
import random

import numpy as np
import pytest

from fevga import FairDice, Game, format_play, game_to_dict, legal_plays
from fevga.ai import LEVELS, get_player, hint
from fevga.ai.cli import bestplay_line
from fevga.ai.games import game_network, has_game_weights, kind
from fevga.ai.network import WEIGHTS_PATH, Network, WeightsError
from fevga.ai.search import NeuralPlayer
from fevga.analysis import analyse

from .tavli_samples import random_tavli_positions

GAMES = ["portes", "plakoto"]


@pytest.mark.parametrize("game", GAMES)
def test_weights_ship_in_the_package_load_and_are_checked(game):
    name = f"weights-{game}.npz"
    assert importlib.resources.files("fevga.ai").joinpath(name).is_file()
    assert has_game_weights(game)
    path = kind(game).weights_path
    assert path.stat().st_size < 1_000_000
    net = game_network(game)
    assert net.w1.shape == (net.hidden, kind(game).n_inputs)
    assert net.meta["games"] > 0 and net.meta["settings"]["game"] == game
    out = net.forward(kind(game).encode([kind(game).start()]))
    assert out.shape == (1, 3) and np.all((out > 0) & (out < 1))


@pytest.mark.parametrize("game", GAMES)
def test_a_bad_weights_file_gives_an_error_naming_it(game, tmp_path):
    garbage = tmp_path / f"weights-{game}.npz"
    garbage.write_bytes(b"not a zip file")
    with pytest.raises(WeightsError, match=f"weights-{game}.npz: corrupt or unreadable"):
        Network.load(garbage, kind(game).n_inputs)
    # Fevga's network has other inputs: refused, naming the file and both input counts
    expected = rf"weights.npz: weights expect \d+ inputs, the encoding has {kind(game).n_inputs}"
    with pytest.raises(WeightsError, match=expected):
        Network.load(WEIGHTS_PATH, kind(game).n_inputs)
    other = "plakoto" if game == "portes" else "portes"
    with pytest.raises(WeightsError, match=f"weights-{other}.npz"):
        Network.load(kind(other).weights_path, kind(game).n_inputs)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", [*LEVELS, "random"])
def test_every_level_plays_a_legal_play(game, level):
    player = get_player(level, game=game)
    if level in ("hard", "expert"):
        assert isinstance(player, NeuralPlayer) and player.net is game_network(game)
    for position, dice in random_tavli_positions(game, 4, seed=11):
        play = player.choose(position, dice, None)  # type: ignore[arg-type]
        assert play in legal_plays(position, dice)


def test_unknown_level_or_game_is_refused():
    with pytest.raises(ValueError, match="unknown AI level 'grandmaster'"):
        get_player("grandmaster", game="portes")
    with pytest.raises(ValueError, match="unknown game"):
        get_player("hard", game="tavla")


@pytest.mark.parametrize("game", GAMES)
def test_hint_ranks_legal_plays(game):
    hard = get_player("hard", game=game)
    checked = 0
    for position, dice in random_tavli_positions(game, 6, seed=5):
        plays = legal_plays(position, dice)
        ranked = hint(position, dice, n=3)
        assert len(ranked) == min(3, len(plays))
        assert all(p in plays for p, _ in ranked)
        equities = [e for _, e in ranked]
        assert equities == sorted(equities, reverse=True)
        assert all(-3.0 <= e <= 3.0 for e in equities)
        # hint searches at least the plays hard searches, so hard's choice is listed and not above the top
        chosen = hard.choose(position, dice, None)  # type: ignore[arg-type]
        assert dict(ranked)[chosen] <= ranked[0][1]
        checked += len(plays) > 1
    assert checked >= 3


@pytest.mark.parametrize("game", GAMES)
def test_analysis_of_a_short_random_game(game):
    rng = random.Random(3)
    record = Game.new(dice=FairDice(bytes(range(16))), game=game)
    for _ in range(12):
        if record.is_over():
            break
        assert record.dice is not None
        record.play(rng.choice(record.legal_plays()))
    report = analyse(record, ply=0)
    assert len(report.marks) == len(record.history) > 0
    unforced = report.players[0].decisions + report.players[1].decisions
    assert unforced > 0
    assert report.players[0].error_rate + report.players[1].error_rate > 0  # random play errs
    assert any(loss > 0 for loss in report.losses)
    assert report.players[0].luck != 0.0  # luck is judged with the game's network
    # a running game's stored record (dice seed still secret) reads its written plays back
    stored = game_to_dict(record)
    assert stored["game"] == game and not stored["dice"].get("seed")
    assert analyse(stored, ply=0).marks == report.marks


@pytest.mark.parametrize("game", GAMES)
def test_bestplay_uses_the_games_network(game):
    position, dice = next((p, d) for p, d in random_tavli_positions(game, 30, seed=8) if len(legal_plays(p, d)) > 2)
    request = {"game": game, "me": position.me, "opp": position.opp, "dice": list(dice), "level": "hard"}
    request.update({"me_off": position.me_off, "opp_off": position.opp_off})
    if game == "portes":
        request.update(me_bar=position.me_bar, opp_bar=position.opp_bar)
    else:
        request.update(me_pin=position.me_pin, opp_pin=position.opp_pin)
    answer = bestplay_line(request)["play"]
    best = get_player("hard", game=game).choose(position, dice, None)  # type: ignore[arg-type]
    assert answer is not None and answer["steps"] == format_play(best)


def test_expert_searches_each_game_as_it_was_measured():
    """Plakoto's expert judges the 4 best plays two rolls ahead with no budget (58.5 % against hard over
    2,000 games, where the 2 best scored 55.1 %); Portes's the 2 best within 20,000 positions."""
    portes, plakoto = get_player("expert", game="portes"), get_player("expert", game="plakoto")
    assert isinstance(portes, NeuralPlayer) and isinstance(plakoto, NeuralPlayer)
    assert (portes.ply, portes.keep2, portes.max_work2) == (2, 2, 20000)
    assert (plakoto.ply, plakoto.keep2, plakoto.max_work2) == (2, 4, None)
