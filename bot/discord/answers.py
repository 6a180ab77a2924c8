"""Answering one interaction with the core's replies, within Discord's rules.

Every interaction gets exactly one callback (message, update of the clicked message, or a defer) and
then follow-ups. Errors and private replies are ephemeral; other text is a public message (for a click on
a challenge, the challenge is edited). A board reply is acknowledged first (a defer, before any
rate-limited call) and then shown through the shared board tracker: the game's board message is edited,
or, when there is none yet, the board becomes the answer (or the accepted challenge turns into it). A finished
game's board is never turned into another game's (Rematch pressed under it): it keeps its picture and caption
as the record of that game, loses its buttons, and the new board is posted below.
If Discord refuses the edit now, the actor is told the move is saved and the board follows.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.delivery import Outcome, RetryLater, Undeliverable
from bot.delivery.replies import Reply
from bot.service.models import Place

from .boards import Boards, board_link, looks_like_board, platform_error
from .command_text import text
from .identity import interaction_place
from .rendering import Outgoing, outgoing, plain

HANDLER_WAIT = 5.0  # seconds to wait for another drawer (the outbox consumer) to show this change


class InteractionAnswer:
    """The replies to one slash command or component interaction, delivered in order."""

    def __init__(self, interaction: discord.Interaction, boards: Boards, lang: str, command: str | None = None,
                 *, place: Place | None = None) -> None:
        self.interaction = interaction
        self.place = place or interaction_place(interaction)  # a game's thread: the game's channel
        self.boards = boards
        self.lang = lang
        self.command = command
        self.thinking = False  # a public "thinking..." original is waiting to be filled
        self.clicked = interaction.message if interaction.type is discord.InteractionType.component else None
        self.clicked_used = False

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self) -> None:
        """Acknowledge now (the core is slow): 'thinking...' for commands, a silent defer for clicks."""
        if self.done:
            return
        if self.clicked is None:
            await self.interaction.response.defer(thinking=True)
            self.thinking = True
        else:
            await self.interaction.response.defer()

    async def deliver(self, replies: list[Reply]) -> None:
        for reply in replies:
            if reply.private or reply.error:
                await self.send(outgoing(reply, self.lang, command=self.command), ephemeral=True)
            elif reply.game_id:
                await self.board(reply)
            else:
                await self.public_text(reply)
        await self.finish()

    async def finish(self) -> None:
        """Make sure the interaction was answered (a click with nothing to show is acknowledged)."""
        if not self.done:
            await self.interaction.response.defer()
        elif self.thinking:  # deferred, but nothing was sent: do not leave "thinking..." forever
            self.thinking = False
            await self.interaction.delete_original_response()

    # ---- sending ------------------------------------------------------------------------------
    async def send(self, out: Outgoing, *, ephemeral: bool = False) -> discord.Message | None:
        """A new message answering the interaction (the callback, or a follow-up after it)."""
        kwargs: dict[str, Any] = out.send_kwargs()
        if not self.done:
            response = await self.interaction.response.send_message(**kwargs, ephemeral=ephemeral)
            resource = response.resource
            return resource if isinstance(resource, discord.InteractionMessage) else None
        if self.thinking and ephemeral:
            # The first follow-up would fill the public "thinking..." message: remove it instead.
            self.thinking = False
            await self.interaction.delete_original_response()
        self.thinking = False
        return await self.interaction.followup.send(**kwargs, ephemeral=ephemeral, wait=True)

    async def edit_clicked(self, out: Outgoing) -> discord.Message | None:
        """Replace the clicked message's content, embed, pictures and components."""
        self.clicked_used = True
        if not self.done:
            response = await self.interaction.response.edit_message(**out.edit_kwargs())
            resource = response.resource if response is not None else None
            if isinstance(resource, discord.InteractionMessage):
                return resource
            return self.clicked
        return await self.interaction.edit_original_response(**out.edit_kwargs())

    # ---- boards -------------------------------------------------------------------------------
    async def board(self, reply: Reply) -> None:
        """Show the board through the tracker. A click on the board (or on the challenge that becomes it)
        is answered by that very edit; anything else is acknowledged first, then the board is edited."""
        game_id = reply.game_id or ""
        self.boards.langs[game_id] = reply.lang or self.lang  # the board's (place's) language, not the clicker's
        fresh = self.command == "board"  # /fevga board: show it here, retire the old one
        old = await self.boards.where(game_id) if fresh else None
        made_here = False

        async def first(shown: Reply) -> str:
            nonlocal made_here
            made_here = True
            return await self._first(shown, fresh)

        clicked = self.clicked
        here = f"{clicked.channel.id}:{clicked.id}" if clicked is not None and not self.clicked_used else None
        version = reply.version or 0
        tracker = self.boards.tracker
        place = self.place
        outcome = Outcome.BUSY
        if here is not None and not self.done:  # one try: the edit of the clicked message is the answer
            outcome = await tracker.converge(game_id, hint=reply, place=place, for_version=version, budget=0.0,
                                             first=first, first_ref=here)
        if outcome is Outcome.BUSY:
            await self.defer()  # answered before any rate-limited call, whatever Discord does to the edits
            outcome = await tracker.show(game_id, version, hint=reply, place=place, fresh=fresh, budget=0.0,
                                         wait=HANDLER_WAIT, first=first, first_ref=here)
        if fresh and made_here and outcome is Outcome.SHOWN:
            await self.boards.retire(old, lang=self.boards.langs.get(game_id, self.lang))
        if outcome in (Outcome.LATER, Outcome.BUSY):
            later = "\n".join(line for line in (plain(reply.text), text("ui.board_later", self.lang)) if line)
            await self.send(Outgoing(content=later), ephemeral=self.clicked is not None)
        else:
            if self.clicked is None and not made_here:
                ref = (await tracker.shown(game_id))[1]
                link = board_link(place, ref) if ref else None
                await self.send(self.pointer(reply, link))
            await self.boards.ping_after(game_id, reply.version)

    async def _first(self, reply: Reply, fresh: bool) -> str:
        """Show a board that is not shown yet: the accepted challenge turns into it, or it is the answer."""
        out = outgoing(reply, reply.lang or self.lang, command=self.command)
        clicked = self.clicked
        try:
            if await self._finished_board_clicked(reply):  # Rematch: that game's record stays in the channel
                await self.retire_clicked()
                return await self.boards.post_board(self.place, reply)
            if clicked is not None and not self.clicked_used and not clicked.flags.ephemeral and not fresh:
                message = await self.edit_clicked(out)
                if message is None:
                    raise Undeliverable("the clicked message is gone")
                return f"{message.channel.id}:{message.id}"
            message = await self.send(out)
            if message is None:
                message = await self.interaction.original_response()
        except discord.NotFound as exc:
            raise RetryLater(None) from exc
        except Exception as exc:
            signal = platform_error(exc)
            if signal is None:
                raise
            raise signal from exc
        return f"{message.channel.id}:{message.id}"

    async def _finished_board_clicked(self, reply: Reply) -> bool:
        """Whether the click was on the board of another game (Rematch under a finished one): that board is
        kept as the game's record, never turned into the new game's."""
        clicked = self.clicked
        if clicked is None or self.clicked_used or clicked.flags.ephemeral or not looks_like_board(clicked):
            return False
        return await self.boards.core.game_for_board_message(f"{clicked.channel.id}:{clicked.id}") != reply.game_id

    async def retire_clicked(self) -> None:
        """Take the buttons off the clicked message, leaving its text and picture (the answer to the click)."""
        self.clicked_used = True
        if not self.done:
            await self.interaction.response.edit_message(view=None)
        else:
            await self.interaction.edit_original_response(view=None)

    def pointer(self, reply: Reply, link: str | None) -> Outgoing:
        """A short public answer to a command whose result is the (edited) board elsewhere."""
        summary = plain((reply.caption or reply.text.partition("\n")[0]).strip())
        return Outgoing(content=f"{summary}\n{link or ''}".strip())

    # ---- other text ---------------------------------------------------------------------------
    async def public_text(self, reply: Reply) -> None:
        out = outgoing(reply, self.lang, command=self.command)
        clicked = self.clicked
        if (
            clicked is not None
            and not self.clicked_used
            and not clicked.flags.ephemeral
            and not looks_like_board(clicked)
        ):
            await self.edit_clicked(out)  # e.g. a declined challenge says so, without its buttons
            return
        sent = await self.send(out)
        if sent is not None and reply.buttons:  # a challenge: its message is edited when it ends (bot/delivery)
            await self.boards.core.remember_challenge_message(reply, f"{sent.channel.id}:{sent.id}")
