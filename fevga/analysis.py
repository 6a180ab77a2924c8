"""Post-game analysis: every decision of a game judged by the network's search, with luck.

Pure and deterministic: ``analyse(game)`` replays a game record (a ``Game`` or its JSON from
``fevga.serialize``) and returns a compact :class:`Report` (error rates, errors, blunders, luck,
the worst moves, a mark per turn) whose :meth:`Report.encode` form stays under 1 KB.
Units and bands are documented in docs/analysis.md.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .ai.stakes import MONEY, MatchScore, Stakes
from .analysis_judge import Judge, luck_of_roll
from .analysis_record import GameRecord, Record, read_record
from .errors import FevgaError, SerializationError
from .play import Play, format_play
from .position import Position
from .rules import DEFAULT_RULES, Rules
from .variants import TavliPlay, TavliPosition, start_position

VERSION = 1
ERROR = 0.020  # equity loss of an error
BLUNDER = 0.080  # equity loss of a blunder
WORST = 3  # worst moves kept per player
# Error-rate bands (our own scale, not XG's or gnubg's): (upper bound exclusive, key), best first.
BANDS: tuple[tuple[float, str], ...] = (
    (3.0, "world_class"),
    (8.0, "expert"),
    (13.0, "advanced"),
    (20.0, "intermediate"),
    (30.0, "casual"),
    (float("inf"), "beginner"),
)
# One character per history turn in Report.marks.
MARK_PASS, MARK_FORCED, MARK_OK, MARK_ERROR, MARK_BLUNDER = "-", "f", ".", "e", "b"


def band(rate: float) -> str:
    """The key of the band an error rate falls in (see BANDS)."""
    return next(key for limit, key in BANDS if rate < limit)


@dataclass(frozen=True, slots=True)
class Decision:
    """One turn judged in full (kept in memory only): the mover's view before the play, the dice,
    the played and best plays with their equities (mover's expected points) and the roll's luck."""

    index: int
    player: int
    position: Position
    dice: tuple[int, int]
    played: Play
    best: Play
    played_equity: float
    best_equity: float
    choices: int
    luck: float | None

    @property
    def forced(self) -> bool:
        """True when only one distinct play existed (a pass included): not counted as a decision."""
        return self.choices <= 1

    @property
    def loss(self) -> float:
        """Best play's equity minus the played one's, never negative (0 for a forced turn)."""
        return 0.0 if self.forced else max(0.0, self.best_equity - self.played_equity)

    @property
    def mark(self) -> str:
        """The turn's code in Report.marks."""
        if self.played.is_pass:
            return MARK_PASS
        if self.forced:
            return MARK_FORCED
        if self.loss >= BLUNDER:
            return MARK_BLUNDER
        return MARK_ERROR if self.loss >= ERROR else MARK_OK


@dataclass(frozen=True, slots=True)
class Move:
    """One of a player's worst moves, as stored: enough to write it and draw its picture."""

    index: int  # turn index in the game's history
    player: int
    dice: tuple[int, int]
    position: str  # position id before the move, from the mover's view
    played: str
    best: str
    played_equity: float
    best_equity: float

    @property
    def loss(self) -> float:
        """Equity lost by the played move."""
        return max(0.0, round(self.best_equity - self.played_equity, 3))

    @property
    def mark(self) -> str:
        """gnubg-style mark: ``??`` blunder, ``?`` error, else empty."""
        return "??" if self.loss >= BLUNDER else "?" if self.loss >= ERROR else ""

    def start(self) -> Position:
        """The position before the move, from the mover's view."""
        return Position.from_id(self.position)

    def to_list(self) -> list[Any]:
        """Compact JSON form (equities in thousandths)."""
        return [
            self.index,
            f"{self.dice[0]}{self.dice[1]}",
            self.position,
            self.played,
            self.best,
            _milli(self.played_equity),
            _milli(self.best_equity),
        ]

    @classmethod
    def from_list(cls, data: Sequence[Any], player: int) -> Move:
        """Read :meth:`to_list` back."""
        index, dice, position, played, best, pe, be = data
        return cls(
            int(index),
            player,
            (int(dice[0]), int(dice[1])),
            str(position),
            str(played),
            str(best),
            pe / 1000,
            be / 1000,
        )


@dataclass(frozen=True, slots=True)
class PlayerReport:
    """One player's figures: unforced and forced decisions, error rate (mean loss x 1000), errors,
    blunders, total luck, luck-adjusted result (None while the game runs) and worst moves."""

    decisions: int
    forced: int
    error_rate: float
    errors: int
    blunders: int
    luck: float
    luck_adjusted: float | None
    worst: tuple[Move, ...]

    @property
    def band(self) -> str:
        """The error rate's band key (see BANDS)."""
        return band(self.error_rate)

    def to_dict(self) -> dict[str, Any]:
        """Compact JSON form."""
        la = None if self.luck_adjusted is None else _milli(self.luck_adjusted)
        return {
            "n": self.decisions,
            "f": self.forced,
            "r": round(self.error_rate, 1),
            "e": self.errors,
            "b": self.blunders,
            "l": _milli(self.luck),
            "a": la,
            "w": [m.to_list() for m in self.worst],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], player: int) -> PlayerReport:
        """Read :meth:`to_dict` back."""
        la = data["a"]
        return cls(
            int(data["n"]),
            int(data["f"]),
            float(data["r"]),
            int(data["e"]),
            int(data["b"]),
            data["l"] / 1000,
            None if la is None else la / 1000,
            tuple(Move.from_list(m, player) for m in data["w"]),
        )


@dataclass(frozen=True, slots=True)
class Report:
    """The analysis of one game: the judge's name, player 0's result in points (None while the
    game runs), one mark per history turn, the two players' reports and each turn's equity loss in
    thousandths of a point (0 for passes and forced turns; empty in reports stored before it was kept).
    ``match``: judged at a match's score (equities on its stakes' scale, not expected points)."""

    judge: str
    result: int | None
    marks: str
    players: tuple[PlayerReport, PlayerReport]
    losses: tuple[int, ...] = ()
    match: bool = False

    def loss(self, index: int) -> float | None:
        """Equity lost on history turn ``index`` (None for a pass, a forced turn, or when not kept)."""
        if not 0 <= index < len(self.losses) or self.marks[index : index + 1] in (MARK_PASS, MARK_FORCED):
            return None
        return self.losses[index] / 1000

    def mark(self, index: int) -> str:
        """gnubg-style mark of history turn ``index``: ``??``, ``?`` or empty."""
        code = self.marks[index] if 0 <= index < len(self.marks) else MARK_OK
        return "??" if code == MARK_BLUNDER else "?" if code == MARK_ERROR else ""

    def blunders(self) -> list[Move]:
        """The stored worst moves that are blunders, in game order (the ones worth a picture)."""
        moves = [m for p in self.players for m in p.worst if m.loss >= BLUNDER]
        return sorted(moves, key=lambda m: m.index)

    def to_dict(self) -> dict[str, Any]:
        """Compact, JSON-serialisable form."""
        out = {
            "v": VERSION,
            "j": self.judge,
            "res": self.result,
            "m": self.marks,
            "p": [p.to_dict() for p in self.players],
            "l": list(self.losses),
        }
        if self.match:  # absent in money play, as in every report stored before it was kept
            out["s"] = 1
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """Read :meth:`to_dict` back; SerializationError for anything else."""
        try:
            if data.get("v") != VERSION:
                raise SerializationError(f"unknown analysis version {data.get('v')!r}")
            p0, p1 = (PlayerReport.from_dict(p, k) for k, p in enumerate(data["p"]))
            res = data["res"]
            losses = tuple(int(x) for x in data.get("l", ()))
            match = bool(data.get("s", 0))
            most = MATCH_LOSS_MAX if match else MONEY_LOSS_MAX
            if len(losses) > len(str(data["m"])) or any(not 0 <= x <= most for x in losses):
                raise SerializationError("stored analysis has impossible losses")
            return cls(str(data["j"]), None if res is None else int(res), str(data["m"]), (p0, p1), losses, match)
        except SerializationError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SerializationError(f"stored analysis is corrupt: {exc}") from None

    def encode(self) -> bytes:
        """The stored form: compact JSON, zlib-compressed (under 1 KB for a 90-ply game)."""
        text = json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)
        return zlib.compress(text.encode("utf-8"), 9)

    @classmethod
    def decode(cls, blob: bytes) -> Report:
        """Read :meth:`encode` back; SerializationError for corrupt data."""
        try:
            data = json.loads(zlib.decompress(blob).decode("utf-8"))
        except (zlib.error, UnicodeDecodeError, ValueError) as exc:
            raise SerializationError(f"stored analysis is corrupt: {exc}") from None
        if not isinstance(data, dict):
            raise SerializationError("stored analysis is corrupt")
        return cls.from_dict(data)


MONEY_LOSS_MAX = 4000  # thousandths: no play loses more than 4 points (a 2-point win for a 2-point loss)
# At a match's score the worth of a game's ends is its stakes (a 2-point end may be worth 4 single games: a
# 2-point Plakoto match at 0-0: +4 and -4), so a play can lose up to their widest spread, 8 (16: room to spare).
MATCH_LOSS_MAX = 16000


def _milli(value: float) -> int:
    """Equity in thousandths of a point, for the compact form."""
    return round(value * 1000)


def seat_score(score: MatchScore | None, seat: int) -> MatchScore | None:
    """The match's score seen by ``seat`` (``score`` is player 0's; None: money play)."""
    if score is None or seat == 0:
        return score
    return MatchScore(score.length, score.theirs, score.mine, score.kind, score.number)


def judge_game(
    record: GameRecord | Record, ply: int | None = None, *, luck: bool = True, score: MatchScore | None = None
) -> list[Decision]:
    """Every turn of the game's history judged: at ``ply`` (0, 1 or 2), or by the hard level's
    search when None. Luck (0-ply, see docs/analysis.md) is skipped with ``luck=False``. ``score``:
    player 0's score when the game began, in a match (each mover judged at his stakes, as ``hint``
    does); None: money play."""
    game = record if isinstance(record, Record) else read_record(record)
    base = Judge(ply, game.game)
    judges = (base.at_score(seat_score(score, 0)), base.at_score(seat_score(score, 1)))
    # Portes/Plakoto options only score games; their legal plays (all the judge needs) ignore them
    rules = game.rules if isinstance(game.rules, Rules) else DEFAULT_RULES
    position = start_position(game.game)
    out: list[Decision] = []
    for index, turn in enumerate(game.turns):
        judge = judges[turn.player]
        plays = judge.legal(position, turn.dice, rules)
        played = _find(plays, position, turn.dice, turn.steps, rules)
        roll_luck = luck_of_roll(judge, position, turn.dice, rules) if luck else None
        if len(plays) <= 1:
            best, best_eq, played_eq = played, 0.0, 0.0
        else:
            best, best_eq, played_eq = judge.judge(position, turn.dice, rules, plays, played)
        out.append(
            Decision(index, turn.player, position, turn.dice, played, best, played_eq, best_eq, len(plays), roll_luck)
        )
        position = played.result.flip()
    return out


def _find(plays: list[Play], position: Position, dice: tuple[int, int], steps: Any, rules: Any) -> Play:
    """The legal play the recorded steps make."""
    if not steps:
        return plays[0]
    try:
        if isinstance(position, TavliPosition):
            result = TavliPlay(position, dice, tuple(steps)).result
        else:
            result = Play(position, dice, tuple(steps), rules=rules).result
    except FevgaError:
        raise SerializationError("the game record holds a play that is not legal") from None
    for play in plays:
        if play.result == result:
            return play
    raise SerializationError("the game record holds a play that is not legal")


def analyse(
    record: GameRecord, ply: int | None = None, *, luck: bool = True, score: MatchScore | None = None
) -> Report:
    """The compact report of a finished or running game (see :class:`Report`); ``score``: player 0's
    score before the game when it was part of a match (judged at its stakes), None for money play."""
    game = read_record(record)
    decisions = judge_game(game, ply, luck=luck, score=score)
    outcome = game.outcome
    result = None if outcome is None else (outcome.points if outcome.winner == 0 else -outcome.points)
    lucks = [sum(d.luck or 0.0 for d in decisions if d.player == s) for s in (0, 1)]
    stakes = [MONEY if (sc := seat_score(score, s)) is None else sc.stakes() for s in (0, 1)]
    players = tuple(_player_report(decisions, s, lucks, result, stakes[s]) for s in (0, 1))
    marks = "".join(d.mark for d in decisions)
    losses = tuple(_kept_loss(d) for d in decisions)
    return Report(Judge.name_for(ply), result, marks, (players[0], players[1]), losses, score is not None)


def _player_report(
    decisions: list[Decision], seat: int, lucks: list[float], result: int | None, stakes: Stakes = MONEY
) -> PlayerReport:
    """Summarise one seat's decisions; his result counts at his ``stakes`` (points in money play)."""
    mine = [d for d in decisions if d.player == seat]
    unforced = [d for d in mine if not d.forced]
    losses = [d.loss for d in unforced]
    rate = 1000 * sum(losses) / len(losses) if losses else 0.0
    worst = sorted((d for d in unforced if d.loss > 0), key=lambda d: (-d.loss, d.index))[:WORST]
    moves = tuple(_move(d) for d in sorted(worst, key=lambda d: d.index))
    net_luck = lucks[seat] - lucks[seat ^ 1]
    mine_result = None if result is None else (result if seat == 0 else -result)
    adjusted = None if mine_result is None else stakes.point(mine_result) - net_luck
    return PlayerReport(
        decisions=len(unforced),
        forced=len(mine) - len(unforced),
        error_rate=round(rate, 1),
        errors=sum(1 for x in losses if ERROR <= x < BLUNDER),
        blunders=sum(1 for x in losses if x >= BLUNDER),
        luck=round(lucks[seat], 3),
        luck_adjusted=None if adjusted is None else round(adjusted, 3),
        worst=moves,
    )


def _kept_loss(d: Decision) -> int:
    """A turn's loss in thousandths, from the equities as stored (so it matches ``Move.loss`` exactly)."""
    if d.forced:
        return 0
    return max(0, _milli(round(d.best_equity, 3)) - _milli(round(d.played_equity, 3)))


def _move(d: Decision) -> Move:
    """The stored form of a decision."""
    return Move(
        d.index,
        d.player,
        d.dice,
        d.position.id(),
        format_play(d.played),
        format_play(d.best),
        round(d.played_equity, 3),
        round(d.best_equity, 3),
    )


__all__ = [
    "BANDS",
    "BLUNDER",
    "ERROR",
    "Decision",
    "Move",
    "PlayerReport",
    "Report",
    "analyse",
    "band",
    "judge_game",
    "read_record",
    "seat_score",
]
