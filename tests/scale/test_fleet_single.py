"""The scale harness on a single real redis-server: worker processes play their matches to the end and the
verifier finds every acknowledged move and every rating; a lost move, a damaged game or a rating applied
twice is caught (so the cluster tests' verdicts mean something)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.service import keys
from bot.service.session import decode
from bot.service.stats_docs import parse_stats
from bot.storage import LocalRedis, RedisStore
from bot.storage.base import split_versioned, versioned

from .harness import Fleet
from .verify import Journals, match_winner, verify

pytestmark = pytest.mark.timeout(240)


async def test_two_instances_play_every_match_and_the_verifier_agrees(redis_server: LocalRedis,
                                                                      tmp_path: Path) -> None:
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    fleet = Fleet(redis_server.url, tmp_path, "single", instances=2, tables=8, matches=2, max_plies=20)
    await fleet.start()
    exits = await fleet.wait(180)
    assert all(code == 0 for code, _ in exits), exits
    journals = Journals.read(fleet.journals)
    assert len(journals.acks) == 16 and len(journals.done) == 16
    verdict = await verify(store, journals, rating_wait=10)
    assert verdict.problems == []
    assert verdict.games == 16 and verdict.rated_matches == 16 and verdict.moves >= 16 * 10
    assert sum(f["acks"] for f in journals.finished) == sum(len(a) for a in journals.acks.values())

    # the verifier catches a lost move, a damaged game and a rating applied twice
    lost, damaged = sorted(journals.acks)[:2]
    raw = await store.client.get(keys.game(lost))
    version, _ = split_versioned(raw)
    journals.acks[lost].append({"ack": lost, "kind": "move", "k": 10_000, "play": "1/7", "v": version})
    await store.client.set(keys.game(damaged), versioned(version, b"not zlib"))
    winner = next(j for j in journals.done.values() if j["done"] not in (lost, damaged))
    session_raw = await store.client.get(keys.game(winner["done"]))
    assert session_raw is not None
    user = _winner_id(session_raw)
    doc_key = keys.player_stats(keys.board_scope("discord", None), user)
    doc_version, doc = parse_stats(await store.client.get(doc_key))
    doc["w"] += 1
    await store.client.set(doc_key, versioned(doc_version, _json(doc)))
    verdict = await verify(store, journals, rating_wait=0)
    text = "\n".join(verdict.problems)
    assert f"{lost}: acknowledged move 10000" in text
    assert f"{damaged}: corrupt" in text
    assert f"{user} on discord:*" in text
    await store.close()


def _winner_id(raw: bytes) -> str:
    """The match winner's user id of a stored session."""
    session = decode(split_versioned(raw)[1])
    return session.players[match_winner(session)].user_id


def _json(doc: dict[str, object]) -> bytes:
    return json.dumps(doc).encode()
