"""Whole games through the real stack (PTB Application -> fake Bot API, real BotCore on a real Redis):
one by text in a group, one by buttons, and one against the AI in a private chat. The board is one photo
per game, edited in place, and the photo really shows the position the game is in."""

from __future__ import annotations

import random

from bot.i18n import translate
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place, private_place
from .scenes import MAX_TURNS, a_legal_play, check_board, group_game, seats, start_group_game, the_board


async def test_a_whole_game_by_text_in_a_group(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, bob, room, _ = await start_group_game(fake, chat, core)
    await chat.say(bob, room, "/accept")
    board = the_board(fake, room)
    users = {"101": alice, "102": bob}
    rng = random.Random(7)
    styles = ["/move {}", "/m@fevga_test_bot {}", "{}", "reply"]
    turns = 0
    while True:
        view = await game_view(core, actor_ref(alice), group_place(room))
        check_board(board, view)
        if view.status != "play":
            break
        turns += 1
        assert turns < MAX_TURNS
        mover = users[view.players[view.turn].user_id]
        play = a_legal_play(view, rng)
        style = styles[turns % len(styles)]
        edits = len(board.history)
        if style == "reply":  # privacy mode: a reply to the board is how a group member may move
            await chat.say(mover, room, play, reply_to=board)
        else:
            await chat.say(mover, room, style.format(play))
        assert len(board.history) == edits + 1 and board.history[-1].method == "editMessageMedia", (
            play,
            style,
            [m.content for m in fake.bot_messages(room)[-3:]],
        )
    assert view.winner is not None and f"{view.players[view.winner].name} wins" in board.content.splitlines()[0]
    assert turns > 10 and the_board(fake, room) is board  # one board message for the whole game
    assert not [m for m in fake.bot_messages(room) if m.content.startswith("Something went wrong")]

    await chat.say(alice, room, "/export")  # the record as a file
    record = fake.last_bot_message(room)
    assert record.kind == "document" and record.file is not None and record.file.file_name
    assert record.file.file_name.endswith(".mat") and b"Alice" in record.file.data
    await chat.say(bob, room, "/replay")  # the game as an animation
    replay = fake.last_bot_message(room)
    assert replay.kind == "animation" and replay.file is not None and replay.file.image_format == "GIF"


async def test_a_whole_game_by_buttons_in_a_group(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, bob, room, invitation = await start_group_game(fake, chat, core)
    accept = invitation.button("Accept").callback_data
    assert accept is not None
    answer = await chat.press(bob, invitation, accept)
    assert answer.answered and not answer.show_alert
    assert invitation.buttons == []  # the invitation did its job: its keyboard is gone
    board = the_board(fake, room)
    users = {"101": alice, "102": bob}
    presses = 0
    while True:
        view = await game_view(core, actor_ref(alice), group_place(room))
        check_board(board, view)
        if view.status != "play":
            break
        mover = users[view.players[view.turn].user_id]
        confirm = core.tokens("confirm")
        token = confirm[0] if confirm else core.tokens("step")[0]
        edits = len(board.history)
        answer = await chat.press(mover, board, token)  # must be on the board's current keyboard
        presses += 1
        assert answer.answered and answer.text is None and presses < 4 * MAX_TURNS
        assert len(board.history) == edits + 1
    assert view.winner is not None and board.callback_datas == core.tokens("rematch")
    assert the_board(fake, room) is board and presses > 20


async def test_playing_the_ai_in_a_private_chat(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    carol = fake.user(103, "Carol", "carol_tavli")
    home = fake.private_chat(carol)
    await chat.say(carol, home, "/ai easy")
    board = the_board(fake, home)
    rng = random.Random(3)
    for _ in range(3):
        view = await game_view(core, actor_ref(carol), private_place(home))
        check_board(board, view)
        assert view.players[view.turn].user_id == "103"  # the AI has answered by the time the board shows
        edits = len(board.history)
        await chat.say(carol, home, a_legal_play(view, rng))  # in private every text is for the bot
        assert len(board.history) == edits + 1
    assert the_board(fake, home) is board


async def test_resigning_by_button_asks_first_and_only_the_resigner_can_confirm(
    fake: FakeTelegram, core: CoreSpy, chat: Chat
):
    alice, bob, room, board = await group_game(fake, chat, core)
    rng = random.Random(5)
    for _ in range(2):  # before both players have moved, resigning would only call the game off
        view, mover, _waiting = await seats(core, fake, alice, room)
        await chat.say(mover, room, f"/move {a_legal_play(view, rng)}")
    answer = await chat.press(alice, board, core.tokens("resign")[0])
    assert answer.answered and not answer.show_alert
    prompt = fake.last_bot_message(room)
    assert prompt is not board and translate("resign_confirm_prompt", "en", points=2) in prompt.content
    assert [e["user"]["id"] for e in prompt.entities if e["type"] == "text_mention"] == [alice.id]
    (confirm,) = prompt.callback_datas

    edits = len(board.history)
    foreign = await chat.press(bob, prompt, confirm)  # Bob must not resign (or make Alice resign) by it
    assert foreign.show_alert and foreign.text and "Alice" in foreign.text
    assert len(board.history) == edits and (await game_view(core, actor_ref(alice), group_place(room))).winner is None

    answer = await chat.press(alice, prompt, confirm)
    assert answer.answered and not answer.show_alert
    view = await game_view(core, actor_ref(alice), group_place(room))
    assert view.status != "play" and view.players[view.winner].name == "Bob"
    assert translate("caption_won", "en", player="Bob", points=view.points) in board.content and prompt.buttons == []
    check_board(board, view)
