"""``python -m fevga plays|bestplay``: JSON lines in, one JSON line out per line (the outside interface)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from .ai.cli import bestplay_line
from .jsonlines import play_entry, read_request, serve
from .movegen import legal_plays

__all__ = ["COMMANDS", "main", "play_entry", "plays_line", "read_request", "serve"]

USAGE = """usage: python -m fevga plays|bestplay < positions.jsonl

Each input line: {"me": [24 ints], "opp": [24 ints], "me_off": n, "opp_off": n, "dice": [a, b],
                  "unlock_point": 13, "strict_start_quarter": false}   (bestplay also takes "level")
Portes/Plakoto: add "game": "portes" (with "me_bar", "opp_bar") or "plakoto" (with "me_pin", "opp_pin":
                  points of pinned checkers in their owner's numbering); each play then has the same fields
plays    answers {"plays": [{"steps": "1/7 7/12", "me": [...], "me_off": n, "opp": [...], "opp_off": n}, ...]}
bestplay answers {"play": {...one entry of plays...}} (or {"play": null} when nothing is legal)
Invalid input answers {"error": "..."}."""


def plays_line(obj: Any) -> dict[str, Any]:
    """Answer ``{"plays": [...]}``: every legal play of the request, ``[]`` when the turn passes."""
    position, dice, rules = read_request(obj)
    plays = legal_plays(position, dice, rules)
    if plays[0].is_pass:
        return {"plays": []}
    return {"plays": [play_entry(p) for p in plays]}


COMMANDS: dict[str, Callable[[Any], dict[str, Any]]] = {"plays": plays_line, "bestplay": bestplay_line}


def main(argv: list[str] | None = None) -> int:
    """Run one command over stdin/stdout; 2 with the usage for a wrong command line."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    serve(COMMANDS[args[0]], sys.stdin, sys.stdout)
    return 0
