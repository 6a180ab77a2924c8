"""Benchmark the Redis store's resilience through a real GameService on a local redis-server.

Prints: a burst of N commands in flight at once (errors, wall time), and Redis killed with -9 under
load K times then restarted on the same port and AOF folder (commands failing while it was down, time
from "Redis answers again" to the last failed command, success rate from 1 s after it was back,
connections still checked out at the end). Targets: 0 burst errors; recovery <= 1 s; >= 99 %.

    python benchmarks/bench_store.py
    python benchmarks/bench_store.py --burst 600 --kills 5 --games 40
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the shared workload lives with the tests

from bot.storage import LocalRedis, RedisStore
from tests.storage.workload import Workload, burst


async def bench_burst(url: str, in_flight: int) -> None:
    """Print errors and time of ``in_flight`` commands sent at once."""
    store = RedisStore.from_url(url)
    began = time.perf_counter()
    results = await burst(store, in_flight)
    took = time.perf_counter() - began
    errors = [r.error_key for r in results if not r.ok]
    print(f"burst: {in_flight} commands in flight -> {len(errors)} errors {sorted(set(map(str, errors)))}, "
          f"{took:.2f} s (setup included), pool {store.pool_stats()}")
    await store.close()


async def bench_kills(server: LocalRedis, kills: int, games: int) -> None:
    """Print recovery figures for ``kills`` kill -9 / restart rounds under load."""
    store = RedisStore.from_url(server.url)
    await store.client.flushall()  # the burst's games hold the same channels
    load = Workload.on(store, games)
    await load.setup()
    runner = asyncio.create_task(load.run())
    await asyncio.sleep(1.0)
    for n in range(kills):
        assert server.server_pid is not None
        os.kill(server.server_pid, signal.SIGKILL)
        killed = time.monotonic()
        await asyncio.sleep(0.5)
        await asyncio.to_thread(server.start)
        back = time.monotonic()
        await asyncio.sleep(3.0)
        failures_after = [o.at for o in load.outcomes if not o.ok and o.at >= back]
        recovery = (max(failures_after) - back) if failures_after else 0.0
        rate, count = load.rate(back + 1.0, back + 3.0)
        down_rate, down_count = load.rate(killed, back)
        print(f"kill {n + 1}: down {back - killed:.2f} s ({down_count} commands, {down_rate:.0%} ok), "
              f"recovered {recovery * 1000:.0f} ms after Redis answered, "
              f"then {rate:.2%} of {count} commands ok")
    load.stop.set()
    await runner
    print(f"after {kills} kills: pool {store.pool_stats()} (in_use must be 0)")
    await store.close()


def main() -> None:
    """Run both benchmarks on a private redis-server."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--burst", type=int, default=300)
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--smoke", action="store_true", help="the smallest run: a burst of 20, 1 kill, 2 games")
    args = parser.parse_args()
    if args.smoke:
        args.burst, args.kills, args.games = 20, 1, 2
    logging.getLogger("bot").setLevel(logging.CRITICAL)  # each failed command logs its traceback
    with tempfile.TemporaryDirectory() as tmp, LocalRedis(tmp) as server:
        asyncio.run(bench_burst(server.url, args.burst))
        asyncio.run(bench_kills(server, args.kills, args.games))


if __name__ == "__main__":
    main()
