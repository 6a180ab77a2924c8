"""The game words in commands: ``challenge @bob tavli 5``, ``play ai plakoto hard``, ``rules portes``,
``top tavli``; English and Greek names, with and without accents, in any case, before or after the number."""

from __future__ import annotations

import pytest

from bot.commands import intents as i
from bot.commands.grammar import parse_command
from bot.i18n import translate
from bot.service.game_words import game_word


@pytest.mark.parametrize(("word", "kind"), [
    ("fevga", "fevga"), ("FEVGA", "fevga"), ("φεύγα", "fevga"), ("ΦΕΥΓΑ", "fevga"),
    ("portes", "portes"), ("Portes", "portes"), ("πόρτες", "portes"), ("πορτες", "portes"), ("ΠΌΡΤΕΣ", "portes"),
    ("πορτεσ", "portes"), ("plakoto", "plakoto"), ("πλακωτό", "plakoto"), ("ΠΛΑΚΩΤΟ", "plakoto"),
    ("tavli", "tavli"), ("τάβλι", "tavli"), ("ΤΑΒΛΙ", "tavli"), ("chess", None), ("port", None),
])
def test_game_word(word: str, kind: str | None) -> None:
    assert game_word(word) == kind


@pytest.mark.parametrize("text", ["challenge @bob tavli 5", "challenge @bob 5 tavli", "/challenge @bob τάβλι 5",
                                  "c @bob 5 ΤΆΒΛΙ"])
def test_challenge_kind_before_or_after_the_number(text: str) -> None:
    assert parse_command(text) == i.Challenge("@bob", 5, None, "tavli")


def test_challenge_kinds_and_defaults() -> None:
    assert parse_command("challenge @bob portes 3") == i.Challenge("@bob", 3, None, "portes")
    assert parse_command("challenge @bob plakoto") == i.Challenge("@bob", 1, None, "plakoto")
    assert parse_command("challenge @bob fevga") == i.Challenge("@bob", 1, None, "fevga")
    assert parse_command("challenge @bob") == i.Challenge("@bob", 1, None, None)  # the place's default_game
    assert parse_command("challenge open tavli 5") == i.Challenge(None, 5, None, "tavli")
    assert parse_command("challenge open πλακωτό") == i.Challenge(None, 1, None, "plakoto")


def test_fevga_options_with_another_game_are_refused() -> None:
    error = parse_command("challenge @bob portes unlock14")
    assert isinstance(error, i.CommandError) and error.key == "cmd_option_not_for_game"
    assert "Portes" in translate(error.key, "en", **error.args)
    assert "Πόρτες" in translate(error.key, "el", **error.args)
    assert isinstance(parse_command("challenge @bob tavli strict 5"), i.Challenge)  # a tavli match's Fevga games


def test_play_ai_with_a_game() -> None:
    assert parse_command("play ai plakoto hard") == i.PlayAI("hard", 1, "plakoto")
    assert parse_command("play ai tavli 3") == i.PlayAI(None, 3, "tavli")  # the configured level
    assert parse_command("play ai 3 πόρτες easy") == i.PlayAI("easy", 3, "portes")
    assert parse_command("play ai") == i.PlayAI(None, 1, None)
    error = parse_command("play ai chess")
    assert isinstance(error, i.CommandError) and error.key == "cmd_bad_level"


def test_rules_of_each_game() -> None:
    assert parse_command("rules") == i.ShowRules()
    assert parse_command("rules portes") == i.ShowRules("portes")
    assert parse_command("κανόνες πλακωτό") == i.ShowRules("plakoto")
    error = parse_command("rules chess")
    assert isinstance(error, i.CommandError) and error.key == "cmd_bad_game"
    assert "chess" in translate(error.key, "el", **error.args)


def test_top_of_a_game() -> None:
    assert parse_command("top plakoto") == i.Top(False, 10, "plakoto")
    assert parse_command("top tavli 5") == i.Top(False, 5, "tavli")
    assert parse_command("top") == i.Top(False, 10, None)


@pytest.mark.parametrize(("text", "level", "kind"), [
    ("play ai δύσκολο", "hard", None), ("play ai ΕΥΚΟΛΟ", "easy", None),
    ("play ai μετριο πλακωτό", "medium", "plakoto"),
    ("play με υπολογιστή έμπειρο 3", "expert", None), ("play ai hard", "hard", None),
])
def test_greek_level_words(text: str, level: str, kind: str | None) -> None:
    """The level words a Greek board shows ("Υπολογιστής (δύσκολο)") are the words ``play ai`` takes."""
    parsed = parse_command(text)
    assert isinstance(parsed, i.PlayAI) and (parsed.level, parsed.kind) == (level, kind), parsed


def test_the_ai_is_named_in_greek_with_its_level_in_greek() -> None:
    from bot.i18n import display_name

    assert display_name("AI (hard)", "el") == "Υπολογιστής (δύσκολο)"
    assert display_name("AI (expert)", "en") == "AI (expert)"
    for level in i.AI_LEVELS:  # every level shown in Greek reads back as itself
        shown = display_name(f"AI ({level})", "el")
        parsed = parse_command(f"play ai {shown[shown.index('(') + 1:-1]}")
        assert isinstance(parsed, i.PlayAI) and parsed.level == level
    error = parse_command("play ai δυνατό")
    assert isinstance(error, i.CommandError)
    assert "δύσκολο" in translate(error.key, "el", **error.args)
