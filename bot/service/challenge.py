"""A challenge as stored: who challenged whom, where, to what match, until when; with its codec.

Stored as ``<version>:`` + JSON (keys ``id from to place n r created exp quick``, the format used since the
first release; ``k``, the kind of match, only when it is not Fevga). :meth:`Challenge.decode` validates every
field and raises :class:`CorruptChallenge`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.storage.base import Commit
from fevga import FevgaError, Rules
from fevga.match import MATCH_KINDS, MAX_LENGTH

from . import keys
from .models import Place, PlayerRef, Result

MAX_CHALLENGE = 4096  # stored bytes; a challenge is ~250

class CorruptChallenge(ValueError):
    """A stored challenge that cannot be read: reported for that challenge only."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """A match offered by ``from_`` to ``to`` (None: an open challenge anyone in the place may take)."""

    id: str
    from_: PlayerRef
    to: PlayerRef | None
    place: Place
    length: int
    rules: Rules
    created: float
    expires: float
    quick: bool = False
    kind: str = "fevga"  # fevga | portes | plakoto | tavli

    def is_here(self, place: Place) -> bool:
        """Whether the challenge lives in this chat channel."""
        return self.place.platform == place.platform and self.place.channel_id == place.channel_id

    def index_entry(self) -> str:
        """The channel index value: ``from_user_id|to_user_id`` (to empty for an open challenge)."""
        return f"{self.from_.user_id}|{self.to.user_id if self.to else ''}"

    def drop(self, commit: Commit, version: int, end: str, by: str = "") -> Commit:
        """Add to ``commit``: delete the challenge (if still at ``version``), its index entry and its timer, and
        an outbox entry so that its message is edited to say how it ended (``end``: accepted, declined,
        cancelled, expired, superseded; ``by``: who ended it), however it ended."""
        commit.expect(keys.challenge(self.id), version).delete(keys.challenge(self.id))
        commit.hdel(keys.channel_challenges(self.place), self.id)
        commit.hdel(keys.channel_pairs(self.place), self.index_entry(), only_if=self.id)
        member = keys.timer("c", self.id, self.place.platform)
        commit.zrem(keys.timers(member), member)
        commit.xadd(keys.outbox(self.place.platform, keys.id_bucket(self.id)), self.ended_entry(end, by))
        return commit

    def ended_entry(self, end: str, by: str) -> dict[str, bytes | str]:
        """The outbox entry of a challenge that ended: which one, where, and the message saying how."""
        args = {"player": self.from_.name, "opponent": self.to.name if self.to else "", "by": by,
                "length": self.length, "challenge_id": self.id, "kind": self.kind}
        msgs = json.dumps([[f"challenge_ended_{end}", args]], separators=(",", ":"))
        place = json.dumps([self.place.platform, self.place.scope_id, self.place.channel_id])
        return {"k": "challenge", "id": self.id, "end": end, "place": place, "msgs": msgs}

    def encode(self) -> bytes:
        """The stored JSON (without the version prefix)."""
        doc = {"id": self.id, "from": _ref_list(self.from_), "to": _ref_list(self.to) if self.to else None,
               "place": [self.place.platform, self.place.scope_id, self.place.channel_id], "n": self.length,
               "r": self.rules.to_dict(), "created": self.created, "exp": self.expires, "quick": self.quick}
        if self.kind != "fevga":
            doc["k"] = self.kind
        return json.dumps(doc).encode()

    @classmethod
    def decode(cls, blob: bytes) -> Challenge:
        """Rebuild a stored challenge; raise CorruptChallenge for anything that does not add up."""
        if len(blob) > MAX_CHALLENGE:
            raise CorruptChallenge("challenge too large")
        try:
            doc = json.loads(blob)
        except ValueError as exc:
            raise CorruptChallenge(f"challenge is not JSON: {exc}") from None
        if not isinstance(doc, dict):
            raise CorruptChallenge("challenge is not an object")
        place = _strings(doc.get("place"))
        exp = doc.get("exp")
        if place is None or not isinstance(doc.get("n"), int) or not isinstance(doc.get("r"), dict) \
                or not isinstance(exp, (int, float)) or not isinstance(doc.get("id"), str):
            raise CorruptChallenge("challenge fields missing or of the wrong type")
        from_ = _ref(doc.get("from"))
        to = None if doc.get("to") is None else _ref(doc.get("to"))
        if from_ is None or (doc.get("to") is not None and to is None):
            raise CorruptChallenge("challenge players are malformed")
        try:
            rules = Rules.from_dict(doc["r"])
        except (FevgaError, ValueError, TypeError) as exc:
            raise CorruptChallenge(f"challenge rules: {exc}") from None
        kind = doc.get("k", "fevga")
        if kind not in MATCH_KINDS:
            raise CorruptChallenge(f"unknown kind of match {kind!r}")
        created = doc.get("created", exp)
        return cls(id=doc["id"], from_=from_, to=to, place=Place(*place), length=doc["n"], rules=rules,
                   created=float(created) if isinstance(created, (int, float)) else float(exp),
                   expires=float(exp), quick=bool(doc.get("quick")), kind=str(kind))


def match_error(length: object, kind: str | None) -> Result | None:
    """The error for a match length that is not a whole number of points in the allowed range, or a kind of
    match that is none of fevga, portes, plakoto, tavli (None: the place's default); else None."""
    if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
        return Result.error("bad_length", max=MAX_LENGTH)
    if kind is not None and kind not in MATCH_KINDS:
        return Result.error("bad_match_kind_here", games=", ".join(MATCH_KINDS))
    return None


def _strings(value: Any) -> list[str] | None:
    """A stored triple of strings, or None."""
    if isinstance(value, list) and len(value) == 3 and all(isinstance(x, str) for x in value):
        return value
    return None


def _ref(value: Any) -> PlayerRef | None:
    triple = _strings(value)
    return PlayerRef(triple[0], triple[1], triple[2]) if triple is not None else None


def _ref_list(p: PlayerRef) -> list[str]:
    return [p.platform, p.user_id, p.name]
