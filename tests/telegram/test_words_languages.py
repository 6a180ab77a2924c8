"""Languages through the real Telegram stack: the board of a group stays in the group's language whoever
moves (players with different personal languages), personal replies follow each player's language (his
``language_code`` until he chooses one), and his own settings are answered in his private chat."""

from __future__ import annotations

import random

from bot.i18n import translate
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .scenes import MAX_TURNS, a_legal_play, check_board


async def _play_to_the_end(fake: FakeTelegram, chat: Chat, core: CoreSpy, lang: str) -> int:
    """Greek Alice (language_code el) against English Bob in one group; every turn, whoever moves, the
    board's caption is in ``lang``. Returns the number of turns played."""
    alice = fake.user(101, "Alice", "alice_tavli", language_code="el")
    bob = fake.user(102, "Bob", "bob_tavli", language_code="en")
    room = fake.group(-1001, "Tavli")
    if lang == "el":  # an admin of the group chose Greek for it
        assert (await core.service.set_setting(actor_ref(alice), group_place(room), "place_lang", "el",
                                               is_admin=True)).ok
    await chat.say(bob, room, "/rules")
    await chat.say(alice, room, "/challenge @bob_tavli")
    await chat.say(bob, room, "/accept")
    board = next(m for m in fake.bot_messages(room) if m.kind == "photo")
    users = {"101": alice, "102": bob}
    word = translate("caption_turn", lang, player="", dice="").strip()
    rng, turns = random.Random(3), 0
    while True:
        view = await game_view(core, actor_ref(alice), group_place(room))
        if view.status != "play":
            break
        caption = board.content.splitlines()[0]
        assert word in caption, (turns, caption)
        if lang == "en":
            check_board(board, view)
        turns += 1
        assert turns < MAX_TURNS
        await chat.say(users[view.players[view.turn].user_id], room, a_legal_play(view, rng))
    assert view.winner is not None
    winner = view.players[view.winner].name
    assert translate("caption_won", lang, player=winner, points=view.points) in board.content
    return turns


async def test_an_english_group_keeps_an_english_board_when_a_greek_player_moves(
    fake: FakeTelegram, core: CoreSpy, chat: Chat
) -> None:
    assert await _play_to_the_end(fake, chat, core, "en") > 10


async def test_a_greek_group_keeps_a_greek_board_when_an_english_player_moves(
    fake: FakeTelegram, core: CoreSpy, chat: Chat
) -> None:
    assert await _play_to_the_end(fake, chat, core, "el") > 10


async def test_personal_replies_follow_each_players_language(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice = fake.user(101, "Alice", "alice_tavli", language_code="el-GR")
    bob = fake.user(102, "Bob", "bob_tavli", language_code="de")
    room = fake.group(-1001, "Tavli")
    await chat.say(alice, room, "/board")  # no game: a personal error, in her language (language_code el-GR)
    assert fake.last_bot_message(room).text == translate("no_game_here", "el", here=translate(
        "word_here_telegram", "el"))
    await chat.say(bob, room, "/board")  # "de" is not ours: English
    assert fake.last_bot_message(room).text == "You have no game in this chat."
    await chat.say(alice, room, "/top 1000")  # accepted; the maximum explained, in Greek
    assert fake.last_bot_message(room).text == "\n".join((
        translate("top_empty", "el", kind="fevga"),
        translate("top_other_boards", "el", others="top portes, top plakoto, top tavli"),
        translate("top_max", "el", max=50)))
    assert "Φεύγα" in fake.last_bot_message(room).text  # the empty board names its game


async def test_a_greek_language_code_gives_a_new_user_greek_until_he_chooses(
    fake: FakeTelegram, core: CoreSpy, chat: Chat
) -> None:
    eleni = fake.user(105, "Eleni", "eleni", language_code="el")
    home = fake.private_chat(eleni)
    await chat.say(eleni, home, "/rules")
    assert fake.last_bot_message(home).text == translate("rules_summary", "el")
    await chat.say(eleni, home, "/lang en")
    await chat.say(eleni, home, "/rules")
    assert fake.last_bot_message(home).text == translate("rules_summary", "en")


async def test_his_own_settings_are_answered_in_his_private_chat(
    fake: FakeTelegram, core: CoreSpy, chat: Chat
) -> None:
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    home = fake.private_chat(alice)  # Alice has started the bot: it may write to her
    before = len(fake.bot_messages(room))
    await chat.say(alice, room, "/settings autoplay on")
    assert fake.last_bot_message(home).text == translate("setting_changed", "en", name="autoplay", value="on")
    assert len(fake.bot_messages(room)) == before  # nothing about her settings in the group
    await chat.say(bob, room, "/settings autoplay on")  # Bob never started the bot: answered in the group
    assert fake.last_bot_message(room).text == translate("setting_changed", "en", name="autoplay", value="on")
    await chat.say(alice, room, "/lang el")
    assert fake.last_bot_message(home).text == translate("setting_changed", "el", name="lang", value="el")


async def test_a_greek_users_first_contact_is_greek(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    """A user whose Telegram app is Greek is answered in Greek from his very first message: the /start welcome,
    and the first board of his first game in his private chat (before any setting of his was stored)."""
    eleni = fake.user(201, "Ελένη", "eleni", language_code="el")
    home = fake.private_chat(eleni)
    await chat.say(eleni, home, "/start")
    welcome = fake.bot_messages(home)[-1].content
    assert welcome.startswith(translate("group_tg_welcome", "el")[:20]), welcome
    nikos = fake.user(202, "Νίκος", "nikos", language_code="el")
    his = fake.private_chat(nikos)
    await chat.say(nikos, his, "/ai portes")
    board = next(m for m in fake.bot_messages(his) if m.kind == "photo")
    assert "Υπολογιστής (μέτριο)" in board.content and "AI (medium)" not in board.content, board.content


async def test_a_group_owner_sets_the_ping_time(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    """``ping after 45`` is an admin's command (README): a group's owner may give it, a member may not."""
    owner, member = fake.user(301, "Owner", "owner_t"), fake.user(302, "Member", "member_t")
    room = fake.group(-3001, "Club")
    fake.make_owner(room, owner)
    await chat.say(member, room, "/ping after 45")
    assert "admin" in fake.bot_messages(room)[-1].content
    await chat.say(owner, room, "/ping after 45")
    assert "admin" not in fake.bot_messages(room)[-1].content
