"""Retiring puzzles from a bank that was seeded before, when the bot dies mid-way: ``kill -9`` of a real
bot process before and after the retirement's commit (the seeded marker not yet written), then two
instances at once. The retired puzzle ends up gone, every other puzzle is there once with its rating,
and the marker is written."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

from bot.service.puzzles import keys
from bot.service.puzzles.bank import Bank
from bot.service.ratings import Rating
from bot.storage import RedisStore
from fevga.puzzles import load_retired, load_seed

ROOT = Path(__file__).resolve().parents[2]

WORKER = """
import asyncio, os, signal, sys
from bot.service.puzzles import bank as bank_module
from bot.service.puzzles.bank import Bank
from bot.storage import RedisStore

url, retired, mode = sys.argv[1], sys.argv[2], sys.argv[3]
bank_module.load_retired = lambda: frozenset({retired})  # the upgrade: one more puzzle retired
original = Bank.retire
if mode == "before":  # SIGKILL itself before the retirement's commit
    async def retire(self, ids):
        os.kill(os.getpid(), signal.SIGKILL)
    Bank.retire = retire
if mode == "after":  # SIGKILL itself after it, before the seeded marker is written
    async def retire(self, ids):
        await original(self, ids)
        os.kill(os.getpid(), signal.SIGKILL)
    Bank.retire = retire

async def main():
    store = RedisStore.from_url(url)
    await Bank(store).ensure_seeded()
    await store.close()

asyncio.run(main())
"""


def run_worker(url: str, retired: str, mode: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WORKER, url, retired, mode], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


async def wait(process: subprocess.Popen[bytes]) -> int:
    return await asyncio.to_thread(process.wait, 60)


async def test_kill_9_around_the_retirement_then_two_instances(redis_server) -> None:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    try:
        bank = Bank(store)
        await bank.ensure_seeded()  # the bank as the previous release left it
        shipped = sorted(p.id for p in load_seed())
        assert await bank.ids() == shipped
        gone, kept = shipped[0], shipped[1]
        await bank.rate(kept, Rating(1720.0))
        old_marker = f"{len(shipped)}:{len(load_retired())}".encode()
        assert await store.read([("get", keys.SEEDED)]) == [old_marker]

        killed = run_worker(redis_server.url, gone, "before")
        assert await wait(killed) == -signal.SIGKILL
        assert await bank.ids() == shipped  # nothing retired, and the marker still the old one
        assert await store.read([("get", keys.SEEDED)]) == [old_marker]

        killed = run_worker(redis_server.url, gone, "after")
        assert await wait(killed) == -signal.SIGKILL
        assert await bank.ids() == shipped[1:]  # retired in its commit, but the marker was not written
        assert await store.read([("get", keys.SEEDED)]) == [old_marker]

        survivors = [run_worker(redis_server.url, gone, "run") for _ in range(2)]
        assert [await wait(p) for p in survivors] == [0, 0]
        assert await bank.ids() == shipped[1:]
        assert await bank.get(gone) is None
        again = await bank.get(kept)
        assert again is not None and again[1].rating == 1720.0  # its rating survived every restart
        assert await store.read([("get", keys.SEEDED)]) == [f"{len(shipped)}:1".encode()]
    finally:
        await store.close()
