"""Ctrl-C at the terminal's prompt ends the program at once: the line is read in a daemon thread, so nothing
waits for Enter at exit (a line read in the event loop's executor kept the program alive until Enter)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

SCRIPT = """
import asyncio, sys, threading
from bot.console.chat import read_in_background
blocked = threading.Event()
def never() -> str | None:  # a prompt nobody answers
    blocked.wait()
    return None
async def main() -> None:
    print("waiting", flush=True)
    await read_in_background(never)
asyncio.run(main())
"""


def test_ctrl_c_at_the_prompt_ends_the_program_at_once() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "waiting"
        time.sleep(0.2)
        os.kill(proc.pid, signal.SIGINT)
        started = time.monotonic()
        code = proc.wait(timeout=15)
        assert time.monotonic() - started < 10 and code != 0  # interrupted (KeyboardInterrupt), not hanging
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
