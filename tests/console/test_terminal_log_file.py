"""The terminal chat keeps its screen for the chat: while it runs, the bot's log goes to
``<FEVGA_DATA_DIR>/fevga.log``. With its Redis killed mid-session, the chat says the store cannot be reached
and no traceback crosses the screen; the errors are in the log file."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .screen import read_until

pytestmark = pytest.mark.timeout(120)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_store_killed_mid_session_is_said_in_the_chat_and_logged_to_the_file(tmp_path: Path) -> None:
    port = _free_port()
    redis = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port), "--save", "",
                              "--appendonly", "no", "--bind", "127.0.0.1"], stdout=subprocess.DEVNULL)
    env = {**os.environ, "REDIS_URL": f"redis://127.0.0.1:{port}/0", "FEVGA_DATA_DIR": str(tmp_path),
           "WEB_PORT": str(_free_port()), "HEALTH_PORT": "", "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": "",
           "OPENBLAS_NUM_THREADS": "1", "FEVGA_AI_LEVEL": "easy"}
    bot = subprocess.Popen([sys.executable, "-m", "bot"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    seen: list[str] = []
    try:
        for _ in range(50):  # redis-server up
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        read_until(bot, "The bot's log:", seen)
        assert str(tmp_path / "fevga.log") in seen[-1]
        read_until(bot, "[Resign]", seen)  # the first board's buttons: the chat waits for a line
        redis.kill()
        redis.wait()
        assert bot.stdin is not None
        bot.stdin.write("board\n")
        bot.stdin.flush()
        read_until(bot, "cannot be reached", seen)
        bot.stdin.write("quit\n")
        bot.stdin.flush()
        _out, err = bot.communicate(timeout=60)
    finally:
        for proc in (bot, redis):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    screen = "".join(seen)
    assert "Traceback" not in screen and "Traceback" not in err, err[-2000:]
    logged = (tmp_path / "fevga.log").read_text(encoding="utf-8")
    assert "error" in logged.lower() and len(logged.splitlines()) >= 1
