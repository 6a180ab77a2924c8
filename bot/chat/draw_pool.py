"""Where a board picture is drawn: a worker thread of the bot's process (the default), or, with
``FEVGA_DRAW_PROCESSES=N``, a pool of N processes of its own.

A thread shares the GIL with the event loop: while it builds the picture (Python and Pillow code) the loop waits for
it. A process pool takes the drawing off the bot's process altogether, for a copy of the scene (~0.2-2 KB pickled)
and of the PNG (~25 KB) per board. A pool that breaks (a worker killed) is replaced, and the board that failed is
drawn in a thread, so a reply never fails for it.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from renderers.board_png import render_board, warm_up
from renderers.scene import BoardScene

log = logging.getLogger(__name__)

_pool: ProcessPoolExecutor | None = None
_configured: int | None = None  # from the checked settings (``python -m bot``), else the environment is read


def set_processes(count: int) -> None:
    """The number of drawing processes from the bot's settings (``FEVGA_DRAW_PROCESSES``, checked at start-up)."""
    global _configured
    _configured = count


def draw_processes() -> int:
    """How many drawing processes to use: the settings' number, else the environment's ``FEVGA_DRAW_PROCESSES``
    (for embedders and benchmarks; 0: draw in threads)."""
    if _configured is not None:
        return _configured
    raw = os.environ.get("FEVGA_DRAW_PROCESSES", "").strip()
    try:
        return max(0, int(raw or 0))
    except ValueError:
        log.error("FEVGA_DRAW_PROCESSES=%r is not a number: drawing in threads", raw)
        return 0


def _worker_start() -> None:
    """A drawing process's start: one BLAS thread, then the tiles and fonts cached before the first board."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    warm_up()


def pool() -> ProcessPoolExecutor | None:
    """The drawing processes (started on first use, with ``spawn``: never a fork of a process running an event
    loop and threads), or None when boards are drawn in threads."""
    global _pool
    if _pool is None and (count := draw_processes()) > 0:
        _pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start)
    return _pool


def shut_down() -> None:
    """Stop the drawing processes (a new pool starts on the next board)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


async def draw_board(scene: BoardScene, perspective: int) -> bytes:
    """The board as PNG bytes, drawn off the event loop: in a drawing process if there is a pool, else a thread."""
    workers = pool()
    if workers is not None:
        try:
            return await asyncio.get_running_loop().run_in_executor(workers, render_board, scene, perspective)
        except BrokenProcessPool:
            log.error("a drawing process died: starting new ones; this board is drawn in a thread")
            shut_down()
        except pickle.PicklingError:  # e.g. a wrapped renderer (a benchmark's timer): it runs here instead
            log.warning("the board could not be sent to a drawing process: drawn in a thread", exc_info=True)
    return await asyncio.to_thread(render_board, scene, perspective)
