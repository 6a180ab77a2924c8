"""The service on a real Redis Cluster: a move no replica confirmed in time says so, and the end of a match
is a saga (the game commits first, its ratings follow once, even when the writer dies in between)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.service import GameService, keys
from bot.storage import ClusterStore
from bot.storage.spill import PENDING_PATTERN, Spill
from fevga import format_play
from tests.redis_cluster import LocalCluster

from .conftest import ALICE, BOB, HERE, FakeClock, make_service
from .helpers import random_play, start_game


class DiesAfterGameCommit(ClusterStore):
    """An instance that, once ``armed``, dies right after a commit's home part: its spilled writes are never
    applied (fault injection at the one point the saga must survive)."""

    armed = False

    async def finish_spill(self, spill: Spill) -> None:
        if not self.armed:
            await super().finish_spill(spill)


@pytest.fixture
async def cluster_store(redis_cluster: LocalCluster) -> AsyncIterator[ClusterStore]:
    redis_cluster.flushall()
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=300)
    yield store
    await store.close()


async def test_unconfirmed_move_is_saved_but_may_be_delayed(redis_cluster: LocalCluster, cluster_store: ClusterStore,
                                                            clock: FakeClock) -> None:
    service = make_service(cluster_store, clock)
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None and all(m.key != "saved_delayed" for m in started.messages)
    master = redis_cluster.master_of_key(keys.game(started.view.game_id))
    redis_cluster.pause(redis_cluster.replicas_of(master)[0], 1500)
    try:
        done = await service.resign(ALICE, HERE)
        assert done.ok and [m.key for m in done.messages][-1] == "saved_delayed"
        assert cluster_store.health()["wait_timeouts"] >= 1
    finally:
        await asyncio.sleep(1.6)
        redis_cluster.wait_ok()
    again = await service.stats(BOB, HERE)  # the resignation stands
    assert again.messages[0].args["wins"] == 1


async def test_match_end_saga_applies_ratings_exactly_once(redis_cluster: LocalCluster, clock: FakeClock) -> None:
    """The match ends on an instance that dies before applying the ratings: the match is over, the ratings
    are pending; two sweeping instances then apply them once, and a later sweep changes nothing."""
    redis_cluster.flushall()
    dying = DiesAfterGameCommit.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=1000)
    a = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=1000)
    b = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=1000)
    try:
        service: GameService = make_service(dying, clock)
        await start_game(service, ALICE, BOB, HERE)
        dying.armed = True
        done = await service.resign(ALICE, HERE)
        assert done.ok and done.view is not None and done.view.status != "play"
        board = keys.ratings(keys.board_scope("discord", HERE.scope_id))
        assert (await a.read([("zcard", board)]))[0] == 0  # over, ratings not applied yet
        assert await a.scan(PENDING_PATTERN)
        applied = await asyncio.gather(a.sweep(older_than=0), b.sweep(older_than=0))
        assert sum(applied) >= 1
        assert await a.scan(PENDING_PATTERN) == []
        top = await make_service(a, clock).top(HERE)
        rows = [m for m in top.messages if m.key == "top_row"]
        assert [r.args["name"] for r in rows] == ["bob", "alice"]
        stats = await make_service(a, clock).stats(BOB, HERE)
        assert stats.messages[0].args["wins"] == 1 and stats.messages[0].args["points"] == 2
        assert await a.sweep(older_than=0) == 0
        stats = await make_service(b, clock).stats(BOB, HERE)
        assert stats.messages[0].args["wins"] == 1  # applied once
    finally:
        for store in (dying, a, b):
            await store.close()


async def test_hot_path_commits_touch_one_slot(cluster_store: ClusterStore, clock: FakeClock) -> None:
    """Challenge, accept, moves, reminders: every commit stays in the channel's home slot (nothing spills);
    only the end of a rated match reaches other slots (the leaderboards)."""
    service = make_service(cluster_store, clock)
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None and keys.id_bucket(view.game_id) == keys.place_bucket(HERE)
    rng = random.Random(3)
    for _ in range(6):
        assert view is not None and view.status == "play"
        moved = await service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)),
                                   game_id=view.game_id)
        assert moved.ok, moved.messages
        view = moved.view
    clock.advance(13 * 3600)
    assert await service.tick()  # a reminder
    assert cluster_store.commits > 8 and cluster_store.spills == 0
    assert (await service.resign(ALICE, HERE)).ok
    assert cluster_store.spills == 1  # the ratings, after the game's own commit
