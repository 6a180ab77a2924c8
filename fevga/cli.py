"""``python -m fevga plays|bestplay``: JSON lines in, one JSON line out per line (the outside interface)."""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from collections.abc import Callable
from typing import Any

from . import accel
from .batch import serve_batch
from .jsonlines import play_entry, read_request, serve
from .movegen import legal_plays

__all__ = ["COMMANDS", "main", "play_entry", "plays_line", "read_request", "serve"]

USAGE = """usage: python -m fevga plays|bestplay < positions.jsonl
       python -m fevga --help | --version

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


def bestplay_line(obj: Any) -> dict[str, Any]:
    """``fevga.ai.cli.bestplay_line``, imported on first use: ``plays`` does not pay for numpy and the network."""
    command: Callable[[Any], dict[str, Any]] = importlib.import_module("fevga.ai.cli").bestplay_line
    return command(obj)


COMMANDS: dict[str, Callable[[Any], dict[str, Any]]] = {"plays": plays_line, "bestplay": bestplay_line}


def version() -> str:
    """The installed package's version (the fevga-bot distribution that ships ``fevga``), or 'unknown'
    when run from an uninstalled tree."""
    try:
        return importlib.metadata.version("fevga-bot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    """Run one command over stdin/stdout; ``--help`` (the usage) and ``--version`` print to stdout, 0; a
    wrong command line is the usage on stderr, 2."""
    args = sys.argv[1:] if argv is None else argv
    if args in (["--help"], ["-h"]):
        print(USAGE)
        return 0
    if args == ["--version"]:
        print(f"fevga {version()}")
        return 0
    if len(args) != 1 or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    core = accel.core
    fast = core.plays_answer if args[0] == "plays" and core is not None else None
    serve_batch(COMMANDS[args[0]], fast, sys.stdin, sys.stdout)
    return 0
