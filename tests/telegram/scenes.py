"""Scenes shared by the Telegram tests: a challenge in a group, the board photo, a legal play."""

from __future__ import annotations

import random
from typing import Any

from bot.chat.presenter import scene_for
from fevga import Position, Rules, format_play, legal_plays
from tests.fakes.telegram import FakeMessage, FakeTelegram, FakeUser

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place
from .pictures import board_shows

MAX_TURNS = 400


def a_legal_play(view: Any, rng: random.Random) -> str:
    """Some legal play for the player to move, written in the command language."""
    position = Position.from_id(view.position_id)
    if view.turn == 1:
        position = position.flip()
    plays = legal_plays(position, tuple(view.dice), Rules.from_dict(view.rules) if view.rules else Rules())
    return format_play(rng.choice(plays))


def the_board(fake: FakeTelegram, chat: Any) -> FakeMessage:
    """The one photo the bot keeps in the chat (AssertionError if there are several)."""
    photos = [m for m in fake.bot_messages(chat) if m.kind == "photo"]
    assert len(photos) == 1, [m.message_id for m in photos]
    return photos[0]


def check_board(board: FakeMessage, view: Any) -> None:
    """The photo shows the view's position (with the steps of a turn being built made); the caption names
    the player to move and the dice."""
    position = Position.from_id(view.position_id)
    assert board.photo is not None and board_shows(board.photo, position, scene_for(view) if view.pending else None)
    if view.status == "play":
        mover = view.players[view.turn].name
        assert f"{mover} to play {view.dice[0]}-{view.dice[1]}" in board.content.splitlines()[0]


async def start_group_game(fake: FakeTelegram, chat: Chat, core: CoreSpy) -> tuple[FakeUser, FakeUser, Any, Any]:
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    await chat.say(bob, room, "/rules")  # the bot has now seen @bob_tavli
    await chat.say(alice, room, "/challenge@fevga_test_bot @bob_tavli")
    invitation = fake.last_bot_message(room)
    assert "Bob" in invitation.content and {e["type"] for e in invitation.entities} == {"text_mention"}
    return alice, bob, room, invitation


async def group_game(fake: FakeTelegram, chat: Chat, core: CoreSpy) -> tuple[FakeUser, FakeUser, Any, FakeMessage]:
    """Alice challenged Bob in the group and Bob accepted: (alice, bob, room, board)."""
    alice, bob, room, _ = await start_group_game(fake, chat, core)
    await chat.say(bob, room, "/accept")
    return alice, bob, room, the_board(fake, room)


async def seats(core: CoreSpy, fake: FakeTelegram, alice: FakeUser, room: Any) -> tuple[Any, FakeUser, FakeUser]:
    """(view, the player to move, the one waiting)."""
    view = await game_view(core, actor_ref(alice), group_place(room))
    mover = fake.users[int(view.players[view.turn].user_id)]
    waiting = fake.users[int(view.players[1 - view.turn].user_id)]
    return view, mover, waiting
