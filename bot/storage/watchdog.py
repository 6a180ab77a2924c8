"""A tiny supervisor that ties a redis-server to the bot process that started it (stdlib only).

Run as ``python watchdog.py <owner pid> <pipe fd> <max crashes> [--adopt=<pid>] <redis-server> <args...>``: it
starts redis-server (or, with ``--adopt``, takes over that running one, whose watchdog was killed) and prints
its pid, one line, then ``up`` once it answers PING. When the owner is gone (the
pipe it holds reaches EOF, which the kernel guarantees even after ``kill -9``, or the pid no longer
exists) it stops redis-server with SIGTERM, so the AOF is flushed, and exits. Unlike
``PR_SET_PDEATHSIG``, this does not depend on which *thread* of the owner started the server.

If redis-server dies on its own (a crash, an OOM kill) after it was up, the watchdog prints ``died
<exit code>``, waits a moment (doubling, up to :data:`MAX_DELAY`) and starts it again with the same arguments
(same port, same folder: the AOF is reloaded), printing the new pid. After ``<max crashes>`` deaths
within :data:`WINDOW` seconds it prints ``gave-up <crashes>`` and exits: a server that cannot start does
not spin. ``<max crashes>`` 0: never restart (it exits with the server). A server that never came up is
not restarted either: a bad set-up fails the start at once.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import time
from types import FrameType

WINDOW = 60.0  # seconds in which ``max crashes`` deaths make the watchdog give up
FIRST_DELAY = 0.1  # seconds before the first restart, doubled for each death in the window
MAX_DELAY = 5.0
POLL = 0.25  # seconds between looks at the owner and the server
ADOPT = "--adopt="  # the optional argument naming a running server to take over


def pid_alive(pid: int) -> bool:
    """True while process ``pid`` exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def answers_ping(port: int, timeout: float = 0.2) -> bool:
    """True when a Redis server on loopback ``port`` answers PING within ``timeout`` seconds."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def stop(server: Server | None, timeout: float = 30.0) -> int:
    """SIGTERM (Redis flushes its AOF and exits), SIGKILL only if it hangs; the exit code (0: no server)."""
    if server is None:
        return 0
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout)
        except subprocess.TimeoutExpired:
            server.kill()
    return server.wait()


class Adopted:
    """A running redis-server taken over from a watchdog that was killed: not this process's child, so it is
    watched by its pid, and its exit code is unknown (-1). The few ``Popen`` methods the watchdog uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and not pid_alive(self.pid):
            self.returncode = -1
        return self.returncode

    def terminate(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGTERM)

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0.0)
            time.sleep(0.02)
        return code


Server = subprocess.Popen[bytes] | Adopted


def restart_delay(crashes: int) -> float:
    """Seconds to wait before the restart after the ``crashes``-th death within the window."""
    return min(MAX_DELAY, FIRST_DELAY * 2 ** max(0, crashes - 1))


class Watch:
    """The owner's pipe and pid, and the server now running (None between a death and its restart)."""

    def __init__(self, owner: int, fd: int, command: list[str]) -> None:
        self.owner, self.fd, self.command = owner, fd, command
        self.port = int(command[command.index("--port") + 1]) if "--port" in command[:-1] else None
        self.server: Server | None = None

    def owner_gone(self, wait: float) -> bool:
        """Wait up to ``wait`` seconds for the owner to go; True when it is gone."""
        readable, _, _ = select.select([self.fd], [], [], wait)
        return bool(readable and not os.read(self.fd, 64)) or not pid_alive(self.owner) or os.getppid() != self.owner

    def launch(self, adopt: int = 0) -> None:
        """Start redis-server (or take over the running one ``adopt``) and tell its pid."""
        if adopt:
            self.server = Adopted(adopt)
        else:
            self.server = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL, close_fds=True)
        say(str(self.server.pid))

    def serve(self) -> int | None:
        """Watch until the owner goes (the server stopped: None) or the server exits (its exit code)."""
        assert self.server is not None
        while self.server.poll() is None:
            if self.owner_gone(POLL):
                stop(self.server)
                return None
        return self.server.returncode

    def came_up(self) -> bool:
        """Wait until the server answers PING (True), exits or the owner goes (False)."""
        assert self.server is not None
        while self.server.poll() is None:
            if self.port is None or answers_ping(self.port):
                return True
            if self.owner_gone(0.05):
                return False
        return False


def say(line: str) -> None:
    """One line to the owner (it reads them: bot/storage/local_redis.py); nobody reading is no error."""
    with contextlib.suppress(OSError):
        print(line, flush=True)


def main(argv: list[str]) -> int:
    """Start the server, watch the owner, restart a server that dies, stop it when the owner goes."""
    owner, fd, max_crashes, command = int(argv[0]), int(argv[1]), int(argv[2]), argv[3:]
    adopt = int(command.pop(0).partition("=")[2]) if command and command[0].startswith(ADOPT) else 0
    watch = Watch(owner, fd, command)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        """Asked to stop: stop the server first."""
        sys.exit(stop(watch.server))

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    watch.launch(adopt)
    if not watch.came_up():
        return watch.serve() or 0
    say("up")  # the owner waits for this line: a death from now on is restarted
    if max_crashes <= 0:
        return watch.serve() or 0
    deaths: list[float] = []
    while True:
        code = watch.serve()
        if code is None:
            return 0
        now = time.monotonic()
        deaths = [t for t in deaths if now - t < WINDOW] + [now]
        if len(deaths) >= max_crashes:
            say(f"gave-up {len(deaths)}")
            return code or 1
        say(f"died {code}")
        watch.server = None
        if watch.owner_gone(restart_delay(len(deaths))):
            return 0
        watch.launch()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
