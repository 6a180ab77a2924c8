"""What a board picture shows: an immutable scene, so the renderers never depend on the game service."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fevga.errors import IllegalPlayError
from fevga.play import apply_steps
from fevga.position import Position, opponent_point
from fevga.rules import OFF
from fevga.variants import TavliPosition
from fevga.variants.position import tavli_opponent_point
from fevga.variants.tavli import replay

from .labels import label
from .theme import get_theme

DEFAULT_THEME = "classic"


@dataclass(frozen=True, slots=True)
class BoardScene:
    """Everything one board picture shows; ``position`` is always from player 0's view.

    ``last_play_steps`` are ``(from, to)`` pairs in the numbering of ``last_mover`` (25 = off).
    ``turn`` is None once the game is over; ``winner`` and ``mars`` then say how it ended.
    ``pending_steps`` are the ``(from, to)`` steps of the turn being built with buttons, in the numbering of
    ``turn`` (25 = off), and ``dice_used`` the dice they spent: the picture shows them moved, with arrows.
    A Portes/Plakoto scene has a ``TavliPosition``: steps may start at 0 (the bar), ``last_play_hits``
    says which landings of the last play hit or pinned, ``match_kind`` "tavli" a rotation and
    ``game_number`` which game of the match this is (0: not said).
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
    pending_steps: tuple[tuple[int, int], ...] = ()
    dice_used: tuple[int, ...] = ()
    last_play_hits: tuple[bool, ...] = ()
    match_kind: str = ""
    game_number: int = 0
    drawn: bool = False  # a drawn Plakoto game (both mothers pinned): over, with no winner
    mother: bool = False  # won by pinning the mother (Plakoto: 2 points, not a mars)
    resigned: bool = False  # won by the opponent's resignation: its points are said, never called a mars
    points: int = 0  # the winner's points (0: not given; a mars or a pinned mother then reads as 2)

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
            self._check_step(step)
        if self.last_play_hits and len(self.last_play_hits) != len(self.last_play_steps):
            raise ValueError("last_play_hits must have one entry per step of last_play_steps")
        if self.last_play_steps and self.last_mover is None:
            raise ValueError("last_mover must be given with last_play_steps")
        if not isinstance(self.match_length, int) or not 1 <= self.match_length <= 25:
            raise ValueError("match_length must be from 1 to 25")
        if len(self.score) != 2 or any(not isinstance(s, int) or s < 0 for s in self.score):
            raise ValueError("score must be two whole numbers of 0 or more")
        if (self.mars or self.mother) and self.winner is None:
            raise ValueError("mars needs a winner")
        if self.mars and self.mother:
            raise ValueError("a pinned mother is not a mars")
        if self.resigned and (self.winner is None or self.mars or self.mother):
            raise ValueError("a resignation needs a winner and is neither a mars nor a pinned mother")
        if not isinstance(self.points, int) or not 0 <= self.points <= 3:
            raise ValueError(f"points must be from 0 to 3, not {self.points!r}")
        if self.match_kind not in ("", "fevga", "portes", "plakoto", "tavli"):
            raise ValueError(f"match_kind must be fevga, portes, plakoto or tavli, not {self.match_kind!r}")
        if self.drawn and (self.winner is not None or self.turn is not None):
            raise ValueError("a drawn game has no winner and no turn")
        if not isinstance(self.game_number, int) or self.game_number < 0:
            raise ValueError("game_number must be a whole number of 0 or more")
        get_theme(self.theme)  # unknown names fail here, with the list of known themes
        self._check_pending()

    def _check_pending(self) -> None:
        """Pending steps need a turn and dice, go forward, and can be played from the position."""
        if not self.pending_steps and not self.dice_used:
            return
        if self.turn is None or self.dice is None:
            raise ValueError("pending_steps need a turn and dice")
        if len(self.pending_steps) > 4 or len(self.dice_used) > 4:
            raise ValueError("a turn has at most four steps")
        if any(not isinstance(d, int) or not 1 <= d <= 6 for d in self.dice_used):
            raise ValueError(f"dice_used must be numbers from 1 to 6, not {self.dice_used!r}")
        for step in self.pending_steps:
            self._check_step(step)
        try:
            self.shown_position()
        except IllegalPlayError as exc:
            raise ValueError(f"pending_steps cannot be played: {exc}") from None

    def _check_step(self, step: Sequence[int]) -> None:
        """A step goes forward from a point (or, in Portes, the bar: 0) to a point or off (25)."""
        low = 0 if self.game == "portes" else 1
        if len(step) != 2 or not low <= step[0] <= 24 or not step[0] < step[1] <= OFF:
            raise ValueError(f"a step goes forward from a point {low}-24 to 2-25, not {step!r}")

    @property
    def win_kind(self) -> str:
        """How the winner won, as the labels name it: "mother" (Plakoto: the opponent's mother pinned, 2 points,
        RULES-TAVLI rule 6; never called a mars), "mars", "resigned" (a resignation worth 2 or more: played out
        it might not have been a mars, and the stats count only marses played out), or "" (a single game, or no
        winner)."""
        if self.winner is None:
            return ""
        if self.resigned:
            return "resigned" if self.points >= 2 else ""
        return "mother" if self.mother else "mars" if self.mars else ""

    def win_label(self, key: str, **args: Any) -> str:
        """The label ``key`` for how this game was won (``key_mother``, ``key_mars``, ``key_resigned`` or ``key``
        itself), its points filled in (a Portes mars may be worth 3)."""
        args.setdefault("points", self.points or 2)
        return self.label(f"{key}_{self.win_kind}" if self.win_kind else key, **args)

    @property
    def game(self) -> str:
        """The game on the board: "fevga", "portes" or "plakoto" (from the position's type)."""
        return self.position.game if isinstance(self.position, TavliPosition) else "fevga"

    def other_point(self, point: int) -> int:
        """``point`` of one player in the other's numbering (the bar, 0, and off, 25, stay)."""
        if point in (0, OFF):
            return point
        return tavli_opponent_point(point) if self.game != "fevga" else opponent_point(point)

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

    def shown_position(self) -> Position:
        """The position drawn (player 0's view): ``position`` with the pending steps applied."""
        if not self.pending_steps or self.turn is None:
            return self.position
        mover = self.position.flip() if self.turn == 1 else self.position
        if isinstance(mover, TavliPosition):
            if self.dice is None:
                raise IllegalPlayError("pending steps need dice", key="bad_step")
            moved: Position = replay(mover, self.pending_steps, self.dice)[0]
        else:
            moved = apply_steps(mover, self.pending_steps)
        return moved.flip() if self.turn == 1 else moved

    def shown_for(self, perspective: int) -> Position:
        """The drawn position in ``perspective``'s own numbering (his checkers positive)."""
        shown = self.shown_position()
        _check_player(perspective, "perspective")
        return shown.flip() if perspective == 1 else shown

    def marks(self, perspective: int) -> tuple[frozenset[int], frozenset[int]]:
        """The points to mark: the pending steps' while a turn is being built, else the last play's."""
        if self.pending_steps and self.turn is not None:
            return _net_marks(self.pending_steps, self.turn == perspective, self.other_point)
        return self.last_play_marks(perspective)

    def last_play_marks(self, perspective: int) -> tuple[frozenset[int], frozenset[int]]:
        """Points (viewer numbering, 25 = off) the last play left from and arrived at, chains merged."""
        if self.last_mover is None or not self.last_play_steps:
            return frozenset(), frozenset()
        return _net_marks(self.last_play_steps, self.last_mover == perspective, self.other_point)

    def match_line(self, perspective: int) -> str:
        """The match line, e.g. "Portes · game 4 of tavli to 5 · 2–1": the game, which game of the match,
        and the score (``perspective``'s first, as his strip is the bottom one)."""
        parts = [self.label("game_" + self.game)]
        if self.match_kind == "tavli":
            parts.append(self.label("tavli_game", n=self.game_number or "?", length=self.match_length))
        elif self.match_length > 1:
            parts.append(self.label("match_game", n=self.game_number or "?", length=self.match_length))
        if self.match_length > 1:
            parts.append(f"{self.score[perspective]}–{self.score[1 - perspective]}")
        return "  ·  ".join(parts)

    def shows_match_line(self) -> bool:
        """Fevga alone keeps its pictures as they were; Portes, Plakoto and any game of a tavli match say
        which game this is."""
        return self.game != "fevga" or self.match_kind == "tavli"

    def pending_hits(self) -> tuple[bool, ...]:
        """Which pending steps hit or pinned (Portes/Plakoto; all False in Fevga)."""
        if not self.pending_steps or self.turn is None or self.dice is None or self.game == "fevga":
            return (False,) * len(self.pending_steps)
        mover = self.position.flip() if self.turn == 1 else self.position
        assert isinstance(mover, TavliPosition)
        return replay(mover, self.pending_steps, self.dice)[1]

    def last_steps_for(self, perspective: int) -> tuple[tuple[int, int], ...]:
        """The last play's steps in ``perspective``'s numbering (0 = bar, 25 = off), for its arrows."""
        if self.last_mover is None or self.last_mover == perspective:
            return self.last_play_steps
        return tuple((self.other_point(a), self.other_point(b)) for a, b in self.last_play_steps)

    def steps_for(self, perspective: int) -> tuple[tuple[int, int], ...]:
        """The pending steps in ``perspective``'s numbering (25 = off), for the arrows."""
        if self.turn is None or self.turn == perspective:
            return self.pending_steps
        return tuple((self.other_point(a), self.other_point(b)) for a, b in self.pending_steps)


def _net_marks(
    steps: Iterable[tuple[int, int]], same: bool, other: Callable[[int], int]
) -> tuple[frozenset[int], frozenset[int]]:
    """Points (viewer numbering, 25 = off, 0 = bar) that ``steps`` left from and arrived at, chains merged."""
    net: dict[int, int] = {}
    for a, b in steps:
        net[a] = net.get(a, 0) + 1
        net[b] = net.get(b, 0) - 1

    def view(p: int) -> int:
        return p if same else other(p)

    return (
        frozenset(view(p) for p, n in net.items() if n > 0),
        frozenset(view(p) for p, n in net.items() if n < 0),
    )


def _check_player(value: int | None, what: str) -> None:
    if value is not None and value not in (0, 1):
        raise ValueError(f"{what} must be 0 or 1, not {value!r}")
