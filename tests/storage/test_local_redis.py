"""The embedded redis-server lives and dies with the bot: one per data folder, none left behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from bot.storage import LocalRedis
from bot.storage.local_redis import free_port, pid_alive, servers_on

ROOT = Path(__file__).resolve().parents[2]


def _start_bot(data_dir: Path, first: int) -> tuple[subprocess.Popen[str], int]:
    """Start a stand-in bot on ``data_dir`` writing from ``first``; the process and its Redis port."""
    bot = subprocess.Popen([sys.executable, "-m", "tests.storage.bot_process", str(data_dir), str(first)],
                           cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert bot.stdout is not None
    head = bot.stdout.readline().split()
    assert head and head[0] == "ready", head
    return bot, int(head[1])


def _kill_after_writes(bot: subprocess.Popen[str], writes: int) -> list[int]:
    """Let the bot acknowledge ``writes`` writes, kill -9 it, and return every n it acknowledged."""
    assert bot.stdout is not None
    acked = [int(bot.stdout.readline()) for _ in range(writes)]
    bot.send_signal(signal.SIGKILL)
    bot.wait()
    acked += [int(line) for line in bot.stdout.read().split()]
    return acked


def _wait_for(check: object, timeout: float) -> bool:
    """Poll ``check()`` until true (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


@pytest.mark.timeout(60)
def test_kill_9_of_the_bot_twice_leaves_one_server_and_loses_no_write(tmp_path: Path) -> None:
    data = (tmp_path / "redis").resolve()
    acked: list[int] = []
    for round_ in range(3):
        bot, port = _start_bot(data, len(acked) and max(acked) + 1)
        assert len(servers_on(data)) == 1  # the previous one (if any) was stopped, not duplicated
        client = redis.Redis(port=port)
        missing = [n for n in acked if client.get(f"k{n}") != str(n).encode()]
        assert missing == []  # every acknowledged write survived the kill -9 of its bot
        client.close()
        if round_ == 2:
            bot.send_signal(signal.SIGKILL)
            bot.wait()
            assert bot.stdout is not None
            bot.stdout.close()
            break
        acked += _kill_after_writes(bot, 200)
        assert bot.stdout is not None
        bot.stdout.close()
    assert _wait_for(lambda: servers_on(data) == [], 5)  # the server follows its bot


@pytest.mark.timeout(30)
def test_a_second_starter_attaches_and_a_leftover_server_is_stopped(tmp_path: Path) -> None:
    data = (tmp_path / "redis").resolve()
    data.mkdir()
    orphan = subprocess.Popen(["redis-server", "--port", str(free_port()), "--dir", str(data), "--save", ""],
                              stdout=subprocess.DEVNULL)  # left by an old bot: no pidfile, no lock
    assert _wait_for(lambda: servers_on(data) == [orphan.pid], 5)
    first = LocalRedis(data)
    first.start()
    try:
        assert orphan.wait(10) == 0  # stopped gracefully before ours started
        assert servers_on(data) == [first.server_pid]
        second = LocalRedis(data)
        second.start()
        assert second.shared and second.port == first.port and second.server_pid == first.server_pid
        second.stop()
        assert first.server_pid is not None and pid_alive(first.server_pid)  # not the attacher's to stop
    finally:
        first.stop()
    assert servers_on(data) == [] and not (data / "redis.pid").exists()
    again = LocalRedis(data)  # the folder is free again after a clean stop
    again.start()
    try:
        assert not again.shared and servers_on(data) == [again.server_pid]
    finally:
        again.stop()


def test_the_watchdog_stops_the_server_when_the_owner_exits_without_stopping(tmp_path: Path) -> None:
    data = (tmp_path / "redis").resolve()
    code = ("import sys; from bot.storage import LocalRedis; s = LocalRedis(sys.argv[1]); s.start(); "
            "print(s.server_pid, flush=True)")
    out = subprocess.run([sys.executable, "-c", code, str(data)], cwd=ROOT, capture_output=True, text=True,
                         timeout=20, check=True)
    pid = int(out.stdout.split()[0])
    assert _wait_for(lambda: not pid_alive(pid), 5)
    assert os.path.exists(data / "appendonlydir")


def test_a_stop_does_not_wait_out_its_follower(tmp_path: Path) -> None:
    """A clean stop ends the watchdog and its follower thread at once: the follower, seeing its watchdog end,
    learns that the bot is stopping (it waited for a lock the stop held while joining it, so every stop took
    the whole join timeout, and the suite doubled in length)."""
    local = LocalRedis(tmp_path / "data")
    local.start()
    follower = local._follower
    assert follower is not None and follower.is_alive()
    began = time.monotonic()
    local.stop(timeout=30.0)
    assert time.monotonic() - began < 15.0  # (a wait of the timeout would be 30 s)
    assert not follower.is_alive() and not local.given_up
