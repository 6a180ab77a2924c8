"""Deciding a tournament match that is still running at its round's deadline (issue 24's rule).

The match is judged as it stood at the deadline (plays after it do not count). In order: a player who never
moved loses to one who did; if only one player moved in the last deadline
period (the match's turn deadline, up to the round's close) he wins; if neither moved in it (or neither
ever moved) both lose; otherwise the higher match score wins, then the lower pip count, then the higher seat
on the standings' seed (the first-named player).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.session import Session

from .model import Pair, Tournament


@dataclass(frozen=True, slots=True)
class Verdict:
    """Who won an adjudicated match (seat 0 or 1, None = both lose) and why (an i18n key suffix)."""

    winner: int | None
    reason: str  # never_moved | idle | both_idle | score | pips


def adjudicate(s: Session, closes_at: float) -> Verdict:
    """The verdict for ``s``, still running when its round closes at ``closes_at`` (its deadline): the match
    as it stood then. Plays made after it (before the round's close, at most a tick later) do not count: they
    are left out of who moved, and taken back on a copy of the board for the pips. A game of the match that
    ended after the deadline cannot be taken back (the session keeps only the current game): its result
    stands in the score."""
    window_start = closes_at - s.deadline_secs
    history = s.game.history
    late = 0  # the plays after the deadline: the end of the history
    for record in reversed(history):
        if record.at is None or record.at <= closes_at:
            break
        late += 1
    ever = [s.game_no > 1 or s.plies_before > 0, s.game_no > 1 or s.plies_before > 0]
    recent = [False, False]
    for record in history[: len(history) - late]:
        if record.is_pass:
            continue
        ever[record.player] = True
        if record.at is not None and record.at >= window_start:
            recent[record.player] = True
    if ever[0] != ever[1]:
        return Verdict(0 if ever[0] else 1, "never_moved")
    if not any(recent):
        return Verdict(None, "both_idle")
    if recent[0] != recent[1]:
        return Verdict(0 if recent[0] else 1, "idle")
    if s.score[0] != s.score[1]:
        return Verdict(0 if s.score[0] > s.score[1] else 1, "score")
    pips = pips_at(s, late)
    return Verdict(0 if pips[0] <= pips[1] else 1, "pips")


def concede(s: Session, winner: int) -> None:
    """End the current game of ``s`` (unless it is over) as the resignation of ``winner``'s opponent, for a match
    judged to ``winner`` (at its round's deadline, or because the loser left): the board redrawn from the commit
    that ends the match shows its winner ("wins · resignation"), not a game in progress. The match score stays
    as it was (the verdict, not the game, decides the match); a match called off (no winner) is left as it is."""
    if not s.game.is_over():
        s.game.resign(winner ^ 1)


def pips_at(s: Session, late: int) -> tuple[int, int]:
    """Each seat's pips to go with the last ``late`` plays of the current game taken back (the board is
    restored before returning: the session is saved afterwards)."""
    board = s.game.board
    taken = [board.pop() for _ in range(min(late, len(board.move_stack)))]
    try:
        mover, other = board.position.pips()
        return (mover, other) if board.turn == 0 else (other, mover)
    finally:
        for play in reversed(taken):
            board.push(play, check=False)


def forfeit(t: Tournament, pair: Pair, s: Session | None) -> tuple[str, int | None] | None:
    """When exactly one player of ``pair`` is gone: his opponent's id, and his seat in the match ``s`` (None:
    no match); else None (both gone: judged like any other match)."""
    gone = [p for p in (pair.a, pair.b) if p in t.gone]
    if pair.b is None or len(gone) != 1:
        return None
    winner = pair.b if gone[0] == pair.a else pair.a
    seat = next((n for n, p in enumerate(s.players) if p.user_id == winner), None) if s is not None else None
    return winner, seat
