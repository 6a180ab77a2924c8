"""Test plumbing for the Telegram frontend: a real redis-server on a free loopback port, and the real
PTB Application of ``bot.telegram`` running against the fake Bot API (polling or webhook)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from telegram import Update
from telegram.ext import Application

from bot.config import Settings
from bot.service.models import Place, PlayerRef
from bot.storage.local_redis import LocalRedis
from bot.telegram import RateLimits, build_application, start_application, stop_application
from tests.fakes.telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser

FAST = RateLimits(overall_per_second=1000, group_per_minute=10_000, max_retries=3)


@contextlib.contextmanager
def redis_server(directory: Path) -> Iterator[str]:
    """A real redis-server on a free loopback port with its data in directory; yields its URL."""
    with LocalRedis(directory) as server:
        yield server.url


def settings_for(fake: FakeTelegram, **extra: Any) -> Settings:
    """Settings pointing the bot at the fake Bot API (environment and .env ignored)."""
    values: dict[str, Any] = {
        "telegram_token": SecretStr(fake.token),
        "telegram_api_base_url": fake.base_url,
        "telegram_webhook_url": None,  # polling unless a test asks for a webhook
        "telegram_webhook_secret": None,
    }
    return Settings(_env_file=None, **{**values, **extra})  # type: ignore[call-arg]


class Busy:
    """Counts updates the Application is still handling (PTB's process_update, wrapped)."""

    def __init__(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self.count = 0
        self.handled: set[int] = set()
        original = app.process_update

        async def counted(update: object) -> None:
            self.count += 1
            try:
                await original(update)
            finally:
                self.count -= 1
                if isinstance(update, Update):
                    self.handled.add(update.update_id)

        app.process_update = counted  # type: ignore[method-assign]


@contextlib.asynccontextmanager
async def running_bot(
    core: Any, fake: FakeTelegram, *, tick_seconds: float = 3600.0, **settings: Any
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """The product's Application, started (polling unless TELEGRAM_WEBHOOK_URL is given), then stopped.
    bot_data["test_errors"] collects handler exceptions; bot_data["test_busy"] counts updates in hand."""
    config = settings_for(fake, **settings)
    app = build_application(core, config, rate_limits=FAST, tick_seconds=tick_seconds)
    errors: list[BaseException] = []

    async def record(update: object, context: Any) -> None:
        if context.error is not None:
            errors.append(context.error)

    app.add_error_handler(record)
    app.bot_data["test_errors"] = errors
    app.bot_data["test_busy"] = Busy(app)
    await start_application(app, config)
    try:
        yield app
    finally:
        await stop_application(app)


class Chat:
    """Plays the humans: type in a chat or press buttons, then wait until the bot has reacted."""

    def __init__(self, fake: FakeTelegram, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        self.fake = fake
        self.busy: Busy = app.bot_data["test_busy"]
        self.delivery = app.bot_data["fevga"].delivery

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until every queued update was fetched and fully handled (Bot API calls included)."""
        deadline = time.monotonic() + timeout
        last = self.fake.last_queued_update_id
        while not (self.busy.count == 0 and (last == 0 or last in self.busy.handled)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot is still busy after {timeout}s")
            await asyncio.sleep(0.003)
        await self.delivery.pings_sent(max(deadline - time.monotonic(), 0.1))  # the turn pings, sent aside

    async def say(self, user: FakeUser, chat: Any, text: str, reply_to: FakeMessage | None = None, **kw: Any) -> int:
        """Send text and wait until the bot has finished reacting; returns the call-log mark before it."""
        mark = self.fake.mark()
        await self.fake.send_text(user, chat, text, reply_to=reply_to, **kw)
        await self.idle()
        return mark

    async def press(self, user: FakeUser, message: FakeMessage, data: str, check: bool = True) -> Any:
        """Press a button and wait until the bot has handled it; returns the CallbackQuery (its answer)."""
        query_id = await self.fake.press(user, message, data, check=check)
        await self.idle()
        return self.fake.callback_answer(query_id)

    def sent_since(self, mark: int, method: str | None = None) -> list[Any]:
        """Successful Bot API calls since mark (of one method), getUpdates left out."""
        return [
            c for c in self.fake.calls[mark:]
            if c.method != "getUpdates" and (method is None or c.method == method) and c.ok
        ]  # fmt: skip


def actor_ref(user: FakeUser) -> PlayerRef:
    """The core's player for a fake user, as the frontend names him."""
    name = " ".join(part for part in (user.first_name, user.last_name) if part)
    return PlayerRef("telegram", str(user.id), name)


def group_place(chat: FakeChat) -> Place:
    return Place("telegram", str(chat.id), str(chat.id))


def private_place(chat: FakeChat) -> Place:
    return Place("telegram", f"private:{chat.id}", str(chat.id))


async def game_view(core: Any, player: PlayerRef, place: Place) -> Any:
    """The player's game here as the service sees it (GameView)."""
    result = await core.service.board(player, place)
    assert result.ok and result.view is not None, result
    return result.view


async def make_core(redis_url: str, **options: Any) -> Any:
    """The real BotCore on a real Redis."""
    from bot.chat.core import BotCore

    core = await BotCore.create(redis_url=redis_url, **options)
    core.ping_after = 0.0  # pings at once unless a test sets the idle time (tests/telegram/test_fast_group.py)
    return core


class CoreSpy:
    """The real core, passed through untouched, keeping the replies it gave so tests can find a button
    of a given kind (Telegram shows only labels and tokens)."""

    def __init__(self, core: Any) -> None:
        self.real = core
        self.replies: list[Any] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    async def handle_text(self, *args: Any, **kwargs: Any) -> Any:
        handled = await self.real.handle_text(*args, **kwargs)
        self.replies.extend(handled.replies)
        return handled

    async def press(self, *args: Any, **kwargs: Any) -> Any:
        handled = await self.real.press(*args, **kwargs)
        self.replies.extend(handled.replies)
        return handled

    def last_board(self) -> Any:
        """The newest board reply the core gave (through a command or a button)."""
        return next(r for r in reversed(self.replies) if r.game_id is not None)

    def tokens(self, kind: str) -> list[str]:
        """Tokens of the newest board's buttons of one kind."""
        return [b.token for b in self.last_board().buttons if b.kind == kind]
