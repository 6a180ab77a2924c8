"""The "Open board" button under a Telegram board (when WEB_BASE_URL is set): a ``web_app`` button in a
private chat (the Mini App, where the player can move), and in groups, where ``web_app`` buttons are not
allowed, a link to ``t.me/<bot>/<app>?startapp=<token>`` (or the plain page without a registered app)."""

from __future__ import annotations

import time

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.chat.core import BotCore
from bot.config import Settings
from bot.delivery.replies import Reply
from bot.service.models import Place
from bot.web.links import WebLinks, settings_key

LANG_SECONDS = 60.0  # a chat's language is looked up again after this long


def board_links(settings: Settings) -> WebLinks | None:
    """The links of the boards, or None when the web board is off (no public https WEB_BASE_URL)."""
    base = settings.web_base_url
    if not base or not base.lower().startswith("https://"):  # Telegram takes only https for Mini Apps
        return None
    return WebLinks(settings_key(settings), base, None, settings.telegram_webapp_name)


class BoardLinks:
    """Adds the "Open board" row to a board's keyboard, labelled in the chat's language."""

    def __init__(self, core: BotCore, links: WebLinks) -> None:
        self.core = core
        self.links = links
        self._langs: dict[int, tuple[str, float]] = {}

    async def _lang(self, chat_id: int) -> str:
        kept = self._langs.get(chat_id)
        if kept is not None and time.monotonic() - kept[1] < LANG_SECONDS:
            return kept[0]
        lang = await self.core.language(None, Place("telegram", str(chat_id), str(chat_id)))
        if len(self._langs) > 10_000:
            self._langs.clear()
        self._langs[chat_id] = (lang, time.monotonic())
        return lang

    async def add(self, markup: InlineKeyboardMarkup | None, reply: Reply, chat_id: int,
                  bot_username: str | None) -> InlineKeyboardMarkup | None:
        """``markup`` with the link row added (a board reply only)."""
        if not reply.game_id:
            return markup
        label = self.core.t("web_open_board", await self._lang(chat_id))
        if chat_id > 0:  # a private chat (a user's id): the Mini App itself
            button = InlineKeyboardButton(label, web_app=WebAppInfo(self.links.page(reply.game_id)))
        else:
            button = InlineKeyboardButton(label, url=self.links.with_bot(bot_username).group_link(reply.game_id))
        rows = [list(row) for row in markup.inline_keyboard] if markup is not None else []
        return InlineKeyboardMarkup([*rows, [button]])
