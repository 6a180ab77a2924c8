"""Turn pings on Discord through discord.py and the fake: every turn of a game between two members pings
the player to move and nobody else (allowed_mentions names him only: no @everyone, no roles), the previous
ping is deleted, the game's end is a new message, ``/fevga ping off`` stops them, names are not markdown."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.delivery.replies import Reply
from bot.discord.boards import ping_text
from bot.discord.rendering import outgoing
from bot.service.models import PlayerRef
from tests.fakes.discord import FakeDiscord, StoredMessage

from .conftest import World
from .playing import place_ref, player_ref, step_ids, take_turn_by_slash

pytestmark = pytest.mark.timeout(180)


def pings(fake: FakeDiscord, world: World, *, deleted: bool = False) -> list[StoredMessage]:
    """The bot's turn pings anywhere in the guild (its threads too), oldest first."""
    channels = {c.id for c in fake.channels.values() if c.guild_id == world.guild.id}
    return [
        m for m in sorted(fake.stored_messages.values(), key=lambda m: m.id)
        if m.channel_id in channels and m.author.id == fake.bot_user.id and "your turn" in m.content
        and (deleted or not m.deleted)
    ]  # fmt: skip


async def mover_of(core: Any, world: World) -> Any:
    view = (await core.service.board(player_ref(world.alice), place_ref(world.general))).view
    return view


async def test_every_turn_pings_the_mover_and_nobody_else(fake: FakeDiscord, bot: Any, world: World,
                                                         core: Any) -> None:
    w = world
    await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    board = await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()
    members = {str(m.id): m for m in (w.alice, w.bob)}
    turns = 0
    while step_ids(board):
        view = await mover_of(core, w)
        if view is None or view.status != "play":
            break
        mover = members[view.players[view.turn].user_id]
        live = await fake.wait_for(lambda: pings(fake, w) or None, 5, "the ping")
        assert len(live) == 1, [m.content for m in live]  # the previous one was deleted
        (ping,) = live
        assert ping.notified == [mover.user] and not ping.pings_everyone
        assert f"<@{mover.id}>" in ping.content and str(board.id) in ping.content  # a link to the board
        assert await take_turn_by_slash(core, fake, w.general, mover)
        turns += 1
        await fake.wait_for(lambda before=ping: before.deleted or None, 10, "the old ping to go")
        assert turns < 400
    assert turns >= 10 and len(pings(fake, w, deleted=True)) >= turns
    end = await fake.wait_for_message(w.general, lambda m: m.content.startswith("Game over"), timeout=10)
    assert end.id > board.id and not end.notified
    assert not pings(fake, w)  # no ping is left once the game is over
    assert not fake.failed_calls()


async def test_ping_off_stops_pings_for_that_player(fake: FakeDiscord, bot: Any, world: World, core: Any) -> None:
    w = world
    off = await (await fake.slash_command(w.bob, w.general, "fevga ping", {"setting": "off"})).original()
    assert "ping is now off" in (off.content + str(off.embeds))
    await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()
    members = {str(m.id): m for m in (w.alice, w.bob)}
    for _ in range(6):
        view = await mover_of(core, w)
        mover = members[view.players[view.turn].user_id]
        if mover is w.bob:
            await fake.wait_for(lambda: not pings(fake, w) or None, 10, "no ping for bob")
        else:
            live = await fake.wait_for(lambda: pings(fake, w) or None, 10, "alice's ping")
            assert [m.notified for m in live] == [[w.alice.user]]
        assert await take_turn_by_slash(core, fake, w.general, mover)
    assert all(m.notified == [w.alice.user] for m in pings(fake, w, deleted=True))


def test_names_are_not_markdown_and_a_ping_notifies_only_the_mover() -> None:
    star = PlayerRef("discord", "42", "*star*")
    out = ping_text(Reply("*star*, it is your turn (6-4).", mention=(star,)), "https://discord.com/channels/1/2/3")
    assert out.content == "<@42>, it is your turn (6-4).\nhttps://discord.com/channels/1/2/3"
    allowed = out.allowed_mentions().to_dict()
    assert [str(u) for u in allowed["users"]] == ["42"] and allowed["parse"] == [] and not allowed.get("roles")
    board = outgoing(Reply("__bob__ played 6/1", game_id="g", version=2, caption="*star* – __bob__"))
    assert board.embed is not None and board.embed.title == "\\*star\\* – \\_\\_bob\\_\\_"
    assert board.embed.description == "\\_\\_bob\\_\\_ played 6/1"
    assert outgoing(Reply("**loud**")).content == "\\*\\*loud\\*\\*"
    spoof = outgoing(Reply("<@123456789012345678> played 6/1 @everyone", game_id="g", version=3,
                           caption="<@123456789012345678> – bob"))  # a nickname written as another's mention
    assert spoof.embed is not None and "<@1" not in (spoof.embed.title or "") + (spoof.embed.description or "")
    assert "@everyone" not in (spoof.embed.description or "")


async def test_a_ping_refused_with_503_is_sent_once_after_recovery(fake: FakeDiscord, bot: Any, world: World,
                                                                   core: Any) -> None:
    w = world
    await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()
    await fake.wait_for(lambda: pings(fake, w) or None, 10, "the first ping")
    view = await mover_of(core, w)
    members = {str(m.id): m for m in (w.alice, w.bob)}
    fake.faults.add("POST", r"/channels/\d+/messages$", times=2, status=503)
    mark = pings(fake, w, deleted=True)[-1].id  # the next mover may be the same (the opponent's roll a pass)
    assert await take_turn_by_slash(core, fake, w.general, members[view.players[view.turn].user_id])
    after = await mover_of(core, w)
    nxt = members[after.players[after.turn].user_id]

    def new_pings(deleted: bool = False) -> list[StoredMessage]:
        return [m for m in pings(fake, w, deleted=deleted) if m.id > mark and m.notified == [nxt.user]]

    live = await fake.wait_for(lambda: new_pings() or None, 20, "the ping after the outage")
    await asyncio.sleep(4.0)  # past the outbox consumer's grace: it finds the ping sent
    assert len(live) == 1 and len(new_pings(deleted=True)) == 1, (  # on failure: both rolls and every ping
        view.turn, view.dice, after.turn, after.dice,
        [(m.id > mark, m.deleted, m.notified == [nxt.user], m.content) for m in pings(fake, w, deleted=True)])
    assert len(pings(fake, w)) == 1 and fake.faults.hits == 2  # both refusals were met
