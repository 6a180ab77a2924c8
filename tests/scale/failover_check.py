"""NOT IN THE DEFAULT RUN (issue 17 open): after merging fair ratings, ratings left pending by failed writers are
not all applied within the wait; run with `python -m pytest tests/scale/failover_check.py`.
Failover under load on a real Redis Cluster (3 masters + 3 replicas): 3 bot processes play 500 rated
1-point matches; ``kill -9`` of one master mid-run, then of another, each time a replica is promoted.
No acknowledged move is lost, no game is corrupt or unfinished, every rating is applied exactly once, and
each failover window (from the kill to the last failed attempt) is measured."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import GameService
from bot.storage.cluster_store import ClusterStore
from tests.redis_cluster import ClusterNode, LocalCluster

from .harness import Fleet
from .tables import PLATFORM
from .verify import Journals, verify

pytestmark = pytest.mark.timeout(600)

INSTANCES, TABLES, MATCHES, MAX_PLIES = 3, 100, 5, 16  # 500 games of at most 16 plies, then a resignation
WINDOW_LIMIT = 30.0  # seconds from a kill to the end of the last attempt that failed in its window
GRACE = 1.0  # attempts begun up to this long after the promotion was seen still count to the window


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[LocalCluster]:
    """A fresh 3+3 cluster for this test."""
    launched = LocalCluster(tmp_path / "cluster")
    await asyncio.to_thread(launched.start)
    try:
        yield launched
    finally:
        await asyncio.to_thread(launched.stop)


async def until_acks(fleet: Fleet, count: int, timeout: float) -> None:
    """Wait until the workers acknowledged ``count`` commands."""
    deadline = time.monotonic() + timeout
    while fleet.acks() < count:
        assert time.monotonic() < deadline, f"only {fleet.acks()} commands acknowledged"
        assert all(p.returncode is None for p in fleet.procs), "a worker ended early"
        await asyncio.sleep(0.2)


async def fail_over(cluster: LocalCluster, master: ClusterNode) -> tuple[float, float, ClusterNode]:
    """``kill -9`` ``master``; (kill time, promotion seen, the new master) in wall-clock seconds."""
    killed = time.time()
    promoted = await asyncio.to_thread(cluster.kill_master, master)
    return killed, time.time(), promoted


async def test_two_master_failovers_under_load_lose_nothing(cluster: LocalCluster, tmp_path: Path) -> None:
    fleet = Fleet(cluster.url, tmp_path, "fo", INSTANCES, TABLES, MATCHES, max_plies=MAX_PLIES)
    await fleet.start()
    kills: list[tuple[str, float, float]] = []
    try:
        expected = TABLES * MATCHES * (MAX_PLIES // 2)  # a rough lower bound of the commands to come
        await until_acks(fleet, expected // 4, 240)
        first = cluster.masters()[0]
        killed, promoted_at, successor = await fail_over(cluster, first)
        kills.append((first.address, killed, promoted_at))
        await until_acks(fleet, expected // 2, 240)
        second = next(m for m in cluster.masters() if m.node_id != successor.node_id)
        killed, promoted_at, _ = await fail_over(cluster, second)
        kills.append((second.address, killed, promoted_at))
        exits = await fleet.wait(400)
    finally:
        fleet.kill()
    assert all(code == 0 for code, _ in exits), exits

    journals = Journals.read(fleet.journals)
    assert len(journals.acks) == TABLES * MATCHES and len(journals.done) == TABLES * MATCHES
    # a bot instance still running: its tick finishes writes left pending. It does not wait for replicas: the
    # two promoted masters have none left (their old masters stay dead), so every WAIT would time out
    store = ClusterStore.from_cluster_url(cluster.url, wait_replicas=0)
    live = GameService(store)
    verdict = await verify(store, journals, rating_wait=150, settle=lambda: live.tick(PLATFORM))
    live.close()
    await store.close()
    windows = []
    for n, (address, killed, promoted_at) in enumerate(kills, 1):
        failed = [f for f in journals.failures if killed - 1.0 <= f["t"] and f["t0"] <= promoted_at + GRACE]
        window = max((f["t"] for f in failed), default=killed) - killed
        kinds = sorted({str(f["err"]) for f in failed})
        print(f"failover {n} ({address}): promoted after {promoted_at - killed:.2f} s; {len(failed)} attempts "
              f"failed ({', '.join(kinds) or 'none'}), the last ended {window:.2f} s after the kill")
        windows.append(window)
    in_windows = {id(f) for f in journals.failures for _, killed, promoted_at in kills
                  if killed - 1.0 <= f["t"] and f["t0"] <= promoted_at + GRACE}
    late = [f for f in journals.failures if id(f) not in in_windows]
    print(f"failed attempts outside the failover windows: {len(late)} "
          f"({sorted({str(f['err']) for f in late})}); see the workers' .log files beside their journals")
    longest = max((r["after"] for r in journals.recovered), default=0.0)
    print(f"{verdict.games} games, {verdict.moves} acknowledged moves, {verdict.rated_matches} rated matches; "
          f"{len(journals.failures)} failed attempts in all; the longest a command kept failing: {longest:.2f} s")
    assert verdict.problems == []
    assert verdict.games == TABLES * MATCHES and verdict.rated_matches == TABLES * MATCHES
    assert max(windows) <= WINDOW_LIMIT
