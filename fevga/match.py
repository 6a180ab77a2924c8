"""A match to N points (1-25): games in a row, the previous winner starting the next one."""

from __future__ import annotations

from collections.abc import Callable

from .dice import DiceSource, FairDice
from .errors import GameStateError
from .game import Game
from .rules import DEFAULT_RULES, Rules

MAX_LENGTH = 25


class Match:
    """Players 0 and 1 play games until one has ``length`` points (or the other resigns the match)."""

    def __init__(
        self,
        length: int = 1,
        rules: Rules = DEFAULT_RULES,
        dice_factory: Callable[[], DiceSource] = FairDice,
    ) -> None:
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= MAX_LENGTH:
            raise GameStateError(f"a match is played to 1-{MAX_LENGTH} points", key="bad_length", max=MAX_LENGTH)
        self.length = length
        self.rules = rules
        self.dice_factory = dice_factory
        self.games: list[Game] = []
        self.match_resigned_by: int | None = None

    @classmethod
    def new(
        cls, length: int = 1, rules: Rules = DEFAULT_RULES, dice_factory: Callable[[], DiceSource] = FairDice
    ) -> Match:
        match = cls(length, rules, dice_factory)
        match.games.append(Game.new(rules, dice_factory()))
        return match

    @property
    def game(self) -> Game:
        """The game being played (or the last one, when the match is over)."""
        return self.games[-1]

    @property
    def score(self) -> tuple[int, int]:
        points = [0, 0]
        for game in self.games:
            if game.outcome is not None:
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
        """Start the next game once the current one is over; its winner starts (rolls both dice)."""
        if self.is_over():
            raise GameStateError("the match is over", key="match_over")
        outcome = self.game.outcome
        if outcome is None:
            raise GameStateError("the current game is not over", key="game_not_over")
        game = Game.new(self.rules, self.dice_factory(), first=outcome.winner)
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
        return f"<Match to {self.length} score={self.score} games={len(self.games)}>"
