"""The bot's own redis-server, killed with SIGKILL while the bot runs, comes back by itself on the same port with
the AOF (no committed game lost); one that keeps dying is given up on after a few tries, not restarted in a
loop; and a pid recorded in an old pidfile is never stopped unless it still is that folder's server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.chat.core import BotCore
from bot.storage import LocalRedis
from bot.storage.local_redis import MAX_CRASHES, answers_ping, pid_alive, servers_on
from bot.storage.watchdog import restart_delay
from tests.botkit import LogRecords, log_records
from tests.delivery.kit import play, start_game, stored_version

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def records() -> Iterator[LogRecords]:
    with log_records("bot.storage.local_redis") as handler:
        yield handler


def wait_for(check: Callable[[], object], timeout: float) -> bool:
    """Poll ``check()`` until true (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False


async def test_a_killed_local_server_comes_back_on_its_port_with_the_committed_game(tmp_path: Path,
                                                                                   records: LogRecords) -> None:
    core = await BotCore.create(data_dir=tmp_path, draw=False)  # no REDIS_URL: the bot's own redis-server
    local = core.local
    try:
        assert local is not None and local.server_pid is not None
        game = await start_game(core)
        await play(core, 2)
        version = await stored_version(core, game)
        killed, port, supervisor = local.server_pid, local.port, local.process and local.process.pid
        os.kill(killed, signal.SIGKILL)
        started = time.monotonic()
        assert wait_for(lambda: local.server_pid not in (None, killed) and answers_ping(port), 5)
        back_after = time.monotonic() - started
        assert local.port == port and local.restarts == 1 and not local.given_up
        assert servers_on(local.data_dir) == [local.server_pid]  # one server, the new one
        recorded = json.loads((local.data_dir / "redis.pid").read_text())
        assert recorded == {"owner": os.getpid(), "supervisor": supervisor, "server": local.server_pid, "port": port}
        assert await stored_version(core, game) == version  # the AOF was reloaded: the committed game is there
        assert await play(core, 1) == 1 and await stored_version(core, game) > version  # and it commits again
        assert wait_for(lambda: records.said("is back on port"), 5)
        assert len(records.said("restarting it")) == 1
        print(f"server back after {back_after:.2f} s")
    finally:
        await core.close()
    assert servers_on(tmp_path / "redis") == [] and not (tmp_path / "redis" / "redis.pid").exists()


def test_a_server_that_keeps_dying_is_given_up_on_after_a_few_tries(tmp_path: Path, records: LogRecords) -> None:
    server = LocalRedis(tmp_path / "redis")
    server.start()
    try:
        assert server.process is not None and server.server_pid is not None
        manifest = next((server.data_dir / "appendonlydir").glob("*.manifest"))
        manifest.write_text("not a manifest\n")  # every restart now fails at once ("Invalid AOF manifest")
        started = time.monotonic()
        os.kill(server.server_pid, signal.SIGKILL)
        watchdog = server.process
        assert wait_for(lambda: watchdog.poll() is not None, 20)  # it stops trying: no endless loop
        took = time.monotonic() - started
        assert wait_for(lambda: records.said("not restarted again"), 10)  # its last line, read a moment later
        assert server.given_up and server.restarts == MAX_CRASHES - 1
        assert took >= sum(restart_delay(n) for n in range(1, MAX_CRASHES))  # it waited between tries: no spin
        assert servers_on(server.data_dir) == []
        assert len(records.said("restarting it")) == MAX_CRASHES - 1 and len(records.said("not restarted again")) == 1
        print(f"gave up after {took:.2f} s and {server.restarts} restarts")
    finally:
        server.stop()
    assert not (server.data_dir / "redis.pid").exists()


def test_a_recorded_pid_now_of_another_process_is_never_stopped(tmp_path: Path) -> None:
    data = (tmp_path / "redis").resolve()
    data.mkdir()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    bystander = subprocess.Popen(["sleep", "60"])  # has the pids an old pidfile names (reused since)
    try:
        (data / "redis.pid").write_text(json.dumps({"owner": gone.pid, "supervisor": bystander.pid,
                                                    "server": bystander.pid, "port": 1}))
        server = LocalRedis(data)
        server.start()
        try:
            assert pid_alive(bystander.pid) and servers_on(data) == [server.server_pid]
        finally:
            server.stop()
        assert pid_alive(bystander.pid) and bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()


async def test_a_killed_watchdog_is_replaced_and_the_next_server_death_is_still_restarted(
        tmp_path: Path, records: LogRecords) -> None:
    core = await BotCore.create(data_dir=tmp_path, draw=False)  # no REDIS_URL: the bot's own redis-server
    local = core.local
    try:
        assert local is not None and local.process is not None and local.server_pid is not None
        game = await start_game(core)
        await play(core, 2)
        version = await stored_version(core, game)
        watchdog, server, port = local.process.pid, local.server_pid, local.port
        os.kill(watchdog, signal.SIGKILL)  # nobody supervises the server now ...
        assert wait_for(lambda: local.process is not None and local.process.pid != watchdog
                        and records.said("is watched again"), 10)  # ... until a new watchdog took it over
        assert local.server_pid == server and answers_ping(port) and not local.given_up  # the same server, not down
        assert json.loads(local.pidfile.read_text())["supervisor"] == local.process.pid
        assert await play(core, 1) == 1 and await stored_version(core, game) > version
        version = await stored_version(core, game)
        os.kill(server, signal.SIGKILL)  # the next death: restarted by the new watchdog
        assert wait_for(lambda: local.server_pid not in (None, server) and answers_ping(port), 10)
        assert local.port == port and local.restarts == 1 and not local.given_up and not core.store_given_up
        assert servers_on(local.data_dir) == [local.server_pid]
        assert await stored_version(core, game) == version  # the AOF reloaded: the game is back, and plays on
        assert await play(core, 1) == 1 and await stored_version(core, game) > version
        assert len(records.said("watchdog (pid")) == 1 and not records.said("not supervised")
    finally:
        await core.close()
    assert servers_on(tmp_path / "redis") == [] and not (tmp_path / "redis" / "redis.pid").exists()


async def test_a_killed_watchdog_that_cannot_be_replaced_is_given_up_on(tmp_path: Path, records: LogRecords) -> None:
    core = await BotCore.create(data_dir=tmp_path, draw=False)
    local = core.local
    try:
        assert local is not None and local.process is not None and local.server_pid is not None
        watchdog, server = local.process.pid, local.server_pid
        os.kill(watchdog, signal.SIGSTOP)  # it cannot restart the server killed now ...
        os.kill(server, signal.SIGKILL)
        assert wait_for(lambda: not pid_alive(server), 5)
        local.executable = str(tmp_path / "no-redis-server")  # ... and no new watchdog can start one
        os.kill(watchdog, signal.SIGKILL)
        assert wait_for(lambda: local.given_up, 15)
        assert core.store_given_up and local.server_pid is None
        assert wait_for(lambda: records.said("not supervised any more"), 5)
        assert servers_on(local.data_dir) == []
    finally:
        await core.close()
