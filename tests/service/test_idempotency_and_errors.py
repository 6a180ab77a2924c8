"""Retried commands (same idempotency key) return the first result and change nothing; corrupt stored
data gives a clear error for that game only; events reach other instances."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from bot.service import GameService, keys
from bot.service.models import Result
from bot.storage import RedisStore
from bot.storage.base import Commit, versioned
from fevga import format_play

from .conftest import ALICE, BOB, CAROL, HERE, THERE, FakeClock, make_service
from .helpers import random_play, start_game


async def test_retried_move_returns_the_first_result(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    text = format_play(random_play(view, random.Random(3)))
    first = await service.move(mover, HERE, text, idem="upd-1")
    again = await service.move(mover, HERE, text, idem="upd-1")
    assert first.ok and again == first
    board = await service.board(mover, HERE)
    assert board.view is not None and first.view is not None
    assert board.view.version == first.view.version == view.version + 1


async def test_retried_challenge_and_accept_make_one_game(service: GameService) -> None:
    a = await service.challenge(ALICE, HERE, BOB, idem="i-1")
    b = await service.challenge(ALICE, HERE, BOB, idem="i-1")
    assert a == b
    accepted = await service.accept(BOB, HERE, idem="i-2")
    again = await service.accept(BOB, HERE, idem="i-2")
    assert accepted.ok and again == accepted
    # only one challenge existed: nothing is left to accept, and a single game runs
    assert (await service.accept(BOB, HERE)).error_key == "no_challenge"
    assert (await service.board(ALICE, HERE)).game_id == accepted.game_id


async def test_idempotency_keys_are_per_platform_and_command(service: GameService) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    mover = view.players[view.turn]
    first = await service.move(mover, HERE, format_play(random_play(view, random.Random(3))), idem="k")
    assert first.ok
    other = await service.challenge(CAROL, THERE, None, idem="k2")
    assert other.ok and other.messages[0].key == "challenge_open"


async def test_result_round_trips_through_json() -> None:
    result = Result.error("bad_point", point=30)
    assert Result.from_dict(result.to_dict()) == result


async def test_corrupt_game_is_reported_and_others_keep_working(redis_store: RedisStore, clock: FakeClock) -> None:
    service = make_service(redis_store, clock)
    broken = await start_game(service, ALICE, BOB, HERE)
    fine = await start_game(service, ALICE, BOB, THERE)
    assert broken.game_id and fine.game_id
    for garbage in (b"not versioned", versioned(5, b"\x00\x01garbage"), versioned(5, b"")):
        await redis_store.client.set(keys.game(broken.game_id), garbage)
        for result in (await service.board(ALICE, HERE), await service.move(ALICE, HERE, "1/2"),
                       await service.resign(BOB, HERE), await service.export(ALICE, HERE)):
            assert not result.ok and result.error_key == "corrupt_game"
            assert result.messages[0].args["game_id"] == broken.game_id
    clock.advance(86400)
    await service.tick()  # a timer on a corrupt game is logged, not raised
    assert (await service.board(ALICE, THERE)).ok
    view = fine.view
    assert view is not None
    moved = await service.move(view.players[view.turn], THERE, format_play(random_play(view, random.Random(1))))
    assert moved.ok


async def test_events_reach_another_instance(redis_store: RedisStore, clock: FakeClock) -> None:
    url = _url(redis_store)
    listener = make_service(RedisStore.from_url(url), clock)
    actor = make_service(RedisStore.from_url(url), clock)
    stream = await listener.subscribe_events(HERE)
    started = await start_game(actor, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    game_stream = await listener.subscribe_events(view.game_id)
    moved = await actor.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(2))))
    assert moved.ok and moved.view is not None
    kinds = [await asyncio.wait_for(anext(stream), 5) for _ in range(3)]
    assert [e["kind"] for e in kinds] == ["challenge", "start", "move"]
    assert kinds[2]["game_id"] == view.game_id and kinds[2]["version"] == moved.view.version
    assert kinds[2]["channel_id"] == HERE.channel_id
    event = await asyncio.wait_for(anext(game_stream), 5)
    assert event["kind"] == "move" and event["version"] == moved.view.version
    await stream.aclose()  # type: ignore[attr-defined]
    await game_stream.aclose()  # type: ignore[attr-defined]
    await listener.store.close()
    await actor.store.close()


async def test_events_on_the_memory_store(clock: FakeClock) -> None:
    from bot.storage import MemoryStore

    service = make_service(MemoryStore(clock), clock)
    stream = await service.subscribe_events(HERE)
    await start_game(service, ALICE, BOB, HERE)
    got = [await asyncio.wait_for(anext(stream), 1) for _ in range(2)]
    assert [e["kind"] for e in got] == ["challenge", "start"]


def _url(store: RedisStore) -> str:
    kwargs = store.client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/0"


async def test_corrupt_challenge_is_reported(redis_store: RedisStore, clock: FakeClock) -> None:
    service = make_service(redis_store, clock)
    made = await service.challenge(ALICE, HERE, BOB)
    cid = made.actions[0].payload["challenge_id"]
    await redis_store.client.set(keys.challenge(cid), versioned(1, b'{"id": 3}'))
    assert (await service.accept(BOB, HERE)).error_key == "corrupt_challenge"
    assert (await service.decline(BOB, HERE)).error_key == "corrupt_challenge"


async def test_store_down_gives_a_result_not_an_exception(fresh_redis, clock: FakeClock) -> None:
    store = RedisStore.from_url(fresh_redis.url)
    service = make_service(store, clock)
    assert (await service.challenge(ALICE, HERE, BOB)).ok
    fresh_redis.stop()
    down = await service.accept(BOB, HERE)
    assert not down.ok and down.error_key == "store_unavailable"
    fresh_redis.start()
    assert (await service.accept(BOB, HERE)).ok
    await store.close()


async def test_events_async_iterator(clock: FakeClock) -> None:
    from bot.storage import MemoryStore

    service = make_service(MemoryStore(clock), clock)
    seen: list[dict[str, object]] = []

    async def listen() -> None:
        async for event in service.events(HERE):
            seen.append(event)
            if len(seen) == 2:
                return

    task = asyncio.create_task(listen())
    await asyncio.sleep(0)
    await start_game(service, ALICE, BOB, HERE)
    await asyncio.wait_for(task, 2)
    assert [e["kind"] for e in seen] == ["challenge", "start"]


class CountingStore(RedisStore):
    """Counts round trips: one per read pipeline, one per commit."""

    trips = 0

    async def read(self, requests: Sequence[Any]) -> list[Any]:
        self.trips += 1
        return await super().read(requests)

    async def commit(self, commit: Commit) -> bool:
        self.trips += 1
        return await super().commit(commit)


async def test_a_move_takes_two_round_trips(redis_store: RedisStore, clock: FakeClock) -> None:
    store = CountingStore(redis_store.client)
    one, two = make_service(store, clock), make_service(store, clock)
    started = await start_game(one, ALICE, BOB, HERE)
    rng = random.Random(4)
    result = started
    for n in range(8):
        view = result.view
        assert view is not None
        service = (one, two)[n % 2]  # alternate instances: no local shortcut helps
        before = store.trips
        kwargs = {"game_id": view.game_id} if n % 3 else {}
        result = await service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)),
                                    idem=f"u{n}", **kwargs)  # type: ignore[arg-type]
        assert result.ok
        assert store.trips - before == 2
        if result.view is not None and result.view.status != "play":
            break


async def test_unexpected_errors_become_a_result(service: GameService, monkeypatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("fevga.game.Game.play", broken)
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    result = await service.move(started.view.players[started.view.turn], HERE, "1/7")
    assert not result.ok and result.error_key == "error"


async def test_platform_wide_events(service: GameService) -> None:
    stream = await service.subscribe_events("", platform="discord")
    await start_game(service, ALICE, BOB, HERE)
    await start_game(service, ALICE, BOB, THERE)
    got = [await asyncio.wait_for(anext(stream), 5) for _ in range(4)]
    assert [(e["channel_id"], e["kind"]) for e in got] == [
        (HERE.channel_id, "challenge"), (HERE.channel_id, "start"),
        (THERE.channel_id, "challenge"), (THERE.channel_id, "start")]
    await stream.aclose()  # type: ignore[attr-defined]


async def test_view_of_and_platform_events_iterator(service: GameService) -> None:
    seen: list[dict[str, object]] = []

    async def listen() -> None:
        async for event in service.platform_events("discord"):
            seen.append(event)
            if len(seen) == 2:
                return

    task = asyncio.create_task(listen())
    for _ in range(20):  # let the listener subscribe
        await asyncio.sleep(0.01)
    started = await start_game(service, ALICE, BOB, HERE)
    await asyncio.wait_for(task, 5)
    assert [e["kind"] for e in seen] == ["challenge", "start"]
    assert started.game_id is not None
    view = await service.view_of(started.game_id)
    assert view.ok and view.view == started.view and view.place == HERE
    assert (await service.view_of("nosuchid")).error_key == "no_game"
