"""The ceiling probe (fevga.ai.probes): a 1-ply player told the opponent's answer to every roll."""

from __future__ import annotations

import pytest

from fevga import DEFAULT_RULES, Play, Position, Rules, legal_plays
from fevga.ai.games import game_network
from fevga.ai.probes import OracleReplyPlayer
from fevga.ai.replies import ROLLS
from fevga.ai.search import NeuralPlayer, one_ply
from fevga.ai.tavli_heuristic import tavli_player
from tests.ai.tavli_samples import random_tavli_positions


class AskedPlayer:
    """The heuristic, recording each (position, dice) it is asked about."""

    name = "asked"

    def __init__(self, game: str) -> None:
        self.inner = tavli_player(game, "heuristic")
        self.asked: list[tuple[Position, tuple[int, int]]] = []

    def choose(self, position: Position, dice: tuple[int, int], rules: Rules) -> Play:
        self.asked.append((position, dice))
        return self.inner.choose(position, dice, rules)

    def rank(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[tuple[Play, float]]:
        return self.inner.rank(position, dice, rules)


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_told_the_networks_own_answers_it_values_a_play_as_one_ply_does(game: str) -> None:
    """Facing the network's own 0-ply player, the probe's value of a play is exactly hard's 1-ply equity."""
    net = game_network(game)
    probe = OracleReplyPlayer(net, NeuralPlayer(net, ply=0))
    checked = 0
    for position, dice in random_tavli_positions(game, 12, seed=41):
        plays = legal_plays(position, dice)[:3]
        expected = one_ply(net, plays, DEFAULT_RULES)
        for play, eq in zip(plays, expected, strict=True):
            assert probe.value(play, DEFAULT_RULES) == pytest.approx(float(eq), abs=1e-6)
            checked += 1
    assert checked >= 12


def test_it_asks_the_opponent_every_roll_after_each_candidate() -> None:
    net = game_network("portes")
    asked = AskedPlayer("portes")
    probe = OracleReplyPlayer(net, asked, keep=3)
    for position, dice in random_tavli_positions("portes", 20, seed=43):
        plays = legal_plays(position, dice)
        if len(plays) < 3 or any(p.result.is_over() for p in plays):
            continue
        asked.asked.clear()
        choice = probe.choose(position, dice, DEFAULT_RULES)
        assert choice in plays
        assert len(asked.asked) == 3 * len(ROLLS)
        assert {d for _, d in asked.asked} == {d for d, _ in ROLLS}
        assert len({p.id() for p, _ in asked.asked}) == 3  # three candidates, each seen from the opponent's side
        return
    pytest.fail("no sampled position had three plays that do not end the game")


def test_with_one_candidate_it_plays_the_networks_0_ply_choice() -> None:
    net = game_network("plakoto")
    probe = OracleReplyPlayer(net, tavli_player("plakoto", "heuristic"), keep=1)
    zero = NeuralPlayer(net, ply=0)
    for position, dice in random_tavli_positions("plakoto", 15, seed=47):
        assert probe.choose(position, dice, DEFAULT_RULES) == zero.choose(position, dice, DEFAULT_RULES)
