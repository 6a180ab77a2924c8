"""Finding puzzles in a stored analysis, in an analysis worker process (pure CPU: the expert's search)."""

from __future__ import annotations

from fevga.analysis import Report
from fevga.puzzle_select import puzzles_of_report


def mine_report(blob: bytes) -> list[str]:
    """Worker-process entry point: the puzzles among a stored analysis's blunders, encoded."""
    return [p.encode() for p in puzzles_of_report(Report.decode(blob))]
