"""The event loop the bot runs on: uvloop (libuv, a faster loop in C) when it is installed, else asyncio's own;
and the garbage collector's settings for a long-running bot process (:func:`tune_gc`).

uvloop cuts the loop's own share of a move (callbacks, sockets to Redis and the platforms); nothing in the bot
depends on which loop runs it, so a machine without uvloop (or with the setting ``FEVGA_EVENT_LOOP=asyncio``) uses
asyncio's default.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

GC_THRESHOLDS = (20_000, 10, 10)  # gen 0 collected after 20,000 allocations (Python: 700)
SWITCH_MS = 1.0  # the GIL's switch interval (Python: 5 ms): how long the loop may wait for a drawing thread


def loop_factory(choice: str | None = None) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory when uvloop is importable and not turned off (``choice``, else the environment's
    ``FEVGA_EVENT_LOOP``); None for asyncio's default loop."""
    if (choice or os.environ.get("FEVGA_EVENT_LOOP", "")).strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run(main: Coroutine[Any, Any, T], choice: str | None = None) -> T:
    """``asyncio.run(main)`` on the loop :func:`loop_factory` picks."""
    with asyncio.Runner(loop_factory=loop_factory(choice)) as runner:
        return runner.run(main)


def loop_name() -> str:
    """Which loop :func:`run` uses: ``uvloop`` or ``asyncio`` (for logs and benchmarks)."""
    return "asyncio" if loop_factory() is None else "uvloop"


def tune_gc(choice: str | None = None) -> bool:
    """Freeze what start-up made (modules, catalogues, the AI's weights: the collector never looks at them again)
    and collect the youngest generation less often, so that a full collection (it walks every tracked object, and
    stops the event loop while it does) takes less time; False when turned off (``choice`` or the environment's
    ``FEVGA_GC`` set to ``default``). Call once, after the imports and before serving."""
    if (choice or os.environ.get("FEVGA_GC", "")).strip().lower() == "default":
        return False
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return True


def tune_threads(switch_ms: float | None = None) -> float:
    """Let a thread that waits for the GIL (the event loop, while a board is drawn in a worker thread) get it after
    ``switch_ms`` (default: the environment's ``FEVGA_SWITCH_MS``, else :data:`SWITCH_MS`) instead of Python's
    5 ms, so that drawing beside the loop adds less to a move's wait; the interval set (ms)."""
    if switch_ms is None:
        switch_ms = float(os.environ.get("FEVGA_SWITCH_MS", "") or SWITCH_MS)
    sys.setswitchinterval(switch_ms / 1000)
    return switch_ms
