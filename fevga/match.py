"""A match to N points (1-25): games in a row, the previous winner starting the next one (after a
draw, the opening roll). A match is of one game ("fevga", "portes", "plakoto") or "tavli": Portes,
Plakoto, Fevga in turn (RULES-TAVLI.md "The tavli match")."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .dice import DiceSource, FairDice
from .errors import GameStateError
from .game import Game
from .rules import DEFAULT_RULES
from .variants import GAMES, AnyRules, check_game, game_of_rules, rules_for

MAX_LENGTH = 25
MATCH_KINDS = (*GAMES, "tavli")
TAVLI_ROTATION = ("fevga", "portes", "plakoto")  # game k (from 1) is TAVLI_ROTATION[k % 3]


def game_kind(kind: str, number: int) -> str:
    """The game played as game ``number`` (counting from 1) of a match of ``kind``."""
    return TAVLI_ROTATION[number % 3] if kind == "tavli" else kind


class Match:
    """Players 0 and 1 play games until one has ``length`` points (or the other resigns the match)."""

    def __init__(
        self,
        length: int = 1,
        rules: AnyRules = DEFAULT_RULES,
        dice_factory: Callable[[], DiceSource] = FairDice,
        kind: str | None = None,
        variants: Mapping[str, AnyRules] | None = None,
    ) -> None:
        """``kind`` defaults to the game ``rules`` belong to; a tavli match takes each game's options
        from ``variants`` (game name -> rules; missing ones are that game's defaults)."""
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
            raise GameStateError(f"a match is played to 1-{MAX_LENGTH} points", key="bad_length", max=MAX_LENGTH)
        kind = kind if kind is not None else game_of_rules(rules)
        if kind not in MATCH_KINDS:
            raise GameStateError(f"unknown kind of match {kind!r}", key="bad_match_kind", kind=str(kind))
        self.length = length
        self.kind = kind
        chosen = dict(variants or {})
        for name in chosen:
            check_game(name)  # a misspelt game is an error, not options silently dropped
        if kind == "tavli":
            chosen.setdefault(game_of_rules(rules), rules)  # Portes or Plakoto options count as well as Fevga's
        else:
            chosen = {kind: rules}
        self.variants: dict[str, AnyRules] = {g: rules_for(g, chosen.get(g)) for g in GAMES}
        self.rules = self.variants["fevga" if kind == "tavli" else kind]  # a tavli match's Fevga options
        self.dice_factory = dice_factory
        self.games: list[Game] = []
        self.match_resigned_by: int | None = None

    @classmethod
    def new(
        cls,
        length: int = 1,
        rules: AnyRules = DEFAULT_RULES,
        dice_factory: Callable[[], DiceSource] = FairDice,
        kind: str | None = None,
        variants: Mapping[str, AnyRules] | None = None,
    ) -> Match:
        """Make the match and start its first game (the opening roll decides who starts)."""
        match = cls(length, rules, dice_factory, kind, variants)
        match.games.append(Game.new(match.rules_of(1), dice_factory()))
        return match

    def rules_of(self, number: int) -> AnyRules:
        """The game and options of game ``number`` (from 1): the rotation in a tavli match."""
        return self.variants[game_kind(self.kind, number)]

    @property
    def game(self) -> Game:
        """The game being played (or the last one, when the match is over)."""
        return self.games[-1]

    @property
    def score(self) -> tuple[int, int]:
        points = [0, 0]
        for game in self.games:
            if game.outcome is not None and game.outcome.winner is not None:  # a draw scores nothing
                points[game.outcome.winner] += game.outcome.points
        return points[0], points[1]

    def winner(self) -> int | None:
        if self.match_resigned_by is not None:
            return self.match_resigned_by ^ 1
        for player, points in enumerate(self.score):
            if points >= self.length:
                return player
        return None

    def is_over(self) -> bool:
        return self.winner() is not None

    def next_game(self) -> Game:
        """Start the next game once the current one is over; its winner starts (rolls both dice),
        after a draw the opening roll decides."""
        if self.is_over():
            raise GameStateError("the match is over", key="match_over")
        outcome = self.game.outcome
        if outcome is None:
            raise GameStateError("the current game is not over", key="game_not_over")
        game = Game.new(self.rules_of(len(self.games) + 1), self.dice_factory(), first=outcome.winner)
        self.games.append(game)
        return game

    def resign(self, player: int, whole_match: bool = False) -> None:
        """Resign the game (its points to the opponent), or the whole match."""
        if self.is_over():
            raise GameStateError("the match is over", key="match_over")
        if not self.game.is_over():
            self.game.resign(player)
        if whole_match:
            self.match_resigned_by = player

    def __repr__(self) -> str:
        kind = "" if self.kind == "fevga" else f" {self.kind}"
        return f"<Match{kind} to {self.length} score={self.score} games={len(self.games)}>"
