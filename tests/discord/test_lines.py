"""Slash options become exactly the command-language lines the grammar reads."""

from __future__ import annotations

import pytest

from bot.commands import intents as i
from bot.commands.grammar import parse_command
from bot.delivery.replies import Handled
from bot.discord import lines


def test_challenge_lines_parse_to_the_intended_challenge() -> None:
    line = lines.challenge_line(1234, 5, 14, True)
    assert line == "challenge <@1234> 5 unlock=14 strict"
    intent = parse_command(line)
    assert isinstance(intent, i.Challenge)
    assert (intent.target, intent.length, intent.rules.unlock_point, intent.rules.strict_start_quarter) == (
        "<@1234>",
        5,
        14,
        True,
    )
    tavli = parse_command(lines.challenge_line(1234, 5, None, None, "tavli"))
    assert isinstance(tavli, i.Challenge) and (tavli.target, tavli.length, tavli.kind) == ("<@1234>", 5, "tavli")
    open_line = lines.challenge_line(None, None, 13, False)
    assert open_line == "challenge open"
    opened = parse_command(open_line)
    assert isinstance(opened, i.Challenge) and opened.target is None and opened.length == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (lines.move_line("1/7\n  7/12 "), i.Move("1/7 7/12")),
        (lines.play_ai_line("hard", 3), i.PlayAI("hard", 3)),
        (lines.play_ai_line(None, None), i.PlayAI(None, 1)),
        (lines.resign_line(True), i.ResignPrompt(whole_match=True)),  # resigning asks first
        (lines.resign_line(None), i.ResignPrompt(whole_match=False)),
        (lines.top_line("global", 20), i.Top(True, 20)),
        (lines.top_line("server", None), i.Top(False, 10)),
        (lines.stats_line(42), i.Stats("<@42>")),
        (lines.stats_line(None), i.Stats(None)),
        (lines.settings_line("turn deadline", "12"), i.Settings("turn_deadline", "12")),
        (lines.settings_line(None, None), i.Settings()),
        (lines.with_id_line("accept", " c42 extra"), i.Accept("c42")),
        (lines.with_id_line("decline", None), i.Decline(None)),
        (lines.help_line("move"), i.Help("move")),
        (lines.play_ai_line("hard", 3, "plakoto"), i.PlayAI("hard", 3, "plakoto")),
        (lines.top_line("global", None, "tavli"), i.Top(True, 10, "tavli")),
        (lines.rules_line("portes"), i.ShowRules("portes")),
        (lines.rules_line(None), i.ShowRules()),
    ],
)
def test_each_line_reads_back_as_its_intent(line: str, expected: i.Intent) -> None:
    assert parse_command(line) == expected


def test_prefix_line_takes_what_follows_the_prefix() -> None:
    assert lines.prefix_line("!fevga  move 1/7   7/12", "!fevga ") == "move 1/7 7/12"
    assert lines.prefix_line("<@99> top", "<@99> ") == "top"
    assert lines.prefix_line("top", "!fevga ") == "top"


def command_of(line: str) -> str | None:
    """The word the frontend shows replies by: the one the core hands back with what it read."""
    parsed = parse_command(line)
    return Handled(None if isinstance(parsed, i.CommandError) else parsed, []).word


def test_command_words_pick_how_replies_are_shown() -> None:
    assert [command_of(x) for x in ("b", "board", "top global", "me", "set", "ai hard", "1/7 7/12", "zzz")] == [
        "board",
        "board",
        "top",
        "stats",
        "settings",
        "play",
        "move",
        None,
    ]
