"""Long polling that confirms an update only once it is handled: ``getUpdates`` is called with the offset
past a batch only after every update of that batch went through the Application (PTB's own updater
confirms a batch on its next call, while the updates may still be waiting to be handled). A process that
dies mid-batch leaves those updates unconfirmed: the next process fetches them again, and the update gate
(``bot.delivery.updates``) drops any that were in fact handled."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from telegram.error import Conflict, InvalidToken, NetworkError, TelegramError
from telegram.ext import Application

from bot.logging_setup import get_logger

log = get_logger(__name__)
POLL_TIMEOUT = 10  # seconds Telegram holds a getUpdates call open
PAUSE = (0.5, 30.0)  # first and longest pause after a failed getUpdates


class Poller:
    """Fetch, handle, then confirm; ``stop`` finishes the batch in hand and returns."""

    def __init__(self, application: Application[Any, Any, Any, Any, Any, Any], allowed_updates: list[str]) -> None:
        self.application = application
        self.allowed_updates = allowed_updates
        self._task: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        """Drop any webhook (polling and a webhook exclude each other), then poll in a task."""
        await self.application.bot.delete_webhook()
        self._stopping.clear()
        self._task = asyncio.create_task(self._run(), name="fevga-telegram-polling")

    async def stop(self) -> None:
        """Stop fetching; the batch being handled is finished first (bounded by the caller)."""
        self._stopping.set()
        task, self._task = self._task, None
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        offset = 0
        pause = PAUSE[0]
        while not self._stopping.is_set():
            fetch = asyncio.ensure_future(self.application.bot.get_updates(
                offset=offset, timeout=POLL_TIMEOUT, allowed_updates=self.allowed_updates,
            ))  # fmt: skip
            stopping = asyncio.ensure_future(self._stopping.wait())
            await asyncio.wait({fetch, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not fetch.done():  # stopping: nothing fetched in this call is handled, so nothing is lost
                fetch.cancel()
                with contextlib.suppress(asyncio.CancelledError, TelegramError):
                    await fetch
                return
            try:
                updates = fetch.result()
            except InvalidToken:
                raise
            except (Conflict, NetworkError, TelegramError) as error:
                log.warning("telegram_polling_failed", error=str(error), retry_in=pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, PAUSE[1])
                continue
            pause = PAUSE[0]
            if not updates:
                continue
            # Handled before the offset moves past them; different chats at once, one chat in order.
            await asyncio.gather(*(self.application.process_update(u) for u in updates), return_exceptions=True)
            offset = updates[-1].update_id + 1
