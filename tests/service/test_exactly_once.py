"""The reply tells the truth: one update handled by several instances has one effect and one answer,
bot identities never share keys, and a commit whose answer was lost (Redis paused) is resolved."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.service import GameService, Place, PlayerRef, keys
from bot.service.keys import update_key
from bot.service.once import RECORD_TTL, decode_record, encode_record
from bot.storage import LocalRedis, MemoryStore, RedisStore
from bot.storage.base import Commit, CommitOutcomeUnknown
from fevga import format_play

from .conftest import ALICE, BOB, CAROL, HERE, FakeClock, make_service
from .helpers import random_play, start_game


@pytest.fixture
async def three(redis_server: LocalRedis, clock: FakeClock) -> AsyncIterator[list[GameService]]:
    """Three service instances, each with its own connection pool, on one Redis."""
    stores = [RedisStore.from_url(redis_server.url) for _ in range(3)]
    await stores[0].client.flushall()
    yield [make_service(store, clock) for store in stores]
    for store in stores:
        await store.close()


def _same(results: list[Any]) -> None:
    dicts = [r.to_dict() for r in results]
    assert all(d == dicts[0] for d in dicts), dicts


async def _games(store: RedisStore) -> list[bytes]:
    """Keys of game sessions (``fevga:{h:<home>}:g:<id>``, not their records, boards, ...)."""
    return [k for k in await store.client.keys("fevga:{h:*}:g:*") if k.count(b":") == 4]


async def test_one_update_on_three_instances_challenges_once(three: list[GameService]) -> None:
    key = update_key("111", "u", 42)
    results = await asyncio.gather(*(s.challenge(ALICE, HERE, BOB, idem=key) for s in three))
    assert all(r.ok for r in results)
    _same(list(results))
    store = three[0].store
    assert isinstance(store, RedisStore)
    assert len(await store.client.hgetall(keys.channel_challenges(HERE))) == 1
    again = await three[1].challenge(ALICE, HERE, BOB, idem=key)  # later, from any instance: the first answer
    _same([results[0], again])


async def test_one_update_on_three_instances_accepts_once(three: list[GameService]) -> None:
    assert (await three[0].challenge(ALICE, HERE, BOB)).ok
    key = update_key("111", "u", 43)
    results = await asyncio.gather(*(s.accept(BOB, HERE, idem=key) for s in three))
    assert all(r.ok for r in results), [r.messages for r in results]
    _same(list(results))
    store = three[0].store
    assert isinstance(store, RedisStore)
    assert len(await _games(store)) == 1
    _same([results[0], await three[2].accept(BOB, HERE, idem=key)])


async def test_one_update_on_three_instances_plays_ai_once(three: list[GameService]) -> None:
    key = update_key("111", "u", 44)
    results = await asyncio.gather(*(s.play_ai(ALICE, HERE, "easy", idem=key) for s in three))
    assert all(r.ok for r in results), [r.messages for r in results]
    _same(list(results))
    store = three[0].store
    assert isinstance(store, RedisStore)
    assert len(await _games(store)) == 1


async def test_one_update_on_three_instances_moves_once(three: list[GameService]) -> None:
    started = await start_game(three[0], ALICE, BOB, HERE)
    assert started.view is not None
    view = started.view
    text = format_play(random_play(view, random.Random(5)))
    key = update_key("111", "u", 45)
    who = view.players[view.turn]
    results = await asyncio.gather(*(s.move(who, HERE, text, idem=key) for s in three))
    assert all(r.ok for r in results), [r.messages for r in results]
    _same(list(results))
    assert results[0].view is not None and results[0].view.version == view.version + 1
    board = await three[1].board(ALICE, HERE)
    assert board.view is not None and board.view.version == view.version + 1  # applied exactly once


async def test_two_bots_with_equal_update_ids_do_not_cross_talk(redis_service: GameService) -> None:
    staging, production = update_key("111", "u", 7), update_key("222", "u", 7)
    alice = await redis_service.challenge(ALICE, HERE, BOB, idem=staging)
    carol_place = Place("discord", "private:9", "dm9")
    carol = await redis_service.play_ai(CAROL, carol_place, "easy", idem=production)
    assert alice.ok and carol.ok
    assert carol.view is not None and carol.view.players[0].same(CAROL)
    assert all(m.key != "challenge_sent" for m in carol.messages)


def test_idempotency_records_are_compact_and_short_lived() -> None:
    assert RECORD_TTL <= 15 * 60
    from bot.service import Msg, Result
    result = Result(ok=True, messages=[Msg("played", {"player": "alice", "dice": "6-5", "play": "1/7 7/12"})],
                    to_notify=[BOB], game_id="abcdefgh")
    raw = encode_record(result)
    assert len(raw) <= 120
    rec = decode_record(raw)
    assert rec.game_id == "abcdefgh" and rec.messages == result.messages and rec.notify == [BOB]


class StallingStore(RedisStore):
    """Pauses its redis-server (SIGSTOP) just as the next commit is sent, and resumes it a bit later."""

    pid: int = 0
    stall_next = False

    async def commit(self, commit: Commit) -> bool:
        if self.stall_next:
            self.stall_next = False
            os.kill(self.pid, signal.SIGSTOP)
            asyncio.get_running_loop().call_later(1.2, os.kill, self.pid, signal.SIGCONT)
        return await super().commit(commit)


@pytest.mark.timeout(60)
async def test_a_move_saved_while_redis_was_paused_is_reported_as_played(fresh_redis: LocalRedis,
                                                                         clock: FakeClock) -> None:
    store = StallingStore.from_url(fresh_redis.url, socket_timeout=0.4)
    assert isinstance(store, StallingStore) and fresh_redis.server_pid is not None
    store.pid = fresh_redis.server_pid
    try:
        service = make_service(store, clock)
        started = await start_game(service, ALICE, BOB, HERE)
        assert started.view is not None
        view = started.view
        text = format_play(random_play(view, random.Random(2)))
        who: PlayerRef = view.players[view.turn]
        store.stall_next = True
        result = await service.move(who, HERE, text, idem="tg:1:u:9")
        stored = await store.client.get(keys.game(view.game_id))
        version = int(stored.split(b":", 1)[0])
        assert result.ok, result.messages  # the commit reached Redis: the user is told it was played
        assert version == view.version + 1
        assert result.view is not None and result.view.version == version
        assert result.error_key is None
        again = await service.move(who, HERE, text, idem="tg:1:u:9")
        assert again.to_dict() == result.to_dict()
    finally:
        if fresh_redis.server_pid is not None:
            os.kill(fresh_redis.server_pid, signal.SIGCONT)
        await store.close()


class LosingStore(MemoryStore):
    """Loses the answer of the next commit: ``apply`` decides whether it was applied before the loss."""

    lose_next = False
    apply = True

    async def commit(self, commit: Commit) -> bool:
        if self.lose_next:
            self.lose_next = False
            if self.apply:
                await super().commit(commit)
            raise CommitOutcomeUnknown("answer lost")
        return await super().commit(commit)


@pytest.mark.parametrize("applied", [True, False])
async def test_a_lost_answer_is_resolved_truthfully(clock: FakeClock, applied: bool) -> None:
    store = LosingStore(clock)
    service = make_service(store, clock)
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    view = started.view
    text = format_play(random_play(view, random.Random(6)))
    who = view.players[view.turn]
    store.lose_next, store.apply = True, applied
    answer = await service.move(who, HERE, text, idem="tg:1:u:77")
    board = await service.board(ALICE, HERE)
    assert board.view is not None
    if applied:
        assert answer.ok and board.view.version == view.version + 1
    else:
        assert answer.error_key == "not_applied" and board.view.version == view.version
    again = await service.move(who, HERE, text, idem="tg:1:u:77")  # the same update again: the same answer
    assert again.to_dict() == answer.to_dict()
    now = board.view
    store.lose_next, store.apply = True, False  # no platform key: a private one still resolves it
    no_key = await service.move(now.players[now.turn], HERE, format_play(random_play(now, random.Random(1))))
    assert no_key.error_key == "not_applied"
    after = await service.board(ALICE, HERE)
    assert after.view is not None and after.view.version == now.version
