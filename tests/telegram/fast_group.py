"""The fast group game (``tests/fastgroup.py``) through the real Telegram stack: one or more bot instances
(the product's PTB Application each, on one Redis, updates handed over like a webhook, round robin) against
the fake Bot API enforcing a group's budget (20 calls per minute, scaled)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.telegram import RateLimits, build_application
from tests.fakes.telegram import FakeTelegram
from tests.fastgroup import IDLE, Chat, Outcome, Scale, play_fast_game, warm_up

from .harness import actor_ref, game_view, group_place, make_core, settings_for
from .scenes import a_legal_play
from .test_two_instances import Instance


class BudgetedInstance(Instance):
    """An instance whose PTB limiter and group budget have the group's real rate, scaled."""

    def __init__(self, core: Any, fake: FakeTelegram, name: str, scale: Scale) -> None:
        self.core = core
        limits = RateLimits(overall_per_second=30.0, group_per_minute=20.0, group_period=scale(60.0), max_retries=5)
        self.app = build_application(core, settings_for(fake, fevga_instance_id=name), rate_limits=limits)


async def telegram_fast_game(redis_url: str, *, instances: int, plies: int, scale: Scale) -> tuple[Outcome, int]:
    """Play the fast group game on Telegram; (what it measured, the 429s the fake answered)."""
    await warm_up()
    async with FakeTelegram() as fake:
        cores = [await make_core(redis_url) for _ in range(instances)]
        for core in cores:
            core.ping_after = scale(IDLE)
        pods = [BudgetedInstance(core, fake, f"pod-{n}", scale) for n, core in enumerate(cores)]
        for pod in pods:
            await pod.start()
        tasks: set[asyncio.Task[None]] = set()
        try:
            alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
            room = fake.group(-1001, "Tavli")
            budget = fake.enforce_budget(20, scale(60.0))
            sent = 0

            async def say(user: Any, text: str) -> None:
                nonlocal sent
                update_id = await fake.send_text(user, room, text)
                update = next(u for u in fake.pending_updates if u["update_id"] == update_id)
                pod, sent = pods[sent % len(pods)], sent + 1
                task = asyncio.create_task(pod.deliver(update))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

            for user, text in ((bob, "/rules"), (alice, "/challenge@fevga_test_bot @bob_tavli"), (bob, "/accept")):
                await say(user, text)
                await asyncio.gather(*tasks)
            where = (actor_ref(alice), group_place(room))
            game = (await game_view(cores[0], *where)).game_id
            rng = random.Random(7)

            async def move() -> int:
                view = await game_view(cores[0], *where)
                if view.status != "play":
                    return 0
                mover = alice if view.players[view.turn].user_id == str(alice.id) else bob
                await say(mover, f"/move {a_legal_play(view, rng)}")
                return int(view.version) + 1

            async def shown() -> int:
                return (await pods[0].app.bot_data["fevga"].delivery.tracker.shown(game))[0]

            async def committed() -> int:
                return int((await game_view(cores[0], *where)).version)

            def pings() -> int:
                return len([m for m in fake.bot_messages(room, include_deleted=True)
                            if m.kind == "text" and "your turn" in m.content])

            def calls() -> int:
                return len([c for c in fake.calls if str(c.params.get("chat_id")) == str(room.id) and c.ok])

            outcome = await play_fast_game(Chat(move, shown, pings, calls, committed), plies, scale)
            return outcome, budget.refused
        finally:
            await asyncio.gather(*tasks, return_exceptions=True)
            for pod in pods:
                await pod.stop()
            for core in cores:
                await core.close()
