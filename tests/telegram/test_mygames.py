"""``/mygames`` through the real stack: the running matches of the player across chats, whose turn, with a
message link for a supergroup and the chat's title for a basic group."""

from __future__ import annotations

from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy
from .scenes import start_group_game


async def test_mygames_lists_games_in_two_groups(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice, bob, room, _ = await start_group_game(fake, chat, core)  # room -1001: a supergroup id
    await chat.say(bob, room, "/accept")
    basic = fake.group(-4242, "Kafeneio")  # a basic group: no message links
    carol = fake.user(103, "Carol", "carol_tavli")
    await chat.say(carol, basic, "/rules")
    await chat.say(alice, basic, "/challenge @carol_tavli")
    await chat.say(carol, basic, "/accept")
    await chat.say(alice, basic, "/mygames")
    listed = fake.last_bot_message(basic).content
    assert "Alice, your running matches: 2" in listed
    assert "vs Bob" in listed and "vs Carol" in listed and "«Kafeneio»" in listed
    assert "https://t.me/c/1/" in listed  # the board message in the supergroup
    assert listed.count("your turn") + listed.count(" to move.") == 2
