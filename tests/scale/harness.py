"""Running several worker processes (bot instances) for the scale tests and collecting their journals."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Fleet:
    """``instances`` worker processes sharing ``tables`` tables, each journalling to its own file."""

    redis_url: str
    workdir: Path
    run: str
    instances: int
    tables: int
    matches: int
    max_plies: int = 40
    pace: float = 0.0
    procs: list[asyncio.subprocess.Process] = field(default_factory=list)
    started: float = 0.0

    @property
    def journals(self) -> list[Path]:
        """Each worker's journal file."""
        return [self.workdir / f"{self.run}-w{n}.jsonl" for n in range(self.instances)]

    async def start(self) -> None:
        """Start every worker (each takes a contiguous share of the tables)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        share = -(-self.tables // self.instances)
        self.started = time.time()
        for n, path in enumerate(self.journals):
            first, last = n * share, min(self.tables, (n + 1) * share)
            self.procs.append(await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.scale.worker", "--redis-url", self.redis_url, "--run", self.run,
                "--tables", f"{first}:{last}", "--matches", str(self.matches), "--max-plies", str(self.max_plies),
                "--pace", str(self.pace), "--out", str(path), cwd=ROOT, env=env,
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            ))  # fmt: skip

    def acks(self) -> int:
        """Acknowledged commands so far (lines with ``ack``), across the journals."""
        return sum(p.read_text(encoding="utf-8").count('"ack"') for p in self.journals if p.exists())

    async def wait(self, timeout: float) -> list[tuple[int | None, str]]:
        """Wait for every worker to exit; (exit code, the end of its stderr) of each."""
        out = []
        for proc in self.procs:
            try:
                _, err = await asyncio.wait_for(proc.communicate(), timeout)
            except TimeoutError:
                proc.kill()
                _, err = await proc.communicate()
            out.append((proc.returncode, err.decode(errors="replace")[-2000:]))
        return out

    def error_logs(self, chars: int = 3000) -> str:
        """The end of each worker's error log (its ERROR records with their tracebacks), to say why a command
        kept failing when a test does not pass."""
        logs = [Path(f"{path}.log") for path in self.journals]
        return "\n".join(f"{log.name}: {log.read_text(encoding='utf-8')[-chars:]}" for log in logs
                         if log.exists() and log.stat().st_size)

    def kill(self) -> None:
        """Stop workers still running (after a failed test)."""
        for proc in self.procs:
            if proc.returncode is None:
                proc.kill()


async def until_acks(fleet: Fleet, count: int, timeout: float) -> None:
    """Wait until the workers acknowledged ``count`` commands."""
    deadline = time.monotonic() + timeout
    while fleet.acks() < count:
        assert time.monotonic() < deadline, f"only {fleet.acks()} commands acknowledged"
        assert all(p.returncode is None for p in fleet.procs), "a worker ended early"
        await asyncio.sleep(0.2)
