"""A 5-point tavli match between two people in a Telegram group, through the real PTB stack against the
fake Bot API: random legal plays typed and pressed (whole-play and step buttons), the rotation, who starts
each game, a Plakoto draw (planted) that moves the rotation on, the score, and the ratings (the tavli board
only). The Discord twin: tests/discord/test_tavli_match.py; shared checks: tests/tavli_match.py."""

from __future__ import annotations

import random

from fevga import format_play, legal_plays
from fevga.match import game_kind
from tests.fakes.telegram import FakeTelegram
from tests.service.helpers import mover_position
from tests.tavli_match import DRAW_PLAY, check_tavli_record, plant_plakoto_draw

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import the_board


async def test_a_tavli_match_to_five_in_a_group(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    await chat.say(bob, room, "/rules portes")
    assert "Portes in short" in fake.last_bot_message(room).content
    await chat.say(alice, room, "/challenge@fevga_test_bot @bob_tavli τάβλι 5")
    assert "(tavli: Portes, Plakoto, Fevga in turn)" in fake.last_bot_message(room).content
    await chat.say(bob, room, "/accept")
    board = the_board(fake, room)
    users = {"101": alice, "102": bob}
    rng = random.Random(5)
    place = group_place(room)
    turns, planted = 0, False
    while True:
        view = await game_view(core, actor_ref(alice), place)
        if view.status != "play":
            break
        assert (view.kind, view.game) == ("tavli", game_kind("tavli", view.game_no))
        turns += 1
        assert turns < 3000
        mover = users[view.players[view.turn].user_id]
        picks = core.tokens("play")
        if view.game == "plakoto" and not planted:  # the first Plakoto game is drawn
            await plant_plakoto_draw(core.service, view.game_id)
            planted = True
            await chat.say(mover, room, f"/m {DRAW_PLAY}")
            told = the_board(fake, room).content  # the board's caption tells the draw and who starts next
            assert "is a draw: both mothers are pinned" in told and "begins after the draw" in told
        elif turns % 3 == 1 and picks:
            answer = await chat.press(mover, board, rng.choice(picks))
            assert answer.answered and answer.text is None
        elif turns % 3 == 2 and core.tokens("step"):
            for _ in range(8):
                confirm = core.tokens("confirm")
                token = confirm[0] if confirm else rng.choice(core.tokens("step"))
                answer = await chat.press(mover, board, token)
                assert answer.answered and answer.text is None
                if confirm:
                    break
        else:
            position = mover_position(view)
            await chat.say(mover, room, f"/m {format_play(rng.choice(legal_plays(position, view.dice)))}")
    assert view.match_winner is not None and max(view.score) >= 5
    assert not [m for m in fake.bot_messages(room) if m.content.startswith("Something went wrong")]
    record = (await core.service.record(view.game_id)).messages[0].args["record"]["games"]
    # the planted draw (random play may draw a later Plakoto game too)
    assert check_tavli_record(record, view.score, 5) >= 1 and record[1]["outcome"]["winner"] is None
    await chat.say(alice, room, "/top tavli")
    assert "Alice" in fake.last_bot_message(room).content and "Bob" in fake.last_bot_message(room).content
    await chat.say(alice, room, "/top fevga")
    assert "Bob" not in fake.last_bot_message(room).content  # a tavli match rates tavli only
