"""The thin layer between Discord events and ``BotCore``: one command-language line or one button token
in, the core's replies out, shown the Discord way. No game logic lives here.

Slow core calls (drawing, the AI) are raced against ``DEFER_AFTER`` seconds: an answer within that time
goes straight out, otherwise the interaction is deferred first so Discord's 3 s limit is never missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Iterable, Iterator

import discord

from bot.chat.core import BotCore
from bot.commands.grammar import command_of
from bot.delivery import Outcome, RetryLater
from bot.delivery.challenges import ChallengeEnds
from bot.delivery.replies import Handled, Notice, Reply
from bot.service.keys import update_key
from bot.service.models import Place, PlayerRef

from .answers import HANDLER_WAIT, InteractionAnswer
from .boards import Boards, platform_error
from .command_text import text
from .identity import PLATFORM, discord_ids, interaction_place, is_admin, mention_map, place_of, player_of
from .membership import named_here
from .rendering import Outgoing, direct_message, outgoing, ping_message, plain

log = logging.getLogger(__name__)
DEFER_AFTER = 1.5  # seconds; Discord drops an interaction not answered within 3 s of its creation
CHECK_MARK = "\N{WHITE HEAVY CHECK MARK}"
DRAIN_TIMEOUT = 10.0  # seconds the bot waits on close for commands still being answered


def locale_of(interaction: discord.Interaction) -> str | None:
    """The user's Discord client language (``el``, ``en-US``...): his default language until he sets one."""
    locale = getattr(interaction, "locale", None)
    return str(locale.value) if isinstance(locale, discord.Locale) else None


class DiscordFrontend:
    """Runs commands, clicks and the core's own notices against one ``BotCore`` for one bot."""

    def __init__(self, client: discord.Client, core: BotCore) -> None:
        self.client = client
        self.core = core
        self.boards = Boards(client, core)
        self._ends: ChallengeEnds | None = None
        self._in_flight: set[asyncio.Task[object]] = set()

    # ---- shutdown -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def _handling(self) -> Iterator[None]:
        """Mark the running task as answering a command until it is done (see ``drain``)."""
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
        try:
            yield
        finally:
            if task is not None:
                self._in_flight.discard(task)

    async def drain(self, timeout: float = DRAIN_TIMEOUT) -> None:
        """Wait (at most ``timeout`` s) for commands and clicks still being answered, so closing the bot
        and then the core never cuts a reply or a board edit in half."""
        pending = self._in_flight - {asyncio.current_task()}
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            if late:
                log.warning("closing with %d command(s) still being answered", len(late))

    async def language(self, actor: PlayerRef | None, place: Place, locale: str | None = None) -> str:
        """The language of personal replies to ``actor`` (``locale``: his Discord client's language)."""
        try:
            return str(await self.core.language(actor, place, locale))
        except Exception:  # the language only picks widget texts; never fail a command over it
            log.exception("reading the language failed")
            return "en"

    # ---- interactions -------------------------------------------------------------------------
    async def on_slash(
        self, interaction: discord.Interaction, line: str, users: Iterable[discord.abc.User] = ()
    ) -> None:
        """A slash command, already written as one command-language line."""
        actor = player_of(interaction.user)
        place = await self.boards.threads.game_place(interaction_place(interaction), interaction.channel)
        with self._handling():
            call = self.core.handle_text(
                actor,
                place,
                line,
                idem=update_key(interaction.application_id, "i", interaction.id),
                mentions=await named_here(list(users), interaction.guild, resolved=True),
                is_admin=is_admin(interaction.user, interaction.channel),
                locale=locale_of(interaction),
            )
            await self._interact(interaction, actor, place, call)

    async def on_press(self, interaction: discord.Interaction, token: str) -> None:
        """A button or select option carrying a core token."""
        actor = player_of(interaction.user)
        place = await self.boards.threads.game_place(interaction_place(interaction), interaction.channel)
        with self._handling():
            idem = update_key(interaction.application_id, "i", interaction.id)
            call = self.core.press(actor, place, token, idem=idem, locale=locale_of(interaction))
            await self._interact(interaction, actor, place, call)

    async def _interact(
        self, interaction: discord.Interaction, actor: PlayerRef, place: Place, call: Awaitable[Handled]
    ) -> None:
        """Answer one interaction with what the core did, deferring first when the core is slow."""
        answer = InteractionAnswer(interaction, self.boards, "en", place=place)
        locale = locale_of(interaction)
        task = asyncio.ensure_future(call)
        lang = asyncio.ensure_future(self.language(actor, place, locale))  # read meanwhile: widget texts only
        try:
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:
                await answer.defer()
            handled = await task
            answer.command = handled.word
            answer.lang = await (self.language(actor, place, locale) if handled.word == "lang" else lang)
            await answer.deliver(handled.replies)
            await self._challenges_ended(handled, answer.clicked)
        except Exception:
            log.exception("interaction %s (%s) failed", interaction.id, answer.command)
            task.cancel()
            await self._apologise(answer)

    @property
    def ends(self) -> ChallengeEnds:
        """The challenge messages, edited by the command that ended them (made on first use)."""
        if self._ends is None:
            self._ends = self.core.challenge_ends(self.boards)
        return self._ends

    async def _challenges_ended(self, handled: Handled, clicked: discord.Message | None) -> None:
        """Say at once, in their messages, how the challenges the command ended ended (the accepted one: its
        challenger sees it taken now, not after the outbox's grace); the clicked message answered itself."""
        skip = f"{clicked.channel.id}:{clicked.id}" if clicked is not None else None
        for entry in handled.challenge_ends:
            await self.ends.now(entry, skip=skip)

    async def _apologise(self, answer: InteractionAnswer) -> None:
        with contextlib.suppress(discord.HTTPException):
            await answer.send(Outgoing(content=text("ui.failed", answer.lang)), ephemeral=True)
            await answer.finish()

    # ---- prefix commands --------------------------------------------------------------------
    async def on_prefix(self, message: discord.Message, line: str) -> None:
        """A prefix command (``!fevga challenge @bob 5``): the text after the prefix, as typed."""
        with self._handling():
            await self._prefix(message, line)

    async def _prefix(self, message: discord.Message, line: str) -> None:
        actor = player_of(message.author)
        place = await self.boards.threads.game_place(place_of(message.channel, message.author), message.channel)
        command: str | None = None
        try:
            async with message.channel.typing():
                handled = await self.core.handle_text(
                    actor,
                    place,
                    line,
                    idem=update_key(self.client.user.id if self.client.user else 0, "m", message.id),
                    mentions=await named_here(message.mentions, message.guild, resolved=False)
                    if command_of(line) == "challenge" else mention_map(message.mentions),  # asked of a challenge only
                    is_admin=is_admin(message.author, message.channel),
                )
            command = handled.word
            lang = await self.language(actor, place)
            for reply in handled.replies:
                await self._answer_message(message, reply, lang, command, place)
            await self._challenges_ended(handled, None)
        except discord.Forbidden:  # the bot may not post here: the command stands, its author is told privately
            log.warning("no permission to answer in channel %s (prefix command %s)", message.channel.id, command)
            lang = await self.language(actor, place)
            where = getattr(message.channel, "name", None) or str(message.channel.id)
            with contextlib.suppress(discord.HTTPException):
                await message.author.send(text("ui.cannot_post", lang).format(channel=where, line=line[:200]))
        except Exception:
            log.exception("prefix command in message %s (%s) failed", message.id, command)
            with contextlib.suppress(discord.HTTPException):
                await message.reply(text("ui.failed"), mention_author=False)

    async def _answer_message(self, message: discord.Message, reply: Reply, lang: str, command: str | None,
                              place: Place) -> None:
        out = outgoing(reply, lang, command=command)
        daily = reply.private and reply.fallback is not None and message.guild is not None  # the channel's puzzle
        if command == "puzzle" and reply.private and not reply.error and await self._told_privately(message, out):
            if daily:  # the typed answer names a play others could copy: deleted where the bot may
                await self._delete(message)
            return  # a puzzle's answer in a channel: only its author learns whether he was right
        if daily:  # not told privately: the channel must not see the verdict (it names the solution)
            await message.reply(**outgoing(Reply(reply.fallback or ""), lang, command=command).send_kwargs(),
                                mention_author=False)
            await self._delete(message)
            return
        if not reply.game_id or reply.private or reply.error:
            sent = await message.reply(**out.send_kwargs(), mention_author=False)
            if reply.buttons and not reply.private:  # a challenge: its message is edited when it ends
                await self.core.remember_challenge_message(reply, f"{sent.channel.id}:{sent.id}")
            return
        self.boards.langs[reply.game_id] = reply.lang or lang
        fresh = command == "board"
        old = await self.boards.where(reply.game_id) if fresh else None
        outcome = await self.boards.tracker.show(
            reply.game_id, reply.version or 0, hint=reply, place=place,
            fresh=fresh, budget=0.0, wait=HANDLER_WAIT,
        )
        if outcome in (Outcome.LATER, Outcome.BUSY):
            later = "\n".join(line for line in (plain(reply.text), text("ui.board_later", lang)) if line)
            await message.reply(content=later, mention_author=False)
            return
        if fresh:
            await self.boards.retire(old, lang=self.boards.langs.get(reply.game_id, lang))
        with contextlib.suppress(discord.HTTPException):
            await message.add_reaction(CHECK_MARK)
        await self.boards.ping_after(reply.game_id, reply.version)

    @staticmethod
    async def _delete(message: discord.Message) -> None:
        """Delete a member's message where the bot may (Manage Messages); where it may not, it stays."""
        with contextlib.suppress(discord.HTTPException):
            await message.delete()

    async def _told_privately(self, message: discord.Message, out: Outgoing) -> bool:
        """Send a private reply to a prefix command by direct message (False in a DM already, or when the
        member's DMs are closed: then it is answered in the channel)."""
        if message.guild is None:
            return False
        try:
            await message.author.send(**out.send_kwargs())
        except discord.HTTPException as exc:
            log.info("no direct message to user %s (HTTP %s)", message.author.id, exc.status)
            return False
        with contextlib.suppress(discord.HTTPException):
            await message.add_reaction(CHECK_MARK)
        return True

    # ---- the core's own notices ---------------------------------------------------------------
    def can_show(self, place: Place) -> bool:
        """True for places of this bot: guilds it is in (its shards), DMs on the instance owning shard 0."""
        if place.platform != PLATFORM:
            return False
        if place.scope_id.startswith("dm:"):
            shard_ids = getattr(self.client, "shard_ids", None) or [self.client.shard_id or 0]
            return 0 in shard_ids
        return place.scope_id.isdigit() and self.client.get_guild(int(place.scope_id)) is not None

    async def deliver_notice(self, notice: Notice) -> None:
        """Post a timer's notice (from the outbox): a ping with a link to the board (the board itself is
        redrawn from the same commit's board entry), in the game's thread when it has one, or the text;
        then direct messages. A refusal of the channel post raises RetryLater, so the outbox delivers it
        again later."""
        reply = notice.reply
        if not self.can_show(notice.place) or not notice.place.channel_id.isdigit():
            return
        lang = await self.language(None, notice.place)
        board = await self.boards.where(reply.game_id) if reply.game_id else None
        thread = self.boards.threads.open_thread(board) if board is not None else None
        channel = self.client.get_partial_messageable(thread or int(notice.place.channel_id))
        board_url = await self.boards.url(reply.game_id, notice.place) if reply.game_id else None
        await self.boards.pace(notice.place, None, urgent=False)  # the channel's budget, boards first
        try:
            if reply.game_id:
                if reply.mention or reply.text:
                    await channel.send(**ping_message(reply, board_url).send_kwargs())
            else:
                await channel.send(**outgoing(reply, lang).send_kwargs())
        except Exception as exc:
            signal = platform_error(exc)
            if isinstance(signal, RetryLater):
                raise signal from exc
            log.warning("a notice for %s could not be shown (%s)", notice.place, exc)
        for user_id in discord_ids(notice.direct_to):
            await self._direct(user_id, direct_message(reply, board_url))

    async def _direct(self, user_id: int, out: Outgoing) -> None:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(**out.send_kwargs())
        except discord.HTTPException as exc:  # DMs closed, unknown user: the channel notice still stands
            log.info("no direct message to user %s (HTTP %s)", user_id, exc.status)

    # ---- autocomplete -------------------------------------------------------------------------
    async def play_choices(self, interaction: discord.Interaction, current: str) -> list[str]:
        """Legal plays for the player's game here that start with what was typed (at most 25)."""
        actor = player_of(interaction.user)
        place = await self.boards.threads.game_place(interaction_place(interaction), interaction.channel)
        try:
            plays = await asyncio.wait_for(self.core.suggest_plays(actor, place, current), DEFER_AFTER)
        except Exception:  # autocomplete is a convenience: no suggestions rather than an error
            log.exception("play suggestions failed")
            return []
        return [p for p in plays if 0 < len(p) <= 100][:25]
