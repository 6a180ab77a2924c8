"""Discord's side of the board tracker (``bot.delivery.BoardTracker``): the platform calls "edit this
message with this board" and "post a new board in this channel", Discord's errors mapped to the tracker's
signals (429, 5xx, timeouts, dropped connections: retry later; no access: undeliverable), and links to a
board message (with the guild id, so they open inside servers)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator

import aiohttp
import discord

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Pinger, RetryLater, Undeliverable
from bot.delivery.budgets import PlaceBudgets
from bot.delivery.replies import Reply
from bot.service.models import Place, PlayerRef

from .command_text import text
from .identity import discord_ids, split_ref
from .rendering import Outgoing, clip, direct_message, outgoing, plain
from .threads import GameThreads

log = logging.getLogger(__name__)
BOARD_FILE = "board.png"
CHANNEL_BUDGET = (5, 5.0)  # Discord: 5 messages (sent, edited or deleted) per 5 s per channel


def looks_like_board(message: discord.Message | None) -> bool:
    """True for a message carrying a board picture (a game's board, current or finished)."""
    return message is not None and any(a.filename == BOARD_FILE for a in message.attachments)


def platform_error(exc: BaseException) -> Exception | None:
    """A failed Discord call as the tracker's signal; None when it is not a platform failure."""
    if isinstance(exc, discord.RateLimited):
        return RetryLater(exc.retry_after)
    if isinstance(exc, discord.Forbidden):
        return Undeliverable(str(exc.status))
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429:
            retry_after = getattr(exc, "retry_after", None)
            return RetryLater(retry_after if isinstance(retry_after, int | float) else None)
        if exc.status >= 500:
            return RetryLater(None)
        return Undeliverable(str(exc.status))
    if isinstance(exc, aiohttp.ClientError | asyncio.TimeoutError | OSError):
        return RetryLater(None)
    return None


@contextlib.contextmanager
def platform_errors() -> Iterator[None]:
    """Re-raise a failed Discord call as the tracker's signal (RetryLater / Undeliverable); other errors as
    they are."""
    try:
        yield
    except Exception as exc:
        signal = platform_error(exc)
        if signal is None:
            raise
        raise signal from exc


def board_link(place: Place, ref: str) -> str | None:
    """``https://discord.com/channels/<guild or @me>/<channel>/<message>`` for a board ref."""
    where = split_ref(ref)
    if where is None:
        return None
    guild = place.scope_id if place.scope_id.isdigit() else "@me"
    return f"https://discord.com/channels/{guild}/{where[0]}/{where[1]}"


class Boards:
    """The board messages of this bot's games: the tracker (shared by every instance) and its surface."""

    def __init__(self, client: discord.Client, core: BotCore) -> None:
        self.client = client
        self.core = core
        self._tracker: BoardTracker | None = None
        self._pinger: Pinger | None = None
        self.threads = GameThreads(self)
        self.budgets = PlaceBudgets(*CHANNEL_BUDGET)  # each channel's budget, boards first (tests scale it)
        self.langs: dict[str, str] = {}  # game id -> language of its widgets (placeholders), best known

    @property
    def tracker(self) -> BoardTracker:
        """The shared board tracker, with this object as its platform surface (made on first use)."""
        if self._tracker is None:
            self._tracker = BoardTracker(self.core.store, self.core.board_reply, self)
        return self._tracker

    @property
    def pinger(self) -> Pinger:
        """The shared turn pings, with this object as their platform surface (made on first use)."""
        if self._pinger is None:
            self._pinger = self.core.pinger(self)
        return self._pinger

    async def ping_after(self, game_id: str, version: int | None) -> None:
        """The board shows a change: ping the player to move, once (a refused ping is retried by the
        outbox consumer, so a failure here is only logged)."""
        if version is None:
            return
        try:
            await self.pinger.ping(game_id, version)
        except Exception:
            log.warning("the ping for %s v%s is left to the outbox", game_id, version, exc_info=True)

    def partial(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        return self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

    async def where(self, game_id: str) -> tuple[int, int] | None:
        """``(channel id, message id)`` of the game's board message, if one was shown."""
        ref = (await self.tracker.shown(game_id))[1] or await self.core.board_message(game_id)
        return split_ref(ref) if ref else None

    async def url(self, game_id: str, place: Place) -> str | None:
        """Link to the game's board message, if one is shown."""
        ref = (await self.tracker.shown(game_id))[1]
        return board_link(place, ref) if ref else None

    async def pace(self, place: Place, ref: str | None, *, urgent: bool) -> None:
        """Wait for room in the budget of the channel of ``ref`` (else of ``place``); ``urgent``: a board."""
        where = split_ref(ref) if ref else None
        channel = str(where[0]) if where is not None else place.channel_id
        await self.budgets.take(channel, urgent=urgent)

    # ---- the tracker's surface -------------------------------------------------------------------
    async def edit_board(self, ref: str, reply: Reply) -> bool:
        """Edit the board message ``ref``; False when it is gone (the tracker posts a new one)."""
        where = split_ref(ref)
        if where is None:
            return False
        out = outgoing(reply, self.langs.get(reply.game_id or "", "en"))
        try:
            with platform_errors():
                await self.partial(*where).edit(**out.edit_kwargs())
        except Undeliverable as exc:
            if not isinstance(exc.__cause__, discord.NotFound):
                raise
            log.info("board of %s at %s is gone", reply.game_id, ref)
            return False
        return True

    async def post_board(self, place: Place, reply: Reply) -> str:
        """Post a new board message in the place's channel; its ref."""
        if not place.channel_id.isdigit():
            raise Undeliverable(str(place))
        out = outgoing(reply, self.langs.get(reply.game_id or "", "en"))
        with platform_errors():
            message = await self.client.get_partial_messageable(int(place.channel_id)).send(**out.send_kwargs())
        return f"{message.channel.id}:{message.id}"

    async def edit_challenge(self, ref: str, text: str) -> bool:
        """Say how a challenge ended in its message, without its buttons; False when the message is gone."""
        where = split_ref(ref)
        if where is None:
            return False
        try:
            with platform_errors():
                await self.partial(*where).edit(content=text[:2000], embed=None, view=None)
        except Undeliverable as exc:
            if not isinstance(exc.__cause__, discord.NotFound):
                raise
            return False
        return True

    async def retire(self, ref: tuple[int, int] | None, keep: int | None = None, lang: str = "en") -> None:
        """An old board message the game left for a new one (``board`` asked again): its picture, caption and
        buttons give way to "the board moved below", so that no stale position stays in sight."""
        if ref is None or ref[1] == keep:
            return
        with contextlib.suppress(discord.HTTPException):
            await self.partial(*ref).edit(content=text("ui.board_moved", lang), embed=None, attachments=[],
                                          view=None)

    # ---- the pinger's surface --------------------------------------------------------------------
    async def post_ping(self, place: Place, reply: Reply, board_ref: str | None) -> str | None:
        """A short message in the board's channel mentioning ``reply.mention`` (those users only); its ref."""
        where = split_ref(board_ref) if board_ref else None
        channel = where[0] if where is not None else int(place.channel_id) if place.channel_id.isdigit() else None
        if channel is None:
            raise Undeliverable(str(place))
        if where is not None and reply.mention:  # a turn ping: in the game's thread, or under a board in sight
            channel, where = await self.threads.ping_channel(place, where)
        await self.budgets.take(str(channel), urgent=False)
        with platform_errors():
            out = ping_text(reply, board_link(place, f"{where[0]}:{where[1]}") if where is not None else None)
            message = await self.client.get_partial_messageable(channel).send(**out.send_kwargs())
        return f"{message.channel.id}:{message.id}"

    async def delete_ping(self, ref: str) -> None:
        """Delete an earlier ping (already gone: fine)."""
        where = split_ref(ref)
        if where is None:
            return
        await self.budgets.take(str(where[0]), urgent=False)
        try:
            with platform_errors():
                await self.partial(*where).delete()
        except Undeliverable as exc:
            log.info("the old ping %s stays (%s)", ref, exc)

    async def direct_ping(self, player: PlayerRef, reply: Reply, board_ref: str | None) -> None:
        """The ping as a direct message with a link to the board (closed DMs: nothing is sent)."""
        ids = discord_ids([player])
        if not ids:
            return
        where = split_ref(board_ref) if board_ref else None
        link = f"https://discord.com/channels/@me/{where[0]}/{where[1]}" if where is not None else None
        guild = getattr(self.client.get_channel(where[0]) if where is not None else None, "guild", None)
        if where is not None and guild is not None:
            link = f"https://discord.com/channels/{guild.id}/{where[0]}/{where[1]}"
        try:
            user = self.client.get_user(ids[0]) or await self.client.fetch_user(ids[0])
            with platform_errors():
                await user.send(**direct_message(reply, link).send_kwargs())
        except (Undeliverable, discord.HTTPException) as exc:
            log.info("no direct ping to %s (%s)", ids[0], exc)


def ping_text(reply: Reply, link: str | None = None) -> Outgoing:
    """The ping's text with the player's name replaced by his mention, then a link to the board; only
    the mentioned users may be notified (no @everyone, no roles)."""
    content = plain(reply.text)
    ids = discord_ids(reply.mention)
    for player, user_id in zip(reply.mention, ids, strict=False):
        name, mention = plain(player.name), f"<@{user_id}>"
        content = content.replace(name, mention, 1) if name and name in content else f"{mention} {content}"
    if link:
        content = f"{clip(content, 1990 - len(link))}\n{link}"
    return Outgoing(content=clip(content, 2000), mention_ids=ids)
