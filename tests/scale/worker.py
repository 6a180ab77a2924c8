"""One bot instance for the scale tests, as a real OS process: a BotCore on ``--redis-url`` with its outbox
consumer and timer tick running as the bot runs them, playing ``--matches`` matches on each of its tables
(``--tables first:last``) and journalling every acknowledged move to ``--out`` (JSON lines).

    python -m tests.scale.worker --redis-url URL --run r1 --tables 0:20 --matches 5 --out w0.jsonl
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import time

from bot.chat.core import BotCore
from bot.delivery import OutboxConsumer
from bot.delivery.replies import Notice, Reply
from bot.service import Place
from bot.service.ai import RandomAI

from .tables import PLATFORM, Journal, Table

TICK_SECONDS = 1.0


class NullPlatform:
    """A chat platform that takes every board and notice at once (the tests check the store, not chats)."""

    def __init__(self) -> None:
        self.calls = 0

    async def edit_board(self, ref: str, reply: Reply) -> bool:
        self.calls += 1
        return True

    async def post_board(self, place: Place, reply: Reply) -> str:
        self.calls += 1
        return f"{place.channel_id}:board"

    async def deliver_notice(self, notice: Notice) -> None:
        self.calls += 1


async def ticking(core: BotCore, stop: asyncio.Event) -> None:
    """``core.tick()`` every second, as the frontends' tick job does (timers, and on a cluster the sweep of
    cross-slot writes a failure left unfinished); a failed tick is retried next time."""
    while not stop.is_set():
        with contextlib.suppress(Exception):
            await core.tick(PLATFORM, notices=False)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), TICK_SECONDS)


async def main(args: argparse.Namespace) -> int:
    """Play every table's matches concurrently; exit 0 once all are finished."""
    core = await BotCore.create(redis_url=args.redis_url, draw=False, ai=RandomAI(1))
    platform = NullPlatform()
    consumer: OutboxConsumer = core.delivery(PLATFORM, platform, platform, group=f"{PLATFORM}:scale",
                                             consumer=f"{args.run}-{os.getpid()}")
    stop = asyncio.Event()
    background = [asyncio.create_task(consumer.run(block_ms=500)), asyncio.create_task(ticking(core, stop))]
    first, last = (int(x) for x in args.tables.split(":"))
    with open(args.out, "a", buffering=1, encoding="utf-8") as out:
        journal = Journal(out)
        journal.write(ready=os.getpid(), t=time.time())
        tables = [Table(core.service, journal, args.run, t, max_plies=args.max_plies,
                        rng=random.Random(f"{args.run}:{t}"), pace=args.pace) for t in range(first, last)]
        began = time.monotonic()
        await asyncio.gather(*(t.play_matches(args.matches) for t in tables))
        journal.write(finished=os.getpid(), acks=journal.acks, failures=journal.failures,
                      seconds=round(time.monotonic() - began, 3))
    stop.set()
    await consumer.stop()
    await asyncio.gather(*background, return_exceptions=True)
    await core.close()
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The worker's command line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--run", required=True, help="a name unique to this run (players, channels, keys)")
    parser.add_argument("--tables", required=True, help="first:last (last excluded)")
    parser.add_argument("--matches", type=int, default=1, help="1-point matches per table, one after the other")
    parser.add_argument("--max-plies", type=int, default=40, help="then the player to move resigns")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between a table's commands")
    parser.add_argument("--out", required=True)
    return parser.parse_args(argv)


if __name__ == "__main__":
    options = parse()
    # failed commands log their tracebacks: kept beside the journal, for reading after a failover
    logging.basicConfig(filename=f"{options.out}.log", level=logging.ERROR)
    raise SystemExit(asyncio.run(main(options)))
