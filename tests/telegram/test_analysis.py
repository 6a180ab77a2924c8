"""``/analyze`` end to end on the fake Bot API: after a finished game against the AI in a private chat,
the report as text and the blunder pictures as one album (sendMediaGroup) with captions; a game the
deadline ends (the player never came back) is analysed on its own too."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service.ai import RandomAI
from tests.botkit import a_legal_play_text
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, make_core, private_place, running_bot


@pytest.fixture
async def core(redis_url: str) -> AsyncIterator[CoreSpy]:
    real = await make_core(redis_url, ai=RandomAI(seed=5), analysis_ply=0)
    try:
        yield CoreSpy(real)
    finally:
        await real.close()


@pytest.fixture
async def app(core: CoreSpy, fake: FakeTelegram) -> AsyncIterator[Any]:
    async with running_bot(core, fake) as application:
        yield application
    assert application.bot_data["test_errors"] == []


async def test_analyze_sends_the_report_and_an_album_of_blunders(fake: FakeTelegram, core: CoreSpy, app: Any) -> None:
    chat = Chat(fake, app)
    carol = fake.user(103, "Carol", "carol_tavli")
    home = fake.private_chat(carol)
    await chat.say(carol, home, "/ai easy")
    await chat.say(carol, home, "/analyze")
    assert "still being played" in fake.last_bot_message(home).content

    rng = random.Random(6)
    player, place = actor_ref(carol), private_place(home)
    for _ in range(400):  # the human's turns typed in the chat; the AI answers each
        view = (await core.service.board(player, place)).view
        if view.status != "play":
            break
        await chat.say(carol, home, a_legal_play_text(view, rng))
    else:
        raise AssertionError("the game did not end")

    await asyncio.gather(*core.real._follow_ups)  # posted by itself after a game against the AI
    followed = fake.bot_messages(home)
    assert any("; luck" in m.content for m in followed[-12:])  # the summary line came with it
    before = len(fake.bot_messages(home))
    await chat.say(carol, home, "/analyze")
    sent = fake.bot_messages(home)[before:]
    report, *album = sent
    assert report.kind == "text" and "Analysis of game 1" in report.content and "error rate" in report.content
    assert len(album) >= 2, [m.content for m in sent]  # random play blunders
    assert all(m.kind == "photo" and m.file is not None and m.file.image_format == "PNG" for m in album)
    assert len({m.media_group_id for m in album}) == 1 and album[0].media_group_id is not None
    assert all(m.caption and "loss" in m.caption and "??" in m.caption for m in album)
    assert core.service.analyses.runs == 1

    before = len(fake.bot_messages(home))
    await chat.say(carol, home, "/analysis")  # asked again: the same, from the stored report
    assert len(fake.bot_messages(home)) - before == len(sent)
    assert core.service.analyses.runs == 1


class Clock:
    """A clock the test moves forward."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_game_ended_by_the_deadline_gets_its_analysis(fake: FakeTelegram, redis_url: str) -> None:
    clock = Clock()
    real = await make_core(redis_url, clock=clock, ai=RandomAI(seed=5), analysis_ply=0)
    try:
        core = CoreSpy(real)
        async with running_bot(core, fake, tick_seconds=0.05) as app:
            chat = Chat(fake, app)
            carol = fake.user(103, "Carol", "carol_tavli")
            home = fake.private_chat(carol)
            await chat.say(carol, home, "/ai easy")
            view = (await real.service.board(actor_ref(carol), private_place(home))).view
            await chat.say(carol, home, a_legal_play_text(view, random.Random(3)))
            clock.now += 30 * 86400  # Carol never comes back: the timer ends the match
            summary = await fake.wait_for(
                lambda: [m for m in fake.bot_messages(home) if "; luck" in m.content] or None, 45, "the analysis")
            assert len(summary) == 1 and "Carol" in summary[0].content
            view = (await real.service.board(actor_ref(carol), private_place(home))).view
            assert view.status == "done"
        assert app.bot_data["test_errors"] == []
    finally:
        await real.close()
