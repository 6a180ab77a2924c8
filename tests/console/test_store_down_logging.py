"""With the store down, one command logs one ERROR line (the layers under it warn in one line each, without a
traceback), and the timers' loop says the outage once when it starts and once when it ends, not every tick."""

from __future__ import annotations

import io
import logging
import os
import signal
from pathlib import Path

import pytest

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from bot.storage import LocalRedis, RedisStore

pytestmark = pytest.mark.timeout(90)


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_one_command_against_a_down_store_logs_one_error_line(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    redis = LocalRedis(tmp_path / "redis", restarts=False)  # stays down until started again: an outage
    redis.start()
    core = await BotCore.create(store=RedisStore.from_url(redis.url), draw=False)
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.start()
        assert redis.server_pid is not None
        os.kill(redis.server_pid, signal.SIGKILL)
        with caplog.at_level(logging.DEBUG):
            for line in ("board", "1/7 7/12", "stats", "challenge friend", "lang el"):
                caplog.clear()
                await chat.command(line)
                assert out.getvalue().rstrip().endswith("please try again in a moment.") or "!" in out.getvalue()
                assert len(errors(caplog)) == 1, (line, [(r.levelname, r.getMessage()) for r in caplog.records])
                [error] = errors(caplog)
                assert "the store is unavailable" in error.getMessage() and error.exc_info is None
                warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
                assert warnings and all(r.exc_info is None for r in warnings)  # one line each, no traceback
            caplog.clear()
            for _ in range(3):  # the timers' loop: the outage said once, not every tick
                assert await core.tick() == []
            assert len(errors(caplog)) == 1 and "timers: the store is unavailable" in errors(caplog)[0].getMessage()
            redis.start()  # back on the same port
            caplog.clear()
            await core.tick()
            await core.tick()
            assert errors(caplog) == []
            assert len([r for r in caplog.records if "timers: the store works again" in r.getMessage()]) == 1
    finally:
        await core.close()
        redis.stop()
