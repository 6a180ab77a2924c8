"""The fast group game, shared by the Telegram and Discord tests and ``benchmarks/bench_delivery.py``: two
players move every 4 s in a group whose budget the stand-in enforces; each board must show its move quickly,
no ping may be sent while both keep moving, and the player who then stays idle gets one ping after the idle
time. Every duration is divided by one ``factor`` (1 in the benchmark: real time; larger in CI)."""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from renderers import board_png

MOVE_EVERY = 4.0  # seconds between two moves (real time)
IDLE = 30.0  # the group's ping_after (real time)
BOARD_P95 = 5.0  # every board shows its move within this (p95, real time)


@dataclass(frozen=True)
class Scale:
    """Real durations divided by ``factor``."""

    factor: float = 1.0

    def __call__(self, seconds: float) -> float:
        return seconds / self.factor


# The tests' speed-up, ``FEVGA_FAST_SCALE`` (default 4: a stall of the machine counts 4 times; at 8, one 0.7 s stall
# of a loaded CI machine failed the p95); the benchmark runs the game in real time.
TEST_SCALE = Scale(float(os.environ.get("FEVGA_FAST_SCALE", "4")))


@dataclass
class Chat:
    """What the driver needs of one chat stack: move (returning the version the board must reach), the
    version the board shows, the turn pings sent so far (deleted ones too) and the group's platform calls."""

    move: Callable[[], Awaitable[int]]
    shown: Callable[[], Awaitable[int]]
    pings: Callable[[], int]
    calls: Callable[[], int]
    committed: Callable[[], Awaitable[int]]


@dataclass
class Outcome:
    """What one fast game measured (seconds are real time: scaled back by the factor)."""

    plies: int = 0
    lags: list[float] = field(default_factory=list)  # move sent -> its board shown, real seconds
    calls: int = 0  # the group's platform calls while moving (boards, pings, notices)
    changes: int = 0  # committed versions while moving
    pings_while_moving: int = 0
    ping_after: float | None = None  # real seconds from the last move to the idle player's ping
    pings_later: int = 0  # pings in the 2.2 idle times after the last move (exactly one expected)

    def p(self, q: float) -> float:
        """The ``q`` quantile of the board lags (real seconds)."""
        ordered = sorted(self.lags)
        return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")

    def summary(self) -> str:
        """One line for the test's output and the benchmark."""
        return (f"{self.plies} plies: {self.calls / max(self.changes, 1):.2f} calls per change, board lag "
                f"p50 {statistics.median(self.lags):.2f} s, p95 {self.p(0.95):.2f} s, pings while moving "
                f"{self.pings_while_moving}, idle ping after {self.ping_after or float('nan'):.1f} s "
                f"({self.pings_later} in all)")


async def warm_up() -> None:
    """Build the board renderer's cached layers first, as a bot does at start-up (else the first two boards of
    a process take about a second each to draw, which this game would count as delivery lag)."""
    await asyncio.to_thread(board_png.warm_up)


async def until(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    """Wait until ``check()`` is true (AssertionError naming ``what`` after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def play_fast_game(chat: Chat, plies: int, scale: Scale) -> Outcome:
    """Move every ``MOVE_EVERY`` (scaled) for ``plies`` plies, then stay idle for a little over twice the idle
    time (one ping expected, after the idle time, and no second one)."""
    out = Outcome()
    sent: dict[int, float] = {}  # version -> when its move was sent
    seen: dict[int, float] = {}
    done = asyncio.Event()

    async def watch() -> None:
        while not done.is_set():
            shown = await chat.shown()
            now = time.monotonic()
            for version in sent:
                if version <= shown and version not in seen:
                    seen[version] = now
            await asyncio.sleep(0.01)

    watcher = asyncio.create_task(watch())
    pings0, calls0, first = chat.pings(), chat.calls(), await chat.committed()
    previous = time.monotonic()  # the first move too comes a move's time after the board
    try:
        for _ in range(plies):
            # a move's time after the previous one, never sooner: a player does not hurry to catch up with a
            # clock after a stall of the machine (a burst of moves would be a different test)
            await asyncio.sleep(max(0.0, previous + scale(MOVE_EVERY) - time.monotonic()))
            previous = time.monotonic()
            expected = max(sent, default=first)  # the player sees the last move before he makes his
            await until(lambda e=expected: _at_least(chat.committed, e), scale(MOVE_EVERY) * 4, "the last move")
            version = await chat.move()
            if version <= 0:
                break  # the game is over
            sent[version] = time.monotonic()
            out.plies += 1
        last = time.monotonic()
        await until(lambda: _at_least(chat.shown, max(sent)), scale(MOVE_EVERY) * 5, "the last board")
        out.changes = await chat.committed() - first
        out.calls = chat.calls() - calls0
        out.pings_while_moving = chat.pings() - pings0
        while chat.pings() == pings0 + out.pings_while_moving and time.monotonic() < last + scale(IDLE) * 2:
            await asyncio.sleep(0.01)
        if chat.pings() > pings0 + out.pings_while_moving:
            out.ping_after = (time.monotonic() - last) * scale.factor
        await asyncio.sleep(max(0.0, last + scale(IDLE) * 2.2 - time.monotonic()))
        out.pings_later = chat.pings() - pings0 - out.pings_while_moving
    finally:
        done.set()
        await watcher
    out.lags = [(seen[v] - sent[v]) * scale.factor for v in sent if v in seen]
    out.lags += [float("inf")] * (len(sent) - len(out.lags))  # a board never shown counts as late
    return out


async def _at_least(value: Callable[[], Awaitable[int]], version: int) -> bool:
    """True once the awaited ``value()`` has reached ``version``."""
    return await value() >= version
