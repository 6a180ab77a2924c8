"""The command language: every command, its aliases, options and specific errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.chat.buttons import decode
from bot.commands import intents as i
from bot.commands.grammar import ALIASES, MAX_INPUT, parse_command
from bot.commands.numbers import whole_number
from fevga import Rules


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("help", i.Help()),
        ("/help challenge", i.Help("challenge")),
        ("rules", i.ShowRules()),
        ("challenge @bob", i.Challenge("@bob")),
        ("challenge @bob 5", i.Challenge("@bob", 5)),
        ("/challenge@fevga_bot @bob 7 strict unlock14", i.Challenge("@bob", 7, Rules(14, True))),
        ("challenge open 3", i.Challenge(None, 3)),
        ("accept", i.Accept()),
        ("accept ab12", i.Accept("ab12")),
        ("decline", i.Decline()),
        ("cancel", i.Cancel()),
        ("play ai", i.PlayAI()),
        ("play ai hard", i.PlayAI("hard")),
        ("ai easy 5", i.PlayAI("easy", 5)),
        ("move 1/7 7/12", i.Move("1/7 7/12")),
        ("m 1/7/12", i.Move("1/7/12")),
        ("1/7 7/12", i.Move("1/7 7/12")),
        ("α/ζ ζ/λ", i.Move("α/ζ ζ/λ")),
        ("19/off, 20/off", i.Move("19/off, 20/off")),
        ("pass", i.Move("pass")),
        ("undo", i.Undo()),
        ("confirm", i.Confirm()),
        ("board", i.ShowBoard()),
        ("hint", i.Hint()),
        ("resign", i.ResignPrompt()),  # typed or from Telegram's menu, resigning asks first
        ("/resign", i.ResignPrompt()),
        ("resign match", i.ResignPrompt(whole_match=True)),
        ("resign yes", i.Resign()),
        ("resign match yes", i.Resign(True)),
        ("mygames", i.MyGames()),
        ("abort", i.Abort()),
        ("claim", i.Claim()),
        ("rematch", i.Rematch()),
        ("top", i.Top()),
        ("lb", i.Top()),
        ("leaderboard global 20", i.Top(True, 20)),
        ("stats", i.Stats()),
        ("stats @maria", i.Stats("@maria")),
        ("export", i.Export()),
        ("replay", i.Replay()),
        ("lang el", i.Lang("el")),
        ("settings", i.Settings()),
        ("settings deadline 12", i.Settings("deadline", "12")),
        ("!fevga board", i.ShowBoard()),
        ("  BOARD  ", i.ShowBoard()),
    ],
)
def test_commands(text: str, expected: object) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "cmd_empty"),
        ("   ", "cmd_empty"),
        ("x" * (MAX_INPUT + 1), "cmd_too_long"),
        ("chalenge @bob", "cmd_unknown"),
        ("challenge", "cmd_challenge_who"),
        ("challenge @bob 26", "cmd_bad_length"),
        ("challenge @bob 0", "cmd_bad_length"),
        ("challenge @bob @alice", "cmd_bad_option"),
        ("play ai impossible", "cmd_bad_level"),
        ("play chess", "cmd_play_what"),
        ("move", "cmd_move_what"),
        ("lang fr", "cmd_bad_lang"),
        ("settings deadline", "cmd_settings_usage"),
        ("resign now", "cmd_bad_option"),
        ("top 0", "cmd_top_count"),
        ("accept a b", "cmd_too_many_words"),
    ],
)
def test_errors_are_specific(text: str, key: str) -> None:
    result = parse_command(text)
    assert isinstance(result, i.CommandError) and result.key == key


def test_unknown_word_suggests_the_closest_command() -> None:
    result = parse_command("resing")
    assert isinstance(result, i.CommandError) and result.args["suggestion"] == "resign"


def test_every_alias_parses_to_something() -> None:
    for alias in ALIASES:
        assert parse_command(alias) is not None


@given(st.text(max_size=400))
def test_nothing_raises(text: str) -> None:
    result = parse_command(text)
    assert isinstance(result, (i.Intent, i.CommandError))


@pytest.mark.parametrize(
    ("text", "key"),
    [("top ²", "cmd_not_digits"), ("challenge @bob ²", "cmd_not_digits"), ("play ai ³", "cmd_not_digits")],
)
def test_unicode_digits_that_int_refuses_name_the_argument(text: str, key: str) -> None:
    intent = parse_command(text)
    assert isinstance(intent, i.CommandError)
    assert intent.key == key


def test_numbers_int_accepts_are_read_as_int_reads_them() -> None:
    assert whole_number("٣") == 3  # an Arabic-Indic digit: int() reads it
    assert whole_number("²") is None
    assert whole_number("9" * 40) is None


@pytest.mark.parametrize("token", ["K.abc.¹", "S.abc.1.².3", "S.abc.1.1.٣٣", "R.abc.-1"])
def test_forged_tokens_with_odd_digits_are_refused(token: str) -> None:
    assert decode(token) is None


def test_a_long_number_is_quoted_back_cut_visibly_and_top_0_is_a_count() -> None:
    """``challenge @bob 100000000000000000000`` quoted a number one digit short as if typed so; now an ellipsis
    marks the cut. ``top 0`` says what the count may be (it was "I don't understand '0'")."""
    long = parse_command("challenge @bob 100000000000000000000")
    assert isinstance(long, i.CommandError) and long.args["value"] == "1000000000000000000…"
    zero = parse_command("top 0")
    assert isinstance(zero, i.CommandError) and zero.key == "cmd_top_count" and zero.args["value"] == "0"


def test_stats_season_says_where_the_season_tables_are() -> None:
    """``stats season`` is not a player called "season": the answer names ``top season`` and ``top season last``."""
    from bot.i18n import translate

    for text in ("stats season", "stats σεζόν"):
        error = parse_command(text)
        assert isinstance(error, i.CommandError) and error.key == "cmd_stats_season", error
        assert "top season last" in translate(error.key, "en")
    assert parse_command("top season last") == i.Top(False, 10, None, "last")
    assert parse_command("top season") == i.Top(False, 10, None, "")
