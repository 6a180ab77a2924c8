"""The service's read-only commands: leaderboards, stats, head-to-head, dice, exports, analyses, records.

A mixin of :class:`~bot.service.service.GameService`, which builds the collaborators these delegate to.
"""

from __future__ import annotations

import dataclasses

from bot.storage.base import Store

from . import dice_info, head_to_head
from .analyses import Analyses
from .guard import command
from .info import Info
from .models import Place, PlayerRef, Result
from .mygames import MyGames
from .tournaments.events import Tournaments


class LookupCommands:
    """Commands that read what the games wrote (Info, MyGames, Analyses)."""

    store: Store
    info: Info
    games: MyGames
    analyses: Analyses
    tournaments: Tournaments

    @command
    async def top(self, place: Place, n: int = 10, global_: bool = False, kind: str | None = None) -> Result:
        """The best ``n`` players of this place's board (or the platform's global board) of ``kind`` (fevga,
        portes, plakoto, tavli; None: the place's ``default_game``)."""
        return await self.info.top(place, n, global_, kind)

    @command
    async def mygames(self, actor: PlayerRef) -> Result:
        """The actor's running matches on his platform, in every chat: whose turn, and a link to each board."""
        return await self.games.mygames(actor)

    @command
    async def stats(self, who: PlayerRef, place: Place, versus: PlayerRef | None = None) -> Result:
        """A player's rating, rank and record on this place's board and on the global one; with ``versus``, the
        head-to-head of the two (matches, games, points, marses, the last 5 results); and his tournaments here,
        with the titles he won."""
        if versus is not None:
            return await head_to_head.h2h(self.store, who, versus, place)
        answer = await self.info.stats(who, place)
        events = await self.tournaments.record_of(who, place) if answer.ok else None
        return dataclasses.replace(answer, messages=[*answer.messages, events]) if events else answer

    @command
    async def dice(self, place: Place, who: PlayerRef | None = None, game_id: str | None = None) -> Result:
        """Dice statistics: ``who``'s rolls over his finished matches, or one match's and its commitments."""
        return await dice_info.DiceInfo(self.store, self.info).ask(place, who, game_id)

    @command
    async def export(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The actor's match here (running or last finished) as ``.mat``-like text in ``Msg('export')``."""
        return await self.info.export(actor, place, game_id)

    @command
    async def analyze(self, actor: PlayerRef, place: Place, game_id: str | None = None) -> Result:
        """The analysis of the last finished game of the actor's match here (or of ``game_id``), computed
        once in a worker process and kept with the record (``Msg('analysis', {'report': ...})``)."""
        return await self.analyses.analyze(actor, place, game_id)

    @command
    async def game_analysis(self, game_id: str, game_no: int) -> Result:
        """The analysis to post after game ``game_no`` ended, when the place's ``analysis`` setting wants
        one (once per game across instances; else an empty Result)."""
        return await self.analyses.after_game(game_id, game_no)

    @command
    async def record(self, game_id: str) -> Result:
        """The full record of a match (``Msg('record', {'record': {...}})``), seeds of finished games revealed."""
        return await self.info.record(game_id)
