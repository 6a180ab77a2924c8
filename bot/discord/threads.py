"""Keeping a game's board in sight on Discord. With the server's ``threads`` setting on (the default) and the
permissions to do it, each game between two members gets its own thread, started from the board message
(so the thread's id is the board message's): pings and the players' commands go there, the board stays the
thread's first message. Commands typed in such a thread belong to the game's channel. Without a thread,
a board buried under ``BURIED_AFTER`` newer messages is posted again at the bottom and the old message
says where it went. A thread Discord refuses (no permission) is not asked for again in that channel for
``REFUSAL_SECONDS``, or until the server's settings change (``keys.thread_refused``)."""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Protocol

import discord

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Outcome, RetryLater, Undeliverable
from bot.i18n import display_name, translate
from bot.service import keys
from bot.service.models import Place
from bot.service.reads import Reads
from bot.storage.base import Commit

from .command_text import text
from .identity import split_ref

log = logging.getLogger(__name__)
BURIED_AFTER = 10  # newer messages under a board before it is posted again (no thread)
THREAD_EXISTS = 160004  # Discord: "A thread has already been created for this message"
REFUSAL_SECONDS = 3600  # a refused thread is not asked for again in that channel for so long


class BoardMessages(Protocol):
    """What the threads need of the board messages (:class:`bot.discord.boards.Boards`, which owns them)."""

    client: discord.Client
    core: BotCore
    langs: dict[str, str]

    @property
    def tracker(self) -> BoardTracker: ...

    def partial(self, channel_id: int, message_id: int) -> discord.PartialMessage: ...


class GameThreads:
    """Threads per game and re-posting buried boards, for :class:`bot.discord.boards.Boards`."""

    def __init__(self, boards: BoardMessages) -> None:
        self.boards = boards
        self.client = boards.client
        self.core = boards.core
        self.buried_after = BURIED_AFTER

    async def may_start_thread(self, place: Place) -> str | None:
        """The fingerprint of the server's settings when a thread may be asked for in this channel: the
        ``threads`` setting is on (unless an admin turned it off) and Discord did not refuse one here lately
        under the same settings. None when not; "" when they cannot be read (ask, remember nothing)."""
        reads = Reads()
        settings = reads.hgetall(keys.place_settings(place))
        refused = reads.get(keys.thread_refused(place))
        try:
            await reads.run(self.core.store)
        except Exception:
            log.exception("reading the threads setting of %s failed", place.scope_id)
            return ""
        if settings.value.get("threads", "on") == "off":
            return None
        fingerprint = hashlib.sha256(json.dumps(sorted(settings.value.items())).encode()).hexdigest()[:16]
        return None if refused.value == fingerprint.encode() else fingerprint

    async def _refused(self, place: Place, fingerprint: str) -> None:
        """Remember that Discord refused a thread in this channel (best effort: else it is asked again)."""
        try:
            await self.core.store.commit(Commit().put(keys.thread_refused(place), fingerprint.encode(),
                                                      REFUSAL_SECONDS))
        except Exception:
            log.warning("could not remember the refused thread in %s", place.channel_id, exc_info=True)

    async def game_place(self, place: Place, channel: object = None) -> Place:
        """The place a command belongs to: a game's own thread means the game's channel."""
        if place.scope_id.startswith("dm:") or not place.channel_id.isdigit():
            return place
        if not isinstance(channel, discord.Thread):  # e.g. an interaction's partial channel: the cached one
            channel = self.client.get_channel(int(place.channel_id))
        parent = getattr(channel, "parent_id", None)
        if not isinstance(channel, discord.Thread) or parent is None:
            return place
        if await self.core.game_for_board_message(f"{parent}:{place.channel_id}") is None:
            return place  # a thread the members made: a place of its own
        return Place(place.platform, place.scope_id, str(parent))

    async def ping_channel(self, place: Place, board: tuple[int, int]) -> tuple[int, tuple[int, int]]:
        """Where a ping for the board at ``board`` goes, and where the board is then: the game's thread
        (made now if needed), else the board's channel (the board posted again when it is buried)."""
        thread = await self.thread_for(place, board)
        if thread is not None:
            return thread, board
        board = await self.unbury(board)
        return board[0], board

    def open_thread(self, board: tuple[int, int]) -> int | None:
        """The game's thread when it has one open (started from its board message ``board``), else None:
        timer notices go there, never making a thread (an archived one is out of sight: the channel then)."""
        thread = self.client.get_channel(board[1])
        return thread.id if isinstance(thread, discord.Thread) and thread.parent_id == board[0] else None

    async def thread_for(self, place: Place, board: tuple[int, int]) -> int | None:
        """The game's thread (the board message's thread), created when missing; None when there is to
        be no thread (DM, setting off, no permission, the board already in a thread) or Discord refused."""
        channel_id, message_id = board
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel) or str(channel_id) != place.channel_id:
            return None
        if isinstance(self.client.get_channel(message_id), discord.Thread):
            return message_id
        fingerprint = await self.may_start_thread(place)
        if fingerprint is None:
            return None
        mine = channel.permissions_for(channel.guild.me)
        if not (mine.create_public_threads and mine.send_messages_in_threads):
            return None
        try:
            thread = await channel.get_partial_message(message_id).create_thread(
                name=await self._name(place, board), auto_archive_duration=1440)  # a day without a move: archived
        except discord.HTTPException as exc:
            if exc.code == THREAD_EXISTS:
                return message_id
            if exc.status == 429 or exc.status >= 500:
                raise RetryLater(getattr(exc, "retry_after", None)) from exc
            log.info("no thread for the board %s (%s): pings stay in the channel", board, exc.status)
            if fingerprint:
                await self._refused(place, fingerprint)
            return None
        return thread.id

    async def _name(self, place: Place, board: tuple[int, int]) -> str:
        """The thread's name: the match's game and its players, in the place's language ("Πόρτες Ελένη – Bob")."""
        game = await self.core.game_for_board_message(f"{board[0]}:{board[1]}")
        view = (await self.core.service.view_of(game)).view if game else None
        lang = await self.core.place_language(place)
        kind = view.kind if view is not None else "fevga"
        title = translate(f"game_short_{kind}", lang)
        names = " – ".join(display_name(n, lang) for n in view.names) if view is not None else ""
        return f"{title} {names}".strip()[:100]

    async def unbury(self, board: tuple[int, int]) -> tuple[int, int]:
        """Post the board again at the bottom when ``buried_after`` newer messages hide it; the old
        message then says it moved. Where the board is afterwards."""
        channel = self.client.get_partial_messageable(board[0])
        try:
            recent = [m.id async for m in channel.history(limit=self.buried_after)]
        except discord.HTTPException as exc:
            log.info("could not look under the board %s (%s)", board, exc.status)
            return board
        if len(recent) < self.buried_after or board[1] in recent:
            return board
        game = await self.core.game_for_board_message(f"{board[0]}:{board[1]}")
        stored = await self.boards.tracker.stored(game) if game else None
        if game is None or stored is None:
            return board
        outcome = await self.boards.tracker.show(game, stored, fresh=True, budget=2.0, wait=2.0)
        moved = split_ref((await self.boards.tracker.shown(game))[1] or "")
        if outcome is not Outcome.SHOWN or moved is None or moved == board:
            return board
        try:
            await self.boards.partial(*board).edit(content=text("ui.board_moved", self.boards.langs.get(game, "en")),
                                                   embed=None, attachments=[], view=None)
        except (discord.HTTPException, Undeliverable) as exc:
            log.info("the old board %s keeps its picture (%s)", board, exc)
        return moved
