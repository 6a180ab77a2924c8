"""The "Open board" link button under a Discord board (when WEB_BASE_URL is set): a link to the game's web
page (read-only outside Telegram; a Discord Activity is the next step, see docs/discord-activity.md)."""

from __future__ import annotations

import logging

import discord

from bot.config import Settings
from bot.delivery.replies import Reply
from bot.i18n import translate
from bot.web.links import WebLinks, settings_key

log = logging.getLogger(__name__)
_current: list[WebLinks | None] = [None]  # set once per process by ``configure`` (the bot's settings)


def configure(settings: Settings) -> None:
    """Turn the link button on (WEB_BASE_URL set) or off, with the same link key as the web server."""
    if not settings.web_base_url:
        _current[0] = None
        return
    _current[0] = WebLinks(settings_key(settings), settings.web_base_url)


def with_board_link(view: discord.ui.View | None, reply: Reply, lang: str) -> discord.ui.View | None:
    """``view`` with the board's link button added (a new view when there was none); unchanged when the web
    board is off, the reply is not a board, or the view has no room left."""
    links = _current[0]
    if links is None or not reply.game_id:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        style=discord.ButtonStyle.link, label=translate("web_open_board", lang), url=links.page(reply.game_id))
    try:
        view.add_item(button)
    except ValueError:  # five full rows: the board's own buttons come first
        log.debug("no room for the board link of %s", reply.game_id)
    return view
