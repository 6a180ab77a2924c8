"""A challenge to a user who has left the server, through the real discord.py stack: refused with a message
naming him (typed or slash, in English and Greek), nothing stored or posted that could
never be accepted; a member still there is challenged as before."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import keys
from tests.fakes.discord import FakeDiscord

from .conftest import World
from .playing import place_ref

pytestmark = pytest.mark.timeout(60)


async def test_a_challenge_to_a_user_who_left_is_refused(fake: FakeDiscord, bot: Any, core: Any,
                                                         world: World) -> None:
    w = world
    dave = await fake.add_member(w.guild, "dave")
    await fake.remove_member(w.guild, dave.user)  # gone (the bot hears nothing: no member events here)

    typed = await fake.send_message(w.alice, w.general, f"!fevga challenge <@{dave.id}>")
    answer = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=typed.id)
    assert "dave is not a member of this server" in answer.content and not answer.custom_ids()
    slash = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": dave.user})).original()
    assert slash.ephemeral and "dave is not a member of this server" in slash.content and not slash.custom_ids()
    greek = await (await fake.slash_command(w.bob, w.general, "fevga challenge", {"user": dave.user},
                                            locale="el")).original()
    assert "δεν είναι μέλος" in greek.content
    stored = (await core.service.store.read([("hgetall", keys.channel_challenges(place_ref(w.general)))]))[0]
    assert not stored  # nothing waits for him

    asked = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.carol})).original()
    assert [c.split(":")[1] for c in asked.custom_ids()] == ["accept", "decline", "cancel"]  # members as before
    failed = fake.failed_calls()  # only the typed one's member lookup, answered "Unknown Member"
    assert [(c.status, c.path.endswith(f"/members/{dave.id}")) for c in failed] == [(404, True)]


async def test_a_failing_member_lookup_lets_the_challenge_through_promptly(fake: FakeDiscord, bot: Any,
                                                                           world: World) -> None:
    """Discord answering 500 to the member lookup (discord.py retries a 5xx for many seconds): the typed
    challenge goes through as before, in a couple of seconds, not after the retries (it took 25 s)."""
    w = world
    fake.faults.add("GET", r"/members/\d+$", times=50, status=500)
    typed = await fake.send_message(w.alice, w.general, f"!fevga challenge <@{w.carol.id}>")
    answer = await fake.wait_for_message(w.general, lambda m: m.author.bot, after=typed.id, timeout=8)
    assert "challenges carol" in answer.content
    assert [c.split(":")[1] for c in answer.custom_ids()] == ["accept", "decline", "cancel"]
