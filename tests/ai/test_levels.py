"""The levels added with the larger network: hard-v1 (the fixed yardstick), expert, the 2-ply budget."""

from __future__ import annotations

import numpy as np

from fevga import DEFAULT_RULES, Position, legal_plays
from fevga.ai import get_player
from fevga.ai.evaluate import play_equities
from fevga.ai.network import V1_PATH, Network, default_network, v1_network
from fevga.ai.search import NeuralPlayer, two_ply


def test_hard_v1_is_the_first_network_at_one_ply(sample_positions):
    v1 = get_player("hard-v1")
    assert isinstance(v1, NeuralPlayer) and v1.ply == 1 and v1.net is v1_network()
    assert v1.net.hidden == 80 and v1.net.meta["games"] == 34_000
    assert V1_PATH.stat().st_size < 2_000_000
    # The same search as the level "hard" had before the larger network: keep1 8, margin 0.16, 3,000 replies.
    assert (v1.keep1, v1.margin, v1.max_work) == (8, 0.16, 3000)
    for position, dice in sample_positions[:4]:
        assert v1.choose(position, dice, DEFAULT_RULES) in legal_plays(position, dice)


def test_v1_weights_still_judge_the_start_position_as_shipped():
    # Pinned from the shipped v1 file: any change to its encoding or file would move these numbers.
    plays = legal_plays(Position.start(), (6, 5))
    eq = play_equities(v1_network(), plays)
    assert len(plays) == len(eq) and np.all(np.abs(eq) < 1.0)
    assert np.isclose(eq.max(), play_equities(Network.load(V1_PATH), plays).max())


def test_expert_searches_deeper_and_plays_legally(sample_positions):
    expert = get_player("expert")
    assert isinstance(expert, NeuralPlayer) and expert.ply == 2 and expert.keep2 > 2
    assert expert.net is default_network()
    for position, dice in sample_positions[:2]:
        assert expert.choose(position, dice, DEFAULT_RULES) in legal_plays(position, dice)


def test_two_ply_budget_stops_after_the_first_play_but_never_before_it():
    position = Position.start()
    plays = legal_plays(position, (6, 5))[:3]
    net = default_network()
    full = two_ply(net, plays, DEFAULT_RULES)
    tight = two_ply(net, plays, DEFAULT_RULES, max_work=1)
    assert not np.isnan(full).any()
    assert tight[0] == full[0] and np.isnan(tight[1:]).all()
    roomy = two_ply(net, plays, DEFAULT_RULES, max_work=10**9)
    assert np.array_equal(roomy, full)


def test_a_player_without_room_for_two_plays_keeps_the_one_ply_choice():
    net = default_network()
    position, dice = Position.start(), (6, 5)
    starved = NeuralPlayer(net, ply=2, max_work2=1)
    one = NeuralPlayer(net, ply=1)
    assert starved.choose(position, dice, DEFAULT_RULES) == one.choose(position, dice, DEFAULT_RULES)


def test_hint_at_two_ply_stays_ordered_and_legal(monkeypatch, sample_positions):
    import fevga.ai

    monkeypatch.setattr(fevga.ai, "HARD_PLY", 2)
    for position, dice in sample_positions[:3]:
        hints = fevga.ai.hint(position, dice, DEFAULT_RULES, n=3)
        equities = [e for _, e in hints]
        assert equities == sorted(equities, reverse=True)
        assert all(p in legal_plays(position, dice) for p, _ in hints)
    monkeypatch.setattr(fevga.ai, "HARD_WORK2", 10**9)  # room for both plays: the 2-ply equities are used
    position, dice = next((p, d) for p, d in sample_positions if len(legal_plays(p, d)) >= 2)
    hints = fevga.ai.hint(position, dice, DEFAULT_RULES, n=2)
    two = two_ply(default_network(), [p for p, _ in hints], DEFAULT_RULES)
    assert len(hints) == 2 and sorted(two, reverse=True) == [e for _, e in hints]
