"""Issue 13 with real processes: two ``python -m bot`` processes in webhook mode on one Redis, behind a load
balancer that hands each update to one of them (round robin), re-delivers it to the other while it is being
handled and once more afterwards (Telegram's retries). Over 30 moves: exactly one board edit per committed
change, no duplicate message, every update handled exactly once."""

from __future__ import annotations

import asyncio
import random
import socket
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from bot.service.keys import update_claim
from bot.storage.base import split_versioned
from bot.storage.local_redis import LocalRedis
from tests.fakes.telegram import FakeTelegram

from .harness import actor_ref, game_view, group_place, make_core
from .scenes import a_legal_play
from .test_process import BotProcess, until, webhooks_set_and_listening

pytestmark = pytest.mark.timeout(120)
MOVES = 30
SECRET = "two-pods-secret"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Balancer:
    """The load balancer in front of the two webhook listeners (Telegram itself knows one URL)."""

    def __init__(self, fake: FakeTelegram, urls: list[str]) -> None:
        self.fake = fake
        self.urls = urls
        self.sent: list[int] = []

    async def say(self, user: Any, room: Any, text: str) -> int:
        """Queue the user's message and deliver it three times: to one pod, at once to the other, and later."""
        update_id = await self.fake.send_text(user, room, text)
        update = next(u for u in self.fake.pending_updates if u["update_id"] == update_id)
        first, other = self.urls[len(self.sent) % 2], self.urls[(len(self.sent) + 1) % 2]
        self.sent.append(update_id)
        statuses = await asyncio.gather(self.fake.deliver_webhook(first, update, SECRET),
                                        self.fake.deliver_webhook(other, update, SECRET))
        assert list(statuses) == [200, 200]
        return update_id

    async def again(self, update_id: int) -> None:
        """Telegram's later re-delivery (after the update was handled), to the pod that did not get it first."""
        update = next(u for u in self.fake.pending_updates if u["update_id"] == update_id)
        other = self.urls[(self.sent.index(update_id) + 1) % 2]
        assert await self.fake.deliver_webhook(other, update, SECRET) == 200


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, Balancer, Any, aioredis.Redis]]:
    with LocalRedis(tmp_path / "redis") as server:
        async with FakeTelegram() as fake:
            core = await make_core(server.url)
            client = aioredis.Redis.from_url(server.url)
            pods, urls = [], []
            for name in ("pod-a", "pod-b"):
                port = free_port()
                url = f"http://127.0.0.1:{port}/tg"
                (tmp_path / name).mkdir()
                pod = BotProcess(fake, server.url, tmp_path / name)
                pod.env.update(TELEGRAM_WEBHOOK_URL=url, TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                               TELEGRAM_WEBHOOK_PORT=str(port), TELEGRAM_WEBHOOK_SECRET=SECRET)
                pods.append(pod)
                urls.append(url)
            try:
                for pod, name in zip(pods, ("pod-a", "pod-b"), strict=True):
                    await pod.start(name)
                await webhooks_set_and_listening(fake, urls)
                fake.webhook = None  # the balancer below delivers, not the stand-in's single-webhook pump
                yield fake, Balancer(fake, urls), core, client
            finally:
                for pod in pods:
                    await pod.stop()
                await client.aclose()
                await core.close()


def edits(fake: FakeTelegram) -> int:
    return len([c for c in fake.calls_of("editMessageMedia") if c.ok])


async def shown_after(core: Any, where: Any, version: int, fake: FakeTelegram, offset: int) -> bool:
    """The game moved past ``version`` and every committed change has its board edit (edits - versions = offset)."""
    after = await game_view(core, *where)
    return after.version > version and edits(fake) - after.version >= offset


async def test_two_webhook_processes_30_moves_one_edit_per_change_no_duplicates(world: Any) -> None:
    fake, balancer, core, client = world
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")

    async def command(user: Any, text: str, answers: int) -> None:
        """A command, answered (once) before the next one is sent, then re-delivered once more."""
        update_id = await balancer.say(user, room, text)
        await until(lambda: len(fake.bot_messages(room)) >= answers, 30, f"the answer to {text}")
        await balancer.again(update_id)

    await command(bob, "/rules", 1)
    await command(alice, "/challenge@fevga_test_bot @bob_tavli", 2)
    await command(bob, "/accept", 3)
    where = (actor_ref(alice), group_place(room))
    start = await game_view(core, *where)
    edits_before = edits(fake)
    rng = random.Random(5)
    for _ in range(MOVES):
        view = await game_view(core, *where)
        assert view.status == "play"
        mover = alice if view.players[view.turn].user_id == "101" else bob
        update_id = await balancer.say(mover, room, a_legal_play(view, rng))

        for _ in range(300):  # the move committed and its board shown, before the player's next message
            if await shown_after(core, where, view.version, fake, edits_before - start.version):
                break
            await asyncio.sleep(0.05)
        assert await shown_after(core, where, view.version, fake, edits_before - start.version), "move not shown"
        await balancer.again(update_id)
    end = await game_view(core, *where)
    await asyncio.sleep(4.0)  # the outbox consumers of both pods look at every change too (after their grace)

    photos = [m for m in fake.bot_messages(room) if m.kind == "photo"]
    assert len(photos) == 1  # one board message for the whole game
    assert end.version - start.version >= MOVES  # every move applied
    assert (await game_view(core, *where)).version == end.version  # and no re-delivery applied one again
    assert edits(fake) - edits_before == end.version - start.version  # exactly one board edit per change
    async def all_handled() -> bool:
        bot_id = fake.token.partition(":")[0]
        handled = [await client.get(update_claim("telegram", bot_id, "u", u)) for u in balancer.sent]
        return all(raw is not None and split_versioned(raw)[0] == 2 for raw in handled)

    for _ in range(600):  # a handler may still wait for the group's rate limit (20 a minute, pings included)
        if await all_handled():
            break
        await asyncio.sleep(0.1)
    assert await all_handled()  # each one handled (of 3)
    answers = Counter((m.reply_to.message_id if m.reply_to else None, m.content) for m in fake.bot_messages(room))
    assert max(answers.values()) == 1, [k for k, n in answers.items() if n > 1]  # no duplicate message
