"""``python -m bot`` as an operator runs it: arguments, and every start-up failure as one redacted line (JSON under
LOG_FORMAT=json) with exit code 1, never a raw traceback, a token or a password."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Settings
from bot.storage import LocalRedis

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[1]
TG_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"
PASSWORD = "s3cretpw"


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``cwd`` (no .env unless the test wrote one) with only ``env`` set of our variables."""
    base = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    base.update(PYTHONPATH=str(REPO), OPENBLAS_NUM_THREADS="1", **env)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=base, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=90)


def failure_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one 'could not start' line, after checking exit code 1 and that nothing resembling a traceback came out."""
    assert result.returncode == 1, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "could not start" in line]
    return line


def unreachable_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_busy_health_port_stops_start_up_with_one_line(tmp_path: Path, redis_server: LocalRedis) -> None:
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        line = failure_line(run_bot(tmp_path, REDIS_URL=redis_server.url, HEALTH_PORT=str(port)))
    assert f"HEALTH_PORT {port} cannot be bound" in line
