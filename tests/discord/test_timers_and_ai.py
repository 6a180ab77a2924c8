"""The core's own events reach Discord: expired challenges and turn reminders from the tick loop (a
reminder in the game's thread, and by direct message), and a whole game against the AI in a DM."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.chat.core import BotCore
from bot.service.ai import RandomAI
from tests.fakes.discord import FakeDiscord, FakeMember

from .conftest import BotFactory, World
from .playing import play_out_by_buttons, step_ids

pytestmark = pytest.mark.timeout(60)
WAIT = 15.0  # seconds; generous, the machine is shared


class Clock:
    """A clock the test moves forward."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def timed(redis_url: str) -> AsyncIterator[tuple[Any, Clock]]:
    clock = Clock()
    core = await BotCore.create(redis_url=redis_url, clock=clock, ai=RandomAI(7), challenge_ttl=600)
    core.ping_after = 0.0  # the first turn pings the mover at once (idle pings: tests/discord/test_fast_group.py)
    try:
        yield core, clock
    finally:
        await core.close()


def dm_texts(fake: FakeDiscord, member: FakeMember) -> list[str]:
    return [m.content for m in fake.messages(fake.dm_channel(member.user))]


async def test_expiry_and_reminders_come_from_the_tick_loop(
    fake: FakeDiscord, start_bot: BotFactory, world: World, timed: tuple[Any, Clock]
) -> None:
    core, clock = timed
    w = world
    async with start_bot(core, tick_seconds=0.05):
        stale = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.carol})).original()
        clock.now += 601
        expired = await fake.wait_for_message(
            w.general, lambda m: m.author.bot and m.interaction_id is None, timeout=WAIT
        )
        assert expired.content and expired.id > stale.id
        assert await fake.wait_for(lambda: dm_texts(fake, w.alice) or None, WAIT)

        challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
        accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
        await (await fake.press_button(w.bob, challenge, accept)).response()
        board, edits = challenge, challenge.edits
        assert step_ids(board)
        start = await fake.wait_for_message(  # the first turn pings the mover, in the game's thread
            board.id, lambda m: m.author.bot and bool(m.mentions), timeout=WAIT
        )
        clock.now += 0.6 * 86400  # past half of the turn deadline: the mover is reminded, in the game's thread
        ping = await fake.wait_for_message(
            board.id, lambda m: m.author.bot and m.id > start.id and bool(m.mentions), timeout=WAIT
        )
        assert start.mentions == ping.mentions
        assert not [m for m in fake.messages(w.general) if m.id > board.id and m.author.bot]  # the channel: quiet
        (mover,) = [m for m in (w.alice, w.bob) if m.user in ping.mentions]
        assert str(board.id) in ping.content  # a link to the board, which was redrawn with the reminder
        assert board.edits > edits and step_ids(board)
        private = await fake.wait_for(lambda: [t for t in dm_texts(fake, mover) if str(board.id) in t] or None, WAIT)
        assert private[0].strip()
    assert not fake.failed_calls()


async def test_a_whole_game_against_the_ai_in_a_dm(
    fake: FakeDiscord, start_bot: BotFactory, world: World, timed: tuple[Any, Clock]
) -> None:
    core, _ = timed
    dm = fake.dm_channel(world.alice.user)
    async with start_bot(core):
        handle = await fake.slash_command(world.alice.user, dm, "fevga play", {"level": "easy"})
        board = await handle.original()
        assert board.attachments[0].filename == "board.png" and step_ids(board)
        turns = await play_out_by_buttons(fake, board, [world.alice, world.alice])
        assert turns >= 5 and not step_ids(board)
        assert [m for m in fake.messages(dm) if m.attachments] == [board]
    assert not fake.failed_calls()
