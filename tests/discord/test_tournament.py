"""A 4-player Swiss tournament in a Discord channel, end to end through the real discord.py stack and the
fake Discord: the admin creates and starts it (a member without Manage Server cannot), players join with
the prefix form, each round's pairings mention the paired players, the standings picture follows each
round, and the final message names the winner. The matches themselves are ended through the core."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.service import Place, PlayerRef
from tests.fakes.discord import FakeDiscord
from tests.service.test_tournament_service import both_move

from .conftest import World

pytestmark = pytest.mark.timeout(90)


def said(message: Any) -> str:
    """A message's words: content and embeds."""
    parts = [message.content] + [f"{e.get('title', '')} {e.get('description', '')}" for e in message.embeds]
    return " ".join(parts)


async def test_four_player_swiss_in_a_channel(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    dave = await fake.add_member(w.guild, "dave")
    members = [w.alice, w.bob, w.carol, dave]
    place = Place("discord", str(w.guild.id), str(w.general.id))
    rng = random.Random(7)

    async def line(member: Any, text: str) -> Any:
        sent = await fake.send_message(member, w.general, f"!fevga {text}")
        return await fake.wait_for_message(w.general, lambda m: m.author.bot, after=sent.id)

    assert "admin" in said(await line(w.bob, "tournament create swiss rounds 2")).lower()
    assert "is open" in said(await line(w.alice, "tournament create swiss rounds 2"))
    for n, member in enumerate(members):
        assert f"({n + 1} player{'s' if n else ''})" in said(await line(member, "tournament join"))
    mark = (await fake.send_message(w.alice, w.general, "!fevga tournament start")).id
    pairing = await fake.wait_for_message(w.general, lambda m: "Round 1:" in said(m), after=mark, timeout=20)
    assert said(pairing).count("Round 1:") == 2
    assert {u.id for u in pairing.notified} == {m.id for m in members}  # each paired player pinged

    _v, event = await core.service.tournaments.current(place)
    assert event is not None
    for rnd in (1, 2):
        _v, event = await core.service.tournaments.load(event.id)
        assert event is not None and event.round == rnd
        for pair in event.pairs:
            view = (await core.service.board(PlayerRef("discord", pair.a, ""), place)).view
            assert view is not None
            await both_move(core.service, view.game_id, place, rng)
            gave_up = await core.service.resign(PlayerRef("discord", pair.a, ""), place, True, view.game_id)
            assert gave_up.ok
            await core.service.tournaments.nudge(place)
        await core.tick("discord", notices=False)  # the round closes; its notice goes through the outbox
    final = await fake.wait_for_message(w.general, lambda m: "is over. The winner" in said(m), timeout=20)

    def tables() -> list[Any]:
        return [m for m in fake.messages(w.general) if [a.filename for a in m.attachments] == ["standings.png"]]

    # the two notices are drawn and posted side by side (the rounds closed within milliseconds): round one's
    # may land after the final one on a loaded machine
    await fake.wait_for(lambda: len(tables()) >= 2 or None, 20, "both standings pictures")
    assert len(tables()) == 2 and final in tables()  # the standings picture after round 1 and at the end
    assert "Round 2:" in " ".join(said(m) for m in fake.messages(w.general))
    assert not fake.failed_calls()
