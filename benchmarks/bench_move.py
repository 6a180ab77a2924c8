"""Where a drawn move's time goes: moves played one at a time (closed loop, no queue) through a bot instance
as ``scale_load.py`` runs it (BotCore on a private redis-server, its outbox consumer and timer tick), the
board drawn; each layer timed by wrapping it: parse, engine (``Game.play``), Redis reads and commits, the
rest of the service, the text board, the picture (drawing and PNG encoding, in the worker thread), the
rest of presenting (the hop to the thread included), showing it through the board tracker, and the outbox
consumer's work on the move's entries. Prints per layer the mean and p50 ms a move, and the CPU a move
costs on the event loop's thread and in the drawing threads.

    python benchmarks/bench_move.py                 # 300 moves over 50 games
    python benchmarks/bench_move.py --smoke         # 10 moves
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the load's helpers live with the tests

import scale_load

import bot.chat.draw_pool
import bot.chat.presenter
import renderers.board_png
from bot import event_loop
from bot.chat.core import BotCore
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.delivery import OutboxConsumer
from bot.service.ai import RandomAI
from bot.storage import LocalRedis, RedisStore
from fevga import format_play
from fevga.game import Game
from tests.scale.worker import NullPlatform, ticking
from tests.service.helpers import random_play

WALL: dict[str, list[float]] = defaultdict(list)  # layer -> ms of each call during the measured moves
MEASURING = False


def timed_sync(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` with its wall time recorded under ``name`` (a sync function: its wall time is its CPU)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            if MEASURING:
                WALL[name].append((time.perf_counter() - start) * 1000)

    return wrapper


def timed_async(name: str, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``fn`` with its wall time (its awaits included) recorded under ``name``."""

    @functools.wraps(fn)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        finally:
            if MEASURING:
                WALL[name].append((time.perf_counter() - start) * 1000)

    return wrapper


def instrument() -> None:
    """Wrap every layer a move goes through (class attributes and the names the callers imported)."""
    Game.play = timed_sync("engine: Game.play (parse the play, legal plays, apply)", Game.play)  # type: ignore[method-assign]
    RedisStore.read = timed_async("redis: reads (round trips included)", RedisStore.read)  # type: ignore[method-assign]
    RedisStore.commit = timed_async("redis: commit (round trip included)", RedisStore.commit)  # type: ignore[method-assign]
    bot.chat.presenter.render_text = timed_sync("present: text board", bot.chat.presenter.render_text)
    renderers.board_png.render_board_image = timed_sync("render: draw (worker thread)",
                                                        renderers.board_png.render_board_image)
    bot.chat.draw_pool.render_board = timed_sync("render: draw + PNG encode (worker thread)",
                                                 bot.chat.draw_pool.render_board)
    OutboxConsumer._handle_and_ack = timed_async(  # type: ignore[method-assign]
        "outbox consumer: an entry handled (background)", OutboxConsumer._handle_and_ack)


async def run(games: int, moves: int) -> None:
    """Set the games up, warm up, then play ``moves`` moves one at a time and print the breakdown."""
    global MEASURING
    with tempfile.TemporaryDirectory() as tmp, LocalRedis(Path(tmp) / "redis") as redis:
        core = await BotCore.create(redis_url=redis.url, draw=False, ai=RandomAI(1))
        platform = NullPlatform()
        consumer = core.delivery(scale_load.PLATFORM, platform, platform, group="bench:move", consumer="c0")
        stop = asyncio.Event()
        background = [asyncio.create_task(consumer.run(block_ms=500)), asyncio.create_task(ticking(core, stop))]
        load = scale_load.Load(core, consumer, "m", 0, games)
        await load.setup()
        core.draw = True
        rng = random.Random(5)
        per_move: list[float] = []
        loop_cpu = process_cpu = 0.0
        for n in range(moves + 20):  # the first 20 warm the picture's caches up
            if n == 20:
                MEASURING = True
                loop_cpu, process_cpu = time.thread_time(), time.process_time()
            slot = load.slots[n % games]
            view = slot.view
            assert view is not None and view.dice is not None
            actor = view.players[view.turn]
            start = time.perf_counter()
            intent = timed_sync("parse: the typed play", parse_command)(format_play(random_play(view, rng)))
            result = await timed_async("service: execute (all of it)", execute)(
                core.service, actor, slot.place, intent, idem=load.idem())
            lang = await core.language(actor, slot.place)
            replies = await timed_async("present: all of it (picture included)", bot.chat.presenter.present_safely)(
                result, lang, actor, draw=True)
            board = next((r for r in replies if r.game_id and r.version), None)
            if board is not None and board.game_id and board.version:
                await timed_async("show: board tracker (outbox entry, platform call)", consumer.tracker.show)(
                    board.game_id, board.version, hint=board, place=slot.place, budget=0.0)
            if MEASURING:
                per_move.append((time.perf_counter() - start) * 1000)
            slot.view = result.view if result.ok and result.view is not None else (
                await core.service.board(actor, slot.place)).view
            if slot.view is None or slot.view.status != "play":
                await load.start_game(n % games)
            await asyncio.sleep(0.01)  # the consumer and the tick run between moves, as under a steady load
        loop_cpu, process_cpu = time.thread_time() - loop_cpu, time.process_time() - process_cpu
        MEASURING = False
        stop.set()
        await consumer.stop()
        for task in background:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*background, return_exceptions=True)
        await core.close()
    print(f"{moves} drawn moves over {games} live games, one at a time (load {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores, {event_loop.loop_name()} event loop)")
    print(f"  {'layer':62} {'calls/move':>10} {'mean ms/move':>12} {'p50 ms/call':>11}")
    for name, values in sorted(WALL.items()):
        print(f"  {name:62} {len(values) / moves:10.2f} {sum(values) / moves:12.3f} {statistics.median(values):11.3f}")
    print(f"  {'a whole move (typed play -> board shown)':62} {1:10.2f} {statistics.mean(per_move):12.3f} "
          f"{statistics.median(per_move):11.3f}")
    print(f"CPU a move: {1000 * process_cpu / moves:.2f} ms, of which the event loop's thread "
          f"{1000 * loop_cpu / moves:.2f} ms and the drawing threads {1000 * (process_cpu - loop_cpu) / moves:.2f} ms "
          f"(outbox consumer and timer tick included)")


def main() -> None:
    """Parse the command line and run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--smoke", action="store_true", help="the smallest run: 10 moves over 5 games")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.moves = 5, 10
    instrument()
    event_loop.tune_gc()  # as the bot does after its imports
    event_loop.tune_threads()  # the loop waits at most ~1 ms for the GIL (FEVGA_SWITCH_MS)
    event_loop.run(run(args.games, args.moves))  # the bot's loop: uvloop when installed


if __name__ == "__main__":
    main()
