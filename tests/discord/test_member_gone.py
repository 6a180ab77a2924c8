"""A member who leaves the server, through the real discord.py stack and the fake Discord's
GUILD_MEMBER_REMOVE: withdrawn from the server's running tournament, his match won by his opponent at once,
and the verdict posted in the channel (through the outbox); outside tournaments, his games there end and his
challenges there are withdrawn."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.delivery.budgets import PlaceBudgets
from bot.discord import build_bot
from bot.service import Place, PlayerRef, keys
from bot.service.tournaments import model
from bot.storage.base import split_versioned
from tests.fakes.discord import FakeDiscord, StoredMessage, running_bot

from .conftest import FAST, World, settings_for
from .playing import step_ids, take_turn_by_slash

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
        await fake.wait_for_message(w.general, lambda m: "Round 1:" in m.content, timeout=20)  # the pairings
        pairing = [m for m in members if str(m.id) in (pair.a, pair.b)]
        for _ in range(3):  # a move each: his match's board is in the channel, with its buttons
            for member in pairing:
                await take_turn_by_slash(core, fake, w.general, member)
        before = max(fake.stored_messages)
        await fake.remove_member(w.guild, dave.user)
        told = await fake.wait_for_message(w.general, lambda m: "left this server" in m.content, timeout=20)
        assert t.name_of(winner) in told.content
        gid = (await core.service.store.read([("hget", model.round_games(t.id), model.slot(1, pair.a, pair.b))]))[0]
        boards = [m for m in list(fake.stored_messages.values()) if m.embeds and m.id < before
                  and await core.game_for_board_message(f"{m.channel_id}:{m.id}") == gid]
        assert len(boards) == 1  # his match's board: it shows the result (it kept the position, buttons and all)
        await fake.wait_for(lambda: ("wins" in str(boards[0].embeds[0]) and not boards[0].custom_ids()) or None,
                            10.0, "the final board")
        assert t.name_of(winner) in str(boards[0].embeds[0])
        await _pings_done(core, gid)
        turn_pings = [m for m in list(fake.stored_messages.values()) if "it is your turn" in (m.content or "")
                      and str(boards[0].id) in m.content]
        assert turn_pings  # (they were made: his opponent was told to move)
        await fake.wait_for(lambda: all(m.deleted for m in turn_pings) or None, 5.0, "the stale turn pings gone")
        await asyncio.sleep(0.5)  # a second message would be on its way by now
    ends = [m.content for m in fake.stored_messages.values() if m.id > before and m.guild_id == w.guild.id
            and m.author.bot and "dave" in m.content and "your turn" not in m.content]
    assert ends == [told.content]  # his match's end told once (no "Game over" line after the verdict)
    s = (await core.service.sessions.load(gid, take=False)).session
    assert s is not None and s.status == "done" and s.players[s.winner].user_id == winner
    _v, t = await events.load(t.id)
    assert str(dave.id) in t.gone and t.status == "running"
    assert not fake.failed_calls()


def said(fake: FakeDiscord, words: str) -> StoredMessage | None:
    """A message anywhere (a channel or a game's thread) that says ``words``."""
    return next((m for m in fake.stored_messages.values() if words in (m.content or "") and not m.deleted), None)


async def test_member_who_leaves_ends_his_games_and_challenges(fake: FakeDiscord, core: Any, world: World,
                                                               start_bot: Any) -> None:
    """Outside tournaments: his match with bob ends as his resignation (bob wins, the final board drawn, the
    verdict posted), his game against the AI is called off, his challenge to carol is withdrawn."""
    w = world
    dave = await fake.add_member(w.guild, "dave")
    second, third = await fake.add_channel(w.guild, "second"), await fake.add_channel(w.guild, "third")
    bot = build_bot(core, settings_for(fake, discord_member_events=True), guild_ready_timeout=0.05)
    bot.frontend.boards.budgets = PlaceBudgets(*FAST)
    async with running_bot(bot, fake.token) as running:
        await running.commands_synced.wait()
        board = await _both_moved(fake, core, w, dave)
        ai_board = await (await fake.slash_command(dave, second, "fevga play", {"level": "easy"})).original()
        asked = await (await fake.slash_command(dave, third, "fevga challenge", {"user": w.carol})).original()
        assert step_ids(board) and step_ids(ai_board) and asked.custom_ids()

        await fake.remove_member(w.guild, dave.user)
        told = await fake.wait_for(lambda: said(fake, "dave left this server and resigns the match"), 20.0,
                                   "the verdict")
        assert w.bob.user in told.mentions  # the opponent is told
        await fake.wait_for(lambda: board.custom_ids() == [] or None, 10.0, "the final board (no Rematch: he left)")
        assert "bob" in str(board.embeds[0])  # the winner is named on the final board
        await fake.wait_for(lambda: said(fake, "dave left this server: the game is called off"), 10.0,
                            "the AI game's end")
        await fake.wait_for(lambda: not step_ids(ai_board) or None, 10.0, "the AI game's final board")
        await fake.wait_for(lambda: "dave left this server" in asked.content or None, 10.0, "the withdrawn challenge")
        assert asked.custom_ids() == []
    gid = await core.game_for_board_message(f"{board.channel_id}:{board.id}")
    s = (await core.service.sessions.load(gid, take=False)).session
    assert s is not None and s.status == "done" and s.end == "left" and s.players[s.winner].name == "bob"
    assert not fake.failed_calls()


async def _both_moved(fake: FakeDiscord, core: Any, w: World, dave: Any) -> StoredMessage:
    """A match of dave against bob in the general channel (slash challenge, accepted), both having moved (so
    his leaving is his resignation, not a called-off game): its board message."""
    board = await (await fake.slash_command(dave, w.general, "fevga challenge", {"user": w.bob})).original()
    accept = next(c for c in board.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, board, accept)).response()
    movers: set[int] = set()
    for _ in range(6):
        for member in (dave, w.bob):
            if len(movers) < 2 and await take_turn_by_slash(core, fake, w.general, member):
                movers.add(member.id)
    return board


async def _pings_done(core: Any, gid: str, timeout: float = 10.0) -> None:
    """Wait until the Pinger has looked at the game's stored version (its game-end message sent, or not due)."""
    for _ in range(int(timeout / 0.05)):
        ping, game = await core.service.store.read([("get", keys.ping_state(gid)), ("get", keys.game(gid))])
        if ping and game and split_versioned(ping)[0] >= split_versioned(game)[0]:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the game-end pings of {gid} were never looked at")


async def test_a_match_ended_by_a_leaver_is_told_once(fake: FakeDiscord, core: Any, world: World,
                                                      start_bot: Any) -> None:
    """One message in the server says how his match ended (the verdict naming him), not the verdict and then a
    second "Game over" line from the game-end pings."""
    w = world
    dave = await fake.add_member(w.guild, "dave")
    bot = build_bot(core, settings_for(fake, discord_member_events=True), guild_ready_timeout=0.05)
    bot.frontend.boards.budgets = PlaceBudgets(*FAST)
    async with running_bot(bot, fake.token) as running:
        await running.commands_synced.wait()
        board = await _both_moved(fake, core, w, dave)
        gid = await core.game_for_board_message(f"{board.channel_id}:{board.id}")
        before = max(fake.stored_messages)
        await fake.remove_member(w.guild, dave.user)
        await fake.wait_for(lambda: said(fake, "dave left this server and resigns the match"), 20.0, "the verdict")
        await fake.wait_for(lambda: board.custom_ids() == [] or None, 10.0, "the final board")
        await _pings_done(core, gid)
        await asyncio.sleep(0.5)  # a second message would be on its way by now
    ends = [m.content for m in fake.stored_messages.values() if m.id > before and m.guild_id == w.guild.id
            and m.author.bot and not m.deleted and "your turn" not in m.content]
    assert len(ends) == 1 and "dave left this server and resigns the match" in ends[0], ends
    assert not fake.failed_calls()
