"""Start and stop a private ``redis-server`` on a free loopback port, with a data folder and AOF.

Used when ``REDIS_URL`` is unset (so games survive a restart without any setup) and by the tests.
One server per data folder: the owner holds ``flock`` on ``<data>/redis.lock`` for as long as it runs
(the kernel drops it when the owner dies, even by ``kill -9``) and records owner, watchdog, server
pids and the port in ``<data>/redis.pid``. A second starter on the same folder attaches to the live
owner's server; a new owner first stops any server left on the folder (any ``redis-server`` whose
``--dir`` is this folder, and its watchdog; a recorded pid is checked first, never trusted: it may have
been reused by another process). The server runs under :mod:`bot.storage.watchdog`, which stops it
(SIGTERM: the AOF is flushed) when the owner process is gone, and restarts it (same port and folder: the
AOF is reloaded) when it dies on its own; a thread here follows it, keeps the pidfile's server pid true
and logs the death, the return, or the watchdog giving up. A watchdog that is itself killed is replaced by
a new one that takes the running server over (or starts it again), so the next death is restarted too.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from .watchdog import ADOPT, WINDOW, answers_ping, pid_alive

WATCHDOG = Path(__file__).with_name("watchdog.py")
MAX_CRASHES = 5  # deaths within a minute (watchdog.WINDOW) after which the watchdog gives up
log = logging.getLogger(__name__)


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


def is_watchdog_of(pid: int, data_dir: Path) -> bool:
    """True when ``pid`` is a watchdog (this module's) of a server in ``data_dir`` (its command line says so):
    a pid read from an old pidfile may now be any other process's, which must not be stopped."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return False
    return str(WATCHDOG) in args and str(data_dir) in args


class LocalRedis:
    """One redis-server serving ``data_dir`` (AOF on) at 127.0.0.1:``port``, tied to this process; with
    ``restarts`` (the default) its watchdog starts it again when it dies on its own (see watchdog.py)."""

    def __init__(self, data_dir: str | Path, port: int | None = None, executable: str | None = None, *,
                 restarts: bool = True) -> None:
        self.data_dir = Path(data_dir).resolve()  # redis-server changes into --dir: relative paths break
        self.port = port or free_port()
        self.executable = executable or redis_server_path() or "redis-server"
        self.max_crashes = MAX_CRASHES if restarts else 0
        self.process: subprocess.Popen[bytes] | None = None  # the watchdog
        self.server_pid: int | None = None  # the server running now (None while it is being restarted)
        self.restarts = 0  # how often the watchdog started the server again after it died
        self.given_up = False  # the server kept dying: the watchdog stopped restarting it
        self.shared = False  # attached to another live owner's server: not ours to stop
        self._lock: int | None = None
        self._pipe: int | None = None
        self._follower: threading.Thread | None = None  # reads the watchdog's lines (see _follow)
        self._guard = threading.Lock()  # the follower's pidfile writes against stop()
        self._takeover = threading.RLock()  # a killed watchdog being replaced, against stop()
        self._takeovers: list[float] = []  # when watchdogs were replaced (too many within a minute: given up)
        self._stopping = False

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
        if self.process is not None:
            deadline = time.monotonic() + timeout
            while self.process.poll() is None and time.monotonic() < deadline:
                if answers_ping(self.port):  # running, or restarted by the watchdog after it died
                    return
                time.sleep(0.05)
            self._end_watchdog(timeout)  # gone (the server died, no restart) or hung: a new one below
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
                self.port, self.shared = int(info["port"]), True
                self.server_pid = info["server"] if isinstance(info["server"], int) else None
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
        """Stop what a dead owner left on this folder (we hold the lock, so no live owner exists): its watchdog
        (if the recorded pid still is one of this folder's) and every redis-server working in the folder."""
        info = self._read_pidfile() or {}
        with contextlib.suppress(OSError):
            self.pidfile.unlink()
        supervisor = info.get("supervisor")
        if isinstance(supervisor, int) and supervisor != os.getpid() and is_watchdog_of(supervisor, self.data_dir):
            terminate(supervisor)  # it stops its server first
        for pid in servers_on(self.data_dir):
            terminate(pid)

    def _spawn(self, timeout: float, adopt: int = 0) -> None:
        """Start redis-server under the watchdog (``adopt``: a new watchdog takes over that running server) and
        wait until it answers; record it in the pidfile."""
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
        read_end, self._pipe = os.pipe()  # we hold the write end; EOF tells the watchdog we are gone
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(WATCHDOG), str(os.getpid()), str(read_end), str(self.max_crashes),
                 *([f"{ADOPT}{adopt}"] if adopt else []), *args],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                pass_fds=(read_end,), start_new_session=True)  # Ctrl-C hits the bot only: it stops us in order
        finally:
            os.close(read_end)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        self.server_pid = int(line) if line.strip().isdigit() else None
        self._stopping, self.given_up = False, False
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self._end_watchdog(timeout)
                self._release()
                raise RuntimeError(f"redis-server exited with {code}; see {self.data_dir}")
            if answers_ping(self.port):
                if self.process.stdout.readline().strip() != b"up":  # the watchdog saw it too (or it died)
                    continue
                self._write_pidfile()
                self._follower = threading.Thread(target=self._follow, args=(self.process, self.process.stdout),
                                                  name="local-redis-watchdog", daemon=True)
                self._follower.start()
                return
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("redis-server did not start in time")

    def _follow(self, process: subprocess.Popen[bytes], out: IO[bytes]) -> None:
        """Read the watchdog's lines until it exits: a death, a restart (the new pid goes to the pidfile, and
        the log says when the server answers again), or giving up."""
        for raw in out:
            word, _, rest = raw.decode(errors="replace").strip().partition(" ")
            with self._guard:
                if self._stopping or self.process is not process:
                    return
                if word.isdigit():
                    self.server_pid, self.restarts = int(word), self.restarts + 1
                elif word == "died":
                    self.server_pid = None
                    log.error("the local redis-server on port %d died (exit code %s); restarting it", self.port, rest)
                elif word == "gave-up":
                    self.server_pid, self.given_up = None, True
                    log.critical("the local redis-server on port %d died %s times within a minute: not restarted "
                                 "again (see %s); the bot needs a restart", self.port, rest,
                                 self.data_dir / "redis.log")
                self._write_pidfile()
            if word.isdigit():
                self._said_back(int(word))
        self._lost(process)

    def _lost(self, process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
        """The watchdog ``process`` ended without giving up (``kill -9``): nothing would restart the server. A new
        watchdog takes the running server over (or starts it again: same port, same AOF); when that fails, or
        watchdogs keep dying, it is given up on as a server that keeps dying is (BotCore.store_given_up)."""
        with self._takeover:
            with self._guard:
                if self._stopping or self.process is not process or self.given_up or self.max_crashes <= 0:
                    return
            code = process.wait()
            if process.stdout is not None:
                process.stdout.close()
            now = time.monotonic()
            self._takeovers = [t for t in self._takeovers if now - t < WINDOW] + [now]
            running = self.server_pid if self.server_pid in servers_on(self.data_dir) else None
            for pid in servers_on(self.data_dir):  # one being restarted as it was killed: not answering yet
                if pid != running:
                    terminate(pid)
            if self._pipe is not None:
                os.close(self._pipe)
                self._pipe = None
            log.error("the local redis-server's watchdog (pid %d) is gone (exit code %s); %s", process.pid, code,
                      f"a new one takes the server over (pid {running})" if running else "starting the server again")
            reason = f"its watchdog died {len(self._takeovers)} times within a minute"
            if len(self._takeovers) < MAX_CRASHES:
                try:
                    self._spawn(timeout, adopt=running or 0)
                    log.warning("the local redis-server on port %d is watched again (watchdog pid %d, server pid %s)",
                                self.port, self.process.pid if self.process else 0, self.server_pid)
                    return
                except Exception as exc:  # no new watchdog, or the server would not come back
                    reason = f"no new watchdog could start it: {exc}"
            with self._guard:
                self.server_pid, self.given_up = None, True
            log.critical("the local redis-server on port %d is not supervised any more (%s; see %s): not restarted "
                         "again; the bot needs a restart", self.port, reason, self.data_dir / "redis.log")

    def _said_back(self, pid: int, timeout: float = 60.0) -> None:
        """Log when the restarted server ``pid`` answers again (its AOF is loaded: the games are back)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self._stopping and self.server_pid == pid and pid_alive(pid):
            if answers_ping(self.port):
                log.warning("the local redis-server is back on port %d (pid %d, restart %d): its AOF was reloaded",
                            self.port, pid, self.restarts)
                return
            time.sleep(0.05)

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
        self._end_watchdog(timeout)
        for pid in servers_on(self.data_dir):  # one the watchdog did not stop (it hung): found by its folder,
            terminate(pid)  # never by a recorded pid, which may be another process's by now
        self._release()

    def _end_watchdog(self, timeout: float) -> None:
        """Close the pipe (EOF: the watchdog stops the server it runs now and exits), wait for it, and let its
        follower thread finish."""
        with self._guard:
            self._stopping = True  # a watchdog being replaced (see _lost) is not replaced now ...
        with self._takeover:  # ... or, being replaced already, the new one is stopped
            process, follower = self.process, self._follower
            if self._pipe is not None:
                os.close(self._pipe)
                self._pipe = None
            if process is not None:
                try:
                    process.wait(timeout)
                except subprocess.TimeoutExpired:
                    process.terminate()
                    process.wait()
        # Joined outside the takeover lock: the follower, seeing its watchdog end, takes that lock to learn that
        # we are stopping (joined while holding it, every stop waited the whole timeout).
        if follower is not None and follower is not threading.current_thread():
            follower.join(timeout)
        self._follower = None
        if process is not None and process.stdout is not None:
            process.stdout.close()
        self.process = None

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
