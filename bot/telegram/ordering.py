"""Updates of one chat are handled one at a time, in the order they arrived, while different chats run
concurrently (the Application is built with concurrent updates)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class ChatQueue:
    """A FIFO lock per chat, dropped again when nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @contextlib.asynccontextmanager
    async def turn(self, chat_id: int) -> AsyncIterator[None]:
        """Hold the chat's lock; callers queue in arrival order (asyncio.Lock is fair)."""
        lock, users = self._locks.get(chat_id, (asyncio.Lock(), 0))
        self._locks[chat_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[chat_id]
            if users <= 1:
                del self._locks[chat_id]
            else:
                self._locks[chat_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
