"""Reading a real terminal chat's screen (its standard output, a pipe) in process tests."""

from __future__ import annotations

import re
import subprocess
import time


def read_until(proc: subprocess.Popen[str], pattern: re.Pattern[str] | str, seen: list[str],
               timeout: float = 60) -> re.Match[str] | str:
    """Read the chat's screen line by line (kept in ``seen``) until one matches ``pattern`` (a regular
    expression, or text it contains): the match, or the text. AssertionError with the screen's end when the
    chat ends or ``timeout`` s pass first."""
    assert proc.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if isinstance(pattern, str):
            if pattern in line:
                return pattern
        elif found := pattern.search(line):
            return found
    wanted = pattern if isinstance(pattern, str) else pattern.pattern
    raise AssertionError(f"{wanted!r} not seen in {''.join(seen)[-2000:]}")
