"""Versioned JSON of a game and a match. Loading checks everything and replays the record, so
corrupt or tampered data raises SerializationError and never yields a half-built state."""

from __future__ import annotations

import json
from typing import Any

from .board import Board
from .dice import DiceSource, FairDice, FixedDice
from .errors import FevgaError, SerializationError
from .game import Game, TurnRecord
from .match import MATCH_KINDS, Match, game_kind
from .rules import OFF
from .variants import AnyRules, check_game, position_from_id, rules_from_dict

VERSION = 1


def _roll_text(dice: tuple[int, int]) -> str:
    return f"{dice[0]}{dice[1]}"


def game_to_dict(game: Game, *, reveal_seed: bool | None = None) -> dict[str, Any]:
    """The game as plain JSON data. The dice seed is kept secret until the game is over unless asked."""
    source = game.dice_source
    dice: dict[str, Any]
    if isinstance(source, FairDice):
        dice = {"kind": "fair", "commitment": source.commitment}
        if reveal_seed or (reveal_seed is None and game.is_over()):
            dice["seed"] = source.seed.hex()
    elif isinstance(source, FixedDice):
        dice = {"kind": "fixed", "rolls": [list(r) for r in source.rolls]}
    else:
        dice = {"kind": "fixed", "rolls": [list(r) for r in game.rolls()]}
    return {
        "format": "fevga-game",
        "v": VERSION,
        **({"game": game.game} if game.game != "fevga" else {}),
        "rules": game.rules.to_dict(),
        "dice": dice,
        "first": game.first,
        "opening": [_roll_text(r) for r in game.opening],
        "turns": [f"{_roll_text(r.dice)}:{r.text()}" for r in game.history],
        "times": [r.at for r in game.history],
        "resigned": game.resigned_by,
        "position": game.position.id(),
        "turn": game.turn,
        **({"timeout": True} if game.timed_out else {}),
    }


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise SerializationError(f"stored game: field {key!r} is missing or of the wrong type", field=key)
    return value


def game_from_dict(data: Any, *, replay: bool = True) -> Game:
    """Rebuild a game by replaying its record; raise SerializationError if anything does not add up.

    ``replay=False`` is the fast path for a trusted store: it checks the shape, every roll against the
    seed, and the stored position, but does not re-judge each play.
    """
    if not isinstance(data, dict) or data.get("format") != "fevga-game":
        raise SerializationError("this is not a stored Fevga game")
    if data.get("v") != VERSION:
        raise SerializationError(f"unknown stored game version {data.get('v')!r} (this code reads {VERSION})")
    try:
        return _replay(data) if replay else _restore(data)
    except SerializationError:
        raise
    except (FevgaError, TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise SerializationError(f"stored game is corrupt or tampered with: {exc}") from None


def _game_rules(data: dict[str, Any]) -> tuple[str, AnyRules]:
    """The stored game's name ("game" absent = fevga) and its variant options."""
    game = check_game(data.get("game", "fevga"))
    return game, rules_from_dict(game, _need(data, "rules", dict))


def _replay(data: dict[str, Any]) -> Game:
    kind, rules = _game_rules(data)
    dice_data = _need(data, "dice", dict)
    turns = _need(data, "turns", list)
    times = data.get("times") or [None] * len(turns)
    if not isinstance(times, list) or len(times) != len(turns):
        raise SerializationError("stored game: times do not match turns")
    rolls = [str(t).split(":", 1)[0] for t in turns]
    source: DiceSource
    if dice_data.get("kind") == "fair":
        seed_hex = dice_data.get("seed")
        if seed_hex is None:
            raise SerializationError("stored game: the dice seed is missing, the record cannot be checked")
        source = FairDice(bytes.fromhex(seed_hex))
        if source.commitment != dice_data.get("commitment"):
            raise SerializationError("stored game: the dice seed does not match its commitment")
    elif dice_data.get("kind") == "fixed":
        source = FixedDice(tuple(r) for r in dice_data["rolls"])
    else:
        raise SerializationError("stored game: unknown kind of dice")
    first = data.get("first")
    game = Game.new(rules, source, first=first)
    opening = [_roll_text(r) for r in game.opening]
    if opening != _need(data, "opening", list):
        raise SerializationError("stored game: the opening rolls do not match the dice")
    k = 0
    while k < len(turns):
        if k >= len(game.history):
            if game.dice is None or _roll_text(game.dice) != rolls[k]:
                raise SerializationError(f"stored game: turn {k + 1} has dice that were not rolled")
            text = str(turns[k]).split(":", 1)[1]
            game.play(text, at=times[k])
        record = game.history[k]
        if f"{_roll_text(record.dice)}:{record.text()}" != turns[k]:
            raise SerializationError(f"stored game: turn {k + 1} does not follow from the record")
        k += 1
    if len(game.history) != len(turns):
        raise SerializationError("stored game: the record stops before a forced pass")
    resigned = data.get("resigned")
    if resigned is not None and data.get("timeout"):
        game.lose_on_time(resigned)
    elif resigned is not None:
        game.resign(resigned)
    if game.position != position_from_id(kind, _need(data, "position", str)) or game.turn != data.get("turn"):
        raise SerializationError("stored game: the position does not follow from the record")
    return game


def _parse_steps(text: str) -> tuple[tuple[tuple[int, int], ...], tuple[bool, ...]]:
    """A turn as written by ``TurnRecord.text``: its steps (``bar`` = 0, ``off`` = 25) and hit marks."""
    if text == "pass":
        return (), ()
    steps = []
    hits = []
    for part in text.split(" "):
        a, b = part.split("/")
        hits.append(b.endswith("*"))
        b = b.rstrip("*")
        steps.append((0 if a == "bar" else int(a), OFF if b == "off" else int(b)))
    return tuple(steps), tuple(hits) if any(hits) else ()


def _restore(data: dict[str, Any]) -> Game:
    """Snapshot load: trust the record's plays, but check rolls, shape and position."""
    kind, rules = _game_rules(data)
    dice_data = _need(data, "dice", dict)
    turns = _need(data, "turns", list)
    times = data.get("times") or [None] * len(turns)
    source: DiceSource
    if dice_data.get("kind") == "fair":
        fair = FairDice(bytes.fromhex(dice_data["seed"]))
        if fair.commitment != dice_data.get("commitment"):
            raise SerializationError("stored game: the dice seed does not match its commitment")
        source = fair
    else:
        source = FixedDice(tuple(r) for r in dice_data["rolls"])
    game = Game(rules, source)
    first = data.get("first")
    game.first = first
    opening = _need(data, "opening", list)
    game.opening = [(int(r[0]), int(r[1])) for r in opening]
    if first is None:
        last = game.opening[-1]
        game.starter = 0 if last[0] > last[1] else 1
    else:
        game.starter = int(first)
    player = game.starter
    for k, turn in enumerate(turns):
        roll, text = str(turn).split(":", 1)
        steps, hits = _parse_steps(text)
        game.history.append(TurnRecord(player, (int(roll[0]), int(roll[1])), steps, times[k], hits))
        player ^= 1
    position = position_from_id(kind, _need(data, "position", str))
    turn_now = data.get("turn")
    if turn_now not in (0, 1) or turn_now != player:
        raise SerializationError("stored game: whose turn it is does not follow from the record")
    game.board = Board(position, turn_now, rules)
    game.roll_index = len(game.opening) + len(game.history)
    outcome = game.board.outcome()
    resigned = data.get("resigned")
    if outcome is None and resigned is None:
        game.dice = game._next_roll()
    elif resigned is not None and data.get("timeout"):
        game.lose_on_time(resigned)
    elif resigned is not None:
        game.resign(resigned)
    else:
        game._outcome = outcome
    expected = [source.roll(k) for k in range(len(game.rolls()))]
    if game.rolls() != expected:
        raise SerializationError("stored game: the rolls do not match the dice seed")
    return game


def match_to_dict(match: Match) -> dict[str, Any]:
    """The match as plain JSON data; ``kind`` and a tavli match's ``variants`` only when not Fevga."""
    extra: dict[str, Any] = {}
    if match.kind != "fevga":
        extra["kind"] = match.kind
    if match.kind == "tavli":
        extra["variants"] = {g: r.to_dict() for g, r in match.variants.items()}
    return {
        "format": "fevga-match",
        "v": VERSION,
        **extra,
        "length": match.length,
        "rules": match.rules.to_dict(),
        "games": [game_to_dict(g, reveal_seed=True) for g in match.games],
        "resigned": match.match_resigned_by,
        "score": list(match.score),
    }


def match_from_dict(data: Any) -> Match:
    if not isinstance(data, dict) or data.get("format") != "fevga-match":
        raise SerializationError("this is not a stored Fevga match")
    if data.get("v") != VERSION:
        raise SerializationError(f"unknown stored match version {data.get('v')!r} (this code reads {VERSION})")
    try:
        kind = data.get("kind", "fevga")
        variants = data.get("variants") or {}
        if kind not in MATCH_KINDS or not isinstance(variants, dict):
            raise SerializationError(f"stored match: unknown kind {kind!r}")
        rules = rules_from_dict("fevga" if kind == "tavli" else kind, _need(data, "rules", dict))
        match = Match(
            _need(data, "length", int),
            rules,
            kind=kind,
            variants={g: rules_from_dict(g, r) for g, r in variants.items() if isinstance(r, dict)},
        )
        games = _need(data, "games", list)
        if not games:
            raise SerializationError("stored match has no games")
        for n, g in enumerate(games):
            game = game_from_dict(g)
            if game.game != game_kind(kind, n + 1):
                raise SerializationError(f"stored match: game {n + 1} is not the {game_kind(kind, n + 1)} it should be")
            if n and game.first != match.games[-1].outcome.winner:  # type: ignore[union-attr]
                raise SerializationError("stored match: a game was not started by the previous winner")
            if n and not match.games[-1].is_over():
                raise SerializationError("stored match: a game follows one that is not over")
            match.games.append(game)
        match.match_resigned_by = data.get("resigned")
        if list(match.score) != data.get("score"):
            raise SerializationError("stored match: the score does not follow from the games")
        return match
    except SerializationError:
        raise
    except (FevgaError, TypeError, ValueError, KeyError, AttributeError) as exc:
        raise SerializationError(f"stored match is corrupt or tampered with: {exc}") from None


def dumps(obj: Game | Match) -> str:
    data = game_to_dict(obj, reveal_seed=True) if isinstance(obj, Game) else match_to_dict(obj)
    return json.dumps(data, separators=(",", ":"))


def loads(text: str | bytes) -> Game | Match:
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as exc:
        raise SerializationError(f"stored data is not valid JSON: {exc}") from None
    if isinstance(data, dict) and data.get("format") == "fevga-match":
        return match_from_dict(data)
    return game_from_dict(data)
