"""Kept records of finished games and their export in a ``.mat``-like text layout.

A record holds the engine's full game dict (rolls, plays, times, and the revealed dice seed, so anyone
can check every roll with ``fevga.verify``) plus who played where and how it ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fevga import Game, game_to_dict
from fevga.analysis import Report

from .session import Session

COLUMN = 34


def make_record(s: Session, game: Game, game_no: int, score_before: list[int], ended: float) -> dict[str, Any]:
    """The record of one game of ``s`` (seed revealed when the game is over)."""
    outcome = game.outcome
    return {
        "format": "fevga-record",
        "v": 1,
        "game_id": s.id,
        "game_no": game_no,
        "place": [s.place.platform, s.place.scope_id, s.place.channel_id],
        "players": [[p.platform, p.user_id, p.name] for p in s.players],
        "length": s.length,
        "score_before": list(score_before),
        "created": s.created,
        "ended": ended if outcome is not None else None,
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "points": outcome.points, "mars": outcome.mars,
              "resigned": outcome.resigned},  # a pinned mother's 2 points are not a mars (stats, head-to-head)
        "status": s.status if s.status != "play" or outcome is None else "over",
        "end": s.end,
        "game": game_to_dict(game, reveal_seed=outcome is not None),
    }


def _wins(points: int) -> str:
    return f"Wins {points} point{'s' if points != 1 else ''}"


def _analysed(report: Report | None, names: list[str]) -> list[str]:
    """Comment lines naming the judge and each player's error rate (a game with a stored analysis)."""
    if report is None:
        return []
    lines = [f'; [Analysis "{report.judge}": ? error, ?? blunder, [-loss] on every move judged]']
    for seat, player in enumerate(report.players):
        if not player.decisions:  # only forced turns: no rate to give (0.0 would read as flawless play)
            lines.append(f"; [Error rate {names[seat]} -, no decisions ({player.forced} forced)]")
            continue
        lines.append(f'; [Error rate {names[seat]} {player.error_rate:.1f}, {player.errors} errors, '
                     f'{player.blunders} blunders]')
    return lines


def _marked(cell: str, index: int, report: Report | None, losses: dict[int, float]) -> str:
    """A move with its gnubg-style mark and, when known, its equity loss: ``65: 1/7 7/12?? [-0.123]``."""
    if report is None:
        return cell
    cell += report.mark(index)
    loss = report.loss(index) if report.losses else losses.get(index)
    if loss is not None:
        cell += f" [-{loss:.3f}]"
    return cell


def export_mat(records: list[dict[str, Any]], reports: Mapping[int, Report] | None = None) -> str:
    """Records of one match as ``.mat``-like text: ``Game 1``, `` 1) 65: 1/7 7/12``, ``Wins 2 points``.
    ``reports`` (game number -> stored analysis) adds marks (``?``, ``??``) and equity losses."""
    if not records:
        return ""
    first = records[0]
    names = [p[2] for p in first["players"]]
    games = [str(rec["game"].get("game", "fevga")).capitalize() for rec in records]  # absent: Fevga
    lines = [
        '; [Site "fevga-bot"]',
        f'; [Variation "{games[0] if len(set(games)) == 1 else "Tavli"}"]',
        f'; [Game ID "{first["game_id"]}"]',
        f'; [Player 1 "{names[0]}"]',
        f'; [Player 2 "{names[1]}"]',
        "",
        f" {first['length']} point match",
        "",
    ]
    for rec in records:
        game = rec["game"]
        score = rec["score_before"]
        lines.append(f" Game {rec['game_no']}")
        lines.append(f'; [Game "{str(game.get("game", "fevga")).capitalize()}"]')
        lines.append(f" {names[0]} : {score[0]}".ljust(COLUMN + 5) + f"{names[1]} : {score[1]}")
        dice = game["dice"]
        lines.append(f"; [Dice commitment {dice.get('commitment', '')}]")
        if dice.get("seed"):
            lines.append(f"; [Dice seed {dice['seed']}]")
        if game.get("opening"):
            lines.append(f"; [Opening rolls {' '.join(game['opening'])}]")
        report = (reports or {}).get(int(rec["game_no"]))
        lines.extend(_analysed(report, names))
        losses = {m.index: m.loss for p in report.players for m in p.worst} if report is not None else {}
        rows: list[list[str]] = []
        seat = game["first"] if game.get("first") is not None else _starter(game["opening"])
        for index, turn in enumerate(game["turns"]):
            roll, text = str(turn).split(":", 1)
            cell = _marked(f"{roll}: {'' if text == 'pass' else text}".rstrip(), index, report, losses)
            if seat == 0 or not rows or rows[-1][1]:
                rows.append(["", ""])
            rows[-1][seat] = cell
            seat ^= 1
        for n, (left, right) in enumerate(rows, 1):
            cell = f"{n:3d}) {left}".ljust(COLUMN + 5)
            lines.append(cell + (" " if right and not cell.endswith(" ") else "") + right)  # a long left move
        outcome = rec.get("outcome")
        if outcome is not None and outcome["winner"] is None:  # a drawn Plakoto game: both mothers pinned
            lines.append("      Draw")
        elif outcome is not None:
            text = _wins(outcome["points"]) + (" (resigned)" if outcome.get("resigned") else "")
            lines.append(("      " + text) if outcome["winner"] == 0 else " " * (COLUMN + 5) + text)
        lines.append("")
    return "\n".join(lines)


def _starter(opening: list[str]) -> int:
    last = opening[-1]
    return 0 if int(last[0]) > int(last[1]) else 1
