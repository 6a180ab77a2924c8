"""The analysis's words: the luck summary names the luckier player, and only forced turns earn no rating."""

from __future__ import annotations

from bot.chat.analysis_reply import words
from fevga.analysis import PlayerReport, Report
from fevga.analysis_text import report_text, summary

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


def test_a_player_with_only_forced_turns_gets_no_error_rate_or_band() -> None:
    """It said "You: 0 decisions (1 forced), error rate 0.0 (world class)": nothing was judged."""
    idle = player(0.0, decisions=0, forced=1, rate=0.0)
    busy = player(0.0, decisions=12, forced=2, rate=5.0)
    text = report_text(report(idle, busy), NAMES)
    lines = text.splitlines()
    assert lines[1] == "You: no decisions to judge (1 forced)"
    assert lines[3].startswith("AI (medium): 12 decisions (2 forced), error rate 5.0 (expert)")
    assert "world class" not in text
    line = summary(report(idle, busy), NAMES)
    assert line.startswith("You: no decisions to judge; AI (medium): 5.0 (expert), no blunders")
    greek = report_text(report(idle, busy), ("Εσύ", "Υπολογιστής"), words("el"))
    assert greek.splitlines()[1] == "Εσύ: καμία απόφαση για κρίση (1 αναγκαστική)"
    assert "παγκόσμιας κλάσης" not in greek and "ποσοστό λάθους 0.0" not in greek
    assert summary(report(idle, busy), ("Εσύ", "Υπολογιστής"), words("el")).startswith(
        "Εσύ: καμία απόφαση για κρίση· ")
