"""Every number position of the command language with Unicode number signs (categories Nd and No).

Decimal digits of any script (``٣``, ``७``, ``３``) are read as numbers; other number signs (``²``, ``½``,
``①``) get a message saying to type digits. Nothing of either kind may end in an internal error.
"""

from __future__ import annotations

import asyncio
import logging

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.chat.core import BotCore
from bot.commands import intents as i
from bot.commands.executor import execute
from bot.commands.grammar import ALIASES, parse_command
from bot.i18n import has
from bot.service import Place, PlayerRef
from bot.service.ai import RandomAI
from bot.storage import MemoryStore
from fevga import NotationError
from fevga.notation import parse_moves

ME = PlayerRef("discord", "1", "me")
BOB = PlayerRef("discord", "2", "bob")
HERE = Place("discord", "g", "c")
INTERNAL = {"error", "internal_error", "internal_error_unchanged"}

# "#" marks a number position; every command word (each alias) is also tried with a number after it.
TEMPLATES = [
    "move #/#", "m #/# #/#", "#/#", "#/# #/#", "move #/#/#", "move #/#(#)", "mv #/off", "κίνηση #-#",
    "challenge @bob #", "challenge open #", "challenge @bob points=#", "challenge open length=# strict",
    "play ai #", "play ai hard #", "ai #", "bot easy #",
    "top #", "top global #", "lb # global",
    "settings deadline #", "settings deadline_hours #.#", "settings unlock_point #", "settings autoplay #",
    "settings ping #", "settings analysis #", "set lang #", "ping dm #", "resign match #", "help #",
    *(f"{word} #" for word in ALIASES),
]
NUMBER_SIGNS = st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=3)


class Errors(logging.Handler):
    """Collects the records of the service's guard: an ``unexpected error`` is an internal error."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


class Chat:
    """A core on a memory store with a game against the AI running, where the player is to move."""

    def __init__(self) -> None:
        self.core = asyncio.run(BotCore.create(store=MemoryStore(), ai=RandomAI(seed=3), draw=False))
        self.errors = Errors()
        logging.getLogger("bot.service.service").addHandler(self.errors)

    async def ready(self) -> None:
        """Start a game against the AI when none runs here; the AI moves at once, so the player is to move."""
        if not await self.core.has_game(HERE, ME):
            await execute(self.core.service, ME, HERE, i.PlayAI("easy"))
        assert await self.core.turn_of(HERE, [ME]) == ME

    async def say(self, text: str) -> list[str]:
        """The message keys of the answer to ``text``; the line must parse or give a catalogued error."""
        await self.ready()
        intent = parse_command(text)
        if isinstance(intent, i.CommandError):
            assert has(intent.key), intent.key
            return [intent.key]
        result = await execute(self.core.service, ME, HERE, intent, mentions={"@bob": BOB}, is_admin=True)
        return [message.key for message in result.messages]


CHAT = Chat()


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(TEMPLATES), st.lists(NUMBER_SIGNS, min_size=3, max_size=3))
@example("move #/#", ["1", "7²", "1"])  # the line of issue 22
@example("move #/#(#)", ["1", "6", "²"])
@example("#/#", ["①", "7", "1"])
@example("challenge @bob #", ["½", "1", "1"])
@example("settings unlock_point #", ["١٤", "1", "1"])
def test_no_number_sign_ends_in_an_internal_error(template: str, numbers: list[str]) -> None:
    text = template
    for number in numbers:
        text = text.replace("#", number, 1)
    before = len(CHAT.errors.messages)
    keys = asyncio.run(CHAT.say(text))
    assert not INTERNAL & set(keys), (text, keys)
    assert all(has(key) for key in keys), (text, keys)
    assert CHAT.errors.messages[before:] == [], text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("challenge @bob ٥", i.Challenge("@bob", 5)),  # Arabic-Indic five
        ("challenge open points=७", i.Challenge(None, 7)),  # Devanagari seven
        ("play ai hard ３", i.PlayAI("hard", 3)),  # fullwidth three
        ("top ١٢", i.Top(False, 12)),
        ("settings unlock_point ١٤", i.Settings("unlock_point", "14")),
        ("settings deadline ٠.٥", i.Settings("deadline", "0.5")),
        ("١/٧ ٧/١٢", i.Move("١/٧ ٧/١٢")),
    ],
)
def test_decimal_digits_of_any_script_are_numbers(text: str, expected: i.Intent) -> None:
    assert parse_command(text) == expected


@pytest.mark.parametrize(
    "text",
    ["challenge @bob ²", "challenge open points=½", "play ai ③", "ai easy Ⅻ", "top ²", "top global ⑩",
     "settings deadline ½", "settings unlock_point ¹⁴"],
)
def test_other_number_signs_are_not_digits(text: str) -> None:
    result = parse_command(text)
    assert isinstance(result, i.CommandError) and result.key == "cmd_not_digits", result


@pytest.mark.parametrize("text", ["1/7²", "①/7", "1/6(²)", "½/7 7/12", "1/⑫"])
def test_plays_in_other_number_signs_are_not_digits(text: str) -> None:
    assert parse_command(text) == i.Move(text)  # a bare play, so it reaches the notation and its message
    with pytest.raises(NotationError) as caught:
        parse_moves(text)
    assert caught.value.key == "not_digits"


def test_plays_in_decimal_digits_of_any_script_read_as_ascii_ones() -> None:
    assert parse_moves("١/٧ ٧/١٢") == parse_moves("1/7 7/12") == [(1, 7), (7, 12)]
    assert parse_moves("१/६(२)") == [(1, 6), (1, 6)]


def test_the_play_of_issue_22_gets_the_digits_message() -> None:
    assert asyncio.run(CHAT.say("move 1/7²")) == ["not_digits"]
