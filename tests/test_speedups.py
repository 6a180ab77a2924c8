"""The speed-ups the bot depends on are picked up: uvloop runs the bot (bot/event_loop.py; asyncio's loop when
turned off), and redis-py parses replies with hiredis."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import event_loop


async def _loop_class() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__


def test_uvloop_runs_the_bot_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FEVGA_EVENT_LOOP", raising=False)
    assert event_loop.loop_name() == "uvloop"
    assert event_loop.run(_loop_class()).startswith("uvloop")


def test_asyncio_loop_when_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FEVGA_EVENT_LOOP", "asyncio")
    assert event_loop.loop_factory() is None and event_loop.loop_name() == "asyncio"
    assert event_loop.run(_loop_class()).startswith("asyncio")


def _gc_after_tuning(setting: str) -> dict[str, object]:
    """In a fresh interpreter (the collector's settings are process-wide): tune_gc, then the collector's state."""
    code = ("import gc, json; from bot import event_loop; tuned = event_loop.tune_gc(); "
            "print(json.dumps({'tuned': tuned, 'threshold': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))")
    env = {**os.environ, "FEVGA_GC": setting, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=60)
    answer: dict[str, object] = json.loads(out.stdout)
    return answer


def test_tune_gc_freezes_start_up_and_collects_less_often_unless_turned_off() -> None:
    tuned = _gc_after_tuning("")
    assert tuned["tuned"] is True and tuned["threshold"] == list(event_loop.GC_THRESHOLDS)
    assert isinstance(tuned["frozen"], int) and tuned["frozen"] > 1000  # the modules imported so far
    default = _gc_after_tuning("default")
    assert default == {"tuned": False, "threshold": [700, 10, 10], "frozen": 0}


def test_redis_py_parses_replies_with_hiredis() -> None:
    import redis.connection

    assert redis.connection.DefaultParser.__name__ == "_HiredisParser"


def test_tune_threads_shortens_the_gil_switch_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    before = sys.getswitchinterval()
    try:
        monkeypatch.delenv("FEVGA_SWITCH_MS", raising=False)
        assert event_loop.tune_threads() == event_loop.SWITCH_MS
        assert sys.getswitchinterval() == pytest.approx(event_loop.SWITCH_MS / 1000)
        monkeypatch.setenv("FEVGA_SWITCH_MS", "2.5")
        assert event_loop.tune_threads() == 2.5 and sys.getswitchinterval() == pytest.approx(0.0025)
    finally:
        sys.setswitchinterval(before)


def test_young_collections_age_their_survivors_and_a_full_collection_frees_their_cycles() -> None:
    """After tune_gc, objects that survive a generation-1 collection are frozen (the automatic collections never walk
    the live games again), and full_collection still frees a cycle among them that died later."""
    code = (
        "import gc, json, weakref\n"
        "from bot import event_loop\n"
        "event_loop.tune_gc(full_every=0)\n"
        "class Node:\n"
        "    pass\n"
        "live = [Node() for _ in range(20000)]\n"  # many young collections, some of generation 1: aged
        "a, b = Node(), Node()\n"
        "a.other, b.other = b, a\n"
        "gone = weakref.ref(a)\n"
        "frozen_before = gc.get_freeze_count()\n"
        "junk = [[i] for i in range(20000)]\n"  # enough allocations for generation-1 collections to run
        "del a, b\n"  # the cycle dies after it was aged: only a full collection frees it
        "gc.collect(1)\n"
        "kept = gone() is not None\n"
        "pause = event_loop.full_collection()\n"
        "print(json.dumps({'before': frozen_before, 'after': gc.get_freeze_count(), 'kept': kept,\n"
        "                  'freed': gone() is None, 'pause': pause,\n"
        "                  'aging': event_loop._age_survivors in gc.callbacks}))\n"
    )
    env = {**os.environ, "FEVGA_GC": "", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, timeout=60)
    state = json.loads(out.stdout)
    assert state["aging"] is True
    assert state["before"] > 20000  # the live objects were frozen by the young collections' callback
    assert state["kept"] is True  # a young collection does not look at aged objects
    assert state["freed"] is True and state["pause"] >= 0  # the full collection did
    assert state["after"] > 20000  # and froze the survivors again
