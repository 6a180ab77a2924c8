"""What the bot does on its own: ``core.tick()`` from a repeating JobQueue job (expired challenges, turn
reminders, deadlines: their notices go to the outbox in the timer's own commit) and the outbox consumer
(``bot.delivery``), which converges boards changed by any instance and posts the notices, each exactly once
across instances."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from telegram import Bot
from telegram.error import Forbidden, TelegramError
from telegram.ext import ContextTypes

from bot.chat.buttons import is_puzzle
from bot.chat.core import BotCore
from bot.delivery import OutboxConsumer, RetryLater
from bot.delivery.replies import Notice
from bot.logging_setup import get_logger

from .delivery import Delivery, platform_error
from .identity import PLATFORM, chat_id_of, user_chat_id
from .members import blocked, player_gone
from .ordering import ChatQueue
from .texts import MAX_TEXT, clip

log = get_logger(__name__)


class Background:
    """The tick job and the outbox consumer of one Application."""

    def __init__(self, core: BotCore, delivery: Delivery, chats: ChatQueue, *, group: str = "telegram",
                 consumer: str = "telegram-0") -> None:
        self.core = core
        self.delivery = delivery
        self.chats = chats
        self.bot: Bot | None = None
        self.outbox: OutboxConsumer = core.delivery(PLATFORM, delivery, self, group=group, consumer=consumer,
                                                    pinger=delivery.pinger)
        self.outbox.tracker = delivery.tracker  # one tracker per instance: handlers and consumer alike
        self._pump: asyncio.Task[None] | None = None

    async def deliver_notice(self, notice: Notice) -> None:
        """Post a timer's notice in its chat (text: the board itself follows from its own outbox entry) and
        privately to ``direct_to``. A refusal of the chat post raises RetryLater: delivered again later."""
        bot = self.bot
        chat_id = chat_id_of(notice.place)
        reply = notice.reply
        if bot is None:
            raise RetryLater(1.0)
        if chat_id is not None and reply.text:
            try:
                picture = None if reply.game_id else reply.image  # a board follows from its own entry; a table not
                steps = () if reply.game_id else tuple(b for b in reply.buttons if is_puzzle(b.token))  # a puzzle's
                await self.delivery.post(bot, chat_id, replace(reply, game_id=None, image=picture, buttons=steps))
            except TelegramError as error:
                signal = platform_error(error)
                if isinstance(signal, RetryLater):
                    raise signal from error
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
                if blocked(error):  # he blocked the bot: out of his tournaments
                    await player_gone(self.core, player, None)
            except TelegramError as error:
                log.warning("telegram_reminder_failed", user_id=user_id, error=error.message)

    # ---- JobQueue ------------------------------------------------------------------------------
    async def tick(self, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The repeating job: let the core act on due timers (their notices come through the outbox)."""
        try:
            await self.core.tick(platform=PLATFORM, notices=False)
        except Exception:
            log.exception("telegram_tick_failed")

    # ---- outbox consumer -----------------------------------------------------------------------
    def start(self, bot: Bot) -> None:
        """Start consuming the outbox (idempotent)."""
        self.bot = bot
        self.delivery.attach(bot)
        if self._pump is None or self._pump.done():
            self.outbox.stopping.clear()
            self._pump = asyncio.create_task(self.outbox.run(), name="fevga-telegram-outbox")

    async def stop(self, timeout: float = 10.0) -> None:
        """Stop consuming; deliveries in flight finish (bounded); the rest stays pending for reclaim."""
        pump, self._pump = self._pump, None
        if pump is not None:
            await self.outbox.stop(timeout)
            try:
                await asyncio.wait_for(pump, timeout=2.0)
            except (TimeoutError, asyncio.CancelledError):
                pass
            except Exception:
                log.exception("telegram_outbox_stopped_with_error")
