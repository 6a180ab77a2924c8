"""``dice`` and ``stats`` with its rating graph, through the real discord.py stack and the local stand-in."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from fevga import format_play
from tests.fakes.discord import FakeDiscord
from tests.service.helpers import random_play

from .conftest import World
from .playing import place_ref, player_ref

pytestmark = pytest.mark.timeout(90)


async def _say(fake: FakeDiscord, member: Any, channel: Any, text: str, kind: str) -> Any:
    """The bot's answer to ``text``: its first message after it that is not a board (the last board may still be
    on its way from the outbox); ``kind`` a word the answer holds."""
    said = await fake.send_message(member, channel, text)
    return await fake.wait_for_message(
        channel, lambda m: m.author.bot and kind in (m.content + " ".join(str(e) for e in m.embeds)
                                                    + " ".join(a.filename for a in m.attachments)),
        after=said.id)


async def test_dice_and_stats_with_its_graph(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    alice, bob, place = player_ref(w.alice), player_ref(w.bob), place_ref(w.general)
    made = await core.service.challenge(alice, place, bob)
    assert made.ok
    view = (await core.service.accept(bob, place)).view
    rng = random.Random(9)
    while view.status == "play":  # the match is played through the service (the board tests cover the buttons)
        result = await core.service.move(view.players[view.turn], place, format_play(random_play(view, rng)),
                                         game_id=view.game_id)
        assert result.ok
        view = result.view
    dice = await _say(fake, w.alice, w.general, "!fevga dice", "rolls")
    text = dice.content + " ".join(str(e) for e in dice.embeds)
    assert "rolls in 1 game;" in text and "Too few rolls for a verdict" in text  # one game: no chi-square
    stats = await _say(fake, w.alice, w.general, "!fevga stats", "rating.png")
    names = [a.filename for a in stats.attachments]
    assert names == ["rating.png"], names
    picture = Image.open(io.BytesIO(stats.attachments[0].data))
    assert picture.format == "PNG" and picture.width == 800
    assert "alice" in (stats.content + str(stats.embeds))
    assert not fake.failed_calls()
