"""Benchmark the game service on a real Redis: N concurrent games playing random legal plays.

Prints p50/p99 milliseconds per move (time inside ``GameService.move``, no drawing), moves per
second, Redis round trips per move, and Redis bytes per stored game (``MEMORY USAGE``).
Also bytes per idempotency record and the TTLs.
Targets: p50 <= 2 ms, p99 <= 8 ms, <= 1 KB per live game, <= 600 B per finished game's record,
<= 200 B per idempotency record.

    python benchmarks/bench_service.py                # 1,000 games, local redis-server
    python benchmarks/bench_service.py --games 200 --turns 20 --workers 4
    python benchmarks/bench_service.py --redis-url redis://127.0.0.1:6379/0   # flushes that database!
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from typing import Any

from bot.service import GameService, GameView, Place, PlayerRef, keys
from bot.service.ai import RandomAI
from bot.storage import LocalRedis, RedisStore
from fevga import Position, format_play, legal_plays


class CountingStore(RedisStore):
    """A RedisStore that counts its round trips (one per read pipeline or commit)."""

    def __init__(self, client: Any, **options: Any) -> None:
        super().__init__(client, **options)
        self.trips = 0

    async def read(self, requests: Any) -> list[Any]:
        self.trips += 1
        return await super().read(requests)

    async def commit(self, commit: Any) -> bool:
        self.trips += 1
        return await super().commit(commit)


def _play_for(view: GameView, rng: random.Random) -> str:
    pos = Position.from_id(view.position_id)
    if view.turn == 1:
        pos = pos.flip()
    assert view.dice is not None
    return format_play(rng.choice(legal_plays(pos, view.dice)))


async def _setup(service: GameService, n: int) -> list[tuple[Place, GameView]]:
    games = []
    for i in range(n):
        place = Place("discord", "bench", f"c{i}")
        a, b = PlayerRef("discord", f"a{i}", f"alice{i}"), PlayerRef("discord", f"b{i}", f"bob{i}")
        await service.challenge(a, place, b)
        started = await service.accept(b, place)
        assert started.ok and started.view is not None
        games.append((place, started.view))
    return games


async def _worker(service: GameService, games: list[tuple[Place, GameView]], turns: int, seed: int,
                  times: list[float]) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        for k, (place, view) in enumerate(games):
            if view.status != "play":
                continue
            text = _play_for(view, rng)
            who = view.players[view.turn]
            t0 = time.perf_counter()
            result = await service.move(who, place, text, game_id=view.game_id, idem=f"{view.game_id}:{view.version}")
            times.append(time.perf_counter() - t0)
            if not result.ok or result.view is None:
                raise RuntimeError(f"move failed: {result.messages}")
            games[k] = (place, result.view)


async def run(url: str, n_games: int, turns: int, workers: int, full_games: int, cache: bool) -> None:
    store = CountingStore.from_url(url)
    assert isinstance(store, CountingStore)
    await store.client.flushdb()
    service = GameService(store, ai=RandomAI(1), session_cache_size=2 * n_games if cache else 0)
    t_setup = time.perf_counter()
    games = await _setup(service, n_games)
    setup_s = time.perf_counter() - t_setup
    shares = [games[w::workers] for w in range(workers)]
    times: list[float] = []
    trips_before = store.trips
    t0 = time.perf_counter()
    await asyncio.gather(*(_worker(service, share, turns, w, times) for w, share in enumerate(shares)))
    wall = time.perf_counter() - t0
    trips = (store.trips - trips_before) / max(1, len(times))
    ms = sorted(t * 1000 for t in times)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    # bytes per stored game: mid-game sessions, then whole games played to the end
    mid = [await store.client.memory_usage(keys.game(v.game_id), samples=0) or 0 for _, v in games]
    finished = games[:full_games]
    await _worker(service, finished, 10_000, 99, [])
    done = [await store.client.memory_usage(keys.game(v.game_id), samples=0) or 0 for _, v in finished]
    records = [await store.client.memory_usage(keys.game_record(v.game_id, 1), samples=0) or 0 for _, v in finished]
    idem_keys = [keys.idem("discord", f"{v.game_id}:{v.version}", place)
                 for place, v in games[full_games:full_games + 200]]
    idem = [await store.client.memory_usage(k, samples=0) or 0 for k in idem_keys]
    idem = [b for b in idem if b] or [0]
    ttl = {name: await store.client.ttl(key) for name, key in (
        ("live", keys.game(games[-1][1].game_id)), ("finished", keys.game(finished[0][1].game_id)),
        ("record", keys.game_record(finished[0][1].game_id, 1)), ("idempotency", idem_keys[0]))}
    info = await store.client.info("memory")
    print(f"games={n_games} workers={workers} turns/game={turns} moves={len(times)} session cache={cache} "
          f"(setup {setup_s:.1f}s)")
    print(f"per move: p50 {p50:.2f} ms  p99 {p99:.2f} ms  mean {statistics.fmean(ms):.2f} ms  max {ms[-1]:.1f} ms")
    print(f"throughput: {len(times) / wall:.0f} moves/s ({wall:.1f}s wall)   Redis round trips/move: {trips:.2f}")
    print(f"MEMORY USAGE per live game after {turns} turns: mean {statistics.fmean(mid):.0f} B, max {max(mid)} B")
    print(f"MEMORY USAGE per finished game session ({len(done)} played out): mean {statistics.fmean(done):.0f} B, "
          f"max {max(done)} B; its kept record: mean {statistics.fmean(records):.0f} B")
    print(f"MEMORY USAGE per idempotency record: mean {statistics.fmean(idem):.0f} B, max {max(idem)} B")
    print("TTLs (s): " + "  ".join(f"{name} {left}" for name, left in ttl.items()))
    print(f"growth per finished game: its record {statistics.fmean(records):.0f} B for {ttl['record'] // 86400} days "
          f"(+ the match's session {statistics.fmean(done):.0f} B for {ttl['finished'] // 86400} days)")
    print(f"Redis used_memory: {info['used_memory_human']} (includes idempotency records kept 15 min)")
    targets = (p50 <= 2.0, p99 <= 8.0, statistics.fmean(mid) <= 1024, max(records) <= 600, max(idem) <= 200)
    print("targets p50<=2ms p99<=8ms live<=1KB record<=600B idem<=200B:",
          " ".join("ok" if t else "MISSED" for t in targets))
    await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=30, help="turns played per game (a game lasts ~90)")
    parser.add_argument("--workers", type=int, default=1,
                        help="commands in flight at once (one event loop: more workers = queueing, not speed)")
    parser.add_argument("--no-cache", action="store_true", help="decode every session from Redis (cold path)")
    parser.add_argument("--full-games", type=int, default=20, help="games then played to the end for sizes")
    parser.add_argument("--redis-url", default=None, help="an existing Redis (its database is FLUSHED)")
    parser.add_argument("--smoke", action="store_true", help="the smallest run: 5 games, 3 turns, 1 full game")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.turns, args.full_games = 5, 3, 1
    if args.redis_url:
        asyncio.run(run(args.redis_url, args.games, args.turns, args.workers, args.full_games, not args.no_cache))
        return
    with tempfile.TemporaryDirectory() as tmp, LocalRedis(tmp) as server:
        asyncio.run(run(server.url, args.games, args.turns, args.workers, args.full_games, not args.no_cache))


if __name__ == "__main__":
    main()
