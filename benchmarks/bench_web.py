"""Benchmark the web board (bot/web) on a local redis-server, the server in its own process:

1. latency: a chat move (``BotCore.handle_text`` in a second process, as a chat frontend would) -> the
   state event read by an SSE client; p50/p99 over ``--moves`` moves (target p99 <= 1 s);
2. first load: the bytes of game.html and every file it references (and theirs: CSS ``url()``, JS
   ``import``), gzip as served, plus the first state JSON (target <= 150 KB; telegram.org's script excluded);
3. watchers: SSE connections held open on one game, the server's added RSS at each step, the number held at
   <= 50 MB added (target >= 2,000), and the time for one move to reach all of them;
4. the state builder (``bot.web.state.base_state``, run once per stored version) for a Fevga, a Portes and a
   Plakoto game played at random for ``--turns`` turns: p50/p95 over ``--builds`` builds, and the JSON's size.

    python benchmarks/bench_web.py                      # 100 moves, up to 4,000 watchers
    python benchmarks/bench_web.py --moves 20 --watchers 1000
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.chat.core import BotCore
from bot.service import Place, PlayerRef
from bot.service.session import Session
from bot.storage import LocalRedis, RedisStore
from bot.web.app import WebConfig
from bot.web.links import WebLinks, derive_key
from bot.web.server import start_web
from bot.web.state import base_state, encode
from fevga import Game, Rules, format_play
from fevga.dice import FairDice
from fevga.variants import GAMES

ALICE, BOB = PlayerRef("telegram", "1", "alice"), PlayerRef("telegram", "2", "bob")
SECRET = "bench-web-secret-0123456789"
STATIC = Path(__file__).resolve().parents[1] / "bot" / "web" / "static"


def _raise_fd_limit() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# --- the server process -------------------------------------------------------------------------
async def serve(port: int, redis_url: str, static: str) -> None:
    """The web frontend alone (as one instance would run it), until killed."""
    _raise_fd_limit()
    core = await BotCore.create(store=RedisStore.from_url(redis_url), draw=False)
    config = WebConfig(WebLinks(derive_key(SECRET), f"http://127.0.0.1:{port}"), static_dir=Path(static),
                       sse_per_ip=100_000, sse_total=100_000)
    await start_web(core, config, port, "127.0.0.1")
    print("ready", flush=True)
    await asyncio.Event().wait()


# --- the chat side ------------------------------------------------------------------------------
_GROUPS = iter(range(100, 10**9))


async def new_game(core: BotCore) -> str:
    """Alice challenges Bob in a new group and Bob accepts; the game id."""
    group = Place("telegram", f"-{next(_GROUPS)}", "")
    group = Place("telegram", group.scope_id, group.scope_id)
    await core.handle_text(ALICE, group, "challenge <@2>", mentions={"<@2>": BOB})
    handled = await core.handle_text(BOB, group, "accept")
    return next(r.game_id for r in handled.replies if r.game_id)  # type: ignore[return-value]


async def chat_move(core: BotCore, gid: str, rng: random.Random) -> bool:
    """The player to move plays a random legal play in the chat; False when the game is over."""
    loaded = await core.service.sessions.load(gid, take=False)
    s = loaded.session
    if s is None or s.status != "play":
        return False
    mover = s.players[s.game.turn]
    text = format_play(rng.choice(s.game.legal_plays()))
    handled = await core.handle_text(mover, s.place, text)
    assert not any(r.error for r in handled.replies), [r.text for r in handled.replies]
    return True


class Sse:
    """One SSE connection: ``state()`` waits for the next state event (its version)."""

    def __init__(self, resp: aiohttp.ClientResponse) -> None:
        self.resp = resp
        self.buffer = b""

    async def state(self) -> int:
        while True:
            while b"\n\n" not in self.buffer:
                chunk = await self.resp.content.readany()
                if not chunk:
                    raise EOFError
                self.buffer += chunk
            block, self.buffer = self.buffer.split(b"\n\n", 1)
            if b"event: state" in block:
                return int(block.split(b"id: ", 1)[1].split(b"\n", 1)[0])


async def open_sse(http: aiohttp.ClientSession, base: str, token: str, since: int) -> Sse:
    resp = await http.get(f"{base}/api/g/{token}/events?since={since}", timeout=aiohttp.ClientTimeout(total=None))
    assert resp.status == 200, resp.status
    return Sse(resp)


async def latency(core: BotCore, base: str, key: bytes, moves: int) -> list[float]:
    """Seconds from the chat move's start to the SSE event of its version, ``moves`` times."""
    rng = random.Random(7)
    out: list[float] = []
    async with aiohttp.ClientSession() as http:
        while len(out) < moves:
            gid = await new_game(core)
            token = WebLinks(key, base).token(gid)
            state = await (await http.get(f"{base}/api/g/{token}/state")).json()
            sse = await open_sse(http, base, token, state["version"])
            await asyncio.sleep(0.05)
            while len(out) < moves:
                started = time.perf_counter()
                if not await chat_move(core, gid, rng):
                    break
                stored = (await core.service.view_of(gid)).view.version  # type: ignore[union-attr]
                while await sse.state() < stored:
                    pass
                out.append(time.perf_counter() - started)
            sse.resp.close()
    return out


# --- first load ---------------------------------------------------------------------------------
_REFS = re.compile(rb"""(?:src|href)\s*=\s*["']([^"'#?]+)[^"']*["']|url\(\s*["']?([^"')#?]+)|"""
                   rb"""import\s*(?:[^"';]*?from\s*)?["']([^"']+)["']""")


async def first_load(base: str, token: str) -> tuple[int, list[tuple[str, int]]]:
    """Bytes transferred (gzip as served) for the page, what it references (same origin), and the state."""
    seen: dict[str, int] = {}
    headers = {"Accept-Encoding": "gzip"}
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        queue = [f"/g/{token}"]
        while queue:
            path = queue.pop(0)
            if path in seen:
                continue
            resp = await http.get(base + path, headers=headers)
            body = await resp.read()
            seen[path] = len(body) if resp.status == 200 else 0
            plain = gzip.decompress(body) if resp.headers.get("Content-Encoding") == "gzip" else body
            folder = path.rsplit("/", 1)[0] + "/" if path.startswith("/static/") else "/static/"
            for match in _REFS.finditer(plain):
                ref = next(g for g in match.groups() if g).decode()
                if ref.startswith(("http:", "https:", "//", "data:")):
                    continue  # another origin (telegram.org's script) or inline data
                queue.append(ref if ref.startswith("/") else folder + ref.removeprefix("./"))
        state = await http.get(f"{base}/api/g/{token}/state", headers=headers)
        seen["/api/.../state"] = len(await state.read())
    return sum(seen.values()), sorted(seen.items())


# --- watchers -----------------------------------------------------------------------------------
async def watchers(core: BotCore, base: str, key: bytes, pid: int, target: int, step: int,
                   ) -> list[tuple[int, float, float]]:
    """Open SSE watchers in steps; per step (count, added MB, seconds for one move to reach them all)."""
    gid = await new_game(core)
    token = WebLinks(key, base).token(gid)
    rng = random.Random(3)
    connector = aiohttp.TCPConnector(limit=0)
    rows: list[tuple[int, float, float]] = []
    async with aiohttp.ClientSession(connector=connector) as http:
        await asyncio.sleep(0.5)
        base_rss = rss_kb(pid)
        open_: list[Sse] = []
        version = (await (await http.get(f"{base}/api/g/{token}/state")).json())["version"]
        while len(open_) < target:
            batch = [open_sse(http, base, token, version) for _ in range(min(step, target - len(open_)))]
            open_.extend(await asyncio.gather(*batch))
            await asyncio.sleep(1.0)
            added = (rss_kb(pid) - base_rss) / 1024
            started = time.perf_counter()
            await chat_move(core, gid, rng)
            version = (await core.service.view_of(gid)).view.version  # type: ignore[union-attr]
            await asyncio.gather(*(s.state() for s in open_))
            rows.append((len(open_), added, time.perf_counter() - started))
            print(f"  {len(open_):6d} watchers: +{added:6.1f} MB RSS, a move reached all in "
                  f"{rows[-1][2] * 1000:7.1f} ms", flush=True)
            if added > 60:
                break
        for s in open_:
            s.resp.close()
    return rows


def state_builds(turns: int, builds: int) -> None:
    """Print how long the page's state takes to build for each game after ``turns`` random plays."""
    players = (PlayerRef("telegram", "1", "A"), PlayerRef("telegram", "2", "B"))
    for kind in GAMES:
        rng, game = random.Random(1), Game.new(dice=FairDice(bytes(32)), game=kind)
        while len(game.history) < turns and not game.is_over():
            game.play(rng.choice(game.legal_plays()))
        session = Session("bench", Place("telegram", "-1", "-1"), players, 1, Rules(), game, 0.0, 86400.0)
        times = []
        for _ in range(builds):
            t0 = time.perf_counter()
            state = base_state(session, 1)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"state {kind}: {len(game.history)} turns, base_state p50 {statistics.median(times):.2f} ms "
              f"p95 {pct(times, 0.95):.2f} ms, {len(encode(state)) / 1024:.1f} KB JSON")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def main(args: argparse.Namespace) -> None:
    _raise_fd_limit()
    state_builds(args.turns, args.builds)
    with tempfile.TemporaryDirectory() as tmp, LocalRedis(Path(tmp) / "redis") as redis:
        static = args.static or str(STATIC)
        if not (Path(static) / "game.html").is_file():
            print(f"(no game.html in {static}: first-load figures cover only what is there)")
        port = 18000 + os.getpid() % 1000
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), redis.url, static],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None and server.stdout.readline().strip() == "ready"
            core = await BotCore.create(store=RedisStore.from_url(redis.url), draw=args.draw)
            base, key = f"http://127.0.0.1:{port}", derive_key(SECRET)
            try:
                times = await latency(core, base, key, args.moves)
                print(f"chat move -> SSE: n={len(times)} p50={statistics.median(times) * 1000:.1f} ms "
                      f"p99={pct(times, 0.99) * 1000:.1f} ms max={max(times) * 1000:.1f} ms (target p99 <= 1000)")
                gid = await new_game(core)
                total, parts = await first_load(base, WebLinks(key, base).token(gid))
                print(f"first load: {total / 1024:.1f} KB gzip as served (target <= 150 KB): "
                      + ", ".join(f"{p} {n / 1024:.1f} KB" for p, n in parts))
                print("SSE watchers on one game (server process RSS):")
                rows = await watchers(core, base, key, server.pid, args.watchers, args.step)
                held = max((n for n, mb, _ in rows if mb <= 50), default=0)
                print(f"watchers held at <= 50 MB added: {held} (target >= 2000)")
            finally:
                await core.close()
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--serve":
        asyncio.run(serve(int(sys.argv[2]), sys.argv[3], sys.argv[4]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--watchers", type=int, default=4000)
    parser.add_argument("--step", type=int, default=500)
    parser.add_argument("--static", default=None, help="the page's folder (default bot/web/static)")
    parser.add_argument("--draw", action="store_true", help="draw the board PNG on each chat move, as the chats do")
    parser.add_argument("--turns", type=int, default=60, help="turns of each game whose state is built")
    parser.add_argument("--builds", type=int, default=200, help="state builds timed per game")
    parser.add_argument("--smoke", action="store_true", help="the smallest run: 2 moves, up to 20 watchers")
    args = parser.parse_args()
    if args.smoke:
        args.moves, args.watchers, args.step, args.turns, args.builds = 2, 20, 10, 10, 5
    asyncio.run(main(args))
