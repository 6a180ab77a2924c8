"""The stored challenge: a typed model whose codec round-trips, reads the format stored so far, and
rejects anything malformed with CorruptChallenge."""

from __future__ import annotations

import json

import pytest

from bot.service.challenge import Challenge, CorruptChallenge
from bot.service.models import Place, PlayerRef
from bot.storage.base import Commit
from fevga import Rules

ALICE = PlayerRef("discord", "100", "alice")
BOB = PlayerRef("discord", "200", "bob")
HERE = Place("discord", "guild1", "chan1")


def _challenge(to: PlayerRef | None = BOB) -> Challenge:
    return Challenge("abcdefgh", ALICE, to, HERE, 3, Rules(unlock_point=14), 1000.0, 1600.0, quick=True)


@pytest.mark.parametrize("to", [BOB, None])
def test_round_trip(to: PlayerRef | None) -> None:
    ch = _challenge(to)
    assert Challenge.decode(ch.encode()) == ch


def test_reads_the_format_stored_by_earlier_releases() -> None:
    doc = {"id": "c1", "from": ["discord", "100", "alice"], "to": None, "place": ["discord", "guild1", "chan1"],
           "n": 5, "r": Rules().to_dict(), "created": 10.0, "exp": 610.0, "quick": False}
    ch = Challenge.decode(json.dumps(doc).encode())
    assert (ch.id, ch.from_, ch.to, ch.place, ch.length, ch.rules, ch.expires) == (
        "c1", ALICE, None, HERE, 5, Rules(), 610.0)
    assert json.loads(ch.encode()) == doc


@pytest.mark.parametrize("blob", [
    b"not json", b"[]", b'{"id": 3}',
    json.dumps({"id": "c", "from": ["a", "b"], "to": None, "place": ["d", "g", "c"], "n": 1, "r": {},
                "exp": 1}).encode(),
    json.dumps({"id": "c", "from": ["a", "b", "c"], "to": [1, 2, 3], "place": ["d", "g", "c"], "n": 1, "r": {},
                "exp": 1}).encode(),
    json.dumps({"id": "c", "from": ["a", "b", "c"], "to": None, "place": ["d", "g", "c"], "n": "1", "r": {},
                "exp": 1}).encode(),
    json.dumps({"id": "c", "from": ["a", "b", "c"], "to": None, "place": ["d", "g", "c"], "n": 1,
                "r": {"unlock_point": 99}, "exp": 1}).encode(),
])
def test_malformed_challenges_raise_corrupt_challenge(blob: bytes) -> None:
    with pytest.raises(CorruptChallenge):
        Challenge.decode(blob)


def test_index_entry_and_drop() -> None:
    assert _challenge().index_entry() == "100|200"
    assert _challenge(None).index_entry() == "100|"
    commit = _challenge().drop(Commit(), 4, "cancelled", "alice")
    assert commit.checks and commit.ops
    outbox = [op for op in commit.ops if op[0] == "xadd"]
    assert len(outbox) == 1 and b"challenge_ended_cancelled" in str(outbox[0]).encode()
    assert _challenge().is_here(Place("discord", "other-guild", "chan1"))
    assert not _challenge().is_here(Place("telegram", "guild1", "chan1"))
