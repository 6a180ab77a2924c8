"""The analysis's words: the luck summary names the luckier player."""

from __future__ import annotations

from bot.chat.analysis_reply import words
from fevga.analysis import PlayerReport, Report
from fevga.analysis_text import summary

NAMES = ("You", "AI (medium)")


def player(luck: float, decisions: int = 12, forced: int = 2, rate: float = 5.0) -> PlayerReport:
    """One player's figures with the given luck (no worst moves)."""
    return PlayerReport(decisions, forced, rate, 1, 0, luck, None, ())


def report(first: PlayerReport, second: PlayerReport) -> Report:
    return Report("neural0", None, "..", (first, second), (0, 0))


def test_the_luck_summary_names_the_luckier_player_and_by_how_much() -> None:
    """The QA case: You luck -0.086, the AI -0.808: the summary read "luck You +0.7", as if it were his own
    luck (negative in his line); it says who was luckier than the other, by how much."""
    line = summary(report(player(-0.086), player(-0.808)), NAMES)
    assert line.endswith("; luckier: You, by 0.7") and "+0.7" not in line
    swapped = summary(report(player(-0.808), player(-0.086)), NAMES)
    assert swapped.endswith("; luckier: AI (medium), by 0.7")
    assert summary(report(player(0.31), player(0.29)), NAMES).endswith("; luck even")  # 0.02: nobody by 0.0
    greek = summary(report(player(-0.086), player(-0.808)), ("Εσύ", "Υπολογιστής"), words("el"))
    assert greek.endswith("· περισσότερη τύχη: Εσύ, κατά 0.7")
    assert summary(report(player(0.1), player(0.1)), NAMES, words("el")).endswith("· ίδια τύχη")

