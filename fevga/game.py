"""One game with its dice: opening roll, turns, forced passes, win, mars, resignation, history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .board import Board, Outcome
from .builder import PendingStep, StepState
from .dice import DiceSource, FairDice, Roll
from .errors import GameStateError
from .play import Play, Step, format_steps
from .position import Position
from .rules import DEFAULT_RULES
from .variants import (
    AnyRules,
    PortesRules,
    TavliPosition,
    check_game,
    game_of_rules,
    rules_for,
    start_position,
)
from .variants.portes import portes_resign_points

MAX_AUTO_PASSES = 500  # both sides shut in for this long cannot happen under R3; a guard, not a rule


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn of the history: who, which dice, the steps (empty for a pass), when (optional)."""

    player: int
    dice: Roll
    steps: tuple[Step, ...]
    at: float | None = None
    hits: tuple[bool, ...] = ()  # Portes/Plakoto: which landings hit or pinned (empty: none)

    @property
    def is_pass(self) -> bool:
        return not self.steps

    def text(self) -> str:
        """The steps as written (``1/7 7/12``, ``bar/3* 12/18``), or ``pass``."""
        return format_steps(self.steps, self.hits)


class Game:
    """A game between players 0 and 1. Every roll comes from ``dice`` (fair dice by default).

    ``game`` is "fevga" (default), "portes" or "plakoto"; ``rules`` are that game's variant options
    (Fevga's ``Rules``, ``PortesRules``, ``PlakotoRules``); given alone they also name the game."""

    def __init__(self, rules: AnyRules | None = None, dice: DiceSource | None = None, game: str | None = None) -> None:
        self.game = check_game(game) if game is not None else game_of_rules(rules or DEFAULT_RULES)
        self.rules: AnyRules = rules_for(self.game, rules)
        self.dice_source: DiceSource = dice if dice is not None else FairDice()
        self.board = Board(start_position(self.game), rules=self.rules)
        self.roll_index = 0
        self.opening: list[Roll] = []
        self.first: int | None = None  # set when the starter was given (a match's previous winner)
        self.starter = 0
        self.dice: Roll | None = None
        self.history: list[TurnRecord] = []
        self.resigned_by: int | None = None
        self.timed_out = False  # the resignation was a loss on time (a claim): a single point, never mars
        self._outcome: Outcome | None = None

    # --- start -------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: AnyRules | None = None,
        dice: DiceSource | None = None,
        first: int | None = None,
        at: float | None = None,
        game: str | None = None,
    ) -> Game:
        """Start a game: opening roll (ties rolled again) unless ``first`` is given; the starter rolls."""
        game_ = cls(rules, dice, game)
        game_._start(first, at)
        return game_

    def _next_roll(self) -> Roll:
        roll = self.dice_source.roll(self.roll_index)
        self.roll_index += 1
        return roll

    def _start(self, first: int | None, at: float | None) -> None:
        if first is None:
            while True:
                roll = self._next_roll()
                self.opening.append(roll)
                if roll[0] != roll[1]:
                    self.starter = 0 if roll[0] > roll[1] else 1
                    break
        else:
            if first not in (0, 1):
                raise GameStateError("the first player is 0 or 1", key="bad_turn")
            self.first = self.starter = first
        self.board = Board(start_position(self.game), self.starter, self.rules)
        self._roll_for_turn(at)

    def _roll_for_turn(self, at: float | None) -> None:
        """Roll for the player to move and play his forced passes until someone can move."""
        for _ in range(MAX_AUTO_PASSES):
            self.dice = self._next_roll()
            plays = self.board.legal_plays(self.dice)
            if not plays[0].is_pass:
                return
            self.history.append(TurnRecord(self.board.turn, self.dice, (), at))
            self.board.push(plays[0], check=False)
        raise GameStateError("neither player can move", key="deadlock")

    # --- state -------------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.board.turn

    @property
    def position(self) -> Position:
        """The position seen by the player to move."""
        return self.board.position

    def view(self, player: int) -> Position:
        return self.board.view(player)

    def legal_plays(self) -> list[Play]:
        if self.dice is None:
            return []
        return self.board.legal_plays(self.dice)

    def step_options(self, pending: Sequence[PendingStep]) -> StepState:
        """The step builder for the turn in play (see ``Board.step_options``); empty once the game is over."""
        if self.dice is None:
            return StepState((), (), {}, None)
        return self.board.step_options(self.dice, pending)

    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def rolls(self) -> list[Roll]:
        """Every roll made so far, in order (opening rolls included), as the dice source gave them."""
        rolls = list(self.opening)
        rolls.extend(r.dice for r in self.history)
        if self.dice is not None:
            rolls.append(self.dice)
        return rolls

    # --- actions -----------------------------------------------------------------------------
    def play(self, play: Play | str, player: int | None = None, at: float | None = None) -> list[TurnRecord]:
        """Make the mover's play (a Play or its text); roll for the next player and auto-pass.

        Returns the records added: this play, then any forced passes that followed.
        """
        if self._outcome is not None or self.dice is None:
            raise GameStateError("the game is over", key="game_over")
        if player is not None and player != self.turn:
            raise GameStateError("it is not your turn", key="not_your_turn")
        if isinstance(play, str):
            play = self.board.parse(play, self.dice)
        elif play.dice != self.dice and play.dice != self.dice[::-1]:
            raise GameStateError("that play is for other dice", key="wrong_dice")
        mover = self.turn
        self.board.push(play)
        added = [TurnRecord(mover, self.dice, play.steps, at, play.hits if any(play.hits) else ())]
        self.history.append(added[0])
        outcome = self.board.outcome()
        if outcome is not None:
            self._outcome = outcome
            self.dice = None
            return added
        before = len(self.history)
        self._roll_for_turn(at)
        added.extend(self.history[before:])
        return added

    @property
    def last_play(self) -> TurnRecord | None:
        """The last turn that moved checkers (forced passes skipped), or None before any."""
        return next((r for r in reversed(self.history) if not r.is_pass), None)

    def resign_points(self, seat: int) -> int:
        """Points the opponent gets if ``seat`` resigns now: 2 (mars) while he has borne off none, else 1;
        in Portes under ``backgammon_value`` 3, 3 while he also has a checker on the bar or in 19-24
        of the opponent (M-2)."""
        if seat not in (0, 1):
            raise GameStateError("player is 0 or 1", key="bad_turn")
        view = self.view(seat)
        if isinstance(self.rules, PortesRules) and isinstance(view, TavliPosition):
            return portes_resign_points(view, self.rules)
        return 2 if view.me_off == 0 else 1

    def resign(self, player: int) -> Outcome:
        """``player`` gives up: the opponent gets 2 points while he has borne off none, else 1."""
        if self._outcome is not None:
            raise GameStateError("the game is over", key="game_over")
        if player not in (0, 1):
            raise GameStateError("player is 0 or 1", key="bad_turn")
        points = self.resign_points(player)
        self.resigned_by = player
        self._outcome = Outcome(player ^ 1, points, points >= 2, resigned=True)
        self.dice = None
        return self._outcome

    def lose_on_time(self, player: int) -> Outcome:
        """``player`` ran out of time and the opponent claimed: the opponent gets a single point (a claim is
        not a mars: the late player never chose to give the game up)."""
        self.resign(player)
        self.timed_out = True
        self._outcome = Outcome(player ^ 1, 1, False, resigned=True)
        return self._outcome

    def __repr__(self) -> str:
        kind = "" if self.game == "fevga" else f" {self.game}"
        return f"<Game{kind} turn={self.turn} dice={self.dice} position={self.position.id()} over={self.is_over()}>"

