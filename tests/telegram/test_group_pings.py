"""Groups through the real stack (PTB -> fake Bot API, real core on a real Redis): every turn pings the
player to move (a text_mention of him only, replying to the board; the previous ping deleted), a game end
is a new message, ``ping off`` / ``ping dm on`` are honoured, a privacy-mode group plays by the forms the
bot advertises, chatter that looks like a move is ignored, ``/start`` welcomes and a deep link accepts."""

from __future__ import annotations

import random
from typing import Any

from bot.i18n import translate
from tests.fakes.telegram import FakeMessage, FakeTelegram, FakeUser

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import MAX_TURNS, a_legal_play, group_game, start_group_game, the_board


def pings(fake: FakeTelegram, room: Any) -> list[FakeMessage]:
    """The bot's turn pings in the chat, deleted ones too, oldest first."""
    return [m for m in fake.bot_messages(room, include_deleted=True) if m.kind == "text" and "your turn" in m.content]


def mentioned(message: FakeMessage) -> list[int]:
    return [e["user"]["id"] for e in message.entities if e["type"] == "text_mention"]


async def play_out(fake: FakeTelegram, chat: Chat, core: CoreSpy, alice: FakeUser, room: Any, board: FakeMessage,
                   styles: list[str], check: Any = None) -> Any:
    """Play the game to its end with the given forms, calling ``check(view, mover)`` after each turn."""
    users = {u.id: u for u in fake.users.values()}
    rng = random.Random(11)
    for turn in range(MAX_TURNS):
        view = await game_view(core, actor_ref(alice), group_place(room))
        if view.status != "play":
            return view
        mover = users[int(view.players[view.turn].user_id)]
        play = a_legal_play(view, rng)
        style = styles[turn % len(styles)]
        if style == "reply":
            await chat.say(mover, room, play, reply_to=board)
        else:
            await chat.say(mover, room, style.format(play))
        if check is not None:
            await check(await game_view(core, actor_ref(alice), group_place(room)))
    raise AssertionError("the game did not end")


async def test_every_turn_pings_the_player_to_move_and_only_him(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    view = await game_view(core, actor_ref(alice), group_place(room))
    first = pings(fake, room)
    assert len(first) == 1 and mentioned(first[0]) == [int(view.players[view.turn].user_id)]
    assert first[0].reply_to is board  # the ping answers the board, so a tap shows it

    async def check(view: Any) -> None:
        sent = pings(fake, room)
        if view.status != "play":
            return
        live = [m for m in sent if not m.deleted]
        assert len(live) == 1, [m.content for m in live]  # the previous ping was deleted
        assert mentioned(live[0]) == [int(view.players[view.turn].user_id)]  # the mover, nobody else
        assert live[0].reply_to is board and f"({view.dice[0]}-{view.dice[1]})" in live[0].content

    final = await play_out(fake, chat, core, alice, room, board, ["/move {}", "{}", "reply"], check)
    assert final.winner is not None
    end = fake.last_bot_message(room)
    assert end.kind == "text" and end is not board and end.content.startswith("Game over")
    assert final.players[final.winner].name in end.content
    assert not [m for m in pings(fake, room) if not m.deleted]  # no ping is left once the game is over
    assert len(pings(fake, room)) > 10 and the_board(fake, room) is board


async def test_ping_off_and_ping_dm(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, bob, room, _board = await group_game(fake, chat, core)
    home = fake.private_chat(alice)  # Alice started the bot: she may be messaged privately
    await chat.say(alice, room, "/ping dm on")
    await chat.say(bob, room, "/ping off")
    assert fake.last_bot_message(room).content == translate("setting_changed", "en", name="ping", value="off")
    rng = random.Random(5)
    for _ in range(6):
        view = await game_view(core, actor_ref(alice), group_place(room))
        mover = fake.users[int(view.players[view.turn].user_id)]
        before_dm = len(fake.bot_messages(home))
        await chat.say(mover, room, f"/m {a_legal_play(view, rng)}")
        view = await game_view(core, actor_ref(alice), group_place(room))
        live = [m for m in pings(fake, room) if not m.deleted]
        if view.players[view.turn].user_id == str(bob.id):
            assert live == []  # Bob turned his pings off (and Alice's old one is gone)
            assert len(fake.bot_messages(home)) == before_dm
        else:
            assert [mentioned(m) for m in live] == [[alice.id]]
            direct = fake.bot_messages(home)
            assert len(direct) == before_dm + 1 and "Your turn" in direct[-1].content


async def test_a_privacy_mode_group_plays_by_the_advertised_forms(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    fake.privacy_mode = True
    alice, _bob, room, board = await group_game(fake, chat, core)
    await chat.say(alice, room, "/help")
    help_text = fake.last_bot_message(room).content
    assert "/setprivacy" in help_text and "/m 1/7 7/12" in help_text
    assert "/m 1/7 7/12" in board.content  # the caption says how to move here
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover = fake.users[int(view.players[view.turn].user_id)]
    await chat.say(mover, room, a_legal_play(view, random.Random(1)))  # a plain play: Telegram withholds it
    assert fake.withheld and (await game_view(core, actor_ref(alice), group_place(room))).version == view.version
    final = await play_out(fake, chat, core, alice, room, board, ["/m {}", "reply", "/move@fevga_test_bot {}"])
    assert final.winner is not None and fake.last_bot_message(room).content.startswith("Game over")


async def test_chatter_that_looks_like_a_move_is_ignored(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, _board = await group_game(fake, chat, core)
    carol = fake.user(103, "Carol", "carol_tavli")
    sent = len(fake.bot_messages(room))
    await chat.say(carol, room, "12/5 meeting at 7pm?")
    assert len(fake.bot_messages(room)) == sent  # not a player here: silence
    view = await game_view(core, actor_ref(alice), group_place(room))
    waiting = fake.users[int(view.players[1 - view.turn].user_id)]
    await chat.say(waiting, room, "12/5 meeting at 7pm?")  # a player: told why it did not work
    assert fake.last_bot_message(room).reply_to is not None and len(fake.bot_messages(room)) == sent + 1


async def test_start_welcomes_with_buttons(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    dora = fake.user(104, "Dora", "dora")
    home = fake.private_chat(dora)
    await chat.say(dora, home, "/start")
    welcome = fake.last_bot_message(home)
    assert "Discord" not in welcome.content and "/challenge" in welcome.content
    assert len(welcome.callback_datas) == 3
    await chat.press(dora, welcome, "w:howto")
    assert "/challenge @friend" in fake.last_bot_message(home).content
    await chat.press(dora, welcome, "w:ai")
    assert the_board(fake, home).photo is not None  # a game against the computer started


async def test_a_deep_link_accepts_a_group_challenge_from_a_private_chat(fake: FakeTelegram, core: CoreSpy,
                                                                         chat: Chat):
    alice, bob, room, invitation = await start_group_game(fake, chat, core)
    [link] = [b.url for row in invitation.buttons for b in row if b.url]
    assert link is not None and link.startswith("https://t.me/fevga_test_bot?start=accept_")
    payload = link.partition("?start=")[2]
    home = fake.private_chat(bob)
    await chat.say(bob, home, f"/start {payload}")
    assert "Tavli" in fake.last_bot_message(home).content  # told where the game is
    board = the_board(fake, room)  # the board is in the group
    view = await game_view(core, actor_ref(bob), group_place(room))
    assert {p.user_id for p in view.players} == {str(alice.id), str(bob.id)}
    assert board.photo is not None and len(pings(fake, room)) == 1
    await chat.say(bob, home, f"/start {payload}")  # used up: a clear message, nothing changes
    assert fake.last_bot_message(home).content == translate("group_tg_bad_link", "en")


async def test_telegram_says_chat_not_channel(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    carol = fake.user(103, "Carol", "carol_tavli")
    room = fake.group(-1002, "Kafeneio")
    await chat.say(carol, room, "/board")
    assert fake.last_bot_message(room).content == translate("group_tg_no_game_here", "en")
    assert "channel" not in fake.last_bot_message(room).content
    await chat.say(carol, room, "/lang el")
    await chat.say(carol, room, "/board")
    assert fake.last_bot_message(room).content == translate("group_tg_no_game_here", "el")
