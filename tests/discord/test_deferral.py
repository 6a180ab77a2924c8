"""A slow core (drawing, the AI) never makes the bot miss Discord's 3 s deadline: it defers first."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord import frontend
from tests.fakes.discord import FakeDiscord

from .conftest import BotFactory, World

pytestmark = pytest.mark.timeout(60)
DELAY = 0.6


class SlowCore:
    """The real core, with every command and click taking longer than the bot waits before deferring."""

    def __init__(self, core: Any) -> None:
        self._core = core

    def __getattr__(self, name: str) -> Any:
        return getattr(self._core, name)

    async def handle_text(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(DELAY)
        return await self._core.handle_text(*args, **kwargs)

    async def press(self, *args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(DELAY)
        return await self._core.press(*args, **kwargs)


@pytest.fixture
def quick_defer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defer after 0.1 s instead of 1.5 s, so the slow path is taken without slowing the suite."""
    monkeypatch.setattr(frontend, "DEFER_AFTER", 0.1)


async def test_slow_answers_are_deferred_then_delivered(
    fake: FakeDiscord, start_bot: BotFactory, core: Any, world: World, quick_defer: None
) -> None:
    w = world
    async with start_bot(SlowCore(core)):
        handle = await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})
        response = await handle.response()
        assert response.type == 5 and not response.ephemeral  # "thinking..." first
        challenge = await handle.original()  # then filled in by the first follow-up
        assert not challenge.loading and w.bob.user in challenge.mentions and len(challenge.custom_ids()) == 3

        accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
        pressed = await fake.press_button(w.bob, challenge, accept)
        assert (await pressed.response()).type == 6  # deferred update of the clicked message
        await fake.wait_for(lambda: challenge.attachments or None)
        assert challenge.attachments[0].filename == "board.png" and challenge.embeds

        refused = await fake.slash_command(w.carol, w.general, "fevga move", {"play": "1/7"})
        assert (await refused.response()).type == 5
        private = await refused.followup(0)
        assert private.ephemeral and private.content  # the error is private: "thinking..." was removed
        assert not [m for m in fake.messages(w.general) if m.interaction_id == refused.id]
        assert not fake.failed_calls()
