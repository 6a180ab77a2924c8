"""The outside interface: ``python -m fevga plays`` answers one JSON line per input line."""

from __future__ import annotations

import json
import subprocess
import sys

START = {"me": [15] + [0] * 23, "opp": [15] + [0] * 23, "me_off": 0, "opp_off": 0}


def run(lines: list[str], command: str = "plays") -> list[dict]:
    out = subprocess.run(
        [sys.executable, "-m", "fevga", command], input="\n".join(lines) + "\n", capture_output=True, text=True,
        timeout=60, check=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def test_plays_for_the_opening_five_five_and_errors() -> None:
    shut = {"me": [0] * 12 + [1, 2, 3, 3, 3, 3] + [0] * 6, "opp": [0] * 7 + [3] * 5 + [0] * 12, "dice": [6, 6]}
    answers = run(
        [
            json.dumps({**START, "dice": [5, 5]}),
            json.dumps({**START, "dice": [5, 7]}),
            json.dumps({**START, "me": [14] + [0] * 23, "dice": [1, 2]}),
            json.dumps({**START, "opp": [0] * 12 + [15] + [0] * 11, "dice": [1, 2]}),
            "not json",
            json.dumps({**shut, "me_off": 0, "opp_off": 0}),
            json.dumps({**START, "dice": [3, 4], "unlock_point": 12}),
        ]
    )
    assert len(answers) == 7
    steps = sorted(p["steps"] for p in answers[0]["plays"])
    assert steps == ["1/6 6/11 11/16 1/6", "1/6 6/11 11/16 16/21"]
    first = answers[0]["plays"][0]
    assert sum(first["me"]) == 15 and first["opp"] == START["opp"]
    assert "error" in answers[1] and "1 to 6" in answers[1]["error"]
    assert "error" in answers[2] and "14 checkers" in answers[2]["error"]
    assert "error" in answers[3] and "both players" in answers[3]["error"]
    assert "error" in answers[4]
    assert answers[5] == {"plays": []}
    assert "error" in answers[6] and "unlock_point" in answers[6]["error"]


def test_a_line_nested_too_deeply_is_one_error_line_and_the_batch_goes_on() -> None:
    """JSON nested deeper than the decoder's recursion limit answers an error for its own line only, on both
    commands: the lines before and after it keep their answers."""
    deep = '{"a":' * 5000 + "1" + "}" * 5000
    good = json.dumps({**START, "dice": [6, 5]})
    for command in ("plays", "bestplay"):
        answers = run([good, deep, good], command)
        assert len(answers) == 3
        assert answers[1] == {"error": "not valid JSON: nested too deeply"}
        assert answers[0] == answers[2] and "error" not in answers[0]
