"""Long polling confirms an update (moves the getUpdates offset past it) only once it was handled, and a
stop finishes the batch in hand."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.telegram.polling import Poller


@dataclass
class Item:
    update_id: int


@dataclass
class StubBot:
    """getUpdates: two batches, then nothing; records, per call, the offset and what was handled by then."""

    app: StubApp | None = None
    batches: list[list[Item]] = field(default_factory=lambda: [[Item(1), Item(2), Item(3)], [Item(4)]])
    seen: list[tuple[int, set[int]]] = field(default_factory=list)

    async def delete_webhook(self) -> bool:
        return True

    async def get_updates(self, offset: int, timeout: int, allowed_updates: list[str]) -> list[Item]:
        assert self.app is not None
        self.seen.append((offset, set(self.app.handled)))
        if self.batches:
            return [u for u in self.batches.pop(0) if u.update_id >= offset]
        await asyncio.sleep(0.05)
        return []


@dataclass
class StubApp:
    bot: StubBot
    handled: set[int] = field(default_factory=set)

    async def process_update(self, update: Any) -> None:
        await asyncio.sleep(0.02 * (4 - update.update_id % 4))  # out of order
        self.handled.add(update.update_id)


async def test_the_offset_moves_past_an_update_only_once_it_was_handled() -> None:
    bot = StubBot()
    app = StubApp(bot)
    bot.app = app
    poller = Poller(app, ["message"])  # type: ignore[arg-type]
    await poller.start()
    while len(bot.seen) < 4:
        await asyncio.sleep(0.01)
    await poller.stop()
    assert app.handled == {1, 2, 3, 4} and not poller.running
    for offset, handled in bot.seen:
        assert all(u in handled for u in range(1, offset))  # nothing confirmed before it was handled
    assert [offset for offset, _ in bot.seen][:3] == [0, 4, 5]
