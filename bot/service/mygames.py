"""``mygames``: a player's running matches on his platform, in every chat, with whose turn it is and a link
to each board. Read from the per-player index ``{u:<platform>:<user>}:games`` (``keys.player_games``), which
the session commits keep (added at the start, removed at the end); entries whose game is gone are dropped."""

from __future__ import annotations

import json
import logging

from bot.storage.base import Commit, DamagedKey, Store

from . import keys
from .models import Msg, Place, PlayerRef, Result
from .reads import Reads
from .sessions import Sessions

log = logging.getLogger(__name__)
MAX_SHOWN = 25


def board_link(place: Place, ref: str | None) -> str:
    """A link to a board message (``channel:message``): Telegram ``t.me/c/<id>/<msg>`` for a supergroup,
    Discord's jump URL with the guild id; an empty string where the platform has no such link."""
    message = ref.rpartition(":")[2] if ref else ""
    if not message.isdigit():
        return ""
    if place.platform == "telegram" and place.channel_id.startswith("-100"):
        return f"https://t.me/c/{place.channel_id[4:]}/{message}"
    if place.platform == "discord":
        guild = "@me" if place.scope_id.startswith("dm:") else place.scope_id
        return f"https://discord.com/channels/{guild}/{place.channel_id}/{message}"
    return ""


def where(place: Place, link: str, title: str | None = None) -> dict[str, str]:
    """Where a game is, as a row's arguments: its board link, else the chat's title (when a frontend noted it),
    else the words for a private chat or a chat and its id (``spot``, written in the reader's language)."""
    if link:
        return {"where": link, "spot": ""}
    if place.scope_id.startswith(("private:", "dm:")):
        return {"where": "", "spot": "private"}
    if title:
        return {"where": f"«{title}»", "spot": ""}
    return {"where": "", "spot": "chat", "channel": place.channel_id}


def _channel(entry: str | None) -> str:
    """The channel id of an index entry (``[platform, scope, channel, opponent]``); empty when unreadable."""
    try:
        return str(json.loads(entry or "")[2])
    except (ValueError, TypeError, IndexError, KeyError):
        return ""


class MyGames:
    """The running-games index read back as a list (one read of the index, one batch for the games)."""

    def __init__(self, store: Store, sessions: Sessions) -> None:
        self.store = store
        self.sessions = sessions

    async def mygames(self, actor: PlayerRef) -> Result:
        """The actor's running matches on this platform: opponent, whose turn, where (a link when possible)."""
        index_key = keys.player_games(actor.platform, actor.user_id)
        try:
            first = Reads()
            listed = first.hgetall(index_key)
            await first.run(self.store)
            index = listed.value
        except DamagedKey:
            log.error("the games index %s is damaged; it is reset", index_key)
            await self.store.commit(Commit().delete(index_key))
            index = {}
        ids = sorted(index)[:MAX_SHOWN]
        reads = Reads()
        titles = keys.chat_titles(actor.platform)
        found = [(gid, reads.get(keys.game(gid)), reads.get(keys.board_ref(gid)),
                  reads.hget(titles, _channel(index[gid]))) for gid in ids]
        await reads.run(self.store)
        rows: list[Msg] = []
        gone = Commit()
        for gid, raw, ref, title in found:
            s = self.sessions.decode(gid, raw.value, take=False).session
            seat = s.seat_of(actor) if s is not None else None
            if s is None or seat is None or s.status != "play":
                gone.hdel(index_key, gid)
                continue
            link = board_link(s.place, ref.value.decode() if ref.value else None)
            opponent = s.players[seat ^ 1].name
            key = "mygames_row_yours" if s.game.turn == seat else "mygames_row_theirs"
            rows.append(Msg(key, {"opponent": opponent, **where(s.place, link, title.value), "game_id": gid,
                                  "score": f"{s.score[seat]}-{s.score[seat ^ 1]}", "length": s.length}))
        if gone.ops:
            await self.store.commit(gone)
        if not rows:
            return Result(ok=True, messages=[Msg("mygames_none", {"player": actor.name})])
        mine = sum(1 for m in rows if m.key == "mygames_row_yours")
        header = Msg("mygames_header", {"player": actor.name, "count": len(rows), "yours": mine})
        return Result(ok=True, messages=[header, *rows])
