"""``/fevga analyze`` end to end on the fake Discord: after a finished game against the AI, one message
with the report in its first embed and one embed per blunder picture, each shown from its upload; a game
a timer ends (the AI's opponent let the deadline pass) is analysed on its own, like one ended by a move."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.chat.core import BotCore
from bot.service.ai import RandomAI
from tests.botkit import a_legal_play_text
from tests.fakes.discord import FakeDiscord

from .conftest import BotFactory, World

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
async def analysing_core(redis_url: str) -> AsyncIterator[Any]:
    made = await BotCore.create(redis_url=redis_url, ai=RandomAI(seed=5), analysis_ply=0)
    try:
        yield made
    finally:
        await made.close()


async def play_to_the_end(core: Any, game_id: str, rng: random.Random) -> None:
    """The human's turns played through the service (fast); the AI answers each."""
    for _ in range(400):
        shown = await core.service.view_of(game_id)
        view = shown.view
        if view is None or view.status != "play":
            return
        mover = view.players[view.turn]
        moved = await core.service.move(mover, shown.place, a_legal_play_text(view, rng), game_id=game_id)
        assert moved.ok, moved.messages
    raise AssertionError("the game did not end")


async def test_analyze_shows_the_report_and_the_blunder_pictures_as_embeds(
    fake: FakeDiscord, start_bot: BotFactory, analysing_core: Any, world: World
) -> None:
    w = world
    async with start_bot(analysing_core):
        board = await (await fake.slash_command(w.alice, w.general, "fevga play", {"level": "easy"})).original()
        game_id = board.embeds[0]["footer"]["text"].split(" ")[0]
        refused = await fake.slash_command(w.alice, w.general, "fevga analyze")
        assert (await refused.response()).ephemeral  # still being played
        await play_to_the_end(analysing_core, game_id, random.Random(4))

        # The follow-up after a game against the AI, through the frontend's notice sink (moves made through
        # the service above do not start it; a command or button that ends a game does).
        await analysing_core._post_analysis(analysing_core.sinks["discord"], game_id, 1)
        posted = fake.messages(w.general)[-1]
        assert "; luck" in str(posted.embeds[0])  # "; luckier: <name>, by <x>" or "; luck even"

        shown = await (await fake.slash_command(w.alice, w.general, "fevga analyze")).original()
        first, *pictures = shown.embeds
        assert game_id.replace("_", "\\_") in first["title"] and "error rate" in first["description"]
        assert pictures, "random play blunders"
        names = [a.filename for a in shown.attachments]
        assert names == [f"blunder-{n}.png" for n in range(1, len(pictures) + 1)]
        assert all(a.data[:8] == b"\x89PNG\r\n\x1a\n" for a in shown.attachments)
        for embed, name in zip(pictures, names, strict=True):
            assert embed["image"]["url"].endswith(name)  # shown from its own upload
            assert "loss" in embed["title"]

        named = await (await fake.slash_command(w.bob, w.general, "fevga analyze", {"game": game_id})).original()
        assert len(named.embeds) == len(shown.embeds)
        assert analysing_core.service.analyses.runs == 1  # the second ask read the stored report

        assert len(posted.embeds) == len(shown.embeds)  # asked for after it was out: shown again, in full
        last = fake.messages(w.general)[-1]
        await analysing_core._post_analysis(analysing_core.sinks["discord"], game_id, 1)
        assert fake.messages(w.general)[-1] is last  # the follow-up is posted once
    assert not fake.failed_calls()


class Clock:
    """A clock the test moves forward."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_game_ended_by_the_deadline_gets_its_analysis(
    fake: FakeDiscord, start_bot: BotFactory, redis_url: str, world: World
) -> None:
    w, clock = world, Clock()
    core = await BotCore.create(redis_url=redis_url, clock=clock, ai=RandomAI(seed=5), analysis_ply=0)
    try:
        async with start_bot(core, tick_seconds=0.05):
            board = await (await fake.slash_command(w.alice, w.general, "fevga play", {"level": "easy"})).original()
            game_id = board.embeds[0]["footer"]["text"].split(" ")[0]
            shown = await core.service.view_of(game_id)
            assert shown.view is not None
            play = a_legal_play_text(shown.view, random.Random(2))
            assert (await core.service.move(shown.view.players[shown.view.turn], shown.place, play,
                                            game_id=game_id)).ok
            clock.now += 30 * 86400  # alice never comes back: the timer ends the match
            # the summary (text, or an embed with blunder pictures); her one play was a decision (rated) or
            # forced (nothing to judge): the dice are random
            posted = await fake.wait_for_message(w.general, lambda m: any(
                said in f"{m.content} {m.embeds[:1]}" for said in ("alice: error rate", "alice: no decisions")),
                timeout=45)
            assert "; luck" in f"{posted.content} {posted.embeds[:1]}"
            over = await core.service.view_of(game_id)
            assert over.view is not None and over.view.status == "done"
            assert core.service.analyses.runs == 1
    finally:
        await core.close()
    assert not fake.failed_calls()
