"""The board stays in sight on Discord: each game gets its own thread (started from the board message) where
pings go and moves may be typed; with threads off (or refused), a board buried under newer messages is
posted again at the bottom, the old message says so and the tracker follows the new one. A refused thread
is not asked for again on every ping: only after an hour, or once the server's settings changed."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from bot.discord.threads import BURIED_AFTER, REFUSAL_SECONDS
from bot.service import Place, keys
from tests.fakes.discord import FakeDiscord, StoredMessage

from .conftest import World
from .playing import legal_play_texts, place_ref, player_ref, take_turn_by_slash
from .test_group_pings import pings

pytestmark = pytest.mark.timeout(120)


async def start(fake: FakeDiscord, w: World, game: str | None = None) -> StoredMessage:
    options = {"user": w.bob, **({"game": game} if game else {})}
    await (await fake.slash_command(w.alice, w.general, "fevga challenge", options)).original()
    return await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()


async def mover(core: Any, w: World) -> Any:
    view = (await core.service.board(player_ref(w.alice), place_ref(w.general))).view
    return {str(m.id): m for m in (w.alice, w.bob)}[view.players[view.turn].user_id]


async def test_each_game_gets_a_thread_where_it_is_pinged_and_played(fake: FakeDiscord, bot: Any, world: World,
                                                                     core: Any) -> None:
    w = world
    board = await start(fake, w)
    thread = await fake.wait_for(lambda: fake.channels.get(board.id), 10, "the game's thread")
    assert thread.is_thread and thread.parent_id == w.general.id and thread.name.startswith("Fevga alice")
    ping = await fake.wait_for_message(thread, lambda m: bool(m.mentions), timeout=10)
    assert ping.notified == [(await mover(core, w)).user]
    edits = board.edits
    for _ in range(3):  # typed in the thread: the game of the channel
        member = await mover(core, w)
        plays = await legal_play_texts(core, member, w.general)
        handle = await fake.slash_command(member, thread, "fevga move", {"play": plays[0]})
        assert not (await handle.response()).ephemeral, (await handle.original()).content
    shown = f"v{(await core.service.board(player_ref(w.alice), place_ref(w.general))).view.version}'"  # footer end
    # the board in the channel shows the last move (boards of versions overtaken by a newer one may be skipped)
    await fake.wait_for(lambda: (board.edits > edits and shown in str(board.embeds)) or None, 10,
                        "the board in the channel edited")
    assert board.channel_id == w.general.id
    # the last turn's ping (its predecessor deleted) may come just after the board's edit
    await fake.wait_for(lambda: pings(fake, w) or None, 10, "the ping of the turn now")
    assert [m.channel_id for m in pings(fake, w)] == [thread.id]  # the channel itself stays quiet
    assert not [m for m in fake.messages(w.general) if m.id > board.id and m.author.id == fake.bot_user.id]
    assert not fake.failed_calls()


async def test_a_buried_board_is_posted_again_without_threads(fake: FakeDiscord, bot: Any, world: World,
                                                              core: Any) -> None:
    w = world
    off = {"name": "threads", "value": "off"}
    await (await fake.slash_command(w.alice, w.general, "fevga settings", off)).original()
    board = await start(fake, w)
    await fake.wait_for(lambda: pings(fake, w) or None, 10, "the first ping")
    assert board.id not in fake.channels  # no thread
    for n in range(BURIED_AFTER):
        await fake.send_message(w.carol, w.general, f"chatter {n}")
    assert await take_turn_by_slash(core, fake, w.general, await mover(core, w))
    fresh = await fake.wait_for(
        lambda: [m for m in fake.messages(w.general) if m.id > board.id and m.attachments], 10, "the board again")
    (new_board,) = fresh
    await fake.wait_for(lambda: "moved below" in board.content or None, 10, "the old board to say it moved")
    assert not board.attachments and not board.components and not board.embeds
    game_id = str(new_board.embeds[0]["footer"]["text"]).split(" · ")[0]
    assert await core.board_message(game_id) == f"{w.general.id}:{new_board.id}"  # the tracker follows it
    live = await fake.wait_for(lambda: pings(fake, w) or None, 10, "the ping")
    assert str(new_board.id) in live[-1].content  # the ping links to the new board
    edits = new_board.edits
    assert await take_turn_by_slash(core, fake, w.general, await mover(core, w))
    await fake.wait_for(lambda: new_board.edits > edits or None, 10, "the new board edited")


async def test_a_refused_thread_falls_back_to_the_channel(fake: FakeDiscord, bot: Any, world: World,
                                                          core: Any) -> None:
    w = world
    fake.faults.add("POST", r"/messages/\d+/threads$", times=1000, status=403)
    board = await start(fake, w)
    ping = await fake.wait_for_message(w.general, lambda m: bool(m.mentions) and m.id > board.id, timeout=10)
    assert ping.notified == [(await mover(core, w)).user] and board.id not in fake.channels


async def test_a_refused_thread_is_not_asked_for_on_every_ping(fake: FakeDiscord, bot: Any, world: World,
                                                               core: Any, redis_url: str) -> None:
    w = world
    fake.faults.add("POST", r"/messages/\d+/threads$", times=1000, status=403)
    board = await start(fake, w)
    await fake.wait_for(lambda: pings(fake, w) or None, 10, "the first ping")
    assert fake.faults.hits == 1
    for sent in range(2, 5):
        assert await take_turn_by_slash(core, fake, w.general, await mover(core, w))
        await fake.wait_for(lambda n=sent: len(pings(fake, w, deleted=True)) >= n or None, 10, "the next ping")
    assert fake.faults.hits == 1 and board.id not in fake.channels  # asked once, the pings stay in the channel
    key = keys.thread_refused(Place("discord", str(w.guild.id), str(w.general.id)))
    client = redis.Redis.from_url(redis_url)
    assert 0 < client.ttl(key) <= REFUSAL_SECONDS  # asked again after an hour
    client.close()

    fake.faults.clear()  # the admin grants the permission and changes a setting: asked again at once
    changed = await fake.slash_command(w.alice, w.general, "fevga settings", {"name": "threads", "value": "on"})
    assert not (await changed.response()).ephemeral
    assert await take_turn_by_slash(core, fake, w.general, await mover(core, w))
    thread = await fake.wait_for(lambda: fake.channels.get(board.id), 10, "the game's thread")
    assert thread.is_thread and thread.parent_id == w.general.id
    await fake.wait_for_message(thread, lambda m: bool(m.mentions), timeout=10)
    assert [c.status for c in fake.failed_calls()] == [403]  # the one refusal, nothing else


async def test_a_portes_games_thread_is_named_after_portes(fake: FakeDiscord, bot: Any, world: World) -> None:
    """A thread's name says the match's game (it said "Fevga" for every game)."""
    board = await start(fake, world, "portes")
    thread = await fake.wait_for(lambda: fake.channels.get(board.id), 10, "the game's thread")
    assert thread.name.startswith("Portes alice – bob"), thread.name
