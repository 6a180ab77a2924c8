"""A core ``Reply`` as the parts of a Discord message: content, embed, files, view, allowed mentions.

Boards become an embed (caption as title, text as description, the PNG shown from the
``attachment://board.png`` upload); leaderboards and stats become embeds; long texts move into an
embed description. Nothing here talks to Discord.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.delivery.replies import Reply

from .components import component_view
from .identity import discord_ids
from .web_link import with_board_link

MAX_CONTENT, MAX_TITLE, MAX_DESCRIPTION, MAX_EMBEDS = 2000, 256, 4096, 10
EMBED_COMMANDS = frozenset({"top", "stats", "settings"})
BOARD_COLOUR = discord.Colour(0x8B5A2B)  # walnut, like a tavli board
INFO_COLOUR = discord.Colour(0x2E7D32)
ERROR_COLOUR = discord.Colour(0xC62828)


def plain(value: str) -> str:
    """The core's plain text (no markup) as Discord shows it literally: names like ``*bob*`` or
    ``__x__`` are not turned into formatting, nor a name holding ``<@id>`` into another member's mention."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(value))


def clip(value: str, limit: int) -> str:
    """``value`` cut to ``limit`` characters with an ellipsis."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


@dataclass
class Outgoing:
    """Keyword arguments for send/edit; ``files`` are rebuilt for every call (a File is read once)."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    uploads: list[tuple[str, bytes]] = field(default_factory=list)
    mention_ids: list[int] = field(default_factory=list)
    more_embeds: list[discord.Embed] = field(default_factory=list)  # after ``embed`` (an analysis's pictures)

    def embeds(self) -> list[discord.Embed]:
        """Every embed, in order."""
        return [e for e in (self.embed, *self.more_embeds) if e is not None]

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(data), filename=name) for name, data in self.uploads]

    def allowed_mentions(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(i) for i in self.mention_ids], replied_user=False
        )

    def send_kwargs(self) -> dict[str, Any]:
        """For ``Messageable.send``, ``InteractionResponse.send_message`` and ``Webhook.send``."""
        kwargs: dict[str, Any] = {"allowed_mentions": self.allowed_mentions()}
        if self.content:
            kwargs["content"] = self.content
        if self.more_embeds:
            kwargs["embeds"] = self.embeds()
        elif self.embed is not None:
            kwargs["embed"] = self.embed
        if self.view is not None:
            kwargs["view"] = self.view
        if self.uploads:
            kwargs["files"] = self.files()
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """For ``Message.edit`` and ``edit_message``: every part replaced (old attachments dropped)."""
        return {
            "content": self.content,
            **({"embeds": self.embeds()} if self.more_embeds else {"embed": self.embed}),
            "view": self.view,
            "attachments": self.files(),
            "allowed_mentions": self.allowed_mentions(),
        }


def _mention_prefix(reply: Reply) -> tuple[str, list[int]]:
    ids = list(dict.fromkeys(discord_ids(reply.mention)))  # each member mentioned once
    return " ".join(f"<@{i}>" for i in ids), ids


def _with_mentions(prefix: str, body: str | None) -> str | None:
    joined = " ".join(p for p in (prefix, body or "") if p)
    return joined or None


def board_message(reply: Reply, lang: str = "en") -> Outgoing:
    """The board of a game: embed with players, dice, whose turn and score; the picture attached."""
    title = plain((reply.caption or "").strip())
    body = plain(reply.text.strip())
    if not title and body:
        title, _, body = body.partition("\n")
    embed = discord.Embed(title=clip(title, MAX_TITLE) or None, description=clip(body, MAX_DESCRIPTION) or None)
    embed.colour = BOARD_COLOUR
    uploads: list[tuple[str, bytes]] = []
    if reply.image is not None:
        name = reply.image_name or "board.png"
        uploads.append((name, reply.image))
        embed.set_image(url=f"attachment://{name}")
    if reply.document is not None:
        uploads.append((reply.document_name or "game.txt", reply.document))
    if reply.game_id:
        embed.set_footer(text=f"{reply.game_id} · v{reply.version}" if reply.version is not None else reply.game_id)
    prefix, ids = _mention_prefix(reply)
    view = with_board_link(component_view(reply.buttons, lang), reply, lang)
    return Outgoing(prefix or None, embed, view, uploads, ids)


def info_embed(reply: Reply) -> discord.Embed:
    """A text reply as an embed: first line as title, the rest as description."""
    title, _, body = plain(reply.text.strip()).partition("\n")
    if len(title) > MAX_TITLE:
        title, body = "", plain(reply.text.strip())
    embed = discord.Embed(title=title or None, description=clip(body.strip(), MAX_DESCRIPTION) or None)
    embed.colour = ERROR_COLOUR if reply.error else INFO_COLOUR
    return embed


def pictures_message(reply: Reply) -> Outgoing:
    """A reply with pictures (an analysis): its text in the first embed, then one embed per picture
    (caption as title, the PNG shown from its upload); at most 10 embeds, Discord's limit."""
    prefix, ids = _mention_prefix(reply)
    first = info_embed(reply)
    embeds: list[discord.Embed] = []
    uploads: list[tuple[str, bytes]] = []
    for n, (png, caption) in enumerate(reply.pictures[:MAX_EMBEDS - 1], 1):
        name = f"blunder-{n}.png"
        uploads.append((name, png))
        picture = discord.Embed(title=clip(caption, MAX_TITLE) or None, colour=ERROR_COLOUR)
        picture.set_image(url=f"attachment://{name}")
        embeds.append(picture)
    return Outgoing(prefix or None, first, None, uploads, ids, embeds)


def text_message(reply: Reply, lang: str = "en", *, as_embed: bool = False) -> Outgoing:
    """Any other reply: content (or an embed when asked or too long), picture or file, buttons."""
    if reply.pictures:
        return pictures_message(reply)
    prefix, ids = _mention_prefix(reply)
    uploads: list[tuple[str, bytes]] = []
    if reply.image is not None:
        uploads.append((reply.image_name or "image.png", reply.image))
    if reply.document is not None:
        uploads.append((reply.document_name or "game.txt", reply.document))
    content = _with_mentions(prefix, plain(reply.text.strip()))
    embed = None
    if as_embed or (content is not None and len(content) > MAX_CONTENT):
        embed = info_embed(reply)
        content = prefix or None
    if content is None and embed is None and not uploads:
        content = "…"
    return Outgoing(content, embed, component_view(reply.buttons, lang), uploads, ids)


def outgoing(reply: Reply, lang: str = "en", *, command: str | None = None) -> Outgoing:
    """The message for ``reply``; ``command`` is the command-language word that produced it."""
    if reply.game_id and not reply.error:
        return board_message(reply, lang)
    return text_message(reply, lang, as_embed=command in EMBED_COMMANDS and not reply.error)


def ping_message(reply: Reply, board_url: str | None) -> Outgoing:
    """A short message pinging ``reply.mention`` about a board that was edited (edits do not notify)."""
    prefix, ids = _mention_prefix(reply)
    first = plain(reply.text.strip().partition("\n")[0])
    body = " ".join(p for p in (prefix, first) if p)
    if board_url:
        body = f"{clip(body, MAX_CONTENT - len(board_url) - 1)}\n{board_url}"
    return Outgoing(content=clip(body, MAX_CONTENT) or "…", mention_ids=ids)


def direct_message(reply: Reply, board_url: str | None) -> Outgoing:
    """What a player is sent privately (a reminder): the text and a link to the board, no buttons."""
    body = plain(reply.text.strip() or (reply.caption or ""))
    if board_url:
        body = f"{clip(body, MAX_CONTENT - len(board_url) - 1)}\n{board_url}"
    return Outgoing(content=clip(body, MAX_CONTENT) or "…")
