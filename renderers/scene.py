"""What a board picture shows: an immutable scene, so the renderers never depend on the game service."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fevga.position import Position, opponent_point
from fevga.rules import OFF

from .labels import label
from .theme import get_theme

DEFAULT_THEME = "classic"


@dataclass(frozen=True, slots=True)
class BoardScene:
    """Everything one board picture shows; ``position`` is always from player 0's view.

    ``last_play_steps`` are ``(from, to)`` pairs in the numbering of ``last_mover`` (25 = off).
    ``turn`` is None once the game is over; ``winner`` and ``mars`` then say how it ended.
    """

    position: Position
    turn: int | None = 0
    dice: tuple[int, int] | None = None
    names: tuple[str, str] = ("Player 1", "Player 2")
    last_play_steps: tuple[tuple[int, int], ...] = ()
    last_mover: int | None = None
    match_length: int = 1
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    mars: bool = False
    theme: str = DEFAULT_THEME
    labels: tuple[tuple[str, str], ...] = ()  # (key, template) overrides of renderers.labels.DEFAULT_LABELS

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise ValueError("position must be a fevga Position")
        _check_player(self.turn, "turn")
        _check_player(self.winner, "winner")
        _check_player(self.last_mover, "last_mover")
        if self.dice is not None and (
            len(self.dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in self.dice)
        ):
            raise ValueError(f"dice must be two numbers from 1 to 6, not {self.dice!r}")
        if len(self.names) != 2 or not all(isinstance(n, str) for n in self.names):
            raise ValueError("names must be two strings")
        for step in self.last_play_steps:
            if len(step) != 2 or not 1 <= step[0] <= 24 or not step[0] < step[1] <= OFF:
                raise ValueError(f"a step goes forward from a point 1-24 to 2-25, not {step!r}")
        if self.last_play_steps and self.last_mover is None:
            raise ValueError("last_mover must be given with last_play_steps")
        if not isinstance(self.match_length, int) or not 1 <= self.match_length <= 25:
            raise ValueError("match_length must be from 1 to 25")
        if len(self.score) != 2 or any(not isinstance(s, int) or s < 0 for s in self.score):
            raise ValueError("score must be two whole numbers of 0 or more")
        if self.mars and self.winner is None:
            raise ValueError("mars needs a winner")
        get_theme(self.theme)  # unknown names fail here, with the list of known themes

    @classmethod
    def from_position(
        cls,
        position: Position,
        *,
        seen_by: int = 0,
        turn: int | None = 0,
        dice: Sequence[int] | None = None,
        names: Sequence[str] = ("Player 1", "Player 2"),
        last_play_steps: Iterable[Sequence[int]] = (),
        last_mover: int | None = None,
        match_length: int = 1,
        score: Sequence[int] = (0, 0),
        winner: int | None = None,
        mars: bool = False,
        theme: str = DEFAULT_THEME,
    ) -> BoardScene:
        """Build a scene from a position seen by player ``seen_by`` (e.g. a game's mover view)."""
        _check_player(seen_by, "seen_by")
        absolute = position.flip() if seen_by == 1 else position
        return cls(
            position=absolute,
            turn=turn,
            dice=(int(dice[0]), int(dice[1])) if dice is not None else None,
            names=(str(names[0]), str(names[1])),
            last_play_steps=tuple((int(a), int(b)) for a, b in last_play_steps),
            last_mover=last_mover,
            match_length=match_length,
            score=(int(score[0]), int(score[1])),
            winner=winner,
            mars=mars,
            theme=theme,
        )

    # --- views used by every renderer -----------------------------------------------------------
    def label(self, key: str, **args: Any) -> str:
        """A drawn word or phrase in the scene's language (English unless ``labels`` says otherwise)."""
        return label(self.labels, key, **args)

    def position_for(self, perspective: int) -> Position:
        """The position in ``perspective``'s own numbering (his checkers positive)."""
        _check_player(perspective, "perspective")
        return self.position.flip() if perspective == 1 else self.position

    def last_play_marks(self, perspective: int) -> tuple[frozenset[int], frozenset[int]]:
        """Points (viewer numbering, 25 = off) the last play left from and arrived at, chains merged."""
        if self.last_mover is None or not self.last_play_steps:
            return frozenset(), frozenset()
        net: dict[int, int] = {}
        for a, b in self.last_play_steps:
            net[a] = net.get(a, 0) + 1
            net[b] = net.get(b, 0) - 1
        same = self.last_mover == perspective

        def view(p: int) -> int:
            return p if same or p == OFF else opponent_point(p)

        return (
            frozenset(view(p) for p, n in net.items() if n > 0),
            frozenset(view(p) for p, n in net.items() if n < 0),
        )


def _check_player(value: int | None, what: str) -> None:
    if value is not None and value not in (0, 1):
        raise ValueError(f"{what} must be 0 or 1, not {value!r}")
