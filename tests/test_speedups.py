"""The speed-ups the bot depends on are picked up: uvloop runs the bot (bot/event_loop.py; asyncio's loop when
turned off), and redis-py parses replies with hiredis."""

from __future__ import annotations

import asyncio

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


def test_redis_py_parses_replies_with_hiredis() -> None:
    import redis.connection

    assert redis.connection.DefaultParser.__name__ == "_HiredisParser"
