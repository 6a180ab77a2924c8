"""Benchmark delivery that converges: a 100-ply game in a group through BotCore, the board tracker and the
outbox consumers, with 1 and with 2 instances on one local redis-server (commands round-robin over the
instances, each handler showing its own board like a frontend; a stand-in platform with a small delay).

Prints, per instance count: platform calls per committed change (board edits/posts, notices, and since
the turn pings one ping posted + the previous one deleted per turn: target 1 edit + 2 ping calls),
time from commit to board shown (p50/p99), and the convergence time after an
outage of the edit endpoint (the board shown after the platform recovers).

    python benchmarks/bench_delivery.py                  # 100 plies, a 30 s outage
    python benchmarks/bench_delivery.py --outage 3       # quick run

The fast-group case (``--fast-group``) plays tests/fastgroup.py's game through the real chat stacks (PTB and
discord.py, 1 and 2 instances on one Redis; Discord's 2 instances run one shard each) against the stand-ins
enforcing each place's budget (Telegram 20 calls a minute per group, Discord 5 per 5 s per channel): 60 plies
at a move every 4 s, then the player to move stays idle. Prints calls per change, board lag p50/p95 (move
sent -> board shown), pings sent while moving and the idle ping's delay. ``--scale 8`` runs it 8 times faster
(as the tests do); the default is real time.

    python benchmarks/bench_delivery.py --fast-group             # real time: about 5 minutes per run
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.chat.core import BotCore
from bot.delivery import OutboxConsumer, RetryLater
from bot.delivery.replies import Notice, Reply
from bot.service import Place, PlayerRef
from bot.storage import LocalRedis, RedisStore

ALICE, BOB = PlayerRef("telegram", "1", "alice"), PlayerRef("telegram", "2", "bob")
GROUP = Place("telegram", "-100", "-100")
PLATFORM_DELAY = 0.01  # seconds per platform call


@dataclass
class Platform:
    """A stand-in chat platform shared by the instances: counts calls, notes when each version was shown."""

    outage: bool = False
    calls: int = 0
    refused: int = 0
    shown_at: dict[int, float] = field(default_factory=dict)
    pings: int = 0  # turn pings posted (and game ends)
    deletes: int = 0  # earlier pings deleted

    async def _call(self) -> None:
        await asyncio.sleep(PLATFORM_DELAY)
        if self.outage:
            self.refused += 1
            raise RetryLater(0.2)
        self.calls += 1

    async def edit_board(self, ref: str, reply: Reply) -> bool:
        await self._call()
        self.shown_at.setdefault(reply.version or 0, time.monotonic())
        return True

    async def post_board(self, place: Place, reply: Reply) -> str:
        await self._call()
        self.shown_at.setdefault(reply.version or 0, time.monotonic())
        return "-100:1"

    async def deliver_notice(self, notice: Notice) -> None:
        await self._call()

    async def post_ping(self, place: Place, reply: Reply, board_ref: str | None) -> str | None:
        await self._call()
        self.pings += 1
        return f"-100:p{self.pings}"

    async def delete_ping(self, ref: str) -> None:
        await self._call()
        self.deletes += 1

    async def direct_ping(self, player: PlayerRef, reply: Reply, board_ref: str | None) -> None:
        await self._call()


async def play(cores: list[BotCore], consumers: list[OutboxConsumer], plies: int,
               committed: dict[int, float]) -> None:
    """Play ``plies`` turns round-robin over the instances, each handler showing its board."""
    for ply in range(plies):
        core, tracker = cores[ply % len(cores)], consumers[ply % len(cores)].tracker
        for player in (ALICE, BOB):
            plays = await core.suggest_plays(player, GROUP)
            if plays:
                handled = await core.handle_text(player, GROUP, plays[0])
                for reply in handled.replies:
                    if reply.game_id and reply.version:
                        committed[reply.version] = time.monotonic()
                        await tracker.show(reply.game_id, reply.version, hint=reply, place=GROUP, budget=0.0,
                                           wait=5.0)
                        pinger = consumers[ply % len(cores)].pinger
                        if pinger is not None:  # like a frontend: the ping right after its board
                            await pinger.ping(reply.game_id, reply.version, wait=5.0)
                break
        else:
            return


async def run(url: str, instances: int, plies: int, outage: float, settle: float = 4.0) -> None:
    stores = [RedisStore.from_url(url) for _ in range(instances)]
    await stores[0].client.flushall()
    cores = [await BotCore.create(store=s, draw=False) for s in stores]
    for core in cores:
        core.ping_after = 0.0  # this case counts a ping per turn (the fast-group case counts idle pings)
    platform = Platform()
    consumers = [c.delivery("telegram", platform, platform, group="telegram:bench", consumer=f"i{n}",
                            pinger=c.pinger(platform)) for n, c in enumerate(cores)]
    runs = [asyncio.create_task(c.run(block_ms=200)) for c in consumers]
    await cores[0].handle_text(ALICE, GROUP, "challenge @bob 25", mentions={"@bob": BOB})  # a long match
    accepted = await cores[-1].handle_text(BOB, GROUP, "accept")
    board = next(r for r in accepted.replies if r.game_id)
    assert board.game_id is not None and board.version is not None
    await consumers[-1].tracker.show(board.game_id, board.version, hint=board, place=GROUP, budget=0.0)
    calls_before, committed = platform.calls, {}
    pings_before, deletes_before = platform.pings, platform.deletes
    first_version = board.version
    await play(cores, consumers, plies, committed)
    await asyncio.sleep(settle)  # let the consumers look at every entry
    view = (await cores[0].service.view_of(board.game_id)).view
    assert view is not None
    changes = view.version - first_version
    latencies = sorted((platform.shown_at[v] - t) * 1000 for v, t in committed.items() if v in platform.shown_at)
    print(f"{instances} instance(s): {changes} committed changes, {platform.calls - calls_before} platform calls "
          f"= {(platform.calls - calls_before) / max(changes, 1):.2f} per change")
    print(f"  pings: {platform.pings - pings_before} posted, {platform.deletes - deletes_before} deleted "
          f"for {changes} changes (one ping per turn, the previous one deleted)")
    if latencies:
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(f"  commit -> board shown: p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms")

    if view.status == "play":
        platform.outage = True
        await play(cores, consumers, 1, committed)
        await asyncio.sleep(outage)
        platform.outage = False
        recovered = time.monotonic()
        target = (await cores[0].service.view_of(board.game_id)).view
        assert target is not None
        while (await consumers[0].tracker.shown(board.game_id))[0] < target.version:
            await asyncio.sleep(0.05)
        print(f"  after a {outage:.0f} s outage of the edit endpoint ({platform.refused} refusals): "
              f"board converged {time.monotonic() - recovered:.2f} s after recovery")
    for c in consumers:
        await c.stop()
    await asyncio.gather(*runs, return_exceptions=True)
    for core in cores:
        await core.close()


async def fast_group(url: str, plies: int, factor: float, chats: tuple[str, ...]) -> None:
    """The fast group game through the real stacks (imported from the tests, which run it scaled)."""
    from tests.discord.fast_group import discord_fast_game
    from tests.fastgroup import Scale
    from tests.telegram.fast_group import telegram_fast_game

    scale = Scale(factor)
    print(f"fast group, {plies} plies at a move every 4 s, idle ping after 30 s (time x{factor:g}):")
    for chat in chats:
        for instances in (1, 2):
            store = RedisStore.from_url(url)
            await store.client.flushall()
            await store.close()
            game = telegram_fast_game if chat == "telegram" else discord_fast_game
            outcome, refused = await game(url, instances=instances, plies=plies, scale=scale)
            print(f"  {chat}, {instances} instance(s): {outcome.summary()}; 429s answered: {refused}", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--outage", type=float, default=30.0, help="seconds the edit endpoint is down")
    parser.add_argument("--settle", type=float, default=4.0, help="seconds the consumers get after the plies")
    parser.add_argument("--smoke", action="store_true", help="the smallest run: 6 plies, a 0.5 s outage")
    parser.add_argument("--fast-group", action="store_true", help="the fast group game through the real stacks")
    parser.add_argument("--scale", type=float, default=1.0, help="fast group: time runs this many times faster")
    parser.add_argument("--chats", default="telegram,discord", help="fast group: which chat stacks")
    args = parser.parse_args()
    if args.smoke:
        args.plies, args.outage, args.settle = 6, 0.5, 0.5
    with tempfile.TemporaryDirectory() as tmp, LocalRedis(Path(tmp)) as server:
        if args.fast_group:
            await fast_group(server.url, 60, args.scale, tuple(args.chats.split(",")))
            return
        for instances in (1, 2):
            await run(server.url, instances, args.plies, args.outage, args.settle)


if __name__ == "__main__":
    asyncio.run(main())
