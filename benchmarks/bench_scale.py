"""Benchmark capacity: the highest move rate at which p99 latency stays <= 25 ms, with 10,000 live games,
for 1, 2, 3 and 4 bot processes, without and with drawing the board, on a single Redis and on a Redis Cluster.

Each process (``scale_load.py``) is a bot instance (BotCore with its outbox consumer and timer tick) owning
its share of the games. The coordinator steps an open-loop arrival rate up (moves due at fixed intervals,
latency counted from when a move was due) until p99 > 25 ms (twice in a row, or ten times over) or a move
fails, and prints every step and the
best passing rate, with moves/s per core (the rate divided by the CPU the bot processes and Redis used).

    python benchmarks/bench_scale.py                          # single Redis and cluster, 1, 2, 3 and 4 processes
    python benchmarks/bench_scale.py --backends single --procs 1 --games 2000 --step-seconds 3   # quick
    python benchmarks/bench_scale.py --smoke      # seconds: 20 games, one short step each way (it still runs)
    python benchmarks/bench_scale.py ... --profile DIR   # each load process writes a cProfile of its event loop
Each step also prints how much of the bot CPU was the event loops' (the rest: the drawing threads) and the host's
load average (the machine may be shared: read every figure beside it); the final table has the load too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import redis.asyncio as aioredis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.storage import LocalRedis  # noqa: E402  (after the path above, as bench_store does)
from tests.redis_cluster import LocalCluster  # noqa: E402

P99_TARGET_MS = 25.0
RATES = (50, 100, 150, 200, 250, 300, 350, 400, 500, 650, 800, 1000, 1250, 1600, 2000)


@dataclass
class Step:
    """One rate step's outcome across the processes."""

    rate: float
    moves: int
    p50: float
    p99: float
    errors: int
    skipped: int
    bot_cpu: float  # CPU seconds of the bot processes per wall second
    redis_cpu: float  # CPU seconds of the Redis servers per wall second
    loop_cpu: float = 0.0  # the part of bot_cpu spent on the event loops' threads (the rest: drawing threads)
    load: float = 0.0  # the host's 1-minute load average at the end of the step
    gc_full: int = 0  # full (generation 2) garbage collections in all the processes during the step
    gc_max_ms: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the longest pause of each generation, any process (ms)
    gc_share: float = 0.0  # the share of the event loops' CPU that went to garbage collection

    @property
    def passed(self) -> bool:
        """p99 within the target, and every move played and answered."""
        return self.p99 <= P99_TARGET_MS and self.errors == 0 and self.skipped == 0

    @property
    def per_core(self) -> float:
        """Moves per second per core busy (bot processes and Redis together)."""
        return self.rate / max(self.bot_cpu + self.redis_cpu, 1e-9)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0 for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def redis_cpu(nodes: list[str]) -> float:
    """CPU seconds (user + sys) the Redis servers have used so far."""
    total = 0.0
    for url in nodes:
        client = aioredis.Redis.from_url(url)
        info = await client.info("cpu")
        total += float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
        await client.aclose()
    return total


class Fleet:
    """The load processes of one run, spoken to over their stdin/stdout."""

    def __init__(self, url: str, procs: int, games: int, run: str, profile: str = "") -> None:
        self.url, self.count, self.games, self.run, self.profile = url, procs, games, run, profile
        self.procs: list[asyncio.subprocess.Process] = []
        self.loop = ""  # the event loop the load processes run on (uvloop or asyncio)

    async def start(self) -> float:
        """Start every process and wait until each has set up its games; the slowest setup (s)."""
        share = -(-self.games // self.count)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        for n in range(self.count):
            first, last = n * share, min(self.games, (n + 1) * share)
            self.procs.append(await asyncio.create_subprocess_exec(
                sys.executable, str(ROOT / "benchmarks" / "scale_load.py"), "--redis-url", self.url,
                "--run", f"{self.run}p{n}", "--games", f"{first}:{last}",
                *(["--profile", f"{self.profile}/{self.run}p{n}.prof"] if self.profile else []), env=env, limit=2**26,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            ))  # fmt: skip
        answers = await asyncio.gather(*(self._answer(p) for p in self.procs))
        self.loop = str(answers[0].get("loop", "asyncio"))
        return max(float(a["setup_s"]) for a in answers)

    @staticmethod
    async def _answer(proc: asyncio.subprocess.Process) -> dict[str, object]:
        """The next JSON line of a load process (RuntimeError if it ended)."""
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if not line:
            raise RuntimeError(f"load process {proc.pid} ended (exit {await proc.wait()})")
        answer: dict[str, object] = json.loads(line)
        return answer

    async def step(self, rate: float, seconds: float, draw: bool, nodes: list[str]) -> Step:
        """Every process plays its share of ``rate`` for ``seconds``."""
        order = json.dumps({"rate": rate / self.count, "seconds": seconds, "draw": draw}).encode() + b"\n"
        redis_before, began = await redis_cpu(nodes), time.monotonic()
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.write(order)
            await proc.stdin.drain()
        answers = await asyncio.gather(*(self._answer(p) for p in self.procs))
        wall = time.monotonic() - began
        redis_used = await redis_cpu(nodes) - redis_before
        ms = [t for a in answers for t in a["ms"]]  # type: ignore[attr-defined]
        return Step(rate, len(ms), percentile(ms, 0.5), percentile(ms, 0.99),
                    sum(int(a["errors"]) for a in answers), sum(int(a["skipped"]) for a in answers),  # type: ignore[call-overload]
                    sum(float(a["cpu"]) for a in answers) / wall, redis_used / wall,  # type: ignore[arg-type]
                    sum(float(a["loop_cpu"]) for a in answers) / wall, os.getloadavg()[0],  # type: ignore[arg-type]
                    sum(a["gc"]["count"][2] for a in answers),  # type: ignore[index]
                    tuple(max(a["gc"]["max_ms"][g] for a in answers) for g in range(3)),  # type: ignore[index]
                    sum(sum(a["gc"]["total_ms"]) for a in answers) / 1000  # type: ignore[index]
                    / max(sum(float(a["loop_cpu"]) for a in answers), 1e-9))  # type: ignore[arg-type]

    async def stop(self) -> None:
        """Ask every process to quit; kill one that does not within 30 s."""
        for proc in self.procs:
            if proc.stdin is not None and proc.returncode is None:
                proc.stdin.write(b'{"quit": true}\n')
                await proc.stdin.drain()
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except TimeoutError:
                proc.kill()
                await proc.wait()


async def ramp(
    fleet: Fleet, draw: bool, seconds: float, nodes: list[str], label: str, rates: tuple[int, ...]
) -> Step | None:
    """Step the rate up until p99 > 25 ms (or a move fails); the best passing step."""
    best, misses = None, 0
    for rate in rates:
        step = await fleet.step(rate, seconds, draw, nodes)
        gc_longest = "/".join(f"{x:.0f}" for x in step.gc_max_ms)  # generations 0/1/2
        print(f"  {label} {'draw' if draw else 'no draw'} {rate:>5} moves/s: p50 {step.p50:6.2f} ms  "
              f"p99 {step.p99:7.2f} ms  errors {step.errors}  skipped {step.skipped}  "
              f"CPU bot {step.bot_cpu:.2f} (event loops {step.loop_cpu:.2f}) + redis {step.redis_cpu:.2f} cores  "
              f"gc full {step.gc_full} longest {gc_longest} ms ({step.gc_share:.0%} of the loops)  "
              f"load {step.load:.1f}  "
              f"-> {'ok' if step.passed else 'OVER'}", flush=True)
        await asyncio.sleep(1.0)
        if step.passed:
            best, misses = step, 0
        elif (step.moves and step.p99 > 10 * P99_TARGET_MS) or misses:
            break  # far over, or over twice in a row (one step over may be another program's burst)
        else:
            misses += 1
    return best


@asynccontextmanager
async def single_redis(tmp: Path) -> AsyncIterator[tuple[str, list[str]]]:
    """A private redis-server: (the bot's REDIS_URL, every node's URL)."""
    with LocalRedis(tmp / "single") as server:
        yield server.url, [server.url]


@asynccontextmanager
async def redis_cluster(tmp: Path) -> AsyncIterator[tuple[str, list[str]]]:
    """A private Redis Cluster, 3 masters + 3 replicas (``tests/redis_cluster.py``)."""
    cluster = LocalCluster(tmp / "cluster")
    await asyncio.to_thread(cluster.start)
    try:
        yield cluster.url, [f"redis://{n.address}/0" for n in cluster.nodes]
    finally:
        await asyncio.to_thread(cluster.stop)


BACKENDS = {"single": single_redis, "cluster": redis_cluster}


async def run(args: argparse.Namespace) -> None:
    """Every backend and process count asked for: set up, ramp without and with drawing; then the table."""
    results: list[tuple[str, int, bool, Step | None]] = []
    rates = tuple(int(r) for r in args.rates.split(",")) if args.rates else RATES
    warm_up = min(2.0, args.step_seconds)
    with tempfile.TemporaryDirectory() as tmpdir:
        for backend in args.backends.split(","):
            for procs in (int(p) for p in args.procs.split(",")):
                async with BACKENDS[backend](Path(tmpdir) / f"{backend}{procs}") as (url, nodes):
                    for node in nodes:
                        client = aioredis.Redis.from_url(node)
                        if (await client.info("replication"))["role"] == "master":
                            await client.flushall()
                        await client.aclose()
                    fleet = Fleet(url, procs, args.games, f"s{procs}", args.profile)
                    label = f"{backend} x{procs}"
                    try:
                        setup = await fleet.start()
                        print(f"{label}: {args.games} live games set up in {setup:.0f} s ({fleet.loop} event loop, "
                              f"load {os.getloadavg()[0]:.1f})", flush=True)
                        await fleet.step(rates[0], warm_up, True, nodes)  # warm up: first drawings, caches
                        for draw in {"no": (False,), "yes": (True,), "both": (False, True)}[args.drawing]:
                            results.append((backend, procs, draw, await ramp(fleet, draw, args.step_seconds,
                                                                            nodes, label, rates)))
                    finally:
                        await fleet.stop()
    print(f"\nhighest rate with p99 <= {P99_TARGET_MS:.0f} ms ({args.games} live games, {os.cpu_count()} cores):")
    print("| Redis | bot processes | drawing | moves/s | p50 ms | p99 ms | cores busy (bot + Redis) "
          "| moves/s per core | host load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for backend, procs, draw, best in results:
        if best is None:
            print(f"| {backend} | {procs} | {'yes' if draw else 'no'} | < {rates[0]} | | | | | |")
            continue
        print(f"| {backend} | {procs} | {'yes' if draw else 'no'} | {best.rate:.0f} | {best.p50:.1f} | "
              f"{best.p99:.1f} | {best.bot_cpu:.2f} + {best.redis_cpu:.2f} | {best.per_core:.0f} | {best.load:.1f} |")


def main() -> None:
    """Parse the command line and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default=",".join(BACKENDS), help=f"comma-separated: {', '.join(BACKENDS)}")
    parser.add_argument("--procs", default="1,2,3,4", help="bot process counts to run, comma-separated")
    parser.add_argument("--games", type=int, default=10_000, help="live games (split over the processes)")
    parser.add_argument("--step-seconds", type=float, default=6.0, help="seconds at each rate")
    parser.add_argument("--rates", default="", help="moves/s steps, comma-separated (default: 50 up to 2,000)")
    parser.add_argument("--drawing", choices=("no", "yes", "both"), default="both",
                        help="ramp without drawing, with it, or both (the default)")
    parser.add_argument("--profile", default="", help="a folder: each load process writes a cProfile of its "
                        "event loop's thread (CPU time, the measured steps) there")
    parser.add_argument("--smoke", action="store_true", help="the smallest run: single Redis, 1 process, "
                        "20 games, one 0.5 s step at 20 moves/s each way")
    args = parser.parse_args()
    if args.smoke:
        args.backends, args.procs, args.games, args.step_seconds, args.rates = "single", "1", 20, 0.5, "20"
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
