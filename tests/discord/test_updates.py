"""A move made through another instance (another shard, the Telegram side, a second process) reaches
this bot through the core's update stream: the Discord board is redrawn without any Discord event."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.discord import FakeDiscord

from .conftest import World, make_core
from .playing import legal_play_texts, place_ref, player_ref, step_ids

pytestmark = pytest.mark.timeout(60)


async def test_a_move_made_elsewhere_redraws_the_board(
    fake: FakeDiscord, bot: Any, world: World, redis_url: str
) -> None:
    w = world
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, challenge, accept)).response()
    board, footer = challenge, challenge.embeds[0]["footer"]["text"]
    assert step_ids(board)

    edits = board.edits
    other = await make_core(redis_url)  # a second instance on the same Redis
    try:
        for member in (w.alice, w.bob):
            plays = await legal_play_texts(other, member, w.general)
            if plays:
                handled = await other.handle_text(player_ref(member), place_ref(w.general), f"move {plays[0]}")
                replies = handled.replies
                assert replies and not replies[0].error
                break
        else:
            raise AssertionError("nobody could move")
        await fake.wait_for(lambda: board.edits > edits or None)
        assert board.embeds[0]["footer"]["text"] != footer and board.attachments[0].filename == "board.png"
        assert len([m for m in fake.messages(w.general) if m.attachments]) == 1  # redrawn, not reposted
    finally:
        await other.close()
    assert not fake.failed_calls()
