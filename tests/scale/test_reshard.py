"""Resharding during play on a real Redis Cluster: ``redis-cli --cluster reshard`` moves slots (with their
keys) between masters, twice, while 3 bot processes play; no command keeps failing for longer than the
store's own retry budget (10 s), and the verifier finds every acknowledged move and rating."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.service import GameService
from bot.storage import open_store
from tests.redis_cluster import LocalCluster

from .harness import Fleet, until_acks
from .tables import PLATFORM
from .verify import Journals, verify

pytestmark = pytest.mark.timeout(600)

INSTANCES, TABLES, MATCHES, MAX_PLIES = 3, 40, 4, 30
SLOTS_MOVED = 500  # per reshard: ~9 % of a master's slots, with their keys
# The store follows MOVED/ASK and retries for up to its failover_wait (10 s) by itself; a command that still
# fails is re-delivered (same idempotency key) as the platforms do. No command may keep failing for longer
# than the store's own budget (measured: no attempt failed at all, three runs).
STORE_BUDGET = 10.0


async def test_reshard_during_play_keeps_commands_within_the_stores_retry_budget(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    fleet = Fleet(cluster.url, tmp_path, "rs", INSTANCES, TABLES, MATCHES, max_plies=MAX_PLIES)
    await fleet.start()
    try:
        await until_acks(fleet, 300, 240)
        a, b, c = cluster.masters()
        await asyncio.to_thread(cluster.reshard, a, b, SLOTS_MOVED)
        await asyncio.to_thread(cluster.reshard, b, c, SLOTS_MOVED)
        moved_during = fleet.acks()
        exits = await fleet.wait(400)
    finally:
        fleet.kill()
    assert all(code == 0 for code, _ in exits), exits
    journals = Journals.read(fleet.journals)
    assert moved_during < sum(len(v) for v in journals.acks.values()), "the reshards ended after the play"
    store, _ = open_store(cluster.url)
    live = GameService(store)  # a bot instance still running: its tick finishes writes left pending
    verdict = await verify(store, journals, rating_wait=60, settle=lambda: live.tick(PLATFORM))
    live.close()
    await store.close()
    longest = max((r["after"] for r in journals.recovered), default=0.0)
    print(
        f"reshard x2 of {SLOTS_MOVED} slots: {len(journals.failures)} failed attempts, the longest a command "
        f"kept failing {longest:.2f} s; {verdict.games} games, {verdict.moves} moves checked"
    )
    assert longest <= STORE_BUDGET, (journals.failures, fleet.error_logs())
    assert verdict.problems == []
    assert verdict.games == TABLES * MATCHES and verdict.rated_matches == TABLES * MATCHES
