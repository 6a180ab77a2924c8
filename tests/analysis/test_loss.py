"""The loss is right: the judge's own player loses nothing, and a thrown-away race is a blunder."""

from __future__ import annotations

import pytest

from fevga import Game, Play, format_play
from fevga.ai import get_player
from fevga.ai.network import default_network
from fevga.ai.players import RandomPlayer
from fevga.ai.search import one_ply
from fevga.analysis import BLUNDER, analyse, judge_game

from .games import all_home, play_game


def test_hard_loses_nothing_at_its_own_ply() -> None:
    """Judged by the hard level's search, hard's own decisions lose exactly 0."""
    game = play_game((get_player("hard"), get_player("heuristic")), seed=21)
    decisions = judge_game(game, luck=False)
    hard = [d for d in decisions if d.player == 0 and not d.forced]
    assert len(hard) >= 10
    assert all(d.loss == 0 for d in hard)
    assert all(d.best == d.played for d in hard)
    other = [d for d in decisions if d.player == 1 and not d.forced]
    assert sum(d.loss for d in other) > 0  # the heuristic player is judged too, and errs


def test_neural0_loses_nothing_at_ply_0() -> None:
    """Judged at 0-ply, the 0-ply network's decisions lose 0; random's do not."""
    game = play_game((RandomPlayer(seed=5), get_player("neural0")), seed=5)
    report = analyse(game, ply=0, luck=False)
    assert report.players[1].error_rate == 0.0
    assert report.players[1].blunders == 0
    assert report.players[0].error_rate > 20


def _throw_race(game: Game, done: list[int]) -> Play | None:
    """Player 0 plays like hard, except once: in his bear-off, the play that loses the most."""
    if done or game.turn != 0 or game.dice is None or not all_home(game.position):
        return None
    plays = game.legal_plays()
    if len(plays) < 3:
        return None
    eq = one_ply(default_network(), plays, game.rules)
    best = float(eq.max())
    worst = int(eq.argmin())
    if best < 0.3 or best - float(eq[worst]) < 0.2:
        return None
    done.append(len(game.history))
    return plays[worst]


def test_thrown_away_race_is_a_blunder_with_the_right_best_play() -> None:
    """A costly bear-off mistake is marked ?? with hard's choice as the best play."""
    hard, medium = get_player("hard"), get_player("heuristic")
    for seed in range(40, 100):  # the first game with such a bear-off depends on the shipped network
        done: list[int] = []
        game = play_game((hard, medium), seed=seed, override=lambda g, d=done: _throw_race(g, d))
        if done:
            break
    else:
        pytest.fail("no bear-off with a costly mistake in 60 games")
    index = done[0]
    report = analyse(game, luck=False)
    assert report.mark(index) == "??"
    move = next(m for m in report.players[0].worst if m.index == index)
    assert move.loss >= BLUNDER
    record = game.history[index]
    expected_best = hard.choose(move.start(), record.dice, game.rules)
    assert move.best == format_play(expected_best)
    assert move.played != move.best
    assert move.best_equity > move.played_equity + BLUNDER - 0.001
