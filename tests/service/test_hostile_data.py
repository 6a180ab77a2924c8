"""Corrupt or hostile stored values: a clear message, other users unaffected, and a way out."""

from __future__ import annotations

import json
import random
import time
import zlib

from bot.service import GameService, keys
from bot.service.damaged import archive_key
from bot.storage import RedisStore
from fevga import format_play

from .conftest import ALICE, BOB, CAROL, HERE, THERE, FakeClock, make_service
from .helpers import play_out, random_play, start_game

DAVE = CAROL.__class__("discord", "400", "dave")


def _bomb() -> bytes:
    """About 1 MB of zlib that inflates to 1 GiB."""
    packer = zlib.compressobj(9)
    chunk = b"\0" * (1 << 20)
    return b"".join(packer.compress(chunk) for _ in range(1024)) + packer.flush()


async def _other_game_still_moves(service: GameService) -> None:
    started = await start_game(service, CAROL, DAVE, THERE)
    assert started.view is not None
    view = started.view
    began = time.perf_counter()
    moved = await service.move(view.players[view.turn], THERE, format_play(random_play(view, random.Random(1))))
    assert moved.ok, moved.messages
    assert time.perf_counter() - began < 0.2


async def _channel_usable(service: GameService) -> None:
    again = await service.challenge(ALICE, HERE, BOB)
    assert again.ok, again.messages
    assert (await service.accept(BOB, HERE)).ok


async def test_a_zlib_bomb_in_a_game_is_refused_fast_and_abort_frees_the_channel(
        redis_store: RedisStore, redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.game_id is not None
    await redis_store.client.set(keys.game(started.game_id), b"5:" + _bomb())
    began = time.perf_counter()
    moved = await redis_service.move(ALICE, HERE, "1/7 7/12")
    assert time.perf_counter() - began < 0.5
    assert moved.error_key == "corrupt_game" and moved.messages[0].args["game_id"] == started.game_id
    await _other_game_still_moves(redis_service)
    aborted = await redis_service.abort(BOB, HERE)
    assert aborted.ok and aborted.messages[0].key == "game_archived"
    assert await redis_store.client.ttl(archive_key(started.game_id)) > 0
    await _channel_usable(redis_service)


async def test_garbage_in_a_game_does_not_block_challenge(redis_store: RedisStore,
                                                          redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.game_id is not None
    await redis_store.client.set(keys.game(started.game_id), b"\xff\xfe garbage")
    assert (await redis_service.resign(ALICE, HERE)).error_key == "corrupt_game"
    await _channel_usable(redis_service)


async def test_a_wrong_typed_game_key_says_damaged_and_can_be_aborted(redis_store: RedisStore,
                                                                      redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.game_id is not None
    await redis_store.client.delete(keys.game(started.game_id))
    await redis_store.client.hset(keys.game(started.game_id), "x", "y")
    moved = await redis_service.move(ALICE, HERE, "1/7 7/12")
    assert moved.error_key == "store_damaged"
    assert (await redis_service.abort(ALICE, HERE)).ok
    await _channel_usable(redis_service)


async def test_a_wrong_typed_timer_set_does_not_break_moves(redis_store: RedisStore,
                                                            redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.view is not None
    for timers in keys.ALL_TIMERS:
        await redis_store.client.delete(timers)
        await redis_store.client.set(timers, b"not a zset")
    view = started.view
    moved = await redis_service.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(4))))
    assert moved.ok, moved.messages
    assert await redis_service.tick() == []  # timers cannot fire from a damaged set, and tick says so in the log


async def test_a_bad_place_setting_falls_back_to_the_default(redis_store: RedisStore,
                                                             redis_service: GameService) -> None:
    await redis_store.client.hset(keys.place_settings(HERE), mapping={"deadline_hours": "soon", "unlock_point": "x"})
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.ok and started.view is not None
    assert started.view.deadline is not None


async def test_a_corrupt_rating_document_never_blocks_a_match_end(redis_store: RedisStore,
                                                                  redis_service: GameService) -> None:
    scope = keys.board_scope("discord", HERE.scope_id)
    await redis_store.client.set(keys.player_stats(scope, ALICE.user_id), b"7:{not json")
    await redis_store.client.hset(keys.player_stats(keys.board_scope("discord", None), BOB.user_id), "x", "y")
    started = await start_game(redis_service, ALICE, BOB, HERE)
    last, _ = await play_out(redis_service, started, HERE, random.Random(8))
    assert last.ok and last.view is not None and last.view.status == "done"
    stats = await redis_service.stats(ALICE, HERE)
    assert stats.ok and stats.messages[0].key == "stats"
    assert stats.messages[0].args["games"] == 1  # reset, then this match counted


async def test_an_absurd_game_number_is_refused_quickly(redis_store: RedisStore,
                                                        redis_service: GameService) -> None:
    started = await start_game(redis_service, ALICE, BOB, HERE)
    assert started.game_id is not None
    raw = await redis_store.client.get(keys.game(started.game_id))
    version, blob = raw.split(b":", 1)
    data = json.loads(zlib.decompress(blob))
    data["gn"] = 10**6
    await redis_store.client.set(keys.game(started.game_id),
                                 b"%d:" % (int(version) + 1) + zlib.compress(json.dumps(data).encode()))
    began = time.perf_counter()
    exported = await redis_service.export(ALICE, HERE)
    assert time.perf_counter() - began < 0.5
    assert exported.error_key == "corrupt_game"


async def test_a_damaged_idempotency_record_is_answered_as_damaged(redis_store: RedisStore,
                                                                   redis_service: GameService) -> None:
    await start_game(redis_service, ALICE, BOB, HERE)
    await redis_store.client.set(keys.idem("discord", "k1", HERE), b"z" + b"\x00" * 50)
    assert (await redis_service.move(ALICE, HERE, "1/7 7/12", idem="k1")).error_key == "store_damaged"


async def test_stale_buttons_of_an_old_game_are_out_of_date(redis_store: RedisStore, clock: FakeClock) -> None:
    service = make_service(redis_store, clock)
    old = await start_game(service, ALICE, BOB, HERE)
    assert old.game_id is not None
    assert (await service.abort(ALICE, HERE)).ok
    new = await start_game(service, ALICE, BOB, HERE)
    assert new.game_id != old.game_id
    for pressed in (service.abort(ALICE, HERE, game_id=old.game_id), service.claim(BOB, HERE, game_id=old.game_id),
                    service.hint(ALICE, HERE, game_id=old.game_id)):
        assert (await pressed).error_key == "button_stale"
    assert (await service.board(ALICE, HERE)).view.status == "play"  # type: ignore[union-attr]
    assert (await service.abort(ALICE, HERE)).ok
    assert (await service.rematch(ALICE, HERE, game_id=old.game_id)).error_key == "button_stale"
    assert (await service.rematch(ALICE, HERE, game_id=new.game_id)).ok


async def test_a_wrong_typed_leaderboard_or_player_settings_never_blocks_a_game(
        redis_store: RedisStore, redis_service: GameService) -> None:
    await redis_store.client.set(keys.ratings(keys.board_scope("discord", HERE.scope_id)), b"not a zset")
    await redis_store.client.set(keys.player_settings("discord", BOB.user_id), b"not a hash")
    started = await start_game(redis_service, ALICE, BOB, HERE)
    last, _ = await play_out(redis_service, started, HERE, random.Random(9))
    assert last.ok and last.view is not None and last.view.status == "done"
    assert (await redis_service.stats(ALICE, HERE)).error_key == "store_damaged"  # said plainly, not "unreachable"
    raw = await redis_store.client.get(keys.player_stats(keys.board_scope("discord", None), ALICE.user_id))
    assert raw is not None  # the rating documents were still written
