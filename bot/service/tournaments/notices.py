"""What a tournament's channel is told (pure functions of the event): the standings as messages, and a
round's notice (verdicts, table, pairings, or the final word). Kept apart from the round engine
(:mod:`.events`), which commits these notices to the outbox with the round itself."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.models import Msg, PlayerRef, Result

from .model import Tournament
from .standings import standings


def last_round(t: Tournament) -> int:
    """The last round whose results are in (0: none yet). ``t.round`` is already the next one once a round
    closed and the next was paired, so the standings' header is named after this one."""
    return max((r.round for r in t.results), default=0)


def table_msgs(t: Tournament) -> list[Msg]:
    """The standings as messages: a header (after the last round whose results are in, or "no results yet"
    while round one is played), then one row per player (rank, name, score, Buchholz, Sonneborn-Berger, and
    the round results as ``+name`` won / ``-name`` lost, ``+—`` a bye). A knockout's table has its own keys
    (``…_ko``): matches won, none of the Swiss tie-breaks, which mean nothing in a bracket."""
    done = last_round(t)
    if t.status == "done":
        header = "tournament_table_final"
    elif t.status == "open":  # signed up, not started: no round is being played
        header = "tournament_table_open"
    else:
        header = "tournament_table_header" if done else "tournament_table_start"
    knockout = t.kind == "knockout"
    if knockout and header != "tournament_table_open":
        header += "_ko"
    out = [Msg(header, {"id": t.id, "round": done, "rounds": t.rounds, "game": t.game})]
    for row in standings(t.players, t.results):
        marks = " ".join(
            ("+" if won else "-") + ("—" if opponent is None else t.name_of(opponent))
            for _n, (opponent, won) in sorted(row.rounds.items())
        )
        out.append(Msg("tournament_table_row_ko" if knockout else "tournament_table_row", {
            "rank": row.rank, "name": t.name_of(row.player), "score": row.score, "buchholz": row.buchholz,
            "sb": row.sonneborn_berger, "results": marks or "—",  # no round played yet: a dash, not nothing
            "marks": [[won, None if opponent is None else t.name_of(opponent)]
                      for _n, (opponent, won) in sorted(row.rounds.items())]}))  # fmt: skip
    return out


def over_msg(t: Tournament) -> Msg:
    """The final word: the winner, or (a knockout whose last match was lost by both players, who send nobody
    on) that it ends without one, said in words."""
    if t.winner is not None:
        return Msg("tournament_over", {"winner": t.name_of(t.winner), "id": t.id})
    last = [r for r in t.results if r.round == last_round(t) and r.b is not None]
    key = "tournament_over_no_winner" if len(last) == 1 else "tournament_over_no_winner_all"
    return Msg(key, {"id": t.id, "round": last_round(t)})


def round_result(t: Tournament, verdicts: Sequence[Msg], now: float) -> Result:
    """What the channel is told: verdicts, the table after a round, the new pairings (each player pinged
    once, with his opponent and the deadline), or the final message. It goes to the outbox in the round's
    own commit, so it is delivered once, whichever instance (or restarted process) made the round."""
    messages = list(verdicts)
    if t.round > 1 or t.status == "done":
        messages.extend(table_msgs(t))
    notify: list[PlayerRef] = []
    if t.status == "done":
        messages.append(over_msg(t))
    else:
        for pair in sorted(t.pairs, key=lambda p: p.b is None):  # the matches, then the byes (not mixed)
            if pair.b is None:
                messages.append(Msg("tournament_bye", {"player": t.name_of(pair.a), "round": t.round}))
                continue
            notify.extend((t.ref(pair.a), t.ref(pair.b)))
            messages.append(Msg("tournament_pairing", {
                "round": t.round, "player0": t.name_of(pair.a), "player1": t.name_of(pair.b),
                "left": max(0.0, t.round_ends - now)}))  # fmt: skip
    return Result(ok=True, messages=messages, to_notify=notify, place=t.place)
