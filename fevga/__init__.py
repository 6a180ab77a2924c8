"""Fevga (Greek backgammon) rules engine: positions, legal plays, notation, games, matches, dice;
with Portes and Plakoto as variants (``fevga.variants``) for the tavli match."""

from .board import Board, Outcome
from .builder import StepState, step_options
from .dice import FairDice, FixedDice, RandomDice, verify
from .errors import (
    DiceError,
    FevgaError,
    GameStateError,
    IllegalPlayError,
    IllegalStepError,
    NotationError,
    PositionError,
    SerializationError,
)
from .game import Game, TurnRecord
from .match import Match
from .movegen import legal_plays
from .notation import format_play, parse_play
from .play import Play
from .position import Position, opponent_point
from .rules import DEFAULT_RULES, Rules
from .serialize import dumps, game_from_dict, game_to_dict, loads, match_from_dict, match_to_dict
from .variants import GAMES, PlakotoRules, PortesRules, TavliPlay, TavliPosition, any_position_from_id

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
