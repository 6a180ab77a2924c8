"""Telegram messages as command-language lines: commands, mentions, replies, and what the bot ignores;
keyboards and text limits. Messages are built by the fake Bot API exactly as PTB would receive them."""

from __future__ import annotations

from typing import Any

import pytest
from telegram import Message, MessageEntity, User

from bot.delivery.replies import Button
from bot.service.button_kinds import ButtonKind
from bot.service.models import PlayerRef
from bot.telegram.app import file_url_for
from bot.telegram.command_list import COMMANDS, bot_commands
from bot.telegram.keyboards import LAID_OUT, keyboard
from bot.telegram.lines import board_reply_ref, command_line
from bot.telegram.texts import clip, split_text, utf16_len, with_mentions
from tests.fakes.telegram import FakeMessage, FakeTelegram

BOT = User(123456789, "Fevga Test Bot", is_bot=True, username="fevga_test_bot")


@pytest.fixture
def fake() -> FakeTelegram:
    return FakeTelegram()  # not started: only its message building is used


def parsed(message: FakeMessage) -> Message:
    result = Message.de_json(message.to_dict(), bot=None)
    assert result is not None
    return result


def line_of(fake: FakeTelegram, text: str, *, private: bool = False, **kw: Any) -> Any:
    alice = fake.user(11, "Alice", "alice_p")
    chat = fake.private_chat(alice) if private else fake.group(-1001, "Tavli")
    return command_line(parsed(fake.text_message(alice, chat, text, **kw)), BOT)


@pytest.mark.parametrize(
    ("text", "line", "command"),
    [
        ("/move@fevga_test_bot 1/7 7/12", "move 1/7 7/12", "move"),
        ("/m 1/7  7/12", "m 1/7 7/12", "move"),
        ("/ai hard", "ai hard", "ai"),
        ("/start", "start", "help"),
        ("/lang el", "lang el", "lang"),
        ("1/7 7/12", "1/7 7/12", None),
        ("/Board", "board", "board"),
    ],
)
def test_commands_and_bare_plays_become_lines(fake: FakeTelegram, text: str, line: str, command: str | None):
    result = line_of(fake, text)
    assert result is not None and (result.text, result.command) == (line, command)


@pytest.mark.parametrize(("text", "line", "command"), [
    ("/κανόνες πόρτες", "κανόνες πόρτες", "rules"), ("/ΔΕΧΟΜΑΙ", "δεχομαι", "accept"),
    ("/κίνηση@fevga_test_bot 1/7", "κίνηση 1/7", "move"), ("/ταμπλο", "ταμπλο", "board"),
])
def test_greek_commands_in_a_group_are_read_though_telegram_does_not_mark_them(
    fake: FakeTelegram, text: str, line: str, command: str
) -> None:
    """Telegram marks only Latin names as bot commands: a Greek one in a group was dropped as chatter."""
    result = line_of(fake, text)
    assert result is not None and (result.text, result.command) == (line, command)
    assert line_of(fake, "/κανόνες@other_bot") is None and line_of(fake, "/καλημέρα σε όλους") is None


@pytest.mark.parametrize("text", ["good game everyone", "/move@other_bot 1/7", "resign"])
def test_group_chatter_and_other_bots_commands_are_ignored(fake: FakeTelegram, text: str):
    assert line_of(fake, text) is None


def test_everything_in_a_private_chat_is_for_the_bot(fake: FakeTelegram):
    result = line_of(fake, "resign", private=True)
    assert result is not None and (result.text, result.command) == ("resign", "resign")
    chatter = line_of(fake, "hello there", private=True)
    assert chatter is not None and chatter.command is None and chatter.text == "hello there"


def test_a_reply_to_the_bot_is_read_when_it_is_a_play_or_a_command_word(fake: FakeTelegram):
    room = fake.group(-1001, "Tavli")
    alice = fake.user(11, "Alice", "alice_p")
    board = fake.text_message(fake.bot, room, "the board")
    play = parsed(fake.text_message(alice, room, "13/18 1/4", reply_to=board))
    result = command_line(play, BOT)
    assert result is not None and result.text == "13/18 1/4"
    assert board_reply_ref(play, BOT) == (room.id, board.message_id)
    word = command_line(parsed(fake.text_message(alice, room, "hint", reply_to=board)), BOT)
    assert word is not None and word.command == "hint"
    assert command_line(parsed(fake.text_message(alice, room, "nice one!", reply_to=board)), BOT) is None
    other = fake.text_message(alice, room, "me first")
    assert board_reply_ref(parsed(fake.text_message(alice, room, "1/4", reply_to=other)), BOT) is None


def test_mentions_and_text_mentions(fake: FakeTelegram):
    room = fake.group(-1001, "Tavli")
    alice, bob = fake.user(11, "Alice", "alice_p"), fake.user(22, "Βασίλης Π.")
    text = "/challenge 🎲 Βασίλης Π. 5"
    start = utf16_len("/challenge 🎲 ")
    entity = {"type": "text_mention", "offset": start, "length": utf16_len("Βασίλης Π."), "user": bob.to_dict()}
    result = command_line(parsed(fake.text_message(alice, room, text, entities=[entity])), BOT)
    assert result is not None and result.text == "challenge 🎲 <@22> 5"
    assert result.users["<@22>"].id == 22 and result.usernames == []
    at = command_line(parsed(fake.text_message(alice, room, "/challenge @carol_tavli 3")), BOT)
    assert at is not None and at.text == "challenge @carol_tavli 3" and at.usernames == ["@carol_tavli"]


def test_challenge_as_a_reply_names_the_replied_to_author(fake: FakeTelegram):
    room = fake.group(-1001, "Tavli")
    alice, bob = fake.user(11, "Alice", "alice_p"), fake.user(22, "Bob")
    said = fake.text_message(bob, room, "anyone for tavli?")
    result = command_line(parsed(fake.text_message(alice, room, "/challenge 3", reply_to=said)), BOT)
    assert result is not None and result.text == "challenge <@22> 3" and result.users["<@22>"].id == 22
    to_bot = fake.text_message(fake.bot, room, "board")
    plain = command_line(parsed(fake.text_message(alice, room, "/challenge", reply_to=to_bot)), BOT)
    assert plain is not None and plain.text == "challenge" and plain.users == {}


def test_keyboard_layout_follows_the_button_kinds():
    buttons = [Button(f"{p}→{p + 3}", f"s{p}", ButtonKind.STEP) for p in range(1, 7)]
    buttons += [Button("Resign", "r", ButtonKind.RESIGN), Button("Accept", "a", ButtonKind.ACCEPT)]
    buttons += [Button("Undo", "u", ButtonKind.UNDO), Button("OK", "c", ButtonKind.CONFIRM)]
    buttons += [Button("x", "z" * 65, ButtonKind.CONFIRM), Button("Again", "m", ButtonKind.REMATCH)]
    markup = keyboard(buttons)
    assert markup is not None
    rows = [[b.callback_data for b in row] for row in markup.inline_keyboard]
    assert rows == [["a"], ["s1", "s2", "s3", "s4"], ["s5", "s6"], ["u", "c"], ["r"], ["m"]]
    assert keyboard([]) is None and keyboard([Button("x", "z" * 65, ButtonKind.HINT)]) is None
    steps = keyboard([Button(f"{p}→{p + 3} (3)", f"S.g.1.{p}.3", ButtonKind.STEP) for p in range(1, 7)])
    assert steps is not None and [len(row) for row in steps.inline_keyboard] == [4, 2]


def test_every_button_kind_has_a_place_on_the_keyboard():
    assert set(ButtonKind) == LAID_OUT
    markup = keyboard([Button(kind.value, kind.value, kind) for kind in ButtonKind])
    assert markup is not None
    assert sorted(b.callback_data for row in markup.inline_keyboard for b in row) == sorted(k.value for k in ButtonKind)


def test_text_limits_and_mentions():
    assert clip("Ω" * 10, 5) == "ΩΩΩΩ…" and clip("short", 10) == "short"
    assert utf16_len(clip("🎲" * 10, 7)) <= 7
    parts = split_text("line\n" * 2000)
    assert len(parts) == 3 and all(utf16_len(p) <= 4096 for p in parts)
    assert "".join(p + "\n" for p in parts).count("line") == 2000
    bob, ann = PlayerRef("telegram", "22", "Bob"), PlayerRef("telegram", "33", "Ann")
    text, entities = with_mentions("🎲 Bob to move", [bob, ann, PlayerRef("discord", "9", "Zed")])
    assert text == "Ann\n🎲 Bob to move"
    assert [(e.type, e.offset, e.length, e.user.id if e.user else None) for e in entities] == [
        (MessageEntity.TEXT_MENTION, 0, 3, 33),
        (MessageEntity.TEXT_MENTION, 7, 3, 22),
    ]


def test_command_menu_and_file_url():
    english, greek = bot_commands("en"), bot_commands("el")
    assert [c.command for c in english] == [c.command for c in greek] == list(COMMANDS)
    assert {"challenge", "accept", "move", "m", "board", "resign", "lang", "replay"} <= set(COMMANDS)
    assert all(1 <= len(c.description) <= 256 for c in english + greek)
    assert english[0].description != greek[0].description
    assert file_url_for("https://api.telegram.org/bot") == "https://api.telegram.org/file/bot"
    assert file_url_for("http://127.0.0.1:8081/bot/") == "http://127.0.0.1:8081/file/bot"
