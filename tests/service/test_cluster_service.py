"""The service on a real Redis Cluster: a move no replica confirmed in time says so, and the end of a match
is a saga (the game commits first, its ratings follow once, even when the writer dies in between)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.service import Place, keys
from bot.service.appliers import Appliers
from bot.storage import ClusterStore
from fevga import format_play
from tests.redis_cluster import LocalCluster

from .conftest import ALICE, BOB, HERE, THERE, FakeClock, make_service
from .helpers import random_play, start_game


class DiesBeforeRatings(Appliers):
    """The applier of an instance that dies right after committing a match end (fault injection at the
    one point the saga must survive): it never applies anything."""

    async def finish(self, gid: str) -> None:
        return None


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
    are pending; two instances sweeping at once apply them once, and later sweeps change nothing."""
    redis_cluster.flushall()
    stores = [ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=1000) for _ in range(3)]
    try:
        dying = make_service(stores[0], clock)
        dying.sessions.appliers = DiesBeforeRatings(stores[0])
        started = await start_game(dying, ALICE, BOB, HERE)
        assert started.view is not None
        done = await dying.resign(ALICE, HERE)
        assert done.ok and done.view is not None and done.view.status != "play"
        board = keys.ratings(keys.board_scope("discord", HERE.scope_id))
        pending = keys.sagas(keys.id_bucket(started.view.game_id))
        assert (await stores[1].read([("zcard", board)]))[0] == 0  # over, ratings not applied yet
        assert (await stores[1].read([("hgetall", pending)]))[0]  # ... but pending, in the game's slot
        one, two = Appliers(stores[1]), Appliers(stores[2])
        await asyncio.gather(one.sweep(older_than=0), two.sweep(older_than=0))
        assert one.applied + two.applied == 2  # the place's board and the global one, once each
        assert (await stores[1].read([("hgetall", pending)]))[0] == {}
        other = make_service(stores[1], clock)
        rows = [m for m in (await other.top(HERE)).messages if m.key == "top_row"]
        assert [r.args["name"] for r in rows] == ["bob", "alice"]
        stats = await other.stats(BOB, HERE)
        assert stats.messages[0].args["wins"] == 1 and stats.messages[0].args["points"] == 2
        assert await one.sweep(older_than=0) == 0 and await two.sweep(older_than=0) == 0
        await Appliers(stores[2]).finish(started.view.game_id)  # a late retry of the fast path
        stats = await other.stats(BOB, HERE)
        assert stats.messages[0].args["wins"] == 1  # applied once
    finally:
        for store in stores:
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
    assert (await service.resign(ALICE, HERE)).ok  # found through the channel index: one round trip
    assert cluster_store.via_fallbacks <= 1  # at most the first lookup, which loads the script
    assert (await service.abort(ALICE, HERE)).error_key is not None and cluster_store.via_fallbacks <= 1
    assert cluster_store.spills == 0  # the ratings: one commit per board, in the board's slot
    assert service.sessions.appliers.applied == 2


async def test_two_matches_of_one_player_ending_together_both_count(cluster_store: ClusterStore,
                                                                   clock: FakeClock) -> None:
    """Ratings are recomputed from the documents when applied: two match ends racing for bob's global
    document both land (one retries), never one lost or one counted twice."""
    one, two = make_service(cluster_store, clock), make_service(cluster_store, clock)
    await start_game(one, ALICE, BOB, HERE)
    await start_game(one, ALICE, BOB, THERE)
    ends = await asyncio.gather(one.resign(ALICE, HERE), two.resign(ALICE, THERE))
    assert all(e.ok for e in ends)
    stats = await one.stats(BOB, HERE)
    assert stats.messages[1].key == "stats_global" and stats.messages[1].args["wins"] == 2
    assert stats.messages[0].args["wins"] == 2  # HERE and THERE share the server's board too


async def test_sharded_timers_fire_once_across_two_instances(cluster_store: ClusterStore, clock: FakeClock) -> None:
    """Games in several homes; two instances tick together: each reminder is produced exactly once."""
    one, two = make_service(cluster_store, clock), make_service(cluster_store, clock)
    places = [Place("discord", "guild1", f"chan-{i}") for i in range(6)]
    games = [await start_game(one, ALICE, BOB, place) for place in places]
    homes = {keys.id_bucket(g.view.game_id) for g in games if g.view is not None}
    assert len(homes) > 1
    clock.advance(13 * 3600)
    first, second = await asyncio.gather(one.tick(), two.tick())
    reminded = sorted(r.game_id or "" for r in first + second)
    assert reminded == sorted(g.view.game_id for g in games if g.view is not None)
    assert await one.tick() == [] and await two.tick() == []


async def test_a_game_goes_on_when_its_master_dies(redis_cluster: LocalCluster, clock: FakeClock) -> None:
    """kill -9 the master of a game's home between two moves: the next move waits out the failover and
    commits on the promoted replica, which has every acknowledged move."""
    redis_cluster.flushall()
    store = ClusterStore.from_cluster_url(redis_cluster.url, wait_replicas=1, wait_ms=2000, failover_wait=30)
    service = make_service(store, clock)
    started = await start_game(service, ALICE, BOB, HERE)
    view = started.view
    assert view is not None
    moved = await service.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(5))))
    assert moved.ok and moved.view is not None and all(m.key != "saved_delayed" for m in moved.messages)
    master = redis_cluster.master_of_key(keys.game(view.game_id))
    try:
        redis_cluster.kill_node(master)  # no waiting for the promotion: the bot does
        view = moved.view
        service.sessions._cache.clear()  # another instance: nothing cached
        again = await service.move(view.players[view.turn], HERE, format_play(random_play(view, random.Random(6))))
        assert again.ok, again.messages
        assert again.view is not None and again.view.version == moved.view.version + 1
    finally:
        service.close()
        await store.close()
        await asyncio.to_thread(redis_cluster.wait_ok, 30)
        await asyncio.to_thread(redis_cluster.restart_node, master)
