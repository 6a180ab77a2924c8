"""One load process of ``bench_scale.py``: a bot instance (BotCore, its outbox consumer and timer tick, as the
bot runs them) that starts its share of the live games, then plays moves at the fixed arrival rates the
coordinator asks for on stdin, and answers each step with the latency of every move on stdout.

Open loop: move i is *due* at ``t0 + i / rate`` whatever happened before; its latency runs from when it was
due to when its reply (and, with drawing, the board picture) was ready and the board tracker was told, so a
slow instance is charged for the queue it builds (no coordinated omission).

Protocol (JSON lines): stdout ``{"ready": games}``; stdin ``{"rate": r, "seconds": s, "draw": bool}`` ->
stdout ``{"ms": [...], "errors": n, "skipped": n, "cpu": s, "loop_cpu": s}`` (``cpu``: the whole process,
``loop_cpu``: the event loop's thread alone; the rest is the drawing threads); stdin ``{"quit": true}`` ends
it. ``--profile FILE`` writes a cProfile of the event loop's thread (CPU time, the steps only) at the end.
Moves still unanswered 30 s after a step count as errors; ``kill -USR1`` prints every task's stack to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import logging
import os
import random
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the null platform lives with the tests

from bot import event_loop
from bot.chat.core import BotCore
from bot.chat.presenter import present_safely
from bot.commands import intents
from bot.commands.executor import execute
from bot.delivery import OutboxConsumer
from bot.service import GameView, Place, PlayerRef, Result
from bot.service.ai import RandomAI
from tests.scale.worker import NullPlatform, ticking
from tests.service.helpers import random_play

PLATFORM = "discord"
SETUP_IN_FLIGHT = 32
STUCK_SECONDS = 30.0  # a move not answered this long after its step ended counts as failed (the step ends)


def dump_tasks() -> None:
    """Print where every task waits (its chain of awaits) to stderr (``kill -USR1`` a process that seems stuck)."""
    for task in asyncio.all_tasks():
        chain, awaited = [], task.get_coro()
        while awaited is not None and hasattr(awaited, "cr_frame") and awaited.cr_frame is not None:
            frame = awaited.cr_frame
            chain.append(f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {frame.f_code.co_name}")
            awaited = getattr(awaited, "cr_await", None)
        print("task:", " > ".join(chain), repr(awaited)[:80], file=sys.stderr)
    sys.stderr.flush()


class GcPauses:
    """The garbage collector's pauses (``gc.callbacks``): how many of each generation, the longest and their sum (ms),
    since the last :meth:`take`; a full collection over 10,000 cached games is one cause of a latency tail."""

    def __init__(self) -> None:
        self.began = 0.0
        self.counts = [0, 0, 0]
        self.longest = [0.0, 0.0, 0.0]
        self.total = [0.0, 0.0, 0.0]
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        """Time each collection from its start to its stop."""
        if phase == "start":
            self.began = time.perf_counter()
            return
        generation = info["generation"]
        pause = (time.perf_counter() - self.began) * 1000
        self.counts[generation] += 1
        self.longest[generation] = max(self.longest[generation], pause)
        self.total[generation] += pause

    def take(self) -> dict[str, object]:
        """The counts and longest pauses so far, then start again."""
        out = {"count": list(self.counts), "max_ms": [round(x, 2) for x in self.longest],
               "total_ms": [round(x, 1) for x in self.total]}
        self.counts, self.longest, self.total = [0, 0, 0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]
        return out


@dataclass
class Slot:
    """One live game: its channel, its players and the view after its last move."""

    place: Place
    players: tuple[PlayerRef, PlayerRef]
    view: GameView | None = None


class Load:
    """The games of this process and the moves played on them."""

    def __init__(self, core: BotCore, consumer: OutboxConsumer, run: str, first: int, last: int) -> None:
        self.core, self.consumer = core, consumer
        self.rng = random.Random(f"{run}:{first}")
        self.slots = [Slot(Place(PLATFORM, "bench", f"{run}-c{n}"),
                           (PlayerRef(PLATFORM, f"{run}a{n}", f"a{n}"), PlayerRef(PLATFORM, f"{run}b{n}", f"b{n}")))
                      for n in range(first, last)]
        self.ready: deque[int] = deque()
        self.errors = 0
        self._idem = 0

    def idem(self) -> str:
        """A fresh idempotency key (as a platform's update id)."""
        self._idem += 1
        return f"{os.getpid()}:{self._idem}"

    async def start_game(self, n: int) -> None:
        """A challenge and its acceptance in slot ``n``'s channel (not timed)."""
        slot = self.slots[n]
        a, b = slot.players
        error: object = None
        for _ in range(20):
            try:
                await self.core.service.challenge(a, slot.place, b, 1, idem=self.idem())
                accepted = await self.core.service.accept(b, slot.place, idem=self.idem())
                if accepted.ok and accepted.view is not None:
                    slot.view = accepted.view
                    await self.show(accepted, slot.place, b)
                    return
                error = accepted.error_key
            except Exception as exc:  # a board that could not be shown: the outbox shows it later
                if slot.view is not None:
                    return
                error = exc
            await asyncio.sleep(0.1)
        raise RuntimeError(f"could not start game {n}: {error}")

    async def setup(self) -> None:
        """Start every game, ``SETUP_IN_FLIGHT`` at a time."""
        gate = asyncio.Semaphore(SETUP_IN_FLIGHT)

        async def one(n: int) -> None:
            async with gate:
                await self.start_game(n)

        await asyncio.gather(*(one(n) for n in range(len(self.slots))))
        self.ready.extend(range(len(self.slots)))
        while True:  # let the outbox consumer catch up with the setup's entries before measuring
            handled = self.consumer.handled
            await asyncio.sleep(1.0)
            if self.consumer.handled == handled:
                break

    async def show(self, result: Result, place: Place, actor: PlayerRef) -> None:
        """Present ``result`` and show its board through the tracker, as a frontend does after a command."""
        lang = await self.core.language(actor, place)
        replies = await present_safely(result, lang, actor, draw=self.core.draw, text_board=False)  # as the chats
        board = next((r for r in replies if r.game_id and r.version), None)
        if board is not None and board.game_id and board.version:
            await self.consumer.tracker.show(board.game_id, board.version, hint=board, place=place, budget=0.0)

    async def move(self, n: int, due: float, times: list[float]) -> None:
        """Slot ``n``'s next move the way a frontend handles a typed play: the reply presented (the board
        drawn when drawing) and shown through the board tracker; its latency from ``due``."""
        slot = self.slots[n]
        view = slot.view
        assert view is not None and view.dice is not None
        actor = view.players[view.turn]
        try:
            result = await execute(self.core.service, actor, slot.place,
                                   intents.Move(random_play(view, self.rng)), idem=self.idem())
            await self.show(result, slot.place, actor)
            times.append((time.perf_counter() - due) * 1000)
            if not result.ok or result.view is None:
                self.errors += 1
                slot.view = (await self.core.service.board(actor, slot.place)).view
            else:
                slot.view = result.view
            if slot.view is None or slot.view.status != "play":
                await self.start_game(n)
        except Exception:  # e.g. the pool exhausted past the target: a failed move, as a frontend would log it
            times.append((time.perf_counter() - due) * 1000)
            self.errors += 1
        self.ready.append(n)

    async def step(self, rate: float, seconds: float, draw: bool) -> dict[str, object]:
        """Moves due every ``1 / rate`` s for ``seconds``; every latency (ms), errors, CPU seconds used."""
        self.core.draw = draw
        times: list[float] = []
        tasks: set[asyncio.Task[None]] = set()
        errors_before, skipped, cpu0, loop_cpu0 = self.errors, 0, time.process_time(), time.thread_time()
        t0, count = time.perf_counter() + 0.05, int(rate * seconds)
        for i in range(count):
            due = t0 + i / rate
            wait = due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            if not self.ready:
                skipped += 1  # every game has a move in flight: more load than games
                continue
            task = asyncio.create_task(self.move(self.ready.popleft(), due, times))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        stuck = 0
        if tasks:  # moves still unanswered long after the step are failures (an overloaded instance's queue)
            _, late = await asyncio.wait(set(tasks), timeout=seconds + STUCK_SECONDS)
            stuck = len(late)
        return {"ms": [round(t, 3) for t in times], "errors": self.errors - errors_before + stuck, "skipped": skipped,
                "cpu": round(time.process_time() - cpu0, 3), "loop_cpu": round(time.thread_time() - loop_cpu0, 3)}


async def main(args: argparse.Namespace) -> None:
    """Set up, then answer step requests until told to quit."""
    asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, dump_tasks)
    core = await BotCore.create(redis_url=args.redis_url, draw=False, ai=RandomAI(1))
    platform = NullPlatform()
    consumer = core.delivery(PLATFORM, platform, platform, group=f"{PLATFORM}:bench", consumer=f"load-{os.getpid()}")
    stop = asyncio.Event()
    background = [asyncio.create_task(consumer.run(block_ms=500)), asyncio.create_task(ticking(core, stop))]
    first, last = (int(x) for x in args.games.split(":"))
    load = Load(core, consumer, args.run, first, last)
    began = time.monotonic()
    await load.setup()
    print(json.dumps({"ready": len(load.slots), "setup_s": round(time.monotonic() - began, 1),
                      "loop": event_loop.loop_name()}), flush=True)
    pauses = GcPauses()
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    while True:
        line = await asyncio.to_thread(sys.stdin.readline)
        if not line:
            break
        order = json.loads(line)
        if order.get("quit"):
            break
        if profile is not None:
            profile.enable()
        pauses.take()
        answer = await load.step(float(order["rate"]), float(order["seconds"]), bool(order["draw"]))
        if profile is not None:
            profile.disable()
        answer["gc"] = pauses.take()
        print(json.dumps(answer), flush=True)
    if profile is not None:
        profile.dump_stats(args.profile)
    stop.set()
    await consumer.stop()
    for task in background:
        task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.gather(*background, return_exceptions=True)
    await core.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--run", required=True)
    parser.add_argument("--games", required=True, help="first:last (last excluded)")
    parser.add_argument("--profile", default="", help="write a cProfile of the event loop's thread here")
    logging.basicConfig(level=logging.CRITICAL)
    event_loop.tune_gc()  # as the bot does after its imports (FEVGA_GC=default: Python's own settings)
    event_loop.tune_threads()  # the loop waits at most ~1 ms for the GIL (FEVGA_SWITCH_MS)
    event_loop.run(main(parser.parse_args()))  # the bot's loop: uvloop when installed
