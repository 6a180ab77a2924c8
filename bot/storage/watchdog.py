"""A tiny supervisor that ties a redis-server to the bot process that started it (stdlib only).

Run as ``python watchdog.py <owner pid> <pipe fd> <redis-server> <args...>``: it starts redis-server,
prints its pid, then waits. When the owner is gone (the pipe it holds reaches EOF, which the kernel
guarantees even after ``kill -9``, or the pid no longer exists) it stops redis-server with SIGTERM, so
the AOF is flushed, and exits. If redis-server exits on its own, so does the watchdog. Unlike
``PR_SET_PDEATHSIG``, this does not depend on which *thread* of the owner started the server.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from types import FrameType


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


def stop(server: subprocess.Popen[bytes], timeout: float = 30.0) -> int:
    """SIGTERM (Redis flushes its AOF and exits), SIGKILL only if it hangs; the exit code."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout)
        except subprocess.TimeoutExpired:
            server.kill()
    return server.wait()


def main(argv: list[str]) -> int:
    """Start the server, watch the owner, stop the server when the owner goes."""
    owner, fd, command = int(argv[0]), int(argv[1]), argv[2:]
    server = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, close_fds=True)
    print(server.pid, flush=True)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        """Asked to stop: stop the server first."""
        sys.exit(stop(server))

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    while server.poll() is None:
        readable, _, _ = select.select([fd], [], [], 0.25)
        if (readable and not os.read(fd, 64)) or not pid_alive(owner) or os.getppid() != owner:
            return stop(server)
    return server.returncode or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
