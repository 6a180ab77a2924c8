"""``bestplay_line``: the answer has the shape of one entry of ``plays``; bad input is refused."""

from __future__ import annotations

import io
import json

import pytest

from fevga import Position
from fevga.ai.cli import bestplay_line
from fevga.cli import plays_line, serve
from fevga.errors import FevgaError


def request(position: Position, dice, **extra):
    return {
        "me": position.me,
        "opp": position.opp,
        "me_off": position.me_off,
        "opp_off": position.opp_off,
        "dice": list(dice),
        "unlock_point": 13,
        "strict_start_quarter": False,
        **extra,
    }


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bestplay_is_one_entry_of_plays(level, sample_positions):
    for position, dice in sample_positions[:4]:
        obj = request(position, dice, level=level)
        answer = bestplay_line(obj)
        entries = plays_line(obj)["plays"]
        if not entries:
            assert answer == {"play": None}
            continue
        assert set(answer) == {"play"}
        assert set(answer["play"]) == {"steps", "me", "me_off", "opp", "opp_off"}
        assert answer["play"] in entries


def test_level_defaults_to_hard():
    obj = request(Position.start(), (6, 5))
    assert bestplay_line(obj)["play"]["steps"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"level": "grandmaster"}, "unknown AI level"),
        ({"level": 3}, "'level' must be"),
        ({"dice": [0, 7]}, "die"),
        ({"dice": [1]}, "two"),
        ({"me": [2] + [1] * 11 + [0] * 12}, "13 checkers, not 15"),
        ({"opp": "x"}, "'opp' must be a list"),
    ],
)
def test_invalid_input_is_refused_with_a_reason(change, message):
    obj = {**request(Position.start(), (3, 1)), **change}
    with pytest.raises(FevgaError, match=message):
        bestplay_line(obj)


def test_json_lines_service_answers_each_line():
    good = json.dumps(request(Position.start(), (6, 5), level="medium"))
    bad = json.dumps(request(Position.start(), (6, 5), level="nope"))
    out = io.StringIO()
    serve(bestplay_line, io.StringIO(f"{good}\n{bad}\n"), out)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["play"]["me"][0] == 14
    assert "unknown AI level" in second["error"]
