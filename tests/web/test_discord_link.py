"""Discord boards get an "Open board" link button to the game's signed page when WEB_BASE_URL is set."""

from __future__ import annotations

from collections.abc import Iterator

import discord
import pytest

from bot.config import Settings
from bot.delivery.replies import Button, Reply
from bot.discord import web_link
from bot.discord.rendering import board_message
from bot.web.server import config_from


@pytest.fixture
def settings() -> Iterator[Settings]:
    values = Settings(_env_file=None, web_base_url="https://fevga.test", web_secret="s" * 20)  # type: ignore[call-arg]
    web_link.configure(values)
    yield values
    web_link.configure(Settings(_env_file=None))  # type: ignore[call-arg]


def _links(view: discord.ui.View | None) -> list[tuple[str | None, str | None]]:
    return [(b.label, b.url) for b in (view.children if view else []) if isinstance(b, discord.ui.Button) and b.url]


def test_a_board_links_to_its_page(settings: Settings) -> None:
    board = Reply("Alice to play", game_id="GotKHqeG", version=3,
                  buttons=(Button("Resign", "tok", "resign"),))  # type: ignore[arg-type]
    page = config_from(settings).links.page("GotKHqeG")  # the web server verifies what the chat links to
    assert _links(board_message(board, "en").view) == [("Open board", page)]
    assert _links(board_message(board, "el").view) == [("Άνοιγμα ταμπλό", page)]
    assert _links(board_message(Reply("not a board"), "en").view) == []


def test_no_link_without_a_web_address() -> None:
    web_link.configure(Settings(_env_file=None))  # type: ignore[call-arg]
    assert _links(board_message(Reply("Alice to play", game_id="GotKHqeG", version=3), "en").view) == []
