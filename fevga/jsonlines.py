"""JSON-lines I/O shared by ``python -m fevga plays`` and ``bestplay``: read a request, write a play,
answer every input line with one output line. Kept apart so neither CLI imports the other."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from .errors import FevgaError
from .movegen import check_dice
from .play import Play, format_play
from .position import Position
from .rules import Rules


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


def answer_line(command: Callable[[Any], dict[str, Any]], line: str) -> str:
    """The output line (newline included) that answers one input line, errors included."""
    try:
        answer = command(json.loads(line))
    except json.JSONDecodeError as exc:
        answer = {"error": f"not valid JSON: {exc.msg}"}
    except (FevgaError, ValueError, TypeError) as exc:
        answer = {"error": str(exc)}
    return json.dumps(answer, separators=(",", ":")) + "\n"


def serve(command: Callable[[Any], dict[str, Any]], stdin: TextIO, stdout: TextIO) -> None:
    """Answer every input line with exactly one output line, errors included."""
    for line in stdin:
        stdout.write(answer_line(command, line))
        stdout.flush()
