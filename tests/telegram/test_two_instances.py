"""Two bot instances on one Redis (webhook mode: whichever instance gets an update handles it), every update
delivered to both (a re-delivery while it is being handled) and once more later: over 30 moves, exactly one
board edit per committed change, no duplicate message, every update handled exactly once."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram import Update

from bot.telegram import build_application
from bot.telegram.app import _post_init, _post_shutdown
from tests.fakes.telegram import FakeTelegram

from .harness import FAST, CoreSpy, actor_ref, game_view, group_place, make_core, settings_for
from .scenes import a_legal_play

pytestmark = pytest.mark.timeout(180)
MOVES = 30


class CountingSpy(CoreSpy):
    """The core, counting the lines it was asked to handle."""

    def __init__(self, core: Any) -> None:
        super().__init__(core)
        self.lines = 0

    async def handle_text(self, *args: Any, **kwargs: Any) -> Any:
        self.lines += 1
        return await super().handle_text(*args, **kwargs)


class Instance:
    """One bot process's Application (no updater: updates are handed over like a webhook does)."""

    def __init__(self, core: CountingSpy, fake: FakeTelegram, name: str) -> None:
        self.core = core
        self.app = build_application(core, settings_for(fake, fevga_instance_id=name), rate_limits=FAST)

    async def start(self) -> None:
        await self.app.initialize()
        await _post_init(self.app)
        await self.app.start()

    async def stop(self) -> None:
        await self.app.stop()
        await _post_shutdown(self.app)
        await self.app.shutdown()

    async def deliver(self, update: dict[str, Any]) -> None:
        await self.app.process_update(Update.de_json(update, self.app.bot))


@pytest.fixture
async def pair(redis_url: str, fake: FakeTelegram) -> AsyncIterator[list[Instance]]:
    cores = [CountingSpy(await make_core(redis_url)), CountingSpy(await make_core(redis_url))]
    instances = [Instance(cores[0], fake, "pod-a"), Instance(cores[1], fake, "pod-b")]
    for instance in instances:
        await instance.start()
    try:
        yield instances
    finally:
        for instance in instances:
            await instance.stop()
        for core in cores:
            await core.real.close()


async def test_two_instances_30_moves_one_edit_per_change_no_duplicates(
    fake: FakeTelegram, pair: list[Instance]
) -> None:
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    sent = 0

    async def say(user: Any, text: str) -> None:
        nonlocal sent
        update_id = await fake.send_text(user, room, text)
        update = next(u for u in fake.pending_updates if u["update_id"] == update_id)
        first, other = pair[sent % 2], pair[(sent + 1) % 2]
        sent += 1
        await asyncio.gather(first.deliver(update), other.deliver(update))  # re-delivered while handled
        await other.deliver(update)  # and once more afterwards

    await say(bob, "/rules")
    await say(alice, "/challenge@fevga_test_bot @bob_tavli")
    await say(bob, "/accept")
    core = pair[0].core
    where = (actor_ref(alice), group_place(room))
    start = await game_view(core, *where)
    rng = random.Random(5)
    edits_before = len([c for c in fake.calls_of("editMessageMedia") if c.ok])
    for _ in range(MOVES):
        view = await game_view(core, *where)
        assert view.status == "play"
        mover = alice if view.players[view.turn].user_id == "101" else bob
        await say(mover, a_legal_play(view, rng))
    end = await game_view(core, *where)
    await asyncio.sleep(4.0)  # the outbox consumers look at every change too (after their grace)

    photos = [m for m in fake.bot_messages(room) if m.kind == "photo"]
    assert len(photos) == 1  # one board message for the whole game
    edits = len([c for c in fake.calls_of("editMessageMedia") if c.ok]) - edits_before
    assert edits == end.version - start.version  # exactly one board edit per committed change
    assert sum(i.core.lines for i in pair) == sent  # every update handled exactly once (of 3 deliveries)
    assert all(i.core.lines for i in pair)  # by both instances
    answers = Counter((m.reply_to.message_id if m.reply_to else None, m.content) for m in fake.bot_messages(room))
    assert max(answers.values()) == 1, [k for k, n in answers.items() if n > 1]  # no duplicate message
