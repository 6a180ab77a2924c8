"""Rematch pressed under a finished game's board, through the real discord.py stack: the finished board stays
in the channel as it was (its record: picture, caption, winner), only its buttons go; the new game's board is
a new message. Against the AI (a new game at once) and between two members (both press it: the second press
takes the first one's challenge)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.fakes.discord import FakeDiscord, FakeMember, StoredMessage

from .conftest import World
from .playing import step_ids, take_turn_by_slash

pytestmark = pytest.mark.timeout(90)


def record_of(board: StoredMessage) -> tuple[Any, ...]:
    """What a board message shows (its buttons aside)."""
    return board.content, copy.deepcopy(board.embeds), [a.filename for a in board.attachments]


async def resign_by_buttons(fake: FakeDiscord, board: StoredMessage, member: FakeMember) -> None:
    """``member`` resigns with the board's Resign button and the private confirmation."""
    resign = next(c for c in board.custom_ids() if c.startswith("fv:resign:"))
    prompt = await (await fake.press_button(member, board, resign)).original()
    await (await fake.press_button(member, prompt, prompt.custom_ids()[0])).response()
    await fake.wait_for(lambda: [c.split(":")[1] for c in board.custom_ids()] == ["rematch"] or None, 10.0,
                        "the final board with its Rematch button")


def new_board(fake: FakeDiscord, w: World, after: int) -> StoredMessage | None:
    """A board message posted in #general after message ``after`` with moves to play."""
    return next((m for m in fake.messages(w.general) if m.id > after and m.attachments
                 and m.attachments[0].filename == "board.png" and step_ids(m)), None)


async def test_rematch_against_the_ai_keeps_the_finished_board(fake: FakeDiscord, bot: Any, world: World,
                                                               core: Any) -> None:
    w = world
    board = await (await fake.slash_command(w.alice, w.general, "fevga play", {"level": "easy"})).original()
    assert step_ids(board)
    for _ in range(4):  # the AI moves at once after her: both have moved once she has
        if await take_turn_by_slash(core, fake, w.general, w.alice):
            break
    await resign_by_buttons(fake, board, w.alice)
    finished = record_of(board)
    rematch = board.custom_ids()[0]
    await (await fake.press_button(w.alice, board, rematch)).response()
    fresh = await fake.wait_for(lambda: new_board(fake, w, board.id), 10.0, "the new game's board")
    assert fresh.id != board.id
    assert record_of(board) == finished and board.custom_ids() == []  # the record stays, without buttons
    assert not fake.failed_calls()


async def test_rematch_by_both_members_keeps_the_finished_board(fake: FakeDiscord, bot: Any, world: World,
                                                                core: Any) -> None:
    w = world
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, challenge, accept)).response()
    board = challenge  # the accepted challenge became the board
    movers: set[int] = set()
    for _ in range(6):
        for member in (w.alice, w.bob):
            if len(movers) < 2 and await take_turn_by_slash(core, fake, w.general, member):
                movers.add(member.id)
    await resign_by_buttons(fake, board, w.bob)
    finished = record_of(board)
    rematch = board.custom_ids()[0]
    asked = await (await fake.press_button(w.alice, board, rematch)).original()  # a challenge to bob
    assert asked.id != board.id and "fv:accept:" in " ".join(asked.custom_ids())
    assert record_of(board) == finished and board.custom_ids() == [rematch]  # bob may still press it
    await (await fake.press_button(w.bob, board, rematch)).response()  # takes alice's challenge
    fresh = await fake.wait_for(lambda: new_board(fake, w, board.id), 10.0, "the new game's board")
    assert fresh.id not in (board.id, asked.id)
    assert record_of(board) == finished and board.custom_ids() == []
    assert not fake.failed_calls()
