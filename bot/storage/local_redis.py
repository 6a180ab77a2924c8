"""Start and stop a private ``redis-server`` on a free loopback port, with a data folder and AOF.

Used when ``REDIS_URL`` is unset (so games survive a restart without any setup) and by the tests.
One server per data folder: the owner holds ``flock`` on ``<data>/redis.lock`` for as long as it runs
(the kernel drops it when the owner dies, even by ``kill -9``) and records owner, watchdog, server
pids and the port in ``<data>/redis.pid``. A second starter on the same folder attaches to the live
owner's server; a new owner first stops any server left on the folder (stale pidfile, or any
``redis-server`` whose ``--dir`` is this folder). The server runs under :mod:`bot.storage.watchdog`,
which stops it (SIGTERM: the AOF is flushed) when the owner process is gone.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from .watchdog import pid_alive

WATCHDOG = Path(__file__).with_name("watchdog.py")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def redis_server_path() -> str | None:
    """The ``redis-server`` executable on PATH, if any."""
    return shutil.which("redis-server")


def servers_on(data_dir: Path) -> list[int]:
    """Pids of redis-server processes working in ``data_dir`` (Linux ``/proc``; else none). Redis
    rewrites its command line, but it changes into its ``--dir``, so its cwd tells the folder."""
    found: list[int] = []
    for entry in Path("/proc").glob("[0-9]*") if Path("/proc").is_dir() else ():
        with contextlib.suppress(OSError, ValueError):
            is_redis = (entry / "comm").read_text().startswith("redis-")
            if is_redis and Path(os.readlink(entry / "cwd")) == data_dir and pid_alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def terminate(pid: int, timeout: float = 15.0) -> None:
    """SIGTERM ``pid`` and wait for it to go (SIGKILL after ``timeout``)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while pid_alive(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + timeout
        time.sleep(0.02)


def answers_ping(port: int, timeout: float = 0.2) -> bool:
    """True when a Redis server on loopback ``port`` answers PING within ``timeout`` seconds."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


class LocalRedis:
    """One redis-server serving ``data_dir`` (AOF on) at 127.0.0.1:``port``, tied to this process."""

    def __init__(self, data_dir: str | Path, port: int | None = None, executable: str | None = None) -> None:
        self.data_dir = Path(data_dir).resolve()  # redis-server changes into --dir: relative paths break
        self.port = port or free_port()
        self.executable = executable or redis_server_path() or "redis-server"
        self.process: subprocess.Popen[bytes] | None = None  # the watchdog
        self.server_pid: int | None = None
        self.shared = False  # attached to another live owner's server: not ours to stop
        self._lock: int | None = None
        self._pipe: int | None = None

    @property
    def url(self) -> str:
        """The ``redis://`` URL of the server."""
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pidfile(self) -> Path:
        """Where the owner records its pid, the watchdog and server pids, and the port."""
        return self.data_dir / "redis.pid"

    def start(self, timeout: float = 10.0) -> None:
        """Start the server (or attach to the live owner's) and wait until it answers PING."""
        if self.shared:
            return
        if self.process is not None and self.process.poll() is None:
            if answers_ping(self.port):
                return
            try:  # the server died on its own: its watchdog follows it within a moment
                self.process.wait(2.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self._lock is None:
            fd = os.open(self.data_dir / "redis.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                self._attach(timeout)
                return
            self._lock = fd
            self._stop_leftovers()
        self._spawn(timeout)

    def _attach(self, timeout: float) -> None:
        """Use the server of the live process holding the lock."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            info = self._read_pidfile()
            if info and pid_alive(int(info["owner"])) and answers_ping(int(info["port"])):
                self.port, self.server_pid, self.shared = int(info["port"]), int(info["server"]), True
                return
            time.sleep(0.05)
        raise RuntimeError(f"{self.data_dir} is locked by another process whose redis-server does not answer")

    def _read_pidfile(self) -> dict[str, Any] | None:
        """The recorded owner, pids and port, or None when absent or unreadable."""
        try:
            info = json.loads(self.pidfile.read_text())
        except (OSError, ValueError):
            return None
        return info if isinstance(info, dict) and {"owner", "port", "server"} <= info.keys() else None

    def _stop_leftovers(self) -> None:
        """Stop what a dead owner left on this folder (we hold the lock, so no live owner exists)."""
        info = self._read_pidfile() or {}
        with contextlib.suppress(OSError):
            self.pidfile.unlink()
        for pid in {*servers_on(self.data_dir), *(int(info[k]) for k in ("supervisor", "server") if k in info)}:
            if pid_alive(pid) and pid != os.getpid():
                terminate(pid)

    def _spawn(self, timeout: float) -> None:
        """Start redis-server under the watchdog and wait until it answers; record it in the pidfile."""
        args = [
            self.executable,
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--protected-mode", "yes",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip
        if self._pipe is not None:  # left from a server that died on its own
            os.close(self._pipe)
        read_end, self._pipe = os.pipe()  # we hold the write end; EOF tells the watchdog we are gone
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(WATCHDOG), str(os.getpid()), str(read_end), *args],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                pass_fds=(read_end,), start_new_session=True)  # Ctrl-C hits the bot only: it stops us in order
        finally:
            os.close(read_end)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        self.server_pid = int(line) if line.strip().isdigit() else None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._release()
                raise RuntimeError(f"redis-server exited with {self.process.returncode}; see {self.data_dir}")
            if answers_ping(self.port):
                self._write_pidfile()
                return
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start in time")

    def _write_pidfile(self) -> None:
        """Record owner, watchdog, server pids and port (atomically: write, then rename)."""
        assert self.process is not None
        info = {"owner": os.getpid(), "supervisor": self.process.pid, "server": self.server_pid, "port": self.port}
        tmp = self.pidfile.with_suffix(".tmp")
        tmp.write_text(json.dumps(info))
        os.replace(tmp, self.pidfile)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop gracefully (the watchdog SIGTERMs Redis, which flushes the AOF and exits); release the folder."""
        if self.shared:
            self.shared = False
            return
        if self._pipe is not None:
            os.close(self._pipe)  # EOF: the watchdog stops the server
            self._pipe = None
        if self.process is not None:
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.terminate()
                self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None
        if self.server_pid is not None and pid_alive(self.server_pid):
            terminate(self.server_pid)
        self._release()

    def _release(self) -> None:
        """Forget the pidfile and drop the folder lock (another process may now own the folder)."""
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        with contextlib.suppress(OSError):
            self.pidfile.unlink()
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def restart(self) -> None:
        """Stop, then start again on the same port and folder."""
        self.stop()
        self.start()

    def __enter__(self) -> LocalRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
