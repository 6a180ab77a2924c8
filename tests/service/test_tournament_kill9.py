"""A round's close and the next pairing under ``kill -9`` and two instances, with real processes on a real
redis-server: a process killed right after the round's commit (before any match of the new round started)
leaves the round paired once; the next processes start its matches, each once, and never pair it again."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.service.result_codec import decode_result
from bot.storage import RedisStore
from tests.service.conftest import HERE, make_service
from tests.service.test_tournament_service import ADMIN, finish_round, open_event, outbox_notices, players, round_games

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(120)

WORKER = """
import asyncio, os, signal, sys
from bot.service import GameService
from bot.service.ai import RandomAI
from bot.service.tournaments.events import Tournaments
from bot.storage import RedisStore

url, tid, crash = sys.argv[1], sys.argv[2], sys.argv[3] == "crash"
if crash:  # SIGKILL itself between the round's commit and the first match start of the new round
    async def die(self, t):
        os.kill(os.getpid(), signal.SIGKILL)
    Tournaments._start_matches = die

async def main():
    store = RedisStore.from_url(url)
    service = GameService(store, ai=RandomAI(seed=1))
    told = await service.tournaments.advance(tid)
    print(len(told))
    await store.close()

asyncio.run(main())
"""


def run_worker(url: str, tid: str, crash: bool) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", WORKER, url, tid, "crash" if crash else "run"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


async def wait(process: subprocess.Popen[bytes]) -> int:
    return await asyncio.to_thread(process.wait, 60)


async def test_kill_9_after_the_round_commit_then_two_instances(redis_server, clock):
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    service = make_service(store, clock)
    try:
        field = players(8)
        tid = await open_event(service, field, rounds=3)
        assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
        await finish_round(service, tid, random.Random(9))
        killed = run_worker(redis_server.url, tid, crash=True)
        assert await wait(killed) == -signal.SIGKILL
        _v, t = await service.tournaments.load(tid)
        assert t is not None and t.round == 2 and len(t.results) == 4  # the round's commit stands
        assert len(await round_games(service, tid)) == 4  # no match of round 2 started yet
        pairs_after_crash = [(p.a, p.b) for p in t.pairs]

        survivors = [run_worker(redis_server.url, tid, crash=False) for _ in range(2)]
        assert [await wait(p) for p in survivors] == [0, 0]
        _v, t = await service.tournaments.load(tid)
        assert t is not None and t.round == 2 and [(p.a, p.b) for p in t.pairs] == pairs_after_crash
        games = await round_games(service, tid)
        assert len(games) == 8 and len(set(games.values())) == 8  # each round-2 match started once
        for gid in games.values():
            assert (await service.sessions.load(gid, take=False)).session is not None
        told = [decode_result(raw) for raw in await outbox_notices(store)]
        pairings = [r for r in told if r is not None and any(m.key == "tournament_pairing" for m in r.messages)]
        assert len(pairings) == 2  # round 1 and round 2, once each, whoever crashed
    finally:
        await store.close()
