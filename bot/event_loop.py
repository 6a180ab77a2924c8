"""The event loop the bot runs on: uvloop (libuv, a faster loop in C) when it is installed, else asyncio's own;
and the garbage collector's settings for a long-running bot process (:func:`tune_gc`).

uvloop cuts the loop's own share of a move (callbacks, sockets to Redis and the platforms); nothing in the bot
depends on which loop runs it, so a machine without uvloop (or with the setting ``FEVGA_EVENT_LOOP=asyncio``) uses
asyncio's default.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

GC_THRESHOLDS = (1_000, 5, 10)  # gen 0 after 1,000 allocations (Python: 700); a gen 1 collection walks <= ~5,000
FULL_EVERY = 3600.0  # seconds between the full collections that also look at the frozen (aged) objects
log = logging.getLogger(__name__)
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


def tune_gc(choice: str | None = None, full_every: float = FULL_EVERY) -> bool:
    """Keep the collector's pauses short in a long-running bot holding thousands of live games (each a few hundred
    tracked objects): start-up's objects are frozen, and so is whatever survives a generation-1 collection
    (:func:`_age_survivors`), so automatic collections only ever walk recent objects, never the live games;
    a full collection of everything runs every ``full_every`` s in a thread of its own (:func:`full_collection`).
    False when turned off (``choice`` or the environment's ``FEVGA_GC`` set to ``default``). Call once, after the
    imports and before serving."""
    if (choice or os.environ.get("FEVGA_GC", "")).strip().lower() == "default":
        return False
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    if _age_survivors not in gc.callbacks:
        gc.callbacks.append(_age_survivors)
        if full_every > 0:
            threading.Thread(target=_full_collections, args=(full_every,), name="gc-full", daemon=True).start()
    return True


def _age_survivors(phase: str, info: dict[str, int]) -> None:
    """After a generation-1 collection, freeze its survivors (they are in generation 2 now): objects that lived
    that long are the live games and caches, which refcounting frees when they are replaced; only a cycle among
    them that dies later waits for the next :func:`full_collection`."""
    if phase == "stop" and info.get("generation") == 1:
        gc.freeze()


def full_collection() -> float:
    """Unfreeze the aged objects, collect everything once (cycles among them included), freeze the survivors
    again; the pause in ms."""
    began = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return (time.perf_counter() - began) * 1000


def _full_collections(every: float) -> None:
    """Run :func:`full_collection` every ``every`` s, forever (a daemon thread)."""
    while True:
        time.sleep(every)
        log.info("full garbage collection: %.0f ms", full_collection())


def tune_threads(switch_ms: float | None = None) -> float:
    """Let a thread that waits for the GIL (the event loop, while a board is drawn in a worker thread) get it after
    ``switch_ms`` (default: the environment's ``FEVGA_SWITCH_MS``, else :data:`SWITCH_MS`) instead of Python's
    5 ms, so that drawing beside the loop adds less to a move's wait; the interval set (ms)."""
    if switch_ms is None:
        switch_ms = float(os.environ.get("FEVGA_SWITCH_MS", "") or SWITCH_MS)
    sys.setswitchinterval(switch_ms / 1000)
    return switch_ms
