"""Building and running the python-telegram-bot Application: handlers, AIORateLimiter, the tick job,
the command menus (English and Greek), and polling or webhook mode."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from telegram import BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats, BotCommandScopeDefault, Update
from telegram.constants import FloodLimit
from telegram.error import TelegramError
from telegram.ext import AIORateLimiter, Application, CallbackQueryHandler, ChatMemberHandler, MessageHandler, filters

from bot.chat.core import BotCore
from bot.config import Settings, instance_id
from bot.delivery.budgets import PlaceBudgets
from bot.logging_setup import get_logger

from .background import Background
from .command_list import LANGUAGES, bot_commands
from .delivery import Delivery
from .handlers import Handlers
from .members import MemberHandler
from .ordering import ChatQueue
from .polling import Poller
from .web_button import BoardLinks, board_links

log = get_logger(__name__)

ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.CHAT_MEMBER]  # members leaving: tournaments
TICK_JOB = "fevga-tick"
CONCURRENT_UPDATES = 64  # different chats are served at once; one chat's updates stay in order (ChatQueue)


@dataclass(frozen=True)
class RateLimits:
    """AIORateLimiter settings: Telegram's documented limits by default; tests raise them."""

    overall_per_second: float = float(FloodLimit.MESSAGES_PER_SECOND)
    group_per_minute: float = float(FloodLimit.MESSAGES_PER_MINUTE_PER_GROUP)
    max_retries: int = 3
    group_period: float = 60.0  # the "minute" of group_per_minute (tests scale time down)


@dataclass
class TelegramFrontend:
    """The parts of the Telegram frontend kept in ``application.bot_data["fevga"]``."""

    core: BotCore
    delivery: Delivery
    handlers: Handlers
    background: Background
    tick_seconds: float
    started: bool = False


def file_url_for(base_url: str) -> str:
    """Bot API file URL beside the method URL: https://host/bot -> https://host/file/bot."""
    trimmed = base_url.rstrip("/")
    head, _, tail = trimmed.rpartition("/")
    return f"{head}/file/{tail}" if head and tail else f"{trimmed}/file/bot"


def frontend_of(application: Application[Any, Any, Any, Any, Any, Any]) -> TelegramFrontend:
    """The TelegramFrontend attached to an Application built by build_application."""
    frontend = application.bot_data["fevga"]
    assert isinstance(frontend, TelegramFrontend)
    return frontend


async def register_commands(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """setMyCommands in English (default) and Greek, for every chat, private chats and group chats."""
    scopes = (
        (BotCommandScopeDefault(), "all"),
        (BotCommandScopeAllPrivateChats(), "private"),
        (BotCommandScopeAllGroupChats(), "groups"),
    )
    for scope, where in scopes:
        for language in LANGUAGES:
            code = None if language == "en" else language
            await application.bot.set_my_commands(bot_commands(language, where), scope=scope, language_code=code)


async def _post_init(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Register the command menus and start the update pump (idempotent: tests call it directly)."""
    frontend = frontend_of(application)
    if frontend.started:
        return
    frontend.started = True
    try:
        await register_commands(application)
    except TelegramError as error:  # a menu is a nicety: the bot works without it
        log.warning("telegram_commands_not_set", error=error.message)
    frontend.background.start(application.bot)


async def _post_shutdown(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    frontend = frontend_of(application)
    frontend.started = False
    await frontend.delivery.pings_sent(5.0)  # pings in flight finish; the rest is the outbox's
    await frontend.background.stop()


def build_application(
    core: BotCore,
    settings: Settings,
    *,
    rate_limits: RateLimits | None = None,
    tick_seconds: float | None = None,
) -> Application[Any, Any, Any, Any, Any, Any]:
    """The Application for this core and settings (TELEGRAM_TOKEN, TELEGRAM_API_BASE_URL)."""
    if settings.telegram_token is None:
        raise ValueError("TELEGRAM_TOKEN is not set")
    limits = rate_limits or RateLimits()
    tick_seconds = settings.fevga_tick_seconds if tick_seconds is None else tick_seconds
    limiter = AIORateLimiter(
        overall_max_rate=limits.overall_per_second, overall_time_period=1,
        group_max_rate=limits.group_per_minute, group_time_period=limits.group_period,
        max_retries=limits.max_retries,
    )  # fmt: skip
    application = (
        Application.builder()
        .token(settings.telegram_token.get_secret_value())
        .base_url(settings.telegram_api_base_url)
        .base_file_url(file_url_for(settings.telegram_api_base_url))
        .rate_limiter(limiter)
        .concurrent_updates(CONCURRENT_UPDATES)
        .post_init(_post_init)
        .post_shutdown(_post_shutdown)
        .build()
    )
    web = board_links(settings)
    delivery = Delivery(core, BoardLinks(core, web) if web is not None else None,
                        PlaceBudgets(limits.group_per_minute, limits.group_period))
    chats = ChatQueue()
    handlers = Handlers(core, delivery, chats)
    bot_id = settings.telegram_token.get_secret_value().partition(":")[0]
    background = Background(core, delivery, chats, group=f"telegram:{bot_id}", consumer=instance_id(settings))
    application.bot_data["fevga"] = TelegramFrontend(core, delivery, handlers, background, tick_seconds)
    application.add_handler(CallbackQueryHandler(handlers.on_callback))
    application.add_handler(MessageHandler(filters.TEXT & filters.UpdateType.MESSAGE, handlers.on_text))
    application.add_handler(ChatMemberHandler(MemberHandler(core).on_chat_member, ChatMemberHandler.CHAT_MEMBER))
    application.add_error_handler(handlers.on_error)
    if application.job_queue is not None:
        application.job_queue.run_repeating(background.tick, interval=tick_seconds, first=tick_seconds, name=TICK_JOB)
    return application


async def start_application(application: Application[Any, Any, Any, Any, Any, Any], settings: Settings) -> None:
    """initialize, post_init, start, then poll or listen for the webhook (TELEGRAM_WEBHOOK_URL)."""
    await application.initialize()
    await _post_init(application)
    await application.start()
    updater = application.updater
    assert updater is not None
    if settings.telegram_webhook_url:
        secret = settings.telegram_webhook_secret
        await updater.start_webhook(
            listen=settings.telegram_webhook_listen,
            port=settings.telegram_webhook_port,
            url_path=urlsplit(settings.telegram_webhook_url).path.lstrip("/"),
            secret_token=secret.get_secret_value() if secret is not None else None,
            webhook_url=settings.telegram_webhook_url,
            allowed_updates=ALLOWED_UPDATES,
        )
        log.info("telegram_webhook_started", url=settings.redacted()["TELEGRAM_WEBHOOK_URL"])
    else:
        poller = Poller(application, ALLOWED_UPDATES)  # confirms an update only once handled
        application.bot_data["fevga_poller"] = poller
        await poller.start()
        log.info("telegram_polling_started")


async def stop_application(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """Stop receiving updates (finishing those in hand), the jobs and the outbox consumer; shut down."""
    poller = application.bot_data.pop("fevga_poller", None)
    if isinstance(poller, Poller):
        await poller.stop()
    updater = application.updater
    if updater is not None and updater.running:
        await updater.stop()
    if application.running:
        await application.stop()
    await _post_shutdown(application)
    await application.shutdown()


async def run_telegram(core: BotCore, settings: Settings) -> None:
    """Run the Telegram frontend until cancelled (for bot/__main__.py)."""
    application = build_application(core, settings)
    await start_application(application, settings)
    try:
        await asyncio.Event().wait()
    finally:
        with contextlib.suppress(Exception):
            await stop_application(application)
