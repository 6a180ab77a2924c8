"""Answering one interaction with the core's replies, within Discord's rules.

Every interaction gets exactly one callback (message, update of the clicked message, or a defer) and
then follow-ups. Errors and private replies are ephemeral; a board reply edits the game's board message
(the clicked one when that is the board or a challenge turning into the game) or posts it and
remembers it; other text is a public message (for a click on a challenge, the challenge is edited).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.replies import Reply

from .boards import Boards, looks_like_board
from .rendering import Outgoing, outgoing


class InteractionAnswer:
    """The replies to one slash command or component interaction, delivered in order."""

    def __init__(self, interaction: discord.Interaction, boards: Boards, lang: str, command: str | None = None) -> None:
        self.interaction = interaction
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
        async with self.boards.lock(reply.game_id or ""):
            if self.boards.is_stale(reply, same_too=False):
                return  # a newer version (e.g. the AI's answer) is already on the board
            await self._board(reply)

    async def _board(self, reply: Reply) -> None:
        out = outgoing(reply, self.lang, command=self.command)
        ref = await self.boards.where(reply.game_id or "")
        clicked = self.clicked
        if clicked is not None and not self.clicked_used and not clicked.flags.ephemeral:
            is_board_here = ref is not None and ref[1] == clicked.id
            becomes_board = ref is None and not looks_like_board(clicked)  # e.g. the accepted challenge
            if is_board_here or becomes_board:
                message = await self.edit_clicked(out)
                if becomes_board and message is not None:
                    await self.boards.remember(reply, message)
                else:
                    self.boards.mark(reply)
                return
        fresh_here = self.command == "board"  # /fevga board: show it here, retire the old one
        if ref is not None and not fresh_here:
            edited = await self.boards.edit_at(ref, reply, out)
            if edited is not None:
                if self.clicked is None:
                    await self.send(self.pointer(reply, edited))
                return
        message = await self.send(out)
        if message is None:
            message = await self.interaction.original_response()
        await self.boards.remember(reply, message)
        await self.boards.retire(ref, keep=message.id)

    def pointer(self, reply: Reply, board: discord.Message) -> Outgoing:
        """A short public answer to a command whose result is the (edited) board elsewhere."""
        summary = (reply.caption or reply.text.partition("\n")[0]).strip()
        return Outgoing(content=f"{summary}\n{board.jump_url}".strip())

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
        await self.send(out)
