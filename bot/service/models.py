"""Platform-neutral values the service takes and returns: players, places, messages, actions, views, results.

Frontends draw a :class:`GameView`, translate each :class:`Msg` and turn each :class:`Action` into a button.
Everything here converts to and from plain JSON (a retried command returns its stored first result).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.service.button_kinds import ButtonKind


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player: user ``user_id`` on ``platform`` (discord, telegram, terminal, ai), shown as ``name``.
    ``bot``: the account is a bot; ``away``: not a member of the command's server or group (he left). The frontend
    knows both; neither can be challenged. Not stored, not compared."""

    platform: str
    user_id: str
    name: str
    bot: bool = field(default=False, compare=False)
    away: bool = field(default=False, compare=False)

    def same(self, other: PlayerRef | None) -> bool:
        """The same account (names may change)."""
        return other is not None and self.platform == other.platform and self.user_id == other.user_id


@dataclass(frozen=True, slots=True)
class Place:
    """Where a game lives. ``scope_id``: guild / group / 'terminal' / f'private:{chat_id}'; leaderboards
    are per (platform, scope_id); a player has at most one game per (platform, channel_id)."""

    platform: str
    scope_id: str
    channel_id: str


@dataclass(frozen=True, slots=True)
class Msg:
    """A message to translate: ``key`` in the catalogue and its arguments."""

    key: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Action:
    """Something a player may do now (a button), of a :class:`ButtonKind`. ``version`` makes a stale button
    fail cleanly."""

    kind: ButtonKind
    game_id: str
    version: int
    label_key: str
    payload: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Action:
        """An action as stored in a result (its kind as the kind's word; an unknown word raises ValueError)."""
        return cls(ButtonKind(data["kind"]), str(data["game_id"]), int(data["version"]), str(data["label_key"]),
                   dict(data.get("payload") or {}))


@dataclass(frozen=True, slots=True)
class GameView:
    """Everything a renderer needs to draw a game; ``position_id`` is from player 0's view."""

    game_id: str
    version: int
    position_id: str
    turn: int
    dice: tuple[int, int] | None
    players: tuple[PlayerRef, PlayerRef]
    last_steps: tuple[tuple[int, int], ...] = ()
    last_mover: int | None = None
    last_dice: tuple[int, int] | None = None
    match_length: int = 1
    score: tuple[int, int] = (0, 0)
    game_no: int = 1
    winner: int | None = None  # winner of the game shown (None while it runs)
    match_winner: int | None = None
    points: int = 0
    mars: bool = False
    mother: bool = False  # the game shown was won by pinning the mother (Plakoto)
    resigned: bool = False  # the game shown was won by resignation (``mars`` then stays False)
    legal_from: dict[int, list[int]] = field(default_factory=dict)  # from point -> dice usable (mover's view)
    dice_left: tuple[int, ...] = ()
    pending: tuple[tuple[int, int], ...] = ()  # steps (from, to) built so far, mover's numbering
    pending_complete: bool = False
    status: str = "play"  # play | done | aborted
    deadline: float | None = None
    commitment: str = ""  # sha256 of the dice seed, published at the start
    rules: dict[str, Any] = field(default_factory=dict)
    rated: bool = True  # False: the match cannot move ratings (the AI, or a turn deadline under the minimum)
    game: str = "fevga"  # the game shown: fevga | portes | plakoto (``position_id`` is that game's id)
    kind: str = "fevga"  # the match: one game's name, or tavli (Portes, Plakoto, Fevga in turn)
    last_hits: tuple[bool, ...] = ()  # Portes/Plakoto: which landings of the last play hit or pinned (empty: none)
    drawn: bool = False  # the game shown ended in a draw (Plakoto: both mothers pinned)
    previous_drawn: bool = False  # the match's previous game ended in a draw
    end: str | None = None  # how the match ended (won, resigned, claimed, aborted, left); None while it runs

    @property
    def names(self) -> tuple[str, str]:
        return self.players[0].name, self.players[1].name


@dataclass(frozen=True, slots=True)
class Result:
    """What a command did: ok or not, messages to show, the game to draw, the buttons, who to ping."""

    ok: bool
    messages: list[Msg] = field(default_factory=list)
    view: GameView | None = None
    actions: list[Action] = field(default_factory=list)
    to_notify: list[PlayerRef] = field(default_factory=list)
    game_id: str | None = None
    error_key: str | None = None
    place: Place | None = None  # where to post it (timer results come without a command)
    # The ``challenge`` outbox entries this command's commit wrote (challenges it ended), so that its handler
    # edits their messages at once (bot/delivery/challenges.py); not stored, not compared.
    challenge_ends: list[dict[str, bytes | str]] = field(default_factory=list, compare=False)

    @classmethod
    def error(cls, key: str, **args: Any) -> Result:
        return cls(ok=False, messages=[Msg(key, args)], error_key=key)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (hand-written: ``dataclasses.asdict`` is several times slower)."""
        return {
            "ok": self.ok,
            "messages": [{"key": m.key, "args": m.args} for m in self.messages],
            "view": _view_to_dict(self.view) if self.view is not None else None,
            "actions": [{"kind": a.kind, "game_id": a.game_id, "version": a.version, "label_key": a.label_key,
                         "payload": a.payload} for a in self.actions],
            "to_notify": [_ref_dict(p) for p in self.to_notify],
            "game_id": self.game_id,
            "error_key": self.error_key,
            "place": None if self.place is None else
            {"platform": self.place.platform, "scope_id": self.place.scope_id, "channel_id": self.place.channel_id},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        view = data.get("view")
        place = data.get("place")
        return cls(
            ok=bool(data["ok"]),
            messages=[Msg(m["key"], dict(m["args"])) for m in data.get("messages", [])],
            view=_view_from_dict(view) if view else None,
            actions=[Action.from_dict(a) for a in data.get("actions", [])],
            to_notify=[PlayerRef(**p) for p in data.get("to_notify", [])],
            game_id=data.get("game_id"),
            error_key=data.get("error_key"),
            place=Place(**place) if place else None,
        )


def _ref_dict(p: PlayerRef) -> dict[str, str]:
    return {"platform": p.platform, "user_id": p.user_id, "name": p.name}


def _view_to_dict(v: GameView) -> dict[str, Any]:
    data = {name: getattr(v, name) for name in GameView.__dataclass_fields__}
    data["players"] = [_ref_dict(v.players[0]), _ref_dict(v.players[1])]
    return data


def _pair(value: Any) -> tuple[int, int] | None:
    return None if value is None else (int(value[0]), int(value[1]))


def _view_from_dict(d: dict[str, Any]) -> GameView:
    return GameView(
        game_id=d["game_id"],
        version=d["version"],
        position_id=d["position_id"],
        turn=d["turn"],
        dice=_pair(d.get("dice")),
        players=(PlayerRef(**d["players"][0]), PlayerRef(**d["players"][1])),
        last_steps=tuple((int(a), int(b)) for a, b in d.get("last_steps", ())),
        last_mover=d.get("last_mover"),
        last_dice=_pair(d.get("last_dice")),
        match_length=d.get("match_length", 1),
        score=(int(d["score"][0]), int(d["score"][1])),
        game_no=d.get("game_no", 1),
        winner=d.get("winner"),
        match_winner=d.get("match_winner"),
        points=d.get("points", 0),
        mars=d.get("mars", False),
        mother=d.get("mother", False),
        resigned=bool(d.get("resigned", False)),
        legal_from={int(k): list(v) for k, v in d.get("legal_from", {}).items()},
        dice_left=tuple(d.get("dice_left", ())),
        pending=tuple((int(a), int(b)) for a, b in d.get("pending", ())),
        pending_complete=d.get("pending_complete", False),
        status=d.get("status", "play"),
        deadline=d.get("deadline"),
        commitment=d.get("commitment", ""),
        rules=dict(d.get("rules", {})),
        rated=bool(d.get("rated", True)),
        game=str(d.get("game", "fevga")),
        kind=str(d.get("kind", "fevga")),
        last_hits=tuple(bool(h) for h in d.get("last_hits", ())),
        drawn=bool(d.get("drawn", False)),
        previous_drawn=bool(d.get("previous_drawn", False)),
        end=d.get("end"),
    )
