"""Head-to-head (``stats @a vs @b``, ``h2h @a @b``): matches, games and points each won, marses, the last 5 results.

Read from the kept records of ``a``'s latest finished matches (``dice_info.finished_records``): the matches whose
other player is ``b``. Aborted matches (no result) are left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.storage.base import Store

from .dice_info import finished_records
from .models import Msg, Place, PlayerRef, Result

LAST_SHOWN = 5


def _seat(record: dict[str, Any], who: PlayerRef) -> int | None:
    """``who``'s seat in a record, or None when he did not play it."""
    for seat, player in enumerate(record.get("players") or []):
        if seat < 2 and [str(player[0]), str(player[1])] == [who.platform, who.user_id]:
            return seat
    return None


def head_to_head(records: Sequence[dict[str, Any]], a: PlayerRef, b: PlayerRef) -> dict[str, Any]:
    """Totals for ``a`` (index 0) and ``b`` (index 1) over the records both played, and the matches in the order
    given (newest first): ``{"matches": [..], "games": [..], "points": [..], "mars": [..], "results": [...],
    "draws": n}`` (a drawn game counts for neither)."""
    totals: dict[str, Any] = {"matches": [0, 0], "games": [0, 0], "points": [0, 0], "mars": [0, 0], "results": [],
                              "draws": 0}
    by_match: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        outcome = record.get("outcome")
        if outcome is None or record.get("status") == "aborted":
            continue
        seats = (_seat(record, a), _seat(record, b))
        if seats[0] is None or seats[1] is None or seats[0] == seats[1]:
            continue
        by_match.setdefault(str(record["game_id"]), []).append(record)
        if outcome.get("winner") is None:  # a drawn Plakoto game (both mothers pinned): nobody's win
            totals["draws"] += 1
            continue
        won = 0 if outcome["winner"] == seats[0] else 1
        totals["games"][won] += 1
        totals["points"][won] += int(outcome["points"])
        if outcome.get("mars") and not outcome.get("resigned"):
            totals["mars"][won] += 1
    for games in by_match.values():  # insertion order: newest match first
        games.sort(key=lambda r: int(r["game_no"]))
        last = games[-1]
        seat_a = _seat(last, a)
        winner = 0 if last["outcome"]["winner"] == seat_a else 1  # the last game of a finished match wins it
        score = [0, 0]
        for game in games:
            if game["outcome"].get("winner") is not None:
                score[0 if game["outcome"]["winner"] == _seat(game, a) else 1] += int(game["outcome"]["points"])
        totals["matches"][winner] += 1
        totals["results"].append({"winner": winner, "score": score, "length": int(last.get("length") or 1),
                                  "ended": last.get("ended"), "game_id": last["game_id"]})
    return totals


async def h2h(store: Store, a: PlayerRef, b: PlayerRef, place: Place) -> Result:
    """The head-to-head of ``a`` and ``b`` as messages: totals, then the last five matches."""
    if (a.platform, a.user_id) == (b.platform, b.user_id):
        return Result.error("h2h_self")
    totals = head_to_head(await finished_records(store, a), a, b)
    names = {"a": a.name, "b": b.name}
    played = sum(totals["matches"])
    if played == 0:
        return Result(ok=True, messages=[Msg("h2h_none", names)], place=place)
    messages = [Msg("h2h", {**names, "matches": played,
                            "a_matches": totals["matches"][0], "b_matches": totals["matches"][1],
                            "a_games": totals["games"][0], "b_games": totals["games"][1],
                            "a_points": totals["points"][0], "b_points": totals["points"][1],
                            "a_mars": totals["mars"][0], "b_mars": totals["mars"][1]})]
    if totals["draws"]:
        messages.append(Msg("h2h_draws", {"count": totals["draws"]}))
    for result in totals["results"][:LAST_SHOWN]:
        won, lost = result["score"][result["winner"]], result["score"][1 - result["winner"]]  # the winner's first
        messages.append(Msg("h2h_row", {"winner": names["ab"[result["winner"]]], "score": f"{won}-{lost}",
                                        "length": result["length"], "game_id": result["game_id"]}))
    return Result(ok=True, messages=messages, place=place)
