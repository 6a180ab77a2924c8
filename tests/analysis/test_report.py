"""The report: deterministic, compact (<= 1 KB), round-trips, reads a JSON game, and writes text."""

from __future__ import annotations

import json

import pytest

from fevga import Game, SerializationError, game_to_dict
from fevga.ai import get_player
from fevga.ai.players import RandomPlayer
from fevga.analysis import BLUNDER, ERROR, Report, analyse, band, judge_game
from fevga.analysis_text import WORDS, report_text, summary

from .games import play_game, seeded_dice


@pytest.fixture(scope="module")
def game():
    """A 0-ply-judged game between the heuristic and the random player (many blunders)."""
    return play_game((get_player("heuristic"), RandomPlayer(seed=11)), seed=11)


def test_deterministic_and_round_trip(game) -> None:
    """Same game (object, dict or JSON) gives the same report; it encodes in <= 1 KB and reads back."""
    first = analyse(game, ply=0)
    again = analyse(game_to_dict(game), ply=0)
    assert first == again
    text = json.dumps(game_to_dict(game))
    assert analyse(text, ply=0) == first
    blob = first.encode()
    assert len(blob) <= 1024
    assert Report.decode(blob) == first
    assert Report.from_dict(json.loads(json.dumps(first.to_dict()))) == first


def test_figures_add_up(game) -> None:
    """The report's counts, rate, worst moves and marks agree with the per-turn judgement."""
    report = analyse(game, ply=0)
    decisions = judge_game(game, ply=0)
    assert len(report.marks) == len(game.history) == len(decisions)
    for seat, player in enumerate(report.players):
        mine = [d for d in decisions if d.player == seat]
        unforced = [d for d in mine if not d.forced]
        assert player.decisions == len(unforced)
        assert player.forced == len(mine) - len(unforced)
        assert player.blunders == sum(1 for d in unforced if d.loss >= BLUNDER)
        assert player.errors == sum(1 for d in unforced if ERROR <= d.loss < BLUNDER)
        mean = sum(d.loss for d in unforced) / len(unforced)
        assert player.error_rate == pytest.approx(1000 * mean, abs=0.05)
        assert all(d.loss >= 0 for d in mine)
        assert all(d.loss == 0 for d in mine if d.forced)
        worst = sorted((d.loss for d in unforced), reverse=True)[:3]
        assert sorted((m.loss for m in player.worst), reverse=True) == pytest.approx(worst, abs=0.002)
    for d in decisions:
        expected = "??" if d.mark == "b" else "?" if d.mark == "e" else ""
        assert report.mark(d.index) == expected
    assert report.players[0].error_rate > 0 and report.players[1].error_rate > 0


def test_luck_adjusted_result(game) -> None:
    """Luck-adjusted result = the result minus the net luck, for both players."""
    report = analyse(game, ply=0)
    assert report.result is not None and abs(report.result) in (1, 2)
    p0, p1 = report.players
    assert p0.luck_adjusted == pytest.approx(report.result - (p0.luck - p1.luck), abs=0.002)
    assert p1.luck_adjusted == pytest.approx(-report.result - (p1.luck - p0.luck), abs=0.002)


def test_running_game_has_no_result() -> None:
    """A running game is analysed without a result or luck-adjusted figure."""
    greedy = get_player("greedy")
    running = Game.new(dice=seeded_dice(3))
    for _ in range(20):
        assert running.dice is not None
        running.play(greedy.choose(running.position, running.dice, running.rules))
    report = analyse(running, ply=0)
    assert report.result is None
    assert len(report.marks) == len(running.history)
    assert all(p.luck_adjusted is None for p in report.players)
    assert "luck-adjusted" not in report_text(report, ("A", "B"))
    assert Report.decode(report.encode()) == report
    public = game_to_dict(running)  # a running game's stored form keeps the dice seed secret
    assert "seed" not in public["dice"]
    assert analyse(public, ply=0) == report
    assert analyse(json.dumps(public), ply=0) == report
    public["turns"] = [*public["turns"][:-1], public["turns"][-1].split(":")[0] + ":24/off"]
    with pytest.raises(SerializationError):
        analyse(public, ply=0)


def test_text_forms(game) -> None:
    """The summary line and text report carry the figures and take translated words."""
    report = analyse(game, ply=0)
    line = summary(report, ("Alice", "Bob"))
    p0, p1 = report.players
    assert line.startswith(f"Alice: error rate {p0.error_rate:.1f} ({WORDS['band_' + p0.band]})")
    assert f"Bob: {p1.error_rate:.1f} ({WORDS['band_' + p1.band]}), {p1.blunders} blunders" in line
    net = round(p0.luck - p1.luck, 1)
    assert line.endswith(f"; luckier: {'Alice' if net > 0 else 'Bob'}, by {abs(net):.1f}" if net else "; luck even")
    text = report_text(report, ("Alice", "Bob"))
    assert text.count("\n") >= 4
    for move in p1.worst:
        assert move.played in text and move.best in text
    greek = dict(WORDS, band_beginner="αρχάριος")
    if p1.band == "beginner":
        assert "αρχάριος" in summary(report, ("A", "B"), greek)
    from bot.chat.analysis_reply import summary_line

    in_greek = summary_line(report, ("A", "B"), "el")  # Greek's ";" is a question mark: parts end with "·"
    assert ";" not in in_greek and in_greek.count("· ") >= 2


def test_bands_are_ordered() -> None:
    """Error rates fall in the documented bands."""
    assert band(0.0) == "world_class"
    assert band(6.2) == "expert"
    assert band(11.8) == "advanced"
    assert band(500) == "beginner"


def test_corrupt_blob_is_refused() -> None:
    """Corrupt stored data raises SerializationError."""
    with pytest.raises(SerializationError):
        Report.decode(b"not zlib")
    with pytest.raises(SerializationError):
        Report.from_dict({"v": 1, "p": []})


def test_every_unforced_turn_keeps_its_loss(game) -> None:
    report = analyse(game, ply=0)
    decisions = judge_game(game, ply=0)
    assert len(report.losses) == len(decisions)
    for d in decisions:
        kept = report.loss(d.index)
        if d.forced:
            assert kept is None
        else:
            assert kept is not None and abs(kept - d.loss) <= 0.001  # rounded as the stored equities are
    assert len(report.encode()) <= 1024
