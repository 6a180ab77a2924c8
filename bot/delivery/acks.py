"""Acks of outbox entries sent together: each delivered entry waits a moment (:data:`ACK_WINDOW`) for the others
delivered meanwhile, then one round trip acks them all, whatever their streams (``Store.ack_many``).

An ack only tells the group that an entry needs no further delivery, so sending it a few milliseconds later
changes nothing a player sees; an entry whose ack is lost stays pending and is found current when reclaimed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from bot.storage.base import Store

ACK_WINDOW = 0.02  # seconds an ack waits for the acks of other entries delivered meanwhile


@dataclass
class AckBatch:
    """Entries delivered within one window, acked by one call."""

    ids: dict[str, list[str]] = field(default_factory=dict)  # stream -> entry ids
    done: list[asyncio.Future[None]] = field(default_factory=list)  # one per entry: its ack sent (or failed)


class Acker:
    """Gathers the acks of one consumer group and sends each window's in one round trip."""

    def __init__(self, store: Store, group: str, window: float = ACK_WINDOW) -> None:
        self.store, self.group, self.window = store, group, window
        self.calls = 0  # ack round trips made, for tests and benchmarks
        self._batch: AckBatch | None = None
        self._sending: set[asyncio.Task[None]] = set()

    async def ack(self, stream: str, entry_id: str) -> None:
        """Ack one entry with the others of its window; raise what the store raised for that batch."""
        loop = asyncio.get_running_loop()
        if self._batch is None:
            self._batch = AckBatch()
            loop.call_later(self.window, self._send_batch)
        done: asyncio.Future[None] = loop.create_future()
        self._batch.ids.setdefault(stream, []).append(entry_id)
        self._batch.done.append(done)
        await done

    def _send_batch(self) -> None:
        """The window closed: send its acks (in a task, so the loop's timer returns at once)."""
        batch, self._batch = self._batch, None
        if batch is not None:
            task = asyncio.ensure_future(self._send(batch))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, batch: AckBatch) -> None:
        """One ``ack_many`` for the batch; each waiting entry learns how it went."""
        error: BaseException | None = None
        try:
            self.calls += 1
            await self.store.ack_many(self.group, batch.ids)
        except Exception as exc:  # every entry of the batch stays pending: reclaimed and found current later
            error = exc
        for done in batch.done:
            if done.done():  # its waiter was cancelled meanwhile
                continue
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)
