"""A challenge to a user who has left the group, through the real python-telegram-bot stack: Telegram's
getChatMember says "left" (or "kicked"), so the challenge is refused with a message naming him (in English and
Greek), nothing stored or posted that could never be accepted; a member still there is challenged as before."""

from __future__ import annotations

from bot.service import keys
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, group_place


async def test_a_challenge_to_a_user_who_left_is_refused(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    alice, bob = fake.user(141, "Alice", "alice_gone"), fake.user(142, "Bob", "bob_gone")
    dave, eleni = fake.user(143, "Dave", "dave_gone"), fake.user(144, "Eleni", "eleni_gone", language_code="el")
    room = fake.group(-1041, "Gone")
    for member in (bob, dave):
        await chat.say(member, room, "/rules")  # the bot has now seen @bob_gone and @dave_gone
    fake.member_left(dave, room)
    await chat.idle()

    await chat.say(alice, room, "/challenge @dave_gone")
    refused = fake.last_bot_message(room)
    assert "Dave is not a member of this group" in refused.content and not refused.callback_datas
    await chat.say(eleni, room, "/challenge @dave_gone")
    assert "δεν είναι μέλος αυτής της ομάδας" in fake.last_bot_message(room).content
    stored = (await core.store.read([("hgetall", keys.channel_challenges(group_place(room)))]))[0]
    assert not stored  # nothing waits for him

    await chat.say(alice, room, "/challenge @bob_gone")
    asked = fake.last_bot_message(room)
    assert "Bob" in asked.content and asked.callback_datas  # a member is challenged as before
