"""A game session as stored: players, place, match score, the engine's game, timers and the step builder.

Stored as zlib-compressed compact JSON (schema ``sv``) under a version prefix. The engine's game dict is
slimmed (seed as base64, commitment recomputed, turn times as whole seconds since the match start) so
a whole game stays well under 1.5 KB; loading uses the engine's fast snapshot path (``replay=False``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from dataclasses import dataclass, field
from typing import Any

from bot.storage.bounded import inflate
from fevga import Game, Rules, game_from_dict, game_to_dict
from fevga.match import MATCH_KINDS, MAX_LENGTH, game_kind
from fevga.variants import AnyRules, rules_for

from .models import Place, PlayerRef

SCHEMA = 1
MAX_SESSION = 256 * 1024  # inflated bytes; a finished 90-turn session is ~6 KB of JSON
AI_PLATFORM = "ai"


class CorruptSession(ValueError):
    """A stored session that cannot be read: reported for that game only."""


@dataclass
class Session:
    """One match between two seats (seat 1 may be the AI) in one place."""

    id: str
    place: Place
    players: tuple[PlayerRef, PlayerRef]
    length: int
    rules: Rules
    game: Game
    created: float
    deadline_secs: float
    score: list[int] = field(default_factory=lambda: [0, 0])
    game_no: int = 1
    status: str = "play"  # play | done | aborted
    turn_start: float = 0.0
    reminded: int = 0
    expired: bool = False
    pending: list[tuple[int, int]] = field(default_factory=list)  # (from point, die) of the step builder
    autoplay: list[bool] = field(default_factory=lambda: [False, False])
    ai_level: str | None = None
    winner: int | None = None  # the match winner
    end: str | None = None  # won | resigned | claimed | aborted
    rated: bool = True
    mars_wins: list[int] = field(default_factory=lambda: [0, 0])
    turn_version: int = 1  # the stored version at which the current turn began
    game_version: int = 1  # the stored version at which the match's current game began
    plies_before: int = 0  # plays made in the match's earlier games (fairness: short matches)
    kind: str = "fevga"  # fevga | portes | plakoto | tavli (Portes, Plakoto, Fevga in turn)
    previous_drawn: bool = False  # the match's previous game ended in a draw (Plakoto: both mothers pinned)
    event: str | None = None  # the tournament whose pairing this match is (never rematched); None: an ordinary one

    # --- derived -----------------------------------------------------------------------------
    @property
    def deadline(self) -> float:
        return self.turn_start + self.deadline_secs

    def rules_of(self, number: int) -> AnyRules:
        """The game and options of game ``number`` of the match: ``rules`` are Fevga's options, the other
        games (one of their own, or Portes and Plakoto in a tavli rotation) play their defaults."""
        return rules_of(self.kind, self.rules, number)

    @property
    def game_name(self) -> str:
        """The game being played now (fevga, portes or plakoto)."""
        return game_kind(self.kind, self.game_no)

    def seat_of(self, player: PlayerRef) -> int | None:
        for seat, ref in enumerate(self.players):
            if ref.same(player):
                return seat
        return None

    def is_ai(self, seat: int) -> bool:
        return self.players[seat].platform == AI_PLATFORM

    def human_seats(self) -> list[int]:
        return [s for s in (0, 1) if not self.is_ai(s)]

    @property
    def plies(self) -> tuple[int, int]:
        """Identifies the turn being played: (game number, turns recorded so far)."""
        return self.game_no, len(self.game.history)


def rules_of(kind: str, rules: Rules, number: int) -> AnyRules:
    """The options of game ``number`` of a match of ``kind`` whose Fevga options are ``rules``."""
    game = game_kind(kind, number)
    return rules_for(game, rules if game == "fevga" else None)


def _game_dict(game: Game, t0: float) -> dict[str, Any]:
    data = game_to_dict(game, reveal_seed=True)
    dice = data.pop("dice")
    if dice.get("kind") == "fair":
        data["s"] = base64.b64encode(bytes.fromhex(dice["seed"])).decode()
    else:
        data["fx"] = dice["rolls"]
    for name in ("format", "v", "rules"):
        data.pop(name, None)
    data["times"] = [None if t is None else round(t - t0) for t in data["times"]]
    if not any(t is not None for t in data["times"]):
        data.pop("times")
    return data


def _restore_game(data: dict[str, Any], rules: AnyRules, t0: float) -> Game:
    data = dict(data)
    if "s" in data:
        seed = base64.b64decode(data.pop("s"))
        data["dice"] = {"kind": "fair", "seed": seed.hex(), "commitment": hashlib.sha256(seed).hexdigest()}
    else:
        data["dice"] = {"kind": "fixed", "rolls": data.pop("fx")}
    times = data.get("times")
    data["times"] = [None] * len(data["turns"]) if times is None else [None if t is None else t0 + t for t in times]
    data.update({"format": "fevga-game", "v": 1, "rules": rules.to_dict()})
    return game_from_dict(data, replay=False)


def _ref(p: PlayerRef) -> list[str]:
    return [p.platform, p.user_id, p.name]


def encode(s: Session) -> bytes:
    """The session as stored bytes (without the version prefix)."""
    data: dict[str, Any] = {
        "sv": SCHEMA,
        "id": s.id,
        "pl": [s.place.platform, s.place.scope_id, s.place.channel_id],
        "p": [_ref(s.players[0]), _ref(s.players[1])],
        "n": s.length,
        "sc": s.score,
        "gn": s.game_no,
        "st": s.status,
        "t0": round(s.created, 3),
        "ts": round(s.turn_start, 3),
        "ds": s.deadline_secs,
        "tv": s.turn_version,
        "g": _game_dict(s.game, s.created),
    }
    if s.rules != Rules():
        data["r"] = s.rules.to_dict()
    if s.kind != "fevga":  # absent: a Fevga match (every session stored before tavli)
        data["k"] = s.kind
    optional = {
        "rm": s.reminded,
        "x": s.expired,
        "pe": s.pending,
        "ap": s.autoplay if any(s.autoplay) else None,
        "ai": s.ai_level,
        "w": s.winner,
        "e": s.end,
        "ur": not s.rated,
        "mw": s.mars_wins if any(s.mars_wins) else None,
        "pb": s.plies_before,
        "pd": s.previous_drawn,
        "gv": s.game_version if s.game_version != 1 else None,  # absent: the match's first game
        "ev": s.event,
    }
    data.update({k: v for k, v in optional.items() if v or (k == "w" and v is not None)})  # seat 0 wins too
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 6)


def decode(blob: bytes) -> Session:
    """Rebuild a session; raise CorruptSession for anything that does not add up."""
    try:
        data = json.loads(inflate(blob, max_inflated=MAX_SESSION))
        if not isinstance(data, dict) or data.get("sv") != SCHEMA:
            raise CorruptSession(f"unknown session schema {data.get('sv') if isinstance(data, dict) else None!r}")
        if not 1 <= int(data["n"]) <= MAX_LENGTH or not 1 <= int(data["gn"]) <= 2 * MAX_LENGTH:
            raise CorruptSession(f"absurd match length or game number: {data['n']!r}, {data['gn']!r}")
        rules = Rules.from_dict(data["r"]) if "r" in data else Rules()
        kind = str(data.get("k", "fevga"))
        if kind not in MATCH_KINDS:
            raise CorruptSession(f"unknown kind of match {kind!r}")
        created = float(data["t0"])
        p0, p1 = (PlayerRef(str(a), str(b), str(c)) for a, b, c in data["p"])
        return Session(
            id=str(data["id"]),
            place=Place(*(str(x) for x in data["pl"])),
            players=(p0, p1),
            length=int(data["n"]),
            rules=rules,
            game=_restore_game(data["g"], rules_of(kind, rules, int(data["gn"])), created),
            created=created,
            deadline_secs=float(data["ds"]),
            score=[int(data["sc"][0]), int(data["sc"][1])],
            game_no=int(data["gn"]),
            status=str(data["st"]),
            turn_start=float(data["ts"]),
            reminded=int(data.get("rm", 0)),
            expired=bool(data.get("x", False)),
            pending=[(int(a), int(b)) for a, b in data.get("pe", [])],
            autoplay=[bool(x) for x in data.get("ap") or [False, False]],
            ai_level=data.get("ai"),
            winner=data.get("w"),
            end=data.get("e"),
            rated=not data.get("ur", False),
            mars_wins=[int(x) for x in data.get("mw") or [0, 0]],
            turn_version=int(data.get("tv", 1)),
            game_version=int(data.get("gv", 1)),
            plies_before=int(data.get("pb", 0)),
            previous_drawn=bool(data.get("pd", False)),
            kind=kind,
            event=data.get("ev"),
        )
    except CorruptSession:
        raise
    except Exception as exc:  # any malformed value: zlib, JSON, engine checks, missing fields
        raise CorruptSession(f"stored game is corrupt: {type(exc).__name__}: {exc}") from None
