"""The games of tavli as variants of one engine (like python-chess's ``chess.variant``): Fevga
(the rest of ``fevga``), Portes and Plakoto. Each new game's rules live in one module
(``portes.py``, ``plakoto.py``); dice, opening roll, match play, notation and JSON are shared."""

from __future__ import annotations

from typing import Any

from ..errors import FevgaError
from ..position import Position
from ..rules import Rules
from .plakoto import PlakotoRules
from .portes import PortesRules
from .position import TAVLI_GAMES, TavliPosition
from .tavli import TavliPlay, tavli_legal_plays

GAMES = ("fevga", "portes", "plakoto")
AnyRules = Rules | PortesRules | PlakotoRules

__all__ = [
    "GAMES",
    "TAVLI_GAMES",
    "AnyRules",
    "PlakotoRules",
    "PortesRules",
    "TavliPlay",
    "TavliPosition",
    "any_position_from_id",
    "check_game",
    "default_rules",
    "game_of",
    "game_of_rules",
    "position_from_id",
    "rules_for",
    "rules_from_dict",
    "start_position",
    "tavli_legal_plays",
]


def check_game(name: Any) -> str:
    """Return the game name if it is one of "fevga", "portes", "plakoto"; else raise FevgaError."""
    if name not in GAMES:
        raise FevgaError(f'unknown game {name!r}: "fevga", "portes" or "plakoto"', key="bad_game", game=str(name))
    return str(name)


def game_of(position: Position) -> str:
    """The game a position belongs to: "fevga" for Fevga's ``Position``, else its ``game``."""
    return position.game if isinstance(position, TavliPosition) else "fevga"


def start_position(game: str) -> Position:
    """The starting position of ``game``."""
    return Position.start() if check_game(game) == "fevga" else TavliPosition.start(game)


def position_from_id(game: str, text: str) -> Position:
    """Parse a position id of ``game`` (Fevga's ids carry no name; Portes/Plakoto ids start with it)."""
    if check_game(game) == "fevga":
        return Position.from_id(text)
    position = TavliPosition.from_id(text)
    if position.game != game:
        raise FevgaError(f"that is a {position.game} position, not {game}", key="bad_position_id")
    return position


def any_position_from_id(text: str) -> Position:
    """Parse the id of a position of any game: ``portes:...`` and ``plakoto:...`` name their game,
    anything else is read as a Fevga id."""
    if isinstance(text, str) and text.strip().split(":", 1)[0] in TAVLI_GAMES:
        return TavliPosition.from_id(text)
    return Position.from_id(text)


def rules_from_dict(game: str, data: dict[str, Any]) -> AnyRules:
    """The variant options of ``game`` from a dict (unknown keys are ignored, missing ones default)."""
    if check_game(game) == "portes":
        return PortesRules.from_dict(data)
    if game == "plakoto":
        return PlakotoRules.from_dict(data)
    return Rules.from_dict(data)


def default_rules(game: str) -> AnyRules:
    """The default variant options of ``game``."""
    return rules_from_dict(game, {})


def game_of_rules(rules: AnyRules) -> str:
    """The game a set of variant options belongs to."""
    return "portes" if isinstance(rules, PortesRules) else "plakoto" if isinstance(rules, PlakotoRules) else "fevga"


def rules_for(game: str, rules: AnyRules | None) -> AnyRules:
    """``rules`` checked to be ``game``'s options; None or Fevga's defaults for another game give
    that game's defaults. Raises FevgaError for another game's options."""
    if rules is None or (game != "fevga" and rules == Rules()):
        return default_rules(game)
    if game_of_rules(rules) != game:
        raise FevgaError(f"those are not {game} rules", key="bad_variant", name="game")
    return rules
