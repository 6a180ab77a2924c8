"""Every script in benchmarks/ still runs: each is started in its smallest mode (``--smoke``), all at once
(they mostly wait on Redis, subprocesses and sleeps), and must exit 0 having printed its figures. A moved
helper or a renamed API then fails here instead of silently breaking a benchmark."""

from __future__ import annotations

import contextlib
import os
import pstats
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
TIMEOUT_S = 150  # the whole set takes about 20 s on a quiet 2-core machine

# script -> a line each must print, with its numbers (regular expressions)
FIGURES: dict[str, list[str]] = {
    "bench_ai.py": [r"hard \(hard\) \[.*\] move time over 3 positions: median [\d.]+ ms", r"win [\d.]+%",
                    r"oracle vs heuristic: 2 games: win [\d.]+%"],
    "bench_analysis.py": [r"CPU s per game median [\d.]+", r"ranking: 1 hard self-play games, \d+ unforced turns"],
    "bench_delivery.py": [r"2 instance\(s\): \d+ committed changes", r"commit -> board shown: p50 [\d.]+ ms"],
    "bench_engine.py": [
        r"all +median +[\d.]+ p99 +[\d.]+ +median +[\d.]+ p99",
        r"rules corpus: 200 lines -> \d+ plays, [\d.]+ MB written .*: compiled [\d.]+ s",
        r"cross-check compiled vs reference: 300 cases, 0 mismatches",
    ],
    "bench_ladder.py": [r"hard-v2 vs hard: 2 games: win [\d.]+%", r"random vs easy: 2 games: win [\d.]+%",
                        r"hard +[+-]\d+ +\[ *[+-]\d+, +[+-]\d+\] +6 +\d+%/2 +\d+%/2 +\d+%/2 +-"],
    "bench_lookback.py": [r"rating graph 2x200 matches \+ PNG: median [\d.]+ ms +p95 [\d.]+ ms",
                          r"dice 10000 rolls tally \+ chi-square: [\d.]+ ms"],
    "bench_move.py": [r"10 drawn moves over 5 live games", r"a whole move \(typed play -> board shown\) +1\.00 +[\d.]+",
                      r"CPU a move: [\d.]+ ms"],
    "bench_puzzles.py": [r"fevga select: \d+ candidates -> \d+ puzzles; CPU s per candidate median [\d.]+",
                         r"portes verify: 2 of 2 shipped puzzles hold", r"plakoto check an answer: \d+ us"],
    "bench_render.py": [r"render \+ PNG: +median [\d.]+ ms +p95 [\d.]+ ms"],
    "bench_scale.py": [
        r"single x1 draw +20 moves/s: p50 +[\d.]+ ms +p99 +[\d.]+ ms +errors 0.* CPU bot [\d.]+ \(event loops [\d.]+\)",
        r"\| single \| 1 \| yes \| ",
        r"20 live games set up in \d+ s \((uvloop|asyncio) event loop, load [\d.]+\)",  # the host's load is printed
    ],
    "bench_score.py": [r"hard playing the score vs hard playing money: portes matches to 3 from 1-2: 2 matches: won "
                       r"[\d.]+%"],
    "bench_service.py": [r"per move: p50 [\d.]+ ms +p99 [\d.]+ ms", r"throughput: \d+ moves/s"],
    "bench_store.py": [r"burst: 20 commands in flight -> 0 errors", r"kill 1: down [\d.]+ s"],
    "bench_swiss.py": [r"33 players, 7 rounds: +[\d.]+ ms a round on average, worst +[\d.]+ ms"],
    "tavli_timing.py": [r"cross-check portes compiled vs pure: 100 self-play cases that move .* 0 mismatches",
                        r"plakoto +pure-Python median +[\d.]+ .* compiled median +[\d.]+"],
    "bench_warm_up.py": [r"cold: first board \d+ ms", r"warm: first board \d+ ms"],
    "bench_web.py": [r"first load: [\d.]+ KB gzip", r"20 watchers: +\+ *[\d.]+ MB RSS, a move reached all in +[\d.]+"],
}
HELPERS = {"scale_load.py"}  # started by bench_scale.py, not on its own


def test_every_benchmark_script_is_smoke_tested() -> None:
    scripts = {p.name for p in BENCHMARKS.glob("*.py")}
    assert scripts == set(FIGURES) | HELPERS


@pytest.fixture(scope="module")
def profiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where bench_scale's load process writes its profile (its ``--profile`` is smoke-tested too)."""
    return tmp_path_factory.mktemp("profiles")


@pytest.fixture(scope="module")
def runs(profiles: Path) -> Iterator[dict[str, subprocess.Popen[str]]]:
    """Every benchmark started at once in its smoke mode; killed at the end if still running."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    extra = {"bench_scale.py": ["--profile", str(profiles)]}
    procs = {
        name: subprocess.Popen(
            [sys.executable, str(BENCHMARKS / name), "--smoke", *extra.get(name, [])],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,  # its own process group: a kill takes the processes it started too
        )
        for name in FIGURES
    }
    try:
        yield procs
    finally:
        for proc in procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # the script and whatever it left running (load processes)
            proc.wait()


DEADLINE: dict[str, float] = {}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_benchmark_runs_and_prints_its_figures(name: str, runs: dict[str, subprocess.Popen[str]]) -> None:
    deadline = DEADLINE.setdefault("all", time.monotonic() + TIMEOUT_S)
    try:
        out, _ = runs[name].communicate(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(runs[name].pid, signal.SIGKILL)
        out, _ = runs[name].communicate()
        pytest.fail(f"{name} --smoke still running after {TIMEOUT_S} s:\n{out[-3000:]}")
    assert runs[name].returncode == 0, out[-3000:]
    for figure in FIGURES[name]:
        assert re.search(figure, out), f"{name} did not print {figure!r}:\n{out[-3000:]}"


def test_the_scale_profile_holds_the_moves(runs: dict[str, subprocess.Popen[str]], profiles: Path) -> None:
    runs["bench_scale.py"].wait(timeout=TIMEOUT_S)
    [profile] = profiles.glob("*.prof")
    functions = {func for (_file, _line, func) in pstats.Stats(str(profile)).stats}  # type: ignore[attr-defined]
    assert {"move", "execute", "present_safely"} <= functions
