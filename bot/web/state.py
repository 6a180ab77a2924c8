"""The versioned JSON state of a game for the web page (the contract is in docs/web.md).

Points are always in seat 0's numbering (seat 1's point p is seat 0's point ``(p + 11) % 24 + 1`` in Fevga,
``25 - p`` in Portes and Plakoto, whose players move in opposite directions), positive for seat 0's checkers;
the page turns the board to the viewer's side. ``kind`` names the game; Portes adds the bars, Plakoto the
pins. The dice seed is revealed only once the game shown is over. Built once per stored version
(:func:`base_state`), then per viewer (:func:`for_viewer`): the language's strings and the viewer's seat.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from bot.i18n import LANGUAGES, catalogue, display_name
from bot.service.session import Session
from fevga import Position
from fevga.dice import FairDice
from fevga.errors import IllegalStepError
from fevga.play import Step, apply_steps, format_steps
from fevga.rules import OFF
from fevga.variants import TavliPosition, start_position
from fevga.variants.tavli import replay

STATE_FORMAT = 1
STRING_PREFIXES = ("web_", "webpage_")  # the page's strings: area "web" (server) and "webpage" (the page)
BOARD_STRINGS = ("board_tavli_game", "board_match_game")  # the board's match line, which the page says too


def _steps(steps: tuple[tuple[int, int], ...]) -> list[list[int]]:
    return [[a, b] for a, b in steps]


def _hits(steps: tuple[Step, ...], hits: tuple[bool, ...]) -> list[bool]:
    """Per step: did its landing hit (Portes) or pin (Plakoto)? All false in Fevga."""
    return [bool(h) for h in hits] if len(hits) == len(steps) else [False] * len(steps)


def _other_point(point: int, tavli: bool) -> int:
    """A point of one seat's numbering in the other seat's: ``25 - p`` in Portes/Plakoto, ``p + 12`` round
    the board in Fevga; the bar (0) and off (25) stay."""
    if not 1 <= point <= 24:
        return point
    return 25 - point if tavli else (point + 11) % 24 + 1


def _here(steps: tuple[Step, ...], hits: tuple[bool, ...], tavli: bool) -> str:
    """A turn written in the other seat's numbering (the terminal's "here" form: the opponent's play on
    one's own board), in the same notation."""
    other = tuple((_other_point(a, tavli), _other_point(b, tavli)) for a, b in steps)
    return format_steps(other, tuple(_hits(steps, hits)) if steps else ())


def _board(pos0: Position) -> dict[str, Any]:
    """A position (seat 0's view) as the page draws it: counts, borne off, and the bars and pins of
    Portes/Plakoto (``pins[i]``: +1 a checker of seat 0's pinned there, -1 one of seat 1's)."""
    if isinstance(pos0, TavliPosition):
        bar, pins = [pos0.me_bar, pos0.opp_bar], list(pos0.pins)
    else:
        bar, pins = [0, 0], [0] * len(pos0.board)
    return {"points": list(pos0.board), "off": [pos0.me_off, pos0.opp_off], "bar": bar, "pins": pins}


def _after(mover: Position, steps: tuple[Step, ...], dice: tuple[int, int]) -> Position:
    """The mover's view after ``steps``: Fevga moves checkers, Portes/Plakoto replay hits and pins."""
    if isinstance(mover, TavliPosition):
        return replay(mover, steps, dice)[0] if steps else mover
    return apply_steps(mover, steps)


def _moves(s: Session) -> tuple[list[dict[str, Any]], Position]:
    """Every turn of the game shown, with the position after it (seat 0's view), and that final position."""
    game = s.game
    pos0 = start_position(game.game)
    tavli = game.game != "fevga"
    out: list[dict[str, Any]] = []
    for rec in game.history:
        if rec.steps:
            mover = pos0 if rec.player == 0 else pos0.flip()
            after = _after(mover, rec.steps, rec.dice)
            pos0 = after if rec.player == 0 else after.flip()
        out.append({"seat": rec.player, "dice": list(rec.dice), "text": rec.text(), "steps": _steps(rec.steps),
                    "here": _here(rec.steps, rec.hits, tavli), "hits": _hits(rec.steps, rec.hits), **_board(pos0)})
    return out, pos0


def _named_you(name: str) -> bool:
    """Is the name itself the word "you" (the terminal names its player "You", "Εσύ": console_you, in any
    language, any case)? The page then marks the viewer's own seat with no "(you)" after it."""
    words = {catalogue(lang).get("console_you", "").strip().casefold() for lang in LANGUAGES} - {""}
    return name.strip().casefold() in words


def _match_kind(s: Session) -> str:
    """The match's kind: "tavli" (Portes, Plakoto, Fevga in turn) or the one game it plays (absent = the
    game's own kind, as for sessions stored before tavli)."""
    kind = getattr(s, "kind", None)
    return kind if isinstance(kind, str) and kind else s.game.game


def _result(s: Session) -> dict[str, Any] | None:
    """How the game shown ended (None while it runs)."""
    outcome = s.game.outcome
    if outcome is None:
        if s.status == "aborted":
            return {"winner": None, "points": 0, "kind": "aborted"}
        if s.status == "done" and s.winner is not None:  # claimed on time
            return {"winner": s.winner, "points": 0, "kind": s.end or "claimed"}
        return None
    if outcome.winner is None:  # Plakoto: both mothers pinned
        return {"winner": None, "points": 0, "kind": "draw"}
    kind = "resigned" if outcome.resigned else "mother" if outcome.by_mother else \
        "mars" if outcome.mars else "single"
    return {"winner": outcome.winner, "points": outcome.points, "kind": kind}


def base_state(s: Session, version: int, analysis: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state of the session at ``version`` without the viewer's part (shared by every watcher)."""
    game = s.game
    moves, replayed = _moves(s)
    pos0 = game.view(0)
    playing = s.status == "play" and not game.is_over()
    pips = pos0.pips()
    source = game.dice_source
    fair: dict[str, Any] = {"commitment": "", "seed": None, "rolls": [list(r) for r in game.rolls()]}
    if isinstance(source, FairDice):
        fair["commitment"] = source.commitment
        if not playing:
            fair["seed"] = source.seed.hex()
    last = game.last_play
    pending = [[a, b] for a, b in _pending_steps(s)] if playing else []
    board = _board(pos0)
    return {
        "format": STATE_FORMAT,
        "version": version,
        "game": s.id,
        "kind": game.game,
        "seats": [
            {"name": s.players[i].name, "side": i, "ai": s.is_ai(i), "off": (pos0.me_off, pos0.opp_off)[i],
             "pips": pips[i], "named_you": _named_you(s.players[i].name)} for i in (0, 1)
        ],
        "points": board["points"],
        "bar": board["bar"],
        "pins": board["pins"],
        "start_points": list(start_position(game.game).board),
        "turn": game.turn if playing else None,
        "dice": list(game.dice) if playing and game.dice is not None else None,
        "moves": moves,
        "replay_ok": replayed == pos0,
        "last_play": {"seat": last.player, "dice": list(last.dice), "steps": _steps(last.steps),
                      "hits": _hits(last.steps, last.hits)} if last else None,
        "pending": pending,
        "over": not playing,
        "status": s.status,
        "result": _result(s),
        "match": {"length": s.length, "score": list(s.score), "game_no": s.game_no, "winner": s.winner,
                  "over": s.status != "play", "kind": _match_kind(s)},
        "deadline": s.deadline if playing else None,
        "fair": fair,
        "analysis": analysis,
        "off_point": OFF,
    }


def _pending_steps(s: Session) -> list[tuple[int, int]]:
    """The steps the player to move has built with the chat's buttons so far (his numbering)."""
    if not s.pending or s.game.dice is None:
        return []
    try:
        return list(s.game.step_options(s.pending).steps)
    except IllegalStepError:
        return []


@cache
def strings(lang: str) -> dict[str, str]:
    """The page's UI strings in ``lang`` (English for a key the language lacks), with the board's match-line
    words (the page's match line reads as the board's and the terminal's)."""
    english = {k: v for k, v in catalogue("en").items() if k.startswith(STRING_PREFIXES) or k in BOARD_STRINGS}
    own = {k: v for k, v in catalogue(lang).items() if k.startswith(STRING_PREFIXES) or k in BOARD_STRINGS}
    return {**english, **own}


def for_viewer(base: dict[str, Any], lang: str, seat: int | None) -> dict[str, Any]:
    """The whole state for one viewer: his seat (None = spectator), whether he is to move, his strings."""
    to_move = seat is not None and base["turn"] == seat
    seats = [{**one, "name": display_name(one["name"], lang)} for one in base["seats"]]
    viewer = {"seat": seat, "to_move": to_move}
    return {**base, "seats": seats, "lang": lang, "viewer": viewer, "strings": strings(lang)}


def encode(state: dict[str, Any]) -> str:
    """Compact JSON (the same bytes for the same state: SSE and the API share it)."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)
