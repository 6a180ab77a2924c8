"""Training Portes and Plakoto: self-play games end by each game's rules, a tiny run learns and
checkpoints with the game's inputs, matches count draws as half a win."""

from __future__ import annotations

import numpy as np
import pytest

from fevga import Play, Position, Rules
from fevga.ai.arena import MatchStats, duplicate_match
from fevga.ai.games import kind
from fevga.ai.imitate import fit, imitation_data
from fevga.ai.imitate import main as imitate_main
from fevga.ai.network import Network, WeightsError
from fevga.ai.parallel import opponent_of
from fevga.ai.players import RandomPlayer
from fevga.ai.selfplay import outcome_target, self_play_game
from fevga.ai.tavli_heuristic import tavli_player
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


class _Recorder:
    """The heuristic, recording the result of each play it makes."""

    def __init__(self, game: str) -> None:
        self.inner = tavli_player(game, "heuristic")
        self.results: list[Position] = []

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        play = self.inner.choose(position, dice, rules)
        self.results.append(play.result)
        return play


@pytest.mark.parametrize("seat", [0, 1])
def test_a_game_against_the_heuristic_learns_the_heuristics_plays(seat):
    k = kind("plakoto")
    net = Network(hidden=6, seed=2, n_inputs=k.n_inputs)
    other = _Recorder("plakoto")
    rows, _, _ = self_play_game(net, seed=5, game="plakoto", opponent=other, opponent_seat=seat)
    turns = len(rows)  # rows[t + 1] is what turn t left; the last, game-ending turn adds no row
    assert len(other.results) == (turns - seat + 1) // 2  # the turns t with t % 2 == seat
    for n, result in enumerate(other.results):
        if seat + 2 * n + 1 < turns:
            assert np.array_equal(rows[seat + 2 * n + 1], k.afterstates([result])[0][0])


def test_opponent_of_draws_the_share_and_both_seats():
    other = tavli_player("portes", "heuristic")
    assert all(opponent_of(s, 0.0, other) == (None, 1) for s in range(50))
    always = [opponent_of(s, 1.0, other) for s in range(50)]
    assert all(o is other for o, _ in always) and {seat for _, seat in always} == {0, 1}
    half = sum(opponent_of(s, 0.5, other)[0] is other for s in range(400))
    assert 150 < half < 250


def test_mix_is_refused_for_fevga_and_outside_0_to_1(tmp_path):
    for bad in (["--game", "fevga", "--mix", "0.5"], ["--game", "portes", "--mix", "1.5"]):
        with pytest.raises(SystemExit):
            main([*bad, "--games", "2", "--out", str(tmp_path / "x.npz"), "--no-progress"])
    out = tmp_path / "mix.npz"
    assert (
        main(
            [
                "--game",
                "portes",
                "--mix",
                "1",
                "--games",
                "2",
                "--every",
                "2",
                "--eval-games",
                "0",
                "--hidden",
                "6",
                "--out",
                str(out),
                "--no-progress",
            ]
        )
        == 0
    )
    assert Network.load(out, kind("portes").n_inputs).meta["settings"]["mix"] == 1.0
