"""Game records for the analysis: a ``Game``, its ``game_to_dict`` form or JSON, or the public record
of a running game (its dice seed still secret), read as the rules, the turns and the outcome."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .board import Outcome
from .errors import FevgaError, SerializationError
from .game import Game, TurnRecord
from .notation import parse_moves
from .serialize import game_from_dict
from .variants import AnyRules, check_game, rules_from_dict

GameRecord = Game | Mapping[str, Any] | str


@dataclass(frozen=True, slots=True)
class Record:
    """What the analysis reads of a game: rules, the history's turns, the outcome (None if running)
    and the game ("fevga", "portes" or "plakoto")."""

    rules: AnyRules
    turns: tuple[TurnRecord, ...]
    outcome: Outcome | None
    game: str = "fevga"


def read_record(record: GameRecord) -> Record:
    """The record of a Game, its dict or its JSON; a running game's dict without the dice seed is
    read from its written turns (each play is still checked for legality when it is judged)."""
    if isinstance(record, Game):
        return Record(record.rules, tuple(record.history), record.outcome, record.game)
    if isinstance(record, str):
        try:
            data = json.loads(record)
        except ValueError as exc:
            raise SerializationError(f"stored data is not valid JSON: {exc}") from None
    else:
        data = dict(record)
    if not isinstance(data, dict):
        raise SerializationError("this is not a stored Fevga game")
    dice = data.get("dice")
    if isinstance(dice, dict) and dice.get("kind") == "fair" and not dice.get("seed"):
        return _public_record(data)
    game = game_from_dict(data)
    return Record(game.rules, tuple(game.history), game.outcome, game.game)


def _public_record(data: dict[str, Any]) -> Record:
    """Turns of a running game read from ``"65:1/7 7/12"`` strings; players alternate from the starter."""
    try:
        kind = check_game(data.get("game", "fevga"))
        rules = rules_from_dict(kind, data["rules"])
        first = data.get("first")
        if first is None:
            a, b = (int(c) for c in data["opening"][-1])
            first = 0 if a > b else 1
        turns = []
        for n, text in enumerate(data["turns"]):
            roll, _, play = str(text).partition(":")
            dice = (int(roll[0]), int(roll[1]))
            if len(roll) != 2 or not all(1 <= d <= 6 for d in dice):
                raise ValueError(f"bad dice {roll!r}")
            steps = tuple(parse_moves(play, kind) or ())
            turns.append(TurnRecord((int(first) + n) % 2, dice, steps))
    except (FevgaError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise SerializationError(f"stored game is corrupt: {exc}") from None
    return Record(rules, tuple(turns), None, kind)
