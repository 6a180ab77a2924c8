"""Challenge expiry, turn reminders, deadlines and claims, with a controllable clock; exactly once."""

from __future__ import annotations

import asyncio
import random

from bot.service import GameService
from bot.storage import RedisStore, Store
from fevga import format_play

from .conftest import ALICE, BOB, HERE, FakeClock, make_service
from .helpers import random_play, start_game, until_both_moved


async def test_challenge_expires_once(service: GameService, clock: FakeClock) -> None:
    made = await service.challenge(ALICE, HERE, BOB)
    assert made.ok
    assert await service.tick() == []
    clock.advance(599)
    assert await service.tick() == []
    clock.advance(2)
    fired = await service.tick()
    assert len(fired) == 1 and fired[0].messages[0].key == "challenge_expired"
    assert fired[0].to_notify == [ALICE] and fired[0].place == HERE
    assert await service.tick() == []
    assert (await service.accept(BOB, HERE)).error_key == "no_challenge"


async def test_expired_but_not_yet_ticked_challenge_cannot_be_accepted(service: GameService, clock: FakeClock) -> None:
    await service.challenge(ALICE, HERE, BOB)
    clock.advance(601)
    assert (await service.accept(BOB, HERE)).error_key == "challenge_expired"


async def test_reminders_deadline_and_claim(service: GameService, clock: FakeClock) -> None:
    started = await until_both_moved(service, await start_game(service, ALICE, BOB, HERE), HERE, random.Random(4))
    view = started.view
    assert view is not None
    mover, waiting = view.players[view.turn], view.players[view.turn ^ 1]
    day = 86400
    clock.advance(day * 0.5 - 10)
    assert await service.tick() == []
    clock.advance(20)
    first = await service.tick()
    assert [r.messages[0].key for r in first] == ["turn_reminder"] and first[0].to_notify == [mover]
    assert first[0].messages[0].args["hours"] == 11
    clock.advance(day * 0.4)
    second = await service.tick()
    assert [r.messages[0].key for r in second] == ["turn_reminder"]
    assert await service.tick() == []
    assert (await service.claim(waiting, HERE)).error_key == "claim_too_early"
    clock.advance(day * 0.1)
    passed = await service.tick()
    assert [r.messages[0].key for r in passed] == ["deadline_passed"] and passed[0].to_notify == [waiting]
    assert any(a.kind == "claim" for a in passed[0].actions)
    assert await service.tick() == []
    claimed = await service.claim(waiting, HERE)
    assert claimed.ok and claimed.view is not None and claimed.view.status == "done"
    assert claimed.view.match_winner == view.turn ^ 1
    assert claimed.view.points == 1 and not claimed.view.mars  # a claim is a single point, never a mars
    assert (await service.claim(waiting, HERE)).error_key == "no_game_here"


async def test_a_move_resets_the_turn_timer(service: GameService, clock: FakeClock) -> None:
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    clock.advance(86400 * 0.45)
    moved = await service.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(2))))
    assert moved.ok
    clock.advance(86400 * 0.1)  # 0.55 of the first turn, 0.1 of the new one
    assert await service.tick() == []
    clock.advance(86400 * 0.41)
    fired = await service.tick()
    assert len(fired) == 1 and moved.view is not None
    assert fired[0].to_notify == [moved.view.players[moved.view.turn]]


async def test_ai_game_deadline_resigns_for_the_absent_human(service: GameService, clock: FakeClock) -> None:
    started = await service.play_ai(ALICE, HERE)
    assert started.ok
    clock.advance(86400 + 1)
    fired = await service.tick()
    assert len(fired) == 1 and fired[0].view is not None and fired[0].view.status == "done"
    assert fired[0].view.match_winner == 1


async def test_timers_fire_exactly_once_across_instances(redis_store: RedisStore, clock: FakeClock) -> None:
    instances: list[GameService] = [make_service(RedisStore.from_url(_url(redis_store)), clock) for _ in range(3)]
    for n in range(20):
        await instances[0].challenge(ALICE, HERE.__class__("discord", "g", f"c{n}"), BOB)
    for n in range(10):
        await start_game(instances[1], ALICE, BOB, HERE.__class__("discord", "g", f"game{n}"))
    clock.advance(86400 * 0.5 + 1)
    batches = await asyncio.gather(*(i.tick() for i in instances), *(i.tick() for i in instances))
    keys = sorted(r.messages[0].key for batch in batches for r in batch)
    assert keys.count("challenge_expired") == 20
    assert keys.count("turn_reminder") == 10
    assert len(keys) == 30
    assert await asyncio.gather(*(i.tick() for i in instances)) == [[], [], []]
    for i in instances:
        await i.store.close()


def _url(store: Store) -> str:
    assert isinstance(store, RedisStore)
    kwargs = store.client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/0"


async def test_each_platform_claims_only_its_own_timers(service: GameService, clock: FakeClock) -> None:
    from bot.service import Place, PlayerRef

    tg_alice, tg_bob = PlayerRef("telegram", "1", "alice"), PlayerRef("telegram", "2", "bob")
    group = Place("telegram", "-100", "-100")
    assert (await service.challenge(ALICE, HERE, BOB)).ok
    assert (await service.challenge(tg_alice, group, tg_bob)).ok
    clock.advance(601)
    telegram = await service.tick("telegram")
    assert [r.place for r in telegram] == [group]
    discord = await service.tick("discord")
    assert [r.place for r in discord] == [HERE]
    assert await service.tick() == []


async def test_a_tick_reads_every_homes_timer_sets_in_one_round_trip_each_kind(redis_store: RedisStore,
                                                                              clock: FakeClock) -> None:
    """A tick looks at 64 homes for game timers, tournaments, daily puzzles and seasons: one batch each (it was
    one round trip per home and kind, ~190 a second per instance), and a due timer still fires from it."""
    service = make_service(redis_store, clock)
    assert (await service.challenge(ALICE, HERE, BOB)).ok
    calls = {"read": 0, "due": 0}
    read, due = redis_store.read, redis_store.due

    async def counted_read(requests: object) -> object:
        calls["read"] += 1
        return await read(requests)  # type: ignore[arg-type]

    async def counted_due(key: str, now: float, limit: int) -> list[str]:
        calls["due"] += 1
        return await due(key, now, limit)

    redis_store.read = counted_read  # type: ignore[assignment,method-assign]
    redis_store.due = counted_due  # type: ignore[method-assign]
    assert await service.tick() == []
    assert calls == {"read": 5, "due": 0}  # the appliers' sweep, then game timers, tournaments, puzzles, seasons
    clock.advance(601)
    fired = await service.tick()
    assert [r.messages[0].key for r in fired] == ["challenge_expired"]
