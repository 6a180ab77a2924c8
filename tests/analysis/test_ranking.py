"""Ranking by strength: judged at 0-ply, random errs most, then greedy, then heuristic.

All three are judged on the same turns, the positions and dice of games the judge's own player
(the network at 0-ply) plays against itself. A player's own games would judge him on the positions
his play leads to: a random game is decided early (after which no play loses much) and greedy
self-play builds blocks where its race count errs worst, which blurs the ranking (see
docs/analysis.md).
"""

from __future__ import annotations

from fevga import DEFAULT_RULES
from fevga.ai import get_player
from fevga.ai.players import RandomPlayer
from fevga.analysis import judge_game
from fevga.analysis_judge import rate_player, rate_players

from .games import play_game

GAMES = 6


def test_error_rates_rank_the_players() -> None:
    """On common turns: random > greedy > heuristic > neural0 (= 0, the judge itself)."""
    reference = get_player("neural0")
    turns = []
    for seed in range(GAMES):
        game = play_game((reference, reference), seed=500 + seed)
        turns.extend((d.position, d.dice) for d in judge_game(game, ply=0, luck=False) if not d.forced)
    assert len(turns) >= 200
    names = ("random", "greedy", "heuristic", "neural0")
    players = {name: get_player(name) for name in names} | {"random": RandomPlayer(seed=3)}
    rated = rate_players(players, turns, DEFAULT_RULES, ply=0)
    rates = {name: rate for name, (rate, _n) in rated.items()}
    assert rate_player(get_player("heuristic"), turns, DEFAULT_RULES, ply=0) == rated["heuristic"]
    assert rates["random"] > rates["greedy"] > rates["heuristic"] > rates["neural0"] == 0, rates
    assert rates["random"] > 1.2 * rates["greedy"] and rates["greedy"] > 1.2 * rates["heuristic"], rates
