"""``python -m fevga plays|bestplay``: JSON lines in, one JSON line out per line (the outside interface)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .errors import FevgaError
from .movegen import check_dice, legal_plays
from .notation import format_play
from .play import Play
from .position import Position
from .rules import Rules

USAGE = """usage: python -m fevga plays|bestplay < positions.jsonl

Each input line: {"me": [24 ints], "opp": [24 ints], "me_off": n, "opp_off": n, "dice": [a, b],
                  "unlock_point": 13, "strict_start_quarter": false}   (bestplay also takes "level")
plays    answers {"plays": [{"steps": "1/7 7/12", "me": [...], "me_off": n, "opp": [...], "opp_off": n}, ...]}
bestplay answers {"play": {...one entry of plays...}} (or {"play": null} when nothing is legal)
Invalid input answers {"error": "..."}."""


def read_request(obj: Any) -> tuple[Position, tuple[int, int], Rules]:
    """Validate one input object into (position, dice, rules); raise FevgaError saying what is wrong."""
    if not isinstance(obj, dict):
        raise FevgaError("each line must be a JSON object", key="bad_request")
    for name in ("me", "opp", "dice"):
        if not isinstance(obj.get(name), list):
            raise FevgaError(f"{name!r} must be a list", key="bad_request")
    me_off = obj.get("me_off", 0)
    opp_off = obj.get("opp_off", 0)
    position = Position.from_lists(obj["me"], obj["opp"], me_off, opp_off)
    dice = obj["dice"]
    if len(dice) != 2:
        raise FevgaError("'dice' must hold two numbers", key="bad_dice")
    rules = Rules.from_dict(obj)
    return position, check_dice((dice[0], dice[1])), rules


def play_entry(play: Play) -> dict[str, Any]:
    """One entry of ``plays``: the steps and the position they leave (still the mover's view)."""
    result = play.result
    return {
        "steps": format_play(play),
        "me": result.me,
        "me_off": result.me_off,
        "opp": result.opp,
        "opp_off": result.opp_off,
    }


def plays_line(obj: Any) -> dict[str, Any]:
    position, dice, rules = read_request(obj)
    plays = legal_plays(position, dice, rules)
    if plays[0].is_pass:
        return {"plays": []}
    return {"plays": [play_entry(p) for p in plays]}


def _bestplay_line(obj: Any) -> dict[str, Any]:
    from .ai.cli import bestplay_line

    return bestplay_line(obj)


COMMANDS: dict[str, Callable[[Any], dict[str, Any]]] = {"plays": plays_line, "bestplay": _bestplay_line}


def serve(command: Callable[[Any], dict[str, Any]], stdin: TextIO, stdout: TextIO) -> None:
    """Answer every input line with exactly one output line, errors included."""
    for line in stdin:
        try:
            answer = command(json.loads(line))
        except json.JSONDecodeError as exc:
            answer = {"error": f"not valid JSON: {exc.msg}"}
        except (FevgaError, ValueError, TypeError) as exc:
            answer = {"error": str(exc)}
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    serve(COMMANDS[args[0]], sys.stdin, sys.stdout)
    return 0
