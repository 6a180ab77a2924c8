"""Three service instances racing 1,000+ conflicting commands on 50 games (exactly once, state valid
after), and a Redis restart with AOF that keeps every game intact."""

from __future__ import annotations

import asyncio
import random

from bot.service import GameService, GameView, Place, keys
from bot.service.session import decode
from bot.storage import LocalRedis, RedisStore
from bot.storage.base import split_versioned
from fevga import format_play, game_from_dict, game_to_dict, legal_plays

from .conftest import ALICE, BOB, FakeClock, make_service
from .helpers import mover_position, start_game

GAMES = 50
INSTANCES = 3
ROUNDS = 7


async def test_racing_instances_play_each_turn_exactly_once(redis_server: LocalRedis, clock: FakeClock) -> None:
    setup = RedisStore.from_url(redis_server.url)
    await setup.client.flushall()
    instances: list[GameService] = [make_service(RedisStore.from_url(redis_server.url), clock)
                                    for _ in range(INSTANCES)]
    places = [Place("discord", "race", f"ch{n}") for n in range(GAMES)]
    views = {}
    for n, place in enumerate(places):
        started = await start_game(instances[n % INSTANCES], ALICE, BOB, place)
        assert started.view is not None
        views[n] = started.view
    successes = [0] * GAMES
    losers: dict[str, int] = {}
    commands = 0
    rng = random.Random(12)
    for _ in range(ROUNDS):
        calls = []
        meta = []
        for n, place in enumerate(places):
            view = views[n]
            assert view.dice is not None
            plays = legal_plays(mover_position(view), view.dice)
            mover = view.players[view.turn]
            for k, service in enumerate(instances):
                play = plays[(k + rng.randrange(len(plays))) % len(plays)]  # different plays: they conflict
                calls.append(service.move(mover, place, format_play(play), game_id=view.game_id,
                                          version=view.version))
                meta.append(n)
        commands += len(calls)
        results = await asyncio.gather(*calls)
        for n, result in zip(meta, results, strict=True):
            if result.ok:
                successes[n] += 1
                assert result.view is not None
                views[n] = result.view
            else:
                losers[result.error_key or ""] = losers.get(result.error_key or "", 0) + 1
    assert commands >= 1000
    assert successes == [ROUNDS] * GAMES  # exactly one winner per game and turn
    assert set(losers) == {"turn_already_played"} and sum(losers.values()) == commands - GAMES * ROUNDS
    for n in range(GAMES):
        raw = await setup.client.get(keys.game(views[n].game_id))
        assert isinstance(raw, bytes)
        version, blob = split_versioned(raw)
        assert version == views[n].version
        session = decode(blob)
        played = [r for r in session.game.history if not r.is_pass]
        assert len(played) == ROUNDS
        # the full record re-judged play by play gives the same position
        replayed = game_from_dict(game_to_dict(session.game, reveal_seed=True), replay=True)
        assert replayed.position == session.game.position and replayed.turn == session.game.turn
    for service in instances:
        await service.store.close()
    await setup.close()


async def test_games_survive_a_redis_restart(fresh_redis: LocalRedis, clock: FakeClock) -> None:
    store = RedisStore.from_url(fresh_redis.url)
    service = make_service(store, clock)
    rng = random.Random(8)
    before: dict[Place, GameView | None] = {}
    for n in range(12):
        place = Place("telegram", f"group{n}", f"group{n}")
        result = await start_game(service, ALICE, BOB, place, length=3)
        for _ in range(rng.randrange(0, 15)):
            view = result.view
            assert view is not None and view.dice is not None
            play = rng.choice(legal_plays(mover_position(view), view.dice))
            result = await service.move(view.players[view.turn], place, format_play(play))
            assert result.ok
        before[place] = result.view
    await service.challenge(ALICE, Place("telegram", "g", "open"), None)
    await store.close()
    fresh_redis.stop()
    fresh_redis.start()
    store = RedisStore.from_url(fresh_redis.url)
    service = make_service(store, clock)
    for place, view in before.items():
        assert view is not None
        again = await service.board(ALICE, place)
        assert again.ok and again.view == view
        assert view.dice is not None
        play = legal_plays(mover_position(view), view.dice)[0]
        moved = await service.move(view.players[view.turn], place, format_play(play))
        assert moved.ok, moved.messages
    assert (await service.accept(BOB, Place("telegram", "g", "open"))).ok
    await store.close()
