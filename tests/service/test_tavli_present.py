"""A Portes and a Plakoto game's boards go through the chats' presenter (picture, text board, caption,
buttons) on every turn without an error; the pictures per game are the render work's (renderers/)."""

from __future__ import annotations

import random

import pytest

from bot.chat.presenter import present
from bot.service import GameService
from fevga import format_play
from fevga.variants import TavliPosition, any_position_from_id

from .conftest import ALICE, BOB, HERE
from .helpers import random_play


@pytest.mark.parametrize(("kind", "seed"), [("portes", 21), ("plakoto", 22)])
async def test_every_board_of_a_game_is_presented(service: GameService, kind: str, seed: int) -> None:
    rng = random.Random(seed)
    assert (await service.challenge(ALICE, HERE, BOB, kind=kind)).ok
    result = await service.accept(BOB, HERE)
    marks = 0
    for turn in range(400):
        view = result.view
        assert view is not None
        position = any_position_from_id(view.position_id)
        assert isinstance(position, TavliPosition) and position.game == kind
        marks += position.me_bar + position.opp_bar + len(position.pins)
        replies = await present(result, "el", draw=turn % 20 == 0)  # every board as text, some as pictures
        board = replies[0]
        assert board.game_id == view.game_id and board.board_text
        if turn % 20 == 0:
            assert board.image is not None and board.image[:4] == b"\x89PNG"
        if view.status != "play":
            break
        result = await service.move(view.players[view.turn], HERE, format_play(random_play(view, rng)),
                                    game_id=view.game_id)
        assert result.ok, result.messages
    assert result.view is not None and result.view.status == "done"
    assert marks > 0  # boards with checkers on the bar (Portes) or pinned (Plakoto) were among them


async def test_the_chats_boards_skip_the_text_board_the_terminal_shows(service: GameService) -> None:
    """The text board is written for the terminal (``text_board``, on by default); the chats post the picture."""
    assert (await service.challenge(ALICE, HERE, BOB, length=1, kind="portes")).ok
    started = await service.accept(BOB, HERE)
    assert started.view is not None
    gid = started.view.game_id
    (chat,) = [r for r in await present(started, "en", text_board=False) if r.game_id == gid]
    assert chat.image is not None and chat.board_text is None
    (terminal,) = [r for r in await present(started, "en") if r.game_id == gid]
    assert terminal.board_text and "Portes" in terminal.board_text
