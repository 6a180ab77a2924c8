"""A python-chess-like board: the position, whose turn it is, ``legal_plays``, ``push`` and ``pop``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .builder import PendingStep, StepState, step_options
from .errors import GameStateError, IllegalPlayError
from .movegen import check_dice, legal_plays
from .notation import parse_play
from .play import Play, format_play
from .position import Position
from .rules import CHECKERS, DEFAULT_RULES
from .variants import AnyRules, PlakotoRules, PortesRules, TavliPosition, game_of, rules_for
from .variants.plakoto import plakoto_outcome
from .variants.portes import portes_outcome


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (0 or 1), his points (1, or 2 for mars; Portes may give 3) and
    whether by resignation. A drawn Plakoto game (both mothers pinned) has no winner and 0 points."""

    winner: int | None
    points: int
    mars: bool
    resigned: bool = False

    @property
    def is_draw(self) -> bool:
        """True for a drawn game (no winner, 0 points)."""
        return self.winner is None

    @property
    def by_mother(self) -> bool:
        """True for a Plakoto game won by pinning the mother (2 points, no mars, nobody bore off all 15)."""
        return self.winner is not None and self.points >= 2 and not self.mars and not self.resigned


class Board:
    """Players 0 and 1; ``position`` is always seen by the player to move (``turn``)."""

    def __init__(self, position: Position | None = None, turn: int = 0, rules: AnyRules = DEFAULT_RULES) -> None:
        """A Fevga board by default; a Portes or Plakoto position makes a board of that game (its
        ``rules`` then are that game's options, the game's defaults when Fevga's are given)."""
        if turn not in (0, 1):
            raise GameStateError("turn is 0 or 1", key="bad_turn")
        self.position = position if position is not None else Position.start()
        self.turn = turn
        self.game = game_of(self.position)
        self.rules = rules_for(self.game, rules)
        self.move_stack: list[Play] = []
        self._cache: tuple[Position, tuple[int, int], list[Play]] | None = None

    def view(self, player: int) -> Position:
        """The position as ``player`` sees it (his own numbering)."""
        return self.position if player == self.turn else self.position.flip()

    def _plays(self, dice: tuple[int, int]) -> list[Play]:
        """The cached legal plays of the side to move (generated once per position and dice)."""
        cache = self._cache
        if cache is not None and cache[0] is self.position and cache[1] == dice:
            return cache[2]
        plays = legal_plays(self.position, dice, self.rules)
        self._cache = (self.position, dice, plays)
        return plays

    def legal_plays(self, dice: tuple[int, int]) -> list[Play]:
        """Legal plays of the side to move (remembered for the last position and dice asked)."""
        return list(self._plays(dice))

    def parse(self, text: str, dice: tuple[int, int]) -> Play:
        """The legal play ``text`` names (see ``parse_play``), matched against the cached plays."""
        dice = check_dice(dice)
        return parse_play(text, self.position, dice, self.rules, plays=self._plays(dice))

    def step_options(self, dice: tuple[int, int], pending: Sequence[PendingStep]) -> StepState:
        """The step builder on the cached plays: apply the pending (from point, die) steps and list
        the next ones; raise IllegalStepError for a step no legal play can use."""
        dice = check_dice(dice)
        return step_options(self.position, dice, self.rules, self._plays(dice), pending)

    def push(self, play: Play, *, check: bool = True) -> None:
        """Make ``play`` for the side to move, then hand the turn over."""
        if self.is_game_over():
            raise GameStateError("the game is over", key="game_over")
        if play.start != self.position:
            raise IllegalPlayError("that play is for another position", key="wrong_position", rule="")
        if check and play not in self._plays(play.dice):
            raise IllegalPlayError(f"{format_play(play)} is not a legal play", key="illegal_play", rule="")
        self.move_stack.append(play)
        self.position = play.result.flip()
        self.turn ^= 1

    def pop(self) -> Play:
        """Take back the last play."""
        if not self.move_stack:
            raise GameStateError("there is no play to take back", key="nothing_to_undo")
        play = self.move_stack.pop()
        self.position = play.start
        self.turn ^= 1
        return play

    def is_game_over(self) -> bool:
        """All 15 of a player are off, or (Plakoto) the mother rule ended the game."""
        if self.game == "plakoto":
            return self.outcome() is not None
        return self.position.is_over()

    def outcome(self) -> Outcome | None:
        """The winner and his points (2 for mars: the loser has borne off none), or None.
        Portes and Plakoto score by their own module (backgammon, the mother, a draw)."""
        if self.game != "fevga":
            return self._variant_outcome()
        pos = self.position
        if pos.me_off == CHECKERS:
            winner, loser_off = self.turn, pos.opp_off
        elif pos.opp_off == CHECKERS:
            winner, loser_off = self.turn ^ 1, pos.me_off
        else:
            return None
        mars = loser_off == 0
        return Outcome(winner, 2 if mars else 1, mars)

    def _variant_outcome(self) -> Outcome | None:
        """The end of a Portes or Plakoto game, from the position seen by the player to move."""
        pos = self.position
        assert isinstance(pos, TavliPosition)
        if isinstance(self.rules, PortesRules):
            end: tuple[int | None, int] | None = portes_outcome(pos, self.rules)
        else:
            assert isinstance(self.rules, PlakotoRules)
            end = plakoto_outcome(pos, self.rules)
        if end is None:
            return None
        relative, points = end
        if relative is None:
            return Outcome(None, 0, False)
        borne_off = (pos.me_off if relative == 0 else pos.opp_off) == CHECKERS
        mars = points >= 2 and borne_off  # a pinned mother's 2 points are no mars (RULES-TAVLI rule 6)
        return Outcome(self.turn if relative == 0 else self.turn ^ 1, points, mars)

    def __repr__(self) -> str:
        return f"Board({self.position!r}, turn={self.turn}, rules={self.rules!r})"
