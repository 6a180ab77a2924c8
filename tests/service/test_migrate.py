"""Keys of the layout before homes (``fevga:{g:<id>}``, one ``fevga:{t}:due``) are moved once at start-up and
the games go on: the index finds the game, moves commit, the timer fires."""

from __future__ import annotations

import random

from bot.service import GameService, keys
from bot.service.migrate import OLD_TIMERS, migrate_to_homes, new_name
from bot.storage import RedisStore
from fevga import format_play

from .conftest import ALICE, BOB, HERE, FakeClock
from .helpers import random_play, start_game


def test_new_names_of_old_keys() -> None:
    assert new_name("fevga:{g:Abc123}") == keys.game("Abc123")
    assert new_name("fevga:{g:Abc123}:rec:2") == keys.game_record("Abc123", 2)
    assert new_name("fevga:{c:Zz}") == keys.challenge("Zz")
    assert new_name("fevga:{ch:discord:chan1}:play") == keys.channel_games(HERE)
    assert new_name("fevga:{r:discord:*}:z") is None and new_name("fevga:ev:g:x") is None


async def test_old_layout_is_moved_and_games_go_on(redis_store: RedisStore, redis_service: GameService,
                                                   clock: FakeClock) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.view is not None
    gid = started.view.game_id
    member = keys.timer("g", gid, HERE.platform)
    client = redis_store.client
    # put the game back into the old layout
    old = {keys.game(gid): f"fevga:{{g:{gid}}}", keys.channel_games(HERE): "fevga:{ch:discord:chan1}:play"}
    for new, before in old.items():
        await client.rename(new, before)
    score = await client.zscore(keys.timers(member), member)
    await client.zrem(keys.timers(member), member)
    await client.zadd(OLD_TIMERS, {member: score})
    redis_service.sessions._cache.clear()

    assert await migrate_to_homes(client) == 3
    assert await migrate_to_homes(client) == 0  # once
    assert not await client.exists(*old.values(), OLD_TIMERS)
    view = started.view
    moved = await redis_service.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(2))))
    assert moved.ok, moved.messages
    clock.advance(13 * 3600)
    assert [r.game_id for r in await redis_service.tick()] == [gid]  # the reminder, from the home's timer set
