"""The ``analyze`` command line: aliases, an optional game id, and what is refused."""

from __future__ import annotations

from bot.commands import intents as i
from bot.commands.grammar import parse_command


def test_analyze_and_its_aliases_read_the_same_intent() -> None:
    for line in ("analyze", "/analysis", "!analyse", "ανάλυση", "fevga analyze", "/analyze@fevga_bot"):
        assert parse_command(line) == i.Analyze(), line
    assert parse_command("analyze AbC-12_x") == i.Analyze("AbC-12_x")


def test_analyze_refuses_junk_and_extra_words() -> None:
    extra = parse_command("analyze one two")
    assert isinstance(extra, i.CommandError) and extra.key == "cmd_too_many_words"
    junk = parse_command("analyze <script>")
    assert isinstance(junk, i.CommandError) and junk.key == "cmd_bad_option"
