"""Small seeded strength checks (the real figures come from benchmarks/bench_ai.py)."""

from __future__ import annotations

from fevga.ai.arena import MatchStats, duplicate_match
from fevga.ai.players import RandomPlayer, greedy_player, heuristic_player


def test_heuristic_beats_random():
    stats = duplicate_match(heuristic_player(), RandomPlayer(seed=11), games=40, seed=5)
    assert stats.games == 40
    assert stats.win_rate > 0.6, stats.summary()


def test_duplicate_match_is_reproducible():
    a = duplicate_match(RandomPlayer(seed=1), RandomPlayer(seed=2), games=6, seed=9)
    b = duplicate_match(RandomPlayer(seed=1), RandomPlayer(seed=2), games=6, seed=9)
    assert (a.wins, a.points) == (b.wins, b.points)


def test_match_statistics():
    stats = MatchStats()
    for k in range(100):
        stats.add(k < 60, 2 if k % 10 == 0 else 1)
    lo, hi = stats.wilson()
    assert stats.win_rate == 0.6
    assert 0.50 < lo < 0.6 < hi < 0.70
    assert abs(stats.elo - 70.4) < 0.5
    assert stats.ppg == (60 + 6 - 40 - 4) / 100


def test_a_match_split_by_pairs_sums_to_the_whole_match():
    whole = duplicate_match(heuristic_player(), greedy_player(), games=8, seed=3)
    head = duplicate_match(heuristic_player(), greedy_player(), games=4, seed=3)
    tail = duplicate_match(heuristic_player(), greedy_player(), games=4, seed=3, first_pair=2)
    assert (head.games + tail.games, head.wins + tail.wins, head.points + tail.points) == (
        whole.games,
        whole.wins,
        whole.points,
    )
