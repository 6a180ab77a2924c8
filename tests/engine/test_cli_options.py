"""``python -m fevga --help`` and ``--version`` answer on stdout and exit 0; a wrong command line stays an error."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys


def fevga(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m fevga`` with ``args`` and nothing on stdin."""
    return subprocess.run([sys.executable, "-m", "fevga", *args], input="", capture_output=True, text=True,
                          timeout=60, check=False)


def test_help_prints_the_usage_to_stdout_and_succeeds() -> None:
    for flag in ("--help", "-h"):
        done = fevga(flag)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: python -m fevga plays|bestplay") and done.stderr == ""
        assert "--version" in done.stdout


def test_version_prints_the_package_s_version() -> None:
    done = fevga("--version")
    assert done.returncode == 0, done.stderr
    try:
        expected = importlib.metadata.version("fevga-bot")
    except importlib.metadata.PackageNotFoundError:
        expected = "unknown"
    assert done.stdout == f"fevga {expected}\n" and done.stderr == ""


def test_a_wrong_command_line_is_still_the_usage_on_stderr_and_exit_2() -> None:
    for args in ((), ("nonsense",), ("plays", "bestplay"), ("--help", "plays")):
        done = fevga(*args)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith("usage: python -m fevga")
