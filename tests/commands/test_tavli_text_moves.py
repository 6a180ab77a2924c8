"""Text moves in Portes and Plakoto: every legal play of random positions, typed in every accepted form
(canonical, another step order, without the ``*`` marks, Greek letters, ``μπαρ``, after ``/m``), reads
through the chat grammar and the engine as that very play; illegal ones get a rule key translated in
English and Greek."""

from __future__ import annotations

import random

import pytest

from bot.commands import intents as i
from bot.commands.grammar import parse_command
from bot.i18n import has, translate
from fevga import FevgaError, Game, Play, format_play, parse_play

LETTERS = "αβγδεζηθικλμνξοπρστυφχψω"  # α = 1 ... ω = 24


def _greek(text: str) -> str:
    """The play with its points as Greek letters (bar and off stay words)."""
    def point(token: str) -> str:
        bare = token.rstrip("*")
        mark = token[len(bare):]
        return (LETTERS[int(bare) - 1] if bare.isdigit() else bare) + mark
    return " ".join("/".join(point(t) for t in step.split("/")) for step in text.split())


def forms(play: Play) -> list[str]:
    """Every way of typing ``play`` this test checks."""
    text = format_play(play)
    steps = text.split()
    return [text, " ".join(reversed(steps)), text.replace("*", ""), _greek(text), text.replace("bar", "μπαρ"),
            text.upper(), f"/m {text}"]


def _positions(game: str, seed: int, count: int) -> list[Game]:
    """Snapshots of random self-play games of ``game`` (a position and dice to move with each)."""
    rng = random.Random(seed)
    out: list[Game] = []
    while len(out) < count:
        g = Game.new(dice=None, game=game)
        while not g.is_over() and len(out) < count:
            if rng.random() < 0.3:
                out.append(g)
                g = Game.new(dice=None, game=game)
                break
            g.play(rng.choice(g.legal_plays()))
    return out


@pytest.mark.parametrize("game", ["portes", "plakoto"])
def test_every_legal_play_in_every_form_reads_as_itself(game: str) -> None:
    checked = 0
    for g in _positions(game, 7 if game == "portes" else 8, 40):
        position, dice = g.position, g.dice
        assert dice is not None
        for play in g.legal_plays():
            if play.is_pass:
                continue
            for text in forms(play):
                intent = parse_command(text)
                assert isinstance(intent, i.Move), (text, intent)
                assert parse_play(intent.text, position, dice) == play, text
                checked += 1
    assert checked > 500


def test_illegal_plays_name_the_broken_rule_in_both_languages() -> None:
    seen: set[str] = set()
    for game in ("portes", "plakoto"):
        for g in _positions(game, 30, 30):
            assert g.dice is not None
            legal = {p for p in g.legal_plays()}
            for a in range(0, 25):
                for d in set(g.dice):
                    text = f"{'bar' if a == 0 else a}/{a + d if a + d < 25 else 'off'}"
                    try:
                        play = parse_play(text, g.position, g.dice)
                    except FevgaError as exc:
                        assert has(exc.key, "en") and has(exc.key, "el"), exc.key
                        assert translate(exc.key, "el", **exc.args_map) != exc.key
                        seen.add(exc.key)
                    else:
                        assert play in legal
    assert len(seen) >= 4, seen  # several rules named, not one catch-all
