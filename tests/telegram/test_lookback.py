"""``dice``, ``h2h`` and ``stats`` with its rating graph, through the real python-telegram-bot stack and the
local Bot API stand-in."""

from __future__ import annotations

import io
import random

from PIL import Image

from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import a_legal_play, start_group_game

MAX_TURNS = 400


async def test_dice_h2h_and_stats_with_its_graph(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice, bob, room, _ = await start_group_game(fake, chat, core)
    await chat.say(bob, room, "/accept")
    await chat.say(alice, room, "/stats")
    assert fake.last_bot_message(room).kind == "text"  # no rated match yet: no picture
    place, rng = group_place(room), random.Random(5)
    view = await game_view(core, actor_ref(alice), place)
    for _ in range(MAX_TURNS):  # play the match out through the service (the board tests cover the buttons)
        if view.status != "play":
            break
        mover = view.players[view.turn]
        result = await core.service.move(mover, place, a_legal_play(view, rng), game_id=view.game_id)
        assert result.ok
        view = result.view
    assert view.status != "play"
    await chat.say(alice, room, "/dice")
    said = fake.last_bot_message(room).content
    assert "rolls in 1 game;" in said and "Too few rolls for a verdict" in said and "p =" not in said
    await chat.say(alice, room, "/h2h @bob_tavli")
    assert "Alice vs Bob: 1 match" in fake.last_bot_message(room).content
    await chat.say(alice, room, "/stats")
    shown = fake.last_bot_message(room)
    assert shown.kind == "photo" and shown.photo is not None and "Alice" in shown.content
    picture = Image.open(io.BytesIO(shown.photo))
    assert picture.format == "PNG" and picture.width == 800
