"""Whole games through discord.py and the fake Discord: one typed with slash commands, one clicked."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.discord import FakeDiscord, StoredMessage

from .conftest import World
from .playing import play_out_by_buttons, play_out_by_slash, remembered_board, step_ids

pytestmark = pytest.mark.timeout(120)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def game_id_of(board: StoredMessage) -> str:
    """The game id the board's embed footer shows."""
    return str(board.embeds[0]["footer"]["text"]).split(" · ")[0]


def boards_in(fake: FakeDiscord, channel: Any) -> list[StoredMessage]:
    return [m for m in fake.messages(channel) if any(a.filename == "board.png" for a in m.attachments)]


def assert_is_board(board: StoredMessage) -> None:
    (embed,) = board.embeds
    assert embed["image"]["url"] == "attachment://board.png" and embed.get("title")
    (picture,) = board.attachments
    assert picture.filename == "board.png" and picture.data.startswith(PNG_MAGIC)


async def test_a_whole_game_by_slash_commands(fake: FakeDiscord, bot: Any, world: World, core: Any) -> None:
    w = world
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    assert w.bob.user in challenge.mentions and not challenge.ephemeral
    assert [c.split(":")[1] for c in challenge.custom_ids()] == ["accept", "decline", "cancel"]

    accepted = await fake.slash_command(w.bob, w.general, "fevga accept")
    board = await accepted.original()
    assert_is_board(board)
    game_id = game_id_of(board)
    assert await remembered_board(core, game_id) == f"{w.general.id}:{board.id}"
    first_picture = board.attachments[0].data

    turns = await play_out_by_slash(core, fake, w.general, board, [w.alice, w.bob])
    assert turns >= 10  # a Fevga game needs many turns: every checker travels the whole board
    assert_is_board(board)
    assert board.attachments[0].data != first_picture and board.edits >= turns
    assert boards_in(fake, w.general) == [board]  # one board message, edited after each move
    assert not step_ids(board)
    assert not fake.failed_calls() and not fake.unknown_routes


async def test_a_whole_game_by_buttons_then_leaderboard(fake: FakeDiscord, bot: Any, world: World, core: Any) -> None:
    w = world
    challenge = await (await fake.slash_command(w.bob, w.general, "fevga challenge", {"user": w.carol})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    pressed = await fake.press_button(w.carol, challenge, accept)
    assert (await pressed.response()).type == 7  # the challenge message itself becomes the board
    board = challenge
    assert_is_board(board)
    assert await remembered_board(core, game_id_of(board)) == f"{w.general.id}:{board.id}"

    turns = await play_out_by_buttons(fake, board, [w.bob, w.carol])
    assert turns >= 10 and board.edits >= turns
    assert boards_in(fake, w.general) == [board]
    assert not fake.failed_calls()

    top = await (await fake.slash_command(w.alice, w.general, "fevga top")).original()
    (embed,) = top.embeds
    listed = f"{embed.get('title', '')}\n{embed.get('description', '')}"
    assert "bob" in listed and "carol" in listed
    stats = await (await fake.slash_command(w.alice, w.general, "fevga stats", {"user": w.carol})).original()
    assert stats.embeds and "carol" in str(stats.embeds[0])
