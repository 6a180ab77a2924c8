"""What the bot does on its own: ``core.tick()`` from a repeating JobQueue job (expired challenges, turn
reminders, deadlines) and a task that applies game events from ``core.updates()`` (an AI move, a move
made through another instance) to this bot's chats."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from telegram import Bot
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.core import BotCore
from bot.logging_setup import get_logger
from bot.replies import Notice

from .delivery import Delivery
from .identity import PLATFORM, chat_id_of, user_chat_id
from .ordering import ChatQueue
from .texts import MAX_TEXT, clip

log = get_logger(__name__)

_RETRY_SECONDS = (1.0, 60.0)  # first and longest pause before listening again when the event stream broke


class Background:
    """The tick job and the update pump of one Application."""

    def __init__(self, core: BotCore, delivery: Delivery, chats: ChatQueue) -> None:
        self.core = core
        self.delivery = delivery
        self.chats = chats  # shared with the handlers: an event waits until the chat's update is handled
        self._pump: asyncio.Task[None] | None = None

    async def deliver(self, bot: Bot, notice: Notice, *, only_newer: bool = False) -> None:
        """Post a notice in its chat (when it is a Telegram chat) and privately to ``direct_to``."""
        chat_id = chat_id_of(notice.place)
        reply = notice.reply
        if chat_id is not None:
            try:
                await self.delivery.send(bot, chat_id, [reply], only_newer=only_newer)
                if reply.game_id is not None and reply.text and reply.mention and not only_newer:
                    # An edited board notifies nobody: a reminder also pings the player in the chat.
                    await self.delivery.post(bot, chat_id, replace(reply, game_id=None, image=None, buttons=()))
            except TelegramError as error:
                log.warning("telegram_notice_failed", chat_id=chat_id, error=error.message)
        for player in notice.direct_to:
            user_id = user_chat_id(player)
            if user_id is None or user_id == chat_id:
                continue
            text = clip(reply.text, MAX_TEXT)
            if not text.strip():
                continue
            try:
                await bot.send_message(user_id, text)
            except Forbidden as error:  # the player never started the bot (or blocked it)
                log.info("telegram_reminder_not_delivered", user_id=user_id, error=error.message)
            except TelegramError as error:
                log.warning("telegram_reminder_failed", user_id=user_id, error=error.message)

    # ---- JobQueue ------------------------------------------------------------------------------
    async def tick(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The repeating job: let the core act on due timers and post what it says."""
        try:
            # only this platform's timers: the others' notices belong to their own frontends
            notices: list[Notice] = await self.core.tick(platform=PLATFORM)
        except Exception:
            log.exception("telegram_tick_failed")
            return
        for notice in notices:
            await self.deliver(context.bot, notice)

    # ---- update pump -----------------------------------------------------------------------------
    def start(self, bot: Bot) -> None:
        """Start consuming core.updates() (idempotent)."""
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._run(bot), name="fevga-telegram-updates")

    async def stop(self) -> None:
        """Cancel the update pump and wait for it."""
        pump, self._pump = self._pump, None
        if pump is not None:
            pump.cancel()
            await asyncio.gather(pump, return_exceptions=True)

    async def _run(self, bot: Bot) -> None:
        pause = _RETRY_SECONDS[0]
        while True:
            try:
                async for notice in self.core.updates(PLATFORM):
                    pause = _RETRY_SECONDS[0]
                    chat_id = chat_id_of(notice.place)
                    if chat_id is None:
                        continue  # another platform's game
                    # A change made by a command in this chat is shown by its handler; waiting for the
                    # chat's turn lets only_newer drop the event instead of editing the board twice.
                    async with self.chats.turn(chat_id):
                        await self.deliver(bot, notice, only_newer=True)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("telegram_updates_failed", retry_in=pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, _RETRY_SECONDS[1])
