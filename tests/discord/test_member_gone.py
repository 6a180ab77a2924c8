"""A member who leaves the server, through the real discord.py stack and the fake Discord's
GUILD_MEMBER_REMOVE: withdrawn from the server's running tournament, his match won by his opponent at once,
and the verdict posted in the channel (through the outbox)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.delivery.budgets import PlaceBudgets
from bot.discord import build_bot
from bot.service import Place, PlayerRef
from bot.service.tournaments import model
from tests.fakes.discord import FakeDiscord, running_bot

from .conftest import FAST, World, settings_for

pytestmark = pytest.mark.timeout(60)


async def test_member_who_leaves_forfeits(fake: FakeDiscord, core: Any, world: World, start_bot: Any) -> None:
    """(``start_bot``: discord.py pointed at the fake; the bot is built here with member events on.)"""
    w = world
    dave = await fake.add_member(w.guild, "dave")
    members = [w.alice, w.bob, w.carol, dave]
    place = Place("discord", str(w.guild.id), str(w.general.id))
    admin = PlayerRef("discord", str(w.alice.id), "alice")
    events = core.service.tournaments
    assert (await events.create(admin, place, rounds=2, is_admin=True)).ok
    for m in members:
        assert (await events.join(PlayerRef("discord", str(m.id), m.user.username), place)).ok
    assert (await events.start(admin, place, is_admin=True)).ok
    _v, t = await events.current(place)
    pair = next(p for p in t.pairs if str(dave.id) in (p.a, p.b))
    winner = pair.b if pair.a == str(dave.id) else pair.a
    bot = build_bot(core, settings_for(fake, discord_member_events=True), guild_ready_timeout=0.05)
    bot.frontend.boards.budgets = PlaceBudgets(*FAST)
    async with running_bot(bot, fake.token) as running:
        await running.commands_synced.wait()
        assert running.intents.members
        await fake.remove_member(w.guild, dave.user)
        told = await fake.wait_for_message(w.general, lambda m: "left the chat" in m.content, timeout=20)
        assert t.name_of(winner) in told.content
    gid = (await core.service.store.read([("hget", model.round_games(t.id), model.slot(1, pair.a, pair.b))]))[0]
    s = (await core.service.sessions.load(gid, take=False)).session
    assert s is not None and s.status == "done" and s.players[s.winner].user_id == winner
    _v, t = await events.load(t.id)
    assert str(dave.id) in t.gone and t.status == "running"
    assert not fake.failed_calls()
