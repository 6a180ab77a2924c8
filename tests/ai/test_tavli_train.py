"""Training Portes and Plakoto: self-play games end by each game's rules, a tiny run learns and
checkpoints with the game's inputs, matches count draws as half a win."""

from __future__ import annotations

import numpy as np
import pytest

from fevga.ai.arena import MatchStats, duplicate_match
from fevga.ai.games import kind
from fevga.ai.imitate import fit, imitation_data
from fevga.ai.imitate import main as imitate_main
from fevga.ai.network import Network, WeightsError
from fevga.ai.players import RandomPlayer
from fevga.ai.selfplay import outcome_target, self_play_game
from fevga.ai.train import main


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_self_play_game_ends_with_a_result(game):
    net = Network(hidden=6, seed=1, n_inputs=kind(game).n_inputs)
    rows, next_values, z = self_play_game(net, seed=4, game=game)
    assert rows.shape[1] == kind(game).n_inputs
    assert next_values.shape == (rows.shape[0] - 1, 3)
    assert any(np.array_equal(z, outcome_target(p)) for p in (1.0, 2.0, 0.0))


def test_outcome_targets():
    assert outcome_target(2.0).tolist() == [1.0, 1.0, 0.0]
    assert outcome_target(1.0).tolist() == [1.0, 0.0, 0.0]
    assert outcome_target(0.0).tolist() == [0.5, 0.0, 0.0]  # a draw: half a win, equity 0
    assert outcome_target(-2.0).tolist() == [0.0, 0.0, 1.0]


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_tiny_run_checkpoints_with_the_games_inputs(tmp_path, game):
    out = tmp_path / f"{game}.npz"
    args = ["--game", game, "--games", "2", "--every", "2", "--eval-games", "2", "--eval-random", "2"]
    assert main([*args, "--hidden", "6", "--out", str(out), "--no-progress"]) == 0
    net = Network.load(out, kind(game).n_inputs)
    assert net.meta["games"] == 2 and net.meta["settings"]["game"] == game
    (point,) = net.meta["curve"]
    assert point["vs_heuristic_0ply"]["games"] == 2 and point["vs_random_0ply"]["games"] == 2
    with pytest.raises(WeightsError, match="inputs"):
        Network.load(out)  # not a Fevga network


def test_match_stats_count_a_draw_as_half_a_win():
    stats = MatchStats()
    stats.add(True, 2)
    stats.add(None, 0)
    assert (stats.games, stats.wins, stats.draws, stats.points) == (2, 1, 1, 2)
    assert stats.win_rate == 0.75


def test_duplicate_match_of_a_tavli_game():
    stats = duplicate_match(RandomPlayer(1), RandomPlayer(2), 4, seed=3, game="plakoto")
    assert stats.games == 4
    assert 0 <= stats.wins + stats.draws <= 4


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_imitation_fits_the_heuristic_ranking(tmp_path, game):
    x, win = imitation_data(game, games=1, seed=2, scale=20.0)
    assert x.shape[1] == kind(game).n_inputs and len(x) == len(win) > 20
    assert np.all((win >= 0) & (win <= 1)) and win.std() > 0.01
    net = Network(hidden=6, seed=1, n_inputs=kind(game).n_inputs)
    before = float(((net.forward(x)[:, 0] - win) ** 2).mean())
    after = fit(net, x, win, epochs=3, lr=0.02, seed=1)
    assert after < before
    out = tmp_path / "init.npz"
    assert imitate_main(["--game", game, "--games", "1", "--epochs", "1", "--hidden", "6", "--out", str(out)]) == 0
    assert Network.load(out, kind(game).n_inputs).meta["imitation"]["rows"] > 20
