"""``python -m fevga plays|bestplay`` with ``"game": "portes"|"plakoto"``: bars and pins in and out."""

from __future__ import annotations

import json

from .test_cli import run

ZERO = [0] * 24
START = [15] + [0] * 23


def _points(**counts: int) -> list[int]:
    out = list(ZERO)
    for key, count in counts.items():
        out[int(key[1:]) - 1] = count
    return out


def test_portes_line_with_a_bar() -> None:
    # P-3: me bar:1 12:4 17:3 19:4 20:3; him (his own numbering) 23:2 22:1 21:3 19:3 17:6
    line = {
        "game": "portes",
        "me": _points(p12=4, p17=3, p19=4, p20=3),
        "opp": _points(p23=2, p22=1, p21=3, p19=3, p17=6),
        "me_bar": 1,
        "dice": [6, 3],
    }
    plays, passing = run([json.dumps(line), json.dumps({**line, "dice": [4, 2]})])
    assert sorted(p["steps"] for p in plays["plays"]) == ["bar/3* 12/18", "bar/3* 17/23", "bar/3* 3/9"]
    for entry in plays["plays"]:
        assert entry["me_bar"] == 0 and entry["opp_bar"] == 1 and entry["opp"][21] == 0
        assert sum(entry["me"]) == 15 and "me_pin" not in entry
    assert passing == {"plays": []}
    best = run([json.dumps({**line, "level": "medium"})], "bestplay")[0]
    assert best["play"] in plays["plays"]


def test_plakoto_line_with_pins() -> None:
    # K-2: me 1:13 3:1 7:1 (pinned on 7); him 18:1 (on top of mine), 15:1, 1:13 in his numbering
    line = {
        "game": "plakoto",
        "me": _points(p1=13, p3=1, p7=1),
        "opp": _points(p18=1, p15=1, p1=13),
        "me_pin": [7],
        "dice": [4, 3],
    }
    answer = run([json.dumps(line)])[0]
    by_steps = {p["steps"]: p for p in answer["plays"]}
    assert sorted(by_steps) == ["1/4 1/5", "1/5 3/6", "1/5 5/8", "3/6 6/10*"]
    pinned = by_steps["3/6 6/10*"]
    assert pinned["me_pin"] == [7] and pinned["opp_pin"] == [15] and "me_bar" not in pinned
    for level in ("easy", "medium", "hard", "random"):
        best = run([json.dumps({**line, "level": level})], "bestplay")[0]
        assert best["play"]["steps"] in by_steps


def test_bad_game_lines_say_why() -> None:
    answers = run(
        [
            json.dumps({"game": "chess", "me": ZERO, "opp": ZERO, "dice": [1, 2]}),
            json.dumps({"game": "plakoto", "me": START, "opp": START, "me_bar": 1, "dice": [1, 2]}),
            json.dumps({"game": "portes", "me": START, "opp": START, "me_pin": [1], "dice": [1, 2]}),
        ]
    )
    assert "unknown game" in answers[0]["error"]
    assert "bar" in answers[1]["error"]
    assert "pinned" in answers[2]["error"]
