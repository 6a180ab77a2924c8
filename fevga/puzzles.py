"""Puzzles: a position and roll where one play is clearly best, its answer, and every legal play's equity.

Pure and small (no network here; the selection that needs the AI is ``fevga.puzzle_select``). A
:class:`Puzzle` is stored as a short JSON list (:meth:`Puzzle.to_list`); :func:`check` judges a typed
answer by the position it leaves, so every spelling and step order of the best play is right. Themes are
read off the position (:func:`themes`). Units and rules: docs/puzzles.md.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import SerializationError
from .movegen import legal_plays
from .notation import parse_play
from .play import Play, format_play
from .position import Position
from .variants import any_position_from_id, default_rules, game_of
from .variants.position import TAVLI_GAMES, TavliPosition

MARGIN = 0.10  # the best play leads the second by at least this much equity
THEMES = ("opening_runner", "blocks", "prime", "race", "bear_off", "bar", "pins", "mother")
SEED_PATH = Path(__file__).with_name("puzzles-seed.json")
RETIRED_PATH = Path(__file__).with_name("puzzles-retired.txt")  # seed puzzles a newer network no longer confirms
START_RATING = 1500.0


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: ``position`` (id, mover's view) and ``dice``; the answer's canonical text and the id of
    the position it leaves; each legal play's equity in thousandths, plays ordered by the id of the position
    they leave (:func:`ordered_plays`); theme keys; a starting rating (its difficulty guess)."""

    position: str
    dice: tuple[int, int]
    answer: str
    result: str
    equities: tuple[int, ...]
    themes: tuple[str, ...] = ()
    rating: float = START_RATING

    @property
    def id(self) -> str:
        """A short stable id: a hash of the position and the roll (the same puzzle found twice is one)."""
        key = f"{self.position}|{min(self.dice)}{max(self.dice)}"
        return hashlib.sha1(key.encode()).hexdigest()[:10]

    @property
    def game(self) -> str:
        """The game of the position (fevga, portes, plakoto)."""
        return game_of(self.start())

    @property
    def margin(self) -> float:
        """How far the best play leads the second, in points."""
        ranked = sorted(self.equities, reverse=True)
        return (ranked[0] - ranked[1]) / 1000 if len(ranked) > 1 else 0.0

    def start(self) -> Position:
        """The position to play, from the mover's view."""
        return any_position_from_id(self.position)

    def to_list(self) -> list[Any]:
        """The compact JSON form: ``[position, "65", answer, result, [equities], "themes", rating]``."""
        return [self.position, f"{self.dice[0]}{self.dice[1]}", self.answer, self.result, list(self.equities),
                ",".join(self.themes), round(self.rating)]

    @classmethod
    def from_list(cls, data: Sequence[Any]) -> Puzzle:
        """Read :meth:`to_list` back; SerializationError for anything else."""
        try:
            position, dice, answer, result, equities, themes, rating = data
            puzzle = cls(str(position), (int(dice[0]), int(dice[1])), str(answer), str(result),
                         tuple(int(e) for e in equities), tuple(t for t in str(themes).split(",") if t),
                         float(rating))
            puzzle.start()
        except SerializationError:
            raise
        except (TypeError, ValueError, IndexError, KeyError) as exc:
            raise SerializationError(f"stored puzzle is corrupt: {exc}") from None
        return puzzle

    def encode(self) -> str:
        """The stored text (compact JSON)."""
        return json.dumps(self.to_list(), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def decode(cls, text: str | bytes) -> Puzzle:
        """Read :meth:`encode` back; SerializationError for corrupt data."""
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise SerializationError(f"stored puzzle is corrupt: {exc}") from None
        if not isinstance(data, list):
            raise SerializationError("stored puzzle is corrupt")
        return cls.from_list(data)


def stored_game(text: str | bytes) -> str:
    """The game of a stored puzzle (:meth:`Puzzle.encode`), read off its position id's name without decoding it:
    a bank is filtered by game this way."""
    head = text[:12].decode("utf-8", "replace") if isinstance(text, bytes) else text[:12]
    return next((g for g in TAVLI_GAMES if head.startswith(f'["{g}:')), "fevga")


@dataclass(frozen=True, slots=True)
class Verdict:
    """A judged answer: right or not, the play as written canonically, its equity loss, the best play."""

    correct: bool
    played: str
    loss: float
    best: str
    played_equity: float
    best_equity: float


def ordered_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """The legal plays (the game's default rules) ordered by the id of the position each leaves: the order
    of :attr:`Puzzle.equities`, the same whichever move generator made them."""
    plays = legal_plays(position, dice, default_rules(game_of(position)))
    return sorted(plays, key=lambda p: p.result.id())


def check(puzzle: Puzzle, text: str) -> Verdict:
    """Judge a typed answer (any notation and step order); a FevgaError (a ValueError naming the rule) when
    it is no legal play at all."""
    position = puzzle.start()
    plays = ordered_plays(position, puzzle.dice)
    play = parse_play(text, position, puzzle.dice, default_rules(game_of(position)), plays=plays)
    return judge_play(puzzle, play, plays)


def judge_play(puzzle: Puzzle, play: Play, plays: Sequence[Play] | None = None) -> Verdict:
    """Judge a legal play of the puzzle (by the position it leaves)."""
    plays = plays if plays is not None else ordered_plays(puzzle.start(), puzzle.dice)
    results = [p.result for p in plays]
    if len(results) != len(puzzle.equities):
        raise SerializationError("stored puzzle does not match its position's plays")
    best_eq = max(puzzle.equities)
    index = results.index(play.result)
    correct = play.result.id() == puzzle.result
    loss = 0.0 if correct else max(0.0, (best_eq - puzzle.equities[index]) / 1000)
    return Verdict(correct, format_play(play), loss, puzzle.answer, puzzle.equities[index] / 1000, best_eq / 1000)


def make(position: Position, dice: tuple[int, int], equities: Sequence[tuple[Play, float]]) -> Puzzle:
    """A puzzle from every legal play's equity (any order, the plays of :func:`ordered_plays`)."""
    by_result = {play.result: eq for play, eq in equities}
    plays = ordered_plays(position, dice)
    milli = tuple(round(by_result[p.result] * 1000) for p in plays)
    best = plays[max(range(len(plays)), key=lambda k: milli[k])]
    puzzle = Puzzle(position.id(), dice, format_play(best), best.result.id(), milli, themes(position))
    return Puzzle(puzzle.position, dice, puzzle.answer, puzzle.result, milli, puzzle.themes,
                  start_rating(len(plays), puzzle.margin))


def start_rating(choices: int, margin: float) -> float:
    """A first guess of a puzzle's difficulty: more plays and a closer second make it harder (900-2100);
    answers then move it like a player's rating."""
    guess = 1200 + 180 * min(choices, 40) ** 0.5 - 1500 * max(0.0, margin - MARGIN)
    return float(min(2100, max(900, round(guess))))


def _held(counts: Sequence[int], first: int, last: int) -> int:
    """How many of the points ``first``..``last`` (1-based) hold at least one checker."""
    return sum(1 for p in range(first, last + 1) if counts[p - 1] > 0)


def _longest_run(counts: Sequence[int]) -> int:
    """The longest run of consecutive held points."""
    best = run = 0
    for c in counts:
        run = run + 1 if c > 0 else 0
        best = max(best, run)
    return best


def in_contact(position: Position) -> bool:
    """True while a checker of either side still has to pass a point the other side occupies."""
    for view in (position, position.flip()):
        mine = [p for p, c in enumerate(view.me, 1) if c]
        theirs = [i + 1 for i, c in enumerate(view.board) if c < 0]  # the opponent's checkers, in my numbering
        if mine and theirs and max(theirs) > min(mine):
            return True
    return False


def _blocks(position: Position) -> list[int]:
    """Per point of the mover's (1 or 0): does it stop the opponent? In Fevga one checker holds a point; in Portes
    and Plakoto it takes two, or in Plakoto one checker pinning one of his."""
    if not isinstance(position, TavliPosition):
        return position.me
    b, pins = position.board, position.pins
    return [int(b[i] >= 2 or (b[i] == 1 and pins[i] == -1)) for i in range(len(b))]


def _tavli_themes(position: TavliPosition) -> list[str]:
    """The themes of Portes and Plakoto only: a checker of the mover's on the bar; pinned checkers; a mother (the
    last checker on a side's first point) alone where it can be pinned."""
    if position.game == "portes":
        return ["bar"] if position.me_bar else []
    b, pins = position.board, position.pins
    found = ["pins"] if any(pins) else []
    if (b[0] == 1 and not pins[0]) or (b[-1] == -1 and not pins[-1]):
        found.append("mother")
    return found


def themes(position: Position) -> tuple[str, ...]:
    """Theme keys read off the position, mover's view (see THEMES and docs/puzzles.md)."""
    me = position.me
    found: list[str] = []
    home = sum(me[18:]) + position.me_off == 15
    contact = in_contact(position)
    if game_of(position) == "fevga" and me[0] >= 12 and position.me_off == 0:
        found.append("opening_runner")
    if game_of(position) == "fevga" and (_held(me, 1, 6) >= 5 or _held(me, 14, 19) >= 5):
        found.append("blocks")
    if contact and _longest_run(_blocks(position)) >= 4:
        found.append("prime")
    if home:
        found.append("bear_off")
    elif not contact:
        found.append("race")
    if isinstance(position, TavliPosition):
        found.extend(_tavli_themes(position))
    return tuple(found)


def load_seed(path: Path = SEED_PATH) -> list[Puzzle]:
    """The puzzles shipped with the package (one JSON list per line); none when the file is missing."""
    if not path.is_file():
        return []
    return [Puzzle.decode(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_retired(path: Path = RETIRED_PATH) -> frozenset[str]:
    """The ids of puzzles once shipped and since retired (one per line, ``#`` starts a comment): a bank
    seeded before drops them."""
    if not path.is_file():
        return frozenset()
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line)


__all__ = ["MARGIN", "RETIRED_PATH", "SEED_PATH", "THEMES", "Puzzle", "Verdict", "check", "in_contact",
           "judge_play", "load_retired", "load_seed", "make", "ordered_plays", "themes"]
