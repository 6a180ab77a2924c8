"""One board message per game: find it through the core (shared by every instance), edit it in place,
post a new one when there is none (or it is gone), and never paint an older version over a newer one."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from bot.core import BotCore
from bot.replies import Reply

from .identity import split_ref
from .rendering import Outgoing

log = logging.getLogger(__name__)
BOARD_FILE = "board.png"


def looks_like_board(message: discord.Message | None) -> bool:
    """True for a message carrying a board picture (a game's board, current or finished)."""
    return message is not None and any(a.filename == BOARD_FILE for a in message.attachments)


class Boards:
    """Board messages of the games this bot shows, keyed by game id through ``core.board_message``."""

    def __init__(self, client: discord.Client, core: BotCore) -> None:
        self.client = client
        self.core = core
        self.shown: dict[str, int] = {}  # game id -> newest version this instance has drawn
        self._locks: dict[str, asyncio.Lock] = {}

    def lock(self, game_id: str) -> asyncio.Lock:
        """Held while a game's board is looked up and drawn, so versions are drawn in order."""
        if len(self._locks) > 10_000:  # forget idle locks of old games
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        return self._locks.setdefault(game_id, asyncio.Lock())

    def is_stale(self, reply: Reply, *, same_too: bool = True) -> bool:
        """True when this instance already drew a newer version of the game (or this one, ``same_too``)."""
        if reply.game_id is None or reply.version is None:
            return False
        shown = self.shown.get(reply.game_id, -1)
        return shown >= reply.version if same_too else shown > reply.version

    def mark(self, reply: Reply) -> None:
        if reply.game_id is not None and reply.version is not None:
            self.shown[reply.game_id] = max(self.shown.get(reply.game_id, -1), reply.version)

    async def where(self, game_id: str) -> tuple[int, int] | None:
        """``(channel id, message id)`` of the game's board message, if one was remembered."""
        ref = await self.core.board_message(game_id)
        return split_ref(ref) if ref else None

    async def remember(self, reply: Reply, message: discord.Message | discord.PartialMessage) -> None:
        if reply.game_id is not None:
            await self.core.remember_board_message(reply.game_id, f"{message.channel.id}:{message.id}")
        self.mark(reply)

    def partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

    async def edit_at(self, ref: tuple[int, int], reply: Reply, out: Outgoing) -> discord.Message | None:
        """Edit the board message at ``ref``; None when it is gone or not ours to edit."""
        try:
            message = await self.partial(*ref).edit(**out.edit_kwargs())
        except (discord.NotFound, discord.Forbidden) as exc:
            log.info("board of %s at %s cannot be edited (HTTP %s)", reply.game_id, ref, exc.status)
            return None
        self.mark(reply)
        return message

    async def post_in(self, channel_id: int, reply: Reply, out: Outgoing) -> discord.Message:
        """Post a fresh board in a channel and remember it as the game's board."""
        message = await self.client.get_partial_messageable(channel_id).send(**out.send_kwargs())
        await self.remember(reply, message)
        return message

    async def show(self, reply: Reply, out: Outgoing, channel_id: int, *, may_post: bool) -> discord.Message | None:
        """Draw a board the core announced: edit it where it is; else post it in ``channel_id`` if allowed.
        Returns the board message, or None when nothing was drawn (stale, or not ours to post)."""
        async with self.lock(reply.game_id or ""):
            if self.is_stale(reply):
                return None
            ref = await self.where(reply.game_id or "")
            if ref is not None and (edited := await self.edit_at(ref, reply, out)) is not None:
                return edited
            if may_post:
                return await self.post_in(channel_id, reply, out)
            return None

    async def url(self, game_id: str, guild_id: int | None) -> str | None:
        """Link to the game's board message, if one is remembered."""
        ref = await self.where(game_id)
        if ref is None:
            return None
        guild = str(guild_id) if guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{ref[0]}/{ref[1]}"

    async def retire(self, ref: tuple[int, int] | None, keep: int | None = None) -> None:
        """Take the buttons off an old board message (the game moved to a new one)."""
        if ref is None or ref[1] == keep:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.partial(*ref).edit(view=None)
