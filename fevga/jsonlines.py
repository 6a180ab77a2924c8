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
from .variants import AnyRules, TavliPosition, check_game, rules_from_dict


def read_request(obj: Any) -> tuple[Position, tuple[int, int], AnyRules]:
    """Validate one input object into (position, dice, rules); raise FevgaError saying what is wrong.

    ``"game"`` is "fevga" (when absent), "portes" (adds ``me_bar``/``opp_bar``) or "plakoto" (adds
    ``me_pin``/``opp_pin``: the points of each player's pinned checkers, in his own numbering)."""
    if not isinstance(obj, dict):
        raise FevgaError("each line must be a JSON object", key="bad_request")
    for name in ("me", "opp", "dice"):
        if not isinstance(obj.get(name), list):
            raise FevgaError(f"{name!r} must be a list", key="bad_request")
    game = check_game(obj.get("game", "fevga"))
    me_off = obj.get("me_off", 0)
    opp_off = obj.get("opp_off", 0)
    position: Position
    if game == "fevga":
        position = Position.from_lists(obj["me"], obj["opp"], me_off, opp_off)
    else:
        for name in ("me_pin", "opp_pin"):
            if not isinstance(obj.get(name, []), list):
                raise FevgaError(f"{name!r} must be a list", key="bad_request")
        position = TavliPosition.from_tavli_lists(
            game,
            obj["me"],
            obj["opp"],
            me_off,
            opp_off,
            me_bar=obj.get("me_bar", 0),
            opp_bar=obj.get("opp_bar", 0),
            me_pin=obj.get("me_pin", []),
            opp_pin=obj.get("opp_pin", []),
        )
    dice = obj["dice"]
    if len(dice) != 2:
        raise FevgaError("'dice' must hold two numbers", key="bad_dice")
    rules = rules_from_dict(game, obj)
    return position, check_dice((dice[0], dice[1])), rules


def play_entry(play: Play) -> dict[str, Any]:
    """One entry of ``plays``: the steps and the position they leave (still the mover's view)."""
    result = play.result
    entry: dict[str, Any] = {
        "steps": format_play(play),
        "me": result.me,
        "me_off": result.me_off,
        "opp": result.opp,
        "opp_off": result.opp_off,
    }
    if isinstance(result, TavliPosition):
        if result.game == "portes":
            entry.update(me_bar=result.me_bar, opp_bar=result.opp_bar)
        else:
            entry.update(me_pin=result.me_pin, opp_pin=result.opp_pin)
    return entry


def answer_line(command: Callable[[Any], dict[str, Any]], line: str) -> str:
    """The output line (newline included) that answers one input line, errors included."""
    try:
        answer = command(json.loads(line))
    except json.JSONDecodeError as exc:
        answer = {"error": f"not valid JSON: {exc.msg}"}
    except RecursionError:  # JSON nested deeper than the decoder goes: one bad line, not a crashed batch
        answer = {"error": "not valid JSON: nested too deeply"}
    except (FevgaError, ValueError, TypeError) as exc:
        answer = {"error": str(exc)}
    return json.dumps(answer, separators=(",", ":")) + "\n"


def serve(command: Callable[[Any], dict[str, Any]], stdin: TextIO, stdout: TextIO) -> None:
    """Answer every input line with exactly one output line, errors included."""
    for line in stdin:
        stdout.write(answer_line(command, line))
        stdout.flush()
