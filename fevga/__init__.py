"""Fevga (Greek backgammon) rules engine: positions, legal plays, notation, games, matches, dice;
with Portes and Plakoto as variants (``fevga.variants``) for the tavli match.

The public names are imported on first use (PEP 562), so ``python -m fevga plays`` loads only the
modules it needs: its start-up is part of every batch it answers. Type checkers read the same
names from ``__init__.pyi`` (tests/engine/test_lazy_names.py keeps the two in step).
"""

from __future__ import annotations

import importlib
from typing import Any

# where each public name lives
_HOMES = {
    "Board": "board",
    "DEFAULT_RULES": "rules",
    "DiceError": "errors",
    "dumps": "serialize",
    "FairDice": "dice",
    "FevgaError": "errors",
    "FixedDice": "dice",
    "format_play": "notation",
    "Game": "game",
    "game_from_dict": "serialize",
    "game_to_dict": "serialize",
    "GameStateError": "errors",
    "IllegalPlayError": "errors",
    "IllegalStepError": "errors",
    "legal_plays": "movegen",
    "loads": "serialize",
    "Match": "match",
    "match_from_dict": "serialize",
    "match_to_dict": "serialize",
    "NotationError": "errors",
    "opponent_point": "position",
    "Outcome": "board",
    "parse_play": "notation",
    "Play": "play",
    "Position": "position",
    "PositionError": "errors",
    "RandomDice": "dice",
    "Rules": "rules",
    "SerializationError": "errors",
    "step_options": "builder",
    "StepState": "builder",
    "TurnRecord": "game",
    "verify": "dice",
    "GAMES": "variants",
    "PlakotoRules": "variants",
    "PortesRules": "variants",
    "TavliPlay": "variants",
    "TavliPosition": "variants",
    "any_position_from_id": "variants",
}

__all__ = [
    "DEFAULT_RULES",
    "GAMES",
    "Board",
    "DiceError",
    "FairDice",
    "FevgaError",
    "FixedDice",
    "Game",
    "GameStateError",
    "IllegalPlayError",
    "IllegalStepError",
    "Match",
    "NotationError",
    "Outcome",
    "PlakotoRules",
    "Play",
    "PortesRules",
    "Position",
    "PositionError",
    "RandomDice",
    "Rules",
    "SerializationError",
    "StepState",
    "TavliPlay",
    "TavliPosition",
    "TurnRecord",
    "any_position_from_id",
    "dumps",
    "format_play",
    "game_from_dict",
    "game_to_dict",
    "legal_plays",
    "loads",
    "match_from_dict",
    "match_to_dict",
    "opponent_point",
    "parse_play",
    "step_options",
    "verify",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use and keep the name here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, loaded or not."""
    return sorted(set(globals()) | set(_HOMES))
