"""Drawing boards in processes of their own (bot/chat/draw_pool.py, FEVGA_DRAW_PROCESSES): the same PNG as a
thread draws, a killed drawing process costs no board, and a bad setting falls back to threads."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Iterator

import pytest

from bot.chat import draw_pool
from fevga.position import Position
from renderers.board_png import render_board
from renderers.scene import BoardScene

SCENE = BoardScene(Position.start(), turn=0, dice=(6, 5))


@pytest.fixture
def one_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("FEVGA_DRAW_PROCESSES", "1")
    draw_pool.shut_down()
    yield
    draw_pool.shut_down()


@pytest.mark.timeout(60)
async def test_a_drawing_process_draws_what_a_thread_draws(one_process: None) -> None:
    png = await draw_pool.draw_board(SCENE, 1)
    assert png == render_board(SCENE, 1)
    workers = draw_pool.pool()
    assert workers is not None
    pids = {p.pid for p in workers._processes.values()}
    assert pids and os.getpid() not in pids


@pytest.mark.timeout(60)
async def test_a_killed_drawing_process_costs_no_board(one_process: None) -> None:
    await draw_pool.draw_board(SCENE, 0)  # the pool is up
    workers = draw_pool.pool()
    assert workers is not None
    for process in workers._processes.values():
        os.kill(process.pid, signal.SIGKILL)
    await asyncio.sleep(0.5)
    assert await draw_pool.draw_board(SCENE, 0) == render_board(SCENE, 0)  # drawn in a thread this time
    assert draw_pool.pool() is not workers  # and a new pool for the next board
    assert await draw_pool.draw_board(SCENE, 1) == render_board(SCENE, 1)


def test_threads_unless_a_number_of_processes_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for raw, expected in (("", 0), ("0", 0), ("2", 2), ("two", 0), ("-1", 0)):
        monkeypatch.setenv("FEVGA_DRAW_PROCESSES", raw)
        assert draw_pool.draw_processes() == expected
    monkeypatch.setenv("FEVGA_DRAW_PROCESSES", "0")
    draw_pool.shut_down()
    assert draw_pool.pool() is None
