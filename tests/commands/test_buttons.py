"""Button tokens decode into the same typed intents as the text they stand for, for every button kind."""

from __future__ import annotations

import pytest

from bot.chat.buttons import CODES, decode, encode
from bot.commands import intents as i
from bot.commands.grammar import parse_command
from bot.service.button_kinds import ButtonKind

# The intent each kind decodes to, for game (or challenge) "g7" at version 5.
EXPECTED: dict[ButtonKind, i.Intent] = {
    ButtonKind.ACCEPT: i.Accept("g7"),
    ButtonKind.DECLINE: i.Decline("g7"),
    ButtonKind.CANCEL: i.Cancel("g7"),
    ButtonKind.STEP: i.Step("g7", 5, 13, 4),
    ButtonKind.PLAY: i.Move("13/17 17/20", "g7", 5),
    ButtonKind.UNDO: i.Undo("g7", 5),
    ButtonKind.CONFIRM: i.Confirm("g7", 5),
    ButtonKind.RESIGN: i.ResignPrompt("g7", 5),
    ButtonKind.RESIGN_CONFIRM: i.Resign(game_id="g7", version=5),
    ButtonKind.RESIGN_MATCH_CONFIRM: i.Resign(whole_match=True, game_id="g7", version=5),
    ButtonKind.REMATCH: i.Rematch("g7"),
    ButtonKind.CLAIM: i.Claim("g7"),
    ButtonKind.ABORT: i.Abort("g7"),
    ButtonKind.HINT: i.Hint("g7"),
}


def test_every_kind_has_a_code_and_an_intent() -> None:
    assert set(CODES) == set(ButtonKind) == set(EXPECTED)
    assert len(set(CODES.values())) == len(CODES)


@pytest.mark.parametrize("kind", list(ButtonKind))
def test_a_token_decodes_into_its_intent(kind: ButtonKind) -> None:
    token = encode(kind, "g7", 5, 13, 4, play="13171720")
    assert decode(token) == EXPECTED[kind]


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        (ButtonKind.ACCEPT, "accept g7"),
        (ButtonKind.DECLINE, "decline g7"),
        (ButtonKind.CANCEL, "cancel g7"),
        (ButtonKind.UNDO, "undo"),
        (ButtonKind.CONFIRM, "confirm"),
        (ButtonKind.REMATCH, "rematch"),
        (ButtonKind.CLAIM, "claim"),
        (ButtonKind.ABORT, "abort"),
        (ButtonKind.HINT, "hint"),
        (ButtonKind.RESIGN_CONFIRM, "resign yes"),
        (ButtonKind.RESIGN_MATCH_CONFIRM, "resign match yes"),
        (ButtonKind.RESIGN, "resign"),  # typed or pressed, resigning asks first
    ],
)
def test_a_button_means_what_its_text_means(kind: ButtonKind, text: str) -> None:
    """Same intent class (and command word) as the typed command; the button adds its game and version."""
    pressed, typed = decode(encode(kind, "g7", 5)), parse_command(text)
    assert pressed is not None and isinstance(typed, i.Intent)
    assert type(pressed) is type(typed) and pressed.word == typed.word == text.split(" ")[0]
    if isinstance(typed, i.Accept | i.Decline | i.Cancel):
        assert pressed == typed


def test_the_resign_button_asks_first_and_a_step_has_no_typed_form() -> None:
    assert isinstance(decode(encode(ButtonKind.RESIGN, "g7", 5)), i.ResignPrompt)
    assert decode(encode(ButtonKind.STEP, "g7", 5, 24, 6)) == i.Step("g7", 5, 24, 6)
    assert decode("S.g7.5.25.6") is None and decode("S.g7.5.1.7") is None and decode("S.g7.5") is None
    assert decode("U.g7.5.1") is None and decode("Z.g7.5") is None and decode("U.g 7.5") is None


def test_a_token_that_would_not_fit_a_button_is_refused() -> None:
    with pytest.raises(ValueError):
        encode(ButtonKind.UNDO, "g" * 70, 1)


def test_every_intent_names_its_command_word() -> None:
    words = {cls.__name__: cls.word for cls in i.Intent.__subclasses__()}
    assert all(words.values()), words
    named = (words["ShowBoard"], words["PlayAI"], words["ResignPrompt"], words["Step"])
    assert named == ("board", "play", "resign", "step")
