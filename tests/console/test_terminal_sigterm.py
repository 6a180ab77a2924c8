"""SIGTERM (``kill``, ``timeout``, a container stop) and SIGHUP (the terminal closed) end the terminal chat as
Ctrl-C does, in order: the real ``python -m bot`` with no token, waiting at its prompt, exits 0 without a
traceback, and its private redis-server is stopped with SIGTERM (its AOF flushed: the game it started is still
there) and the folder released."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis

from bot.config import Settings
from bot.storage import LocalRedis
from bot.storage.local_redis import pid_alive, servers_on

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Screen:
    """Everything a process writes to one of its pipes, read in a thread (the prompt ends no line)."""

    def __init__(self, stream: object) -> None:
        self.text = ""
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: object) -> None:
        for chunk in iter(lambda: stream.read1(4096), b""):  # type: ignore[attr-defined]
            self.text += chunk.decode(errors="replace")

    def wait_for(self, words: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and words not in self.text:
            time.sleep(0.05)
        return words in self.text

    def done(self) -> str:
        self._thread.join(10)
        return self.text


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])  # SIGHUP: the terminal closed, an ssh drop
def test_sigterm_at_the_prompt_stops_the_terminal_chat_in_order(tmp_path: Path, sig: signal.Signals) -> None:
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    env.update(PYTHONPATH=str(REPO), OPENBLAS_NUM_THREADS="1", FEVGA_DATA_DIR=str(data), WEB_PORT=str(free_port()))
    bot = subprocess.Popen([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # stdin open: it waits for a line
    out, err = Screen(bot.stdout), Screen(bot.stderr)
    try:
        assert out.wait_for("fevga> ", 90), out.text + err.text  # the game against the AI started, then the prompt
        info = json.loads((data / "redis" / "redis.pid").read_text())
        assert info["owner"] == bot.pid and pid_alive(info["server"])
        bot.send_signal(sig)
        started = time.monotonic()
        code = bot.wait(30)
        took = time.monotonic() - started
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
        assert bot.stdin is not None
        bot.stdin.close()
    screen, errors = out.done(), err.done()
    assert code == 0, (code, screen[-500:], errors)  # not -15: the signal was handled, not fatal
    assert "Traceback" not in screen + errors and 'File "' not in screen + errors, errors
    assert not pid_alive(info["server"]) and servers_on((data / "redis").resolve()) == []
    assert not (data / "redis" / "redis.pid").exists()  # stopped by the bot itself, the folder released
    log = (data / "redis" / "redis.log").read_text()
    assert "Received SIGTERM" in log and "bye bye" in log  # a graceful shutdown: the AOF written out
    said = (data / "fevga.log").read_text()  # the bot's log, not the screen, says why it stopped
    assert "stopping" in said and "signal" in said and "stopping" not in screen
    with LocalRedis(data / "redis") as again:  # the game it started is on disk
        client = redis.Redis(port=again.port)
        assert client.dbsize() > 0
        client.close()
    print(f"exited 0 in {took:.2f} s after {sig.name}")
