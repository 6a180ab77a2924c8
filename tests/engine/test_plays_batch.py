"""The batch path of ``python -m fevga plays``: the rules corpus answered byte for byte as before (pinned
digest) on the compiled and the pure-Python path; the compiled core's whole answer lines equal the
Python ones; requests it does not take fall back to Python; lines split as text-mode stdin splits them;
a client sending one line at a time gets each answer at once."""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fevga import Position, accel
from fevga.batch import serve_batch
from fevga.cli import plays_line
from fevga.jsonlines import serve

from .plays_corpus import read_corpus
from .positions import random_game_position, random_placement
from .test_accel import crowded_placement

# sha256 of the corpus answers as `python -m fevga plays` wrote them before the batch path (commit 6c73e56)
CORPUS_DIGEST = "7b00926fe88e4311d1f63b68a8e1b55d2f79ffcc761c367fbc46a638c131120f"
CORPUS_LINES = 2951
CORPUS_PLAYS = 70810


def run_cli(data: bytes, pure: bool) -> bytes:
    env = {k: v for k, v in os.environ.items() if k != accel.PURE_ENV}
    if pure:
        env[accel.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "fevga", "plays"], input=data, capture_output=True, env=env, timeout=120, check=True
    )
    return done.stdout


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure-python"])
def test_the_corpus_answers_are_byte_identical(pure: bool) -> None:
    out = run_cli(read_corpus(), pure)
    assert out.count(b"\n") == CORPUS_LINES
    assert out.count(b'"steps":') == CORPUS_PLAYS
    assert hashlib.sha256(out).hexdigest() == CORPUS_DIGEST


def python_answer(request: object) -> str:
    """The answer line the Python path writes (plays_line on the pure path, encoded as the CLI does)."""
    with accel.pure_python():
        return json.dumps(plays_line(request), separators=(",", ":")) + "\n"


def test_compiled_answer_lines_equal_the_python_ones_on_the_corpus() -> None:
    core = accel.compiled()
    taken = 0
    for line in read_corpus().decode().splitlines()[::7]:  # every 7th: the whole corpus is pinned above
        try:
            request = json.loads(line)
        except ValueError:
            continue
        text = core.plays_answer(request)
        if text is not None:
            taken += 1
            assert text == python_answer(request), line
    assert taken > 400


requests = st.builds(
    lambda seed, kind, dice, unlock, strict: (seed, kind, dice, unlock, strict),
    st.integers(0, 2**32),
    st.sampled_from(["game", "placement", "crowded"]),
    st.tuples(st.integers(1, 6), st.integers(1, 6)),
    st.sampled_from([None, 13, 14]),
    st.sampled_from([None, False, True]),
)


@settings(max_examples=300, deadline=None)
@given(requests)
def test_compiled_answer_lines_equal_the_python_ones(case: tuple) -> None:
    seed, kind, dice, unlock, strict = case
    rng = random.Random(seed)
    maker = {"game": random_game_position, "placement": random_placement, "crowded": crowded_placement}[kind]
    position: Position = maker(rng)
    request: dict[str, object] = {"me": position.me, "opp": position.opp, "dice": list(dice)}
    if position.me_off or rng.random() < 0.5:
        request["me_off"] = position.me_off
    if position.opp_off or rng.random() < 0.5:
        request["opp_off"] = position.opp_off
    if unlock is not None:
        request["unlock_point"] = unlock
    if strict is not None:
        request["strict_start_quarter"] = strict
    if rng.random() < 0.2:
        request["game"] = "fevga"
    assert accel.compiled().plays_answer(request) == python_answer(request)


START = {"me": [15] + [0] * 23, "opp": [15] + [0] * 23, "dice": [3, 4]}


@pytest.mark.parametrize(
    "request_",
    [
        {**START, "game": "portes"},  # another game
        {**START, "game": "Fevga"},
        {**START, "game": None},
        {**START, "colour": "white"},  # any key it does not know
        {**START, "me_off": True},
        {**START, "me_off": 0.0},
        {**START, "dice": [3, 4.0]},
        {**START, "dice": [3, 7]},
        {**START, "dice": (3, 4)},
        {**START, "dice": [3]},
        {**START, "unlock_point": 12},
        {**START, "unlock_point": True},
        {**START, "strict_start_quarter": 1},
        {**START, "me": [14] + [0] * 23},
        {**START, "me": [16] + [0] * 23, "me_off": -1},
        {**START, "me": [15] + [0] * 22},
        {**START, "me": [2**70] + [0] * 23},
        {**START, "opp": [0] * 12 + [15] + [0] * 11},
        {"me": START["me"], "dice": [3, 4]},
        [START],
        "me",
    ],
)
def test_requests_it_does_not_take_are_left_to_python(request_: object) -> None:
    assert accel.compiled().plays_answer(request_) is None


def test_the_game_fevga_is_taken_as_when_it_is_absent() -> None:
    request = {**START, "game": "fevga"}
    text = accel.compiled().plays_answer(request)
    assert text is not None and text == accel.compiled().plays_answer(START) == python_answer(request)


def batch_output(data: bytes) -> str:
    out = io.StringIO()
    serve_batch(plays_line, accel.compiled().plays_answer, io.TextIOWrapper(io.BytesIO(data), "utf-8"), out)
    return out.getvalue()


def serve_output(data: bytes) -> str:
    out = io.StringIO()
    serve(plays_line, io.TextIOWrapper(io.BytesIO(data), "utf-8"), out)
    return out.getvalue()


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\n",
        b"\n\n",
        json.dumps(START).encode(),  # no newline at the end
        json.dumps(START).encode() + b"\r\n" + json.dumps({**START, "dice": [6, 6]}).encode() + b"\r\n",
        json.dumps(START).encode() + b"\r" + json.dumps({**START, "game": "x"}).encode() + b"\rnot json\r",
        b'{"me": [15, 0], "opp": []}\n\xce\xb1\n  \n' + json.dumps(START).encode() + b"\n",
    ],
)
def test_batch_lines_are_answered_as_serve_answers_them(data: bytes) -> None:
    assert batch_output(data) == serve_output(data)


def test_lines_split_across_reads_are_answered_once_each(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("fevga.batch.CHUNK", 7)  # every line arrives in many pieces, \r\n split too
    data = (json.dumps(START) + "\r\n" + json.dumps({**START, "dice": [5, 5]}) + "\r\nnot json\r\n").encode()
    assert batch_output(data) == serve_output(data)
    assert batch_output(data).count("\n") == 3


def test_one_line_at_a_time_gets_each_answer_at_once() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fevga", "plays"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for dice in ([3, 4], [5, 5], [6, 1]):
            proc.stdin.write((json.dumps({**START, "dice": dice}) + "\n").encode())
            answer = json.loads(proc.stdout.readline())  # would block for ever if answers waited for EOF
            assert answer == plays_line({**START, "dice": dice})
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    assert proc.returncode == 0
