"""The picture ``stats`` attaches: a player's rating over his rated matches here and globally (see
``renderers.rating_graph``), drawn in a worker thread and cached until his next rated match.

The cache key holds the newest history entry of each board, so a new rated match (a new entry) draws afresh
and nothing has to be invalidated; the cache is per process and small.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import replace

from bot.delivery.replies import Reply
from bot.i18n import translate
from bot.service import Place, PlayerRef, keys
from bot.service.game_words import MATCH_KINDS
from bot.service.reads import Reads
from bot.storage.base import Store
from renderers.rating_graph import Series, draw
from renderers.theme import CLASSIC

log = logging.getLogger(__name__)

MAX_POINTS = 200  # the latest rated matches drawn per board
CACHE_SIZE = 256
_cache: OrderedDict[tuple[str, ...], bytes] = OrderedDict()
COLOURS = (CLASSIC.point_a, CLASSIC.point_b)  # here, global


def _points(rows: list[tuple[str, float]]) -> list[tuple[float, float]]:
    """History members ``<game>:<rating>:<RD>`` (newest first, as read) -> (rating, RD), oldest first; unreadable
    members are left out."""
    out = []
    for member, _when in reversed(rows):
        parts = member.split(":")
        try:
            out.append((float(parts[-2]), float(parts[-1])))
        except (ValueError, IndexError):
            continue
    return out


async def stats_graph(store: Store, who: PlayerRef, place: Place, lang: str = "en") -> bytes | None:
    """The PNG of ``who``'s rating graph in the game of his latest rated match (this place's board, then the
    global one; titled with the game when he has played others), or None before his first rated match. Drawn
    off the event loop; the same history and language give the cached picture."""
    places = (keys.board_scope(place.platform, place.scope_id), keys.board_scope(place.platform, None))
    reads = Reads()
    found = {kind: [reads.ztop(keys.rating_history(keys.kind_board(scope, kind), who.user_id), MAX_POINTS)
                    for scope in places] for kind in MATCH_KINDS}
    await reads.run(store)
    played = {kind: [h.value for h in boards] for kind, boards in found.items() if any(h.value for h in boards)}
    if not played:
        return None
    # the game of his latest rated match (each game has a rating of its own)
    kind = max(played, key=lambda k: max(rows[0][1] for rows in played[k] if rows))
    rows = played[kind]
    scopes = tuple(keys.kind_board(scope, kind) for scope in places)
    key = (lang, who.name, *scopes, who.user_id, *(r[0][0] if r else "" for r in rows))
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    series = [Series(translate(label, lang), _points(r), colour)
              for label, r, colour in zip(("graph_here", "graph_global"), rows, COLOURS, strict=True)]
    game = translate(f"game_short_{kind}", lang)
    title = who.name if kind == "fevga" and len(played) == 1 else f"{who.name} · {game}"
    png = await asyncio.to_thread(lambda: draw(title, series).png())
    _cache[key] = png
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return png


async def with_stats_graph(replies: list[Reply], store: Store, who: PlayerRef | None, place: Place,
                           lang: str) -> list[Reply]:
    """``stats`` replies with the rating graph of ``who`` on the first one (unchanged without rated matches, or
    if the picture fails: the figures are the answer, the picture an extra)."""
    if who is None or not replies or replies[0].image is not None:
        return replies
    try:
        png = await stats_graph(store, who, place, lang)
    except Exception:  # a drawing or reading failure must not turn the stats answer into an error
        log.exception("the rating graph of %s could not be drawn", who.user_id)
        return replies
    if png is None:
        return replies
    return [replace(replies[0], image=png, image_name="rating.png"), *replies[1:]]
