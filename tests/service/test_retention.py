"""Retention: live and finished sessions expire, finished games shrink to compact records that read back
exactly (and still verify), and a match can be exported from its records after its session expired."""

from __future__ import annotations

import random

import pytest

from bot.service import GameService, Place, keys
from bot.service.record_codec import MAGIC, pack, unpack
from bot.storage import RedisStore
from bot.storage.base import DamagedValue
from fevga import game_from_dict, verify

from .conftest import ALICE, BOB
from .helpers import play_out, start_game

PLACE = Place("discord", "123456789012345678", "223456789012345678")


async def _finished(service: GameService) -> str:
    started = await start_game(service, ALICE, BOB, PLACE)
    last, turns = await play_out(service, started, PLACE, random.Random(11))
    assert last.view is not None and last.view.status == "done" and turns > 20
    assert last.game_id is not None
    return last.game_id


async def test_sessions_expire_and_finished_games_shrink(redis_store: RedisStore,
                                                         redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, Place("discord", "g", "ttl"))
    assert started.game_id is not None
    assert 14 * 86400 < await redis_store.client.ttl(keys.game(started.game_id)) <= keys.LIVE_TTL
    gid = await _finished(redis_service)
    assert 0 < await redis_store.client.ttl(keys.game(gid)) <= keys.FINISHED_TTL
    assert keys.FINISHED_TTL < await redis_store.client.ttl(keys.game_record(gid, 1)) <= keys.RECORD_KEEP
    raw = await redis_store.client.get(keys.game_record(gid, 1))
    assert raw.startswith(MAGIC) and len(raw) <= 600
    record = unpack(raw)
    game = game_from_dict(record["game"], replay=True)  # the record is re-judged in full
    assert game.is_over()
    dice = record["game"]["dice"]
    assert verify(dice["seed"], dice["commitment"], game.rolls())


async def test_export_after_the_session_expired(redis_store: RedisStore, redis_service: GameService) -> None:
    gid = await _finished(redis_service)
    before = await redis_service.export(ALICE, PLACE)
    await redis_store.client.delete(keys.game(gid))
    after = await redis_service.export(ALICE, PLACE)
    assert before.ok and after.ok
    assert after.messages[0].args["text"] == before.messages[0].args["text"]


def test_an_unusual_record_is_kept_as_json_and_a_damaged_one_is_refused() -> None:
    odd = {"format": "fevga-record", "v": 1, "extra": True, "game": {"turns": []}}
    assert unpack(pack(odd)) == odd
    for bad in (MAGIC + b"\x78\x9c garbage", b"\x00" * 10, MAGIC + b"x" * 100_000):
        with pytest.raises(DamagedValue):
            unpack(bad)
