"""A tournament as stored: settings, entrants, rounds, results; its keys live in the place's home.

One versioned JSON value per event (``fevga:{h:<n>}:t:<id>``, in the home of the channel it was created in)
and a hash of the round's games (``...:t:<id>:games``, slot ``<round>:<a>|<b>`` -> game id) in the same
home: a round's close and the next pairing are one compare-and-set of the value, and each paired match is
started by a commit that also takes its slot, so nothing is paired or started twice (docs/tournaments.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from bot.service import keys
from bot.service.models import Place, PlayerRef

from .standings import Entrant, Result

KEEP = 400 * 86400
"""Seconds an event is kept after its last change (the place's history lists it meanwhile)."""
KINDS = ("swiss", "knockout")


def tournament(tid: str) -> str:
    """The event's versioned JSON, in the home its id names (the home of the channel it was made in)."""
    return f"{keys.home(keys.id_bucket(tid))}:t:{tid}"


def round_games(tid: str) -> str:
    """Hash: ``<round>:<a>|<b>`` -> the id of the match started for that pair (field taken exactly once)."""
    return f"{tournament(tid)}:games"


def round_waits(tid: str) -> str:
    """Hash: ``<round>:<a>|<b>`` -> the ids of the players who kept that match from starting at its last try
    (in another match in the channel), written by :mod:`.waits`; the round's close judges it by them."""
    return f"{tournament(tid)}:waits"


def place_events_index(place: Place) -> str:
    """Hash in the channel's home: ``now`` -> the running or open event here; ``<id>`` -> ``<status>|<winner>``
    of every event made here (``tournaments`` lists them)."""
    return f"{keys.home(keys.place_bucket(place))}:ch:{place.platform}:{place.channel_id}:tour"


def player_events(platform: str, user_id: str) -> str:
    """Hash in the player's slot: event id -> ``<scope id>|<1 if he won it, else 0>`` (``stats``: his events
    and titles), written by the commit that ends the event."""
    return f"{keys.PREFIX}:{{u:{platform}:{user_id}}}:events"


def due_key(bucket: int) -> str:
    """Zset in a home: event id -> when to look at it next (its start, its round's deadline, a poll)."""
    return f"{keys.home(bucket)}:tdue"


def due_member(t: Tournament) -> str:
    """An event's member in its home's due set: ``<id>:<platform>`` (an instance serving one platform looks
    only at that platform's events)."""
    return f"{t.id}:{t.place.platform}"


def slot(rnd: int, a: str, b: str) -> str:
    """The games-hash field of one pair of a round."""
    return f"{rnd}:{a}|{b}"


@dataclass
class Pair:
    """One match of the current round: player ids (``b`` None = a bye) and its game once started."""

    a: str
    b: str | None
    game: str | None = None


@dataclass
class Tournament:
    """A Swiss or knockout event of one place, run by the bot."""

    id: str
    place: Place
    kind: str
    rounds: int
    points: int
    deadline_secs: float
    starts_at: float
    rated: bool
    admin: str
    status: str = "open"  # open | running | done | cancelled
    players: list[Entrant] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    round: int = 0
    round_ends: float = 0.0
    pairs: list[Pair] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    slots: list[str | None] = field(default_factory=list)  # knockout: this round's bracket
    winner: str | None = None
    gone: list[str] = field(default_factory=list)  # left the chat or blocked the bot: his matches are forfeit
    game: str = "fevga"  # the kind of its matches (fevga, portes, plakoto, tavli); events before tavli: fevga

    def entrant(self, user_id: str) -> Entrant | None:
        """The entrant with this user id, if he joined."""
        return next((e for e in self.players if e.id == user_id), None)

    def active(self) -> list[str]:
        """Players still in the event (not withdrawn or removed)."""
        return [e.id for e in self.players if e.id not in self.withdrawn]

    def name_of(self, user_id: str | None) -> str:
        """A player's display name as he joined (his id if unknown; "" for nobody: a match both lost has no
        winner to name, and no text may say "None")."""
        if not user_id:
            return ""
        found = self.entrant(user_id)
        return found.name if found is not None and found.name else user_id

    def ref(self, user_id: str) -> PlayerRef:
        """The player as the service addresses him."""
        return PlayerRef(self.place.platform, user_id, self.name_of(user_id))

    def about(self, now: float) -> dict[str, object]:
        """The creation message's arguments at time ``now``."""
        return {"id": self.id, "swiss": self.kind == "swiss", "knockout": self.kind == "knockout",
                "rounds": self.rounds, "points": self.points, "deadline": self.deadline_secs,
                "left": max(0.0, self.starts_at - now), "unrated": not self.rated, "game": self.game}  # fmt: skip

    def encode(self) -> bytes:
        """Compact JSON."""
        data: dict[str, Any] = {
            "id": self.id, "place": [self.place.platform, self.place.scope_id, self.place.channel_id],
            "kind": self.kind, "rounds": self.rounds, "points": self.points, "deadline": self.deadline_secs,
            "starts": self.starts_at, "rated": self.rated, "admin": self.admin, "status": self.status,
            "players": [[e.id, e.name, e.rating] for e in self.players], "withdrawn": self.withdrawn,
            "round": self.round, "round_ends": self.round_ends,
            "pairs": [[p.a, p.b, p.game] for p in self.pairs],
            "results": [[r.round, r.a, r.b, r.winner] for r in self.results],
            "slots": self.slots, "winner": self.winner, "gone": self.gone, "game": self.game,
        }  # fmt: skip
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def decode(cls, blob: bytes) -> Tournament:
        """Inverse of :meth:`encode`; a ValueError (KeyError, TypeError) when the value is damaged."""
        d = json.loads(blob)
        return cls(
            id=str(d["id"]), place=Place(*(str(x) for x in d["place"])), kind=str(d["kind"]),
            rounds=int(d["rounds"]), points=int(d["points"]), deadline_secs=float(d["deadline"]),
            starts_at=float(d["starts"]), rated=bool(d["rated"]), admin=str(d["admin"]), status=str(d["status"]),
            players=[Entrant(str(i), float(r), str(n)) for i, n, r in d["players"]],
            withdrawn=[str(w) for w in d["withdrawn"]], round=int(d["round"]), round_ends=float(d["round_ends"]),
            pairs=[Pair(str(a), b if b is None else str(b), g) for a, b, g in d["pairs"]],
            results=[Result(int(n), str(a), b if b is None else str(b), w) for n, a, b, w in d["results"]],
            slots=list(d["slots"]), winner=d["winner"], gone=[str(g) for g in d.get("gone", [])],
            game=str(d.get("game", "fevga")),
        )  # fmt: skip
