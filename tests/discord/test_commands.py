"""The other commands end to end: resign with confirmation, the board moved here, export and replay
files, the language switch, hints and help."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.fakes.discord import FakeChannel, FakeDiscord, StoredMessage
from tests.fakes.discord.models import snowflake

from .conftest import World
from .playing import remembered_board, step_ids, take_turn_by_slash

pytestmark = pytest.mark.timeout(60)


async def accepted_game(fake: FakeDiscord, w: World) -> StoredMessage:
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, challenge, accept)).response()
    assert step_ids(challenge)
    return challenge


async def test_resign_asks_first_then_ends_the_game_on_the_board(fake: FakeDiscord, bot: Any, world: World,
                                                                 core: Any) -> None:
    w = world
    board = await accepted_game(fake, w)
    movers: set[int] = set()  # before both players have moved, resigning would only call the game off
    for _ in range(6):
        for member in (w.alice, w.bob):
            if len(movers) < 2 and await take_turn_by_slash(core, fake, w.general, member):
                movers.add(member.id)
    assert len(movers) == 2
    resign = next(c for c in board.custom_ids() if c.startswith("fv:resign:"))
    asked = await fake.press_button(w.bob, board, resign)
    prompt = await asked.original()
    assert (await asked.response()).ephemeral and [c.split(":")[1] for c in prompt.custom_ids()] == ["resign_confirm"]
    assert step_ids(board)  # nothing happened yet

    confirm = await fake.press_button(w.bob, prompt, prompt.custom_ids()[0])
    await confirm.response()
    await fake.wait_for(lambda: not step_ids(board) or None)
    assert [c.split(":")[1] for c in board.custom_ids()] == ["rematch"]
    assert "alice" in str(board.embeds[0])  # the winner is named on the final board

    again = await fake.press_button(w.bob, prompt, prompt.custom_ids()[0])  # a second click changes nothing
    assert (await again.response()).ephemeral
    assert not fake.failed_calls()


async def test_board_command_moves_the_board_here_and_files_are_attached(
    fake: FakeDiscord, bot: Any, world: World
) -> None:
    w = world
    old = await accepted_game(fake, w)
    await fake.send_message(w.carol, w.general, "chatting about something else")
    moved = await (await fake.slash_command(w.bob, w.general, "fevga board")).original()
    assert moved.id > old.id and moved.attachments[0].filename == "board.png" and step_ids(moved)
    await fake.wait_for(lambda: not old.custom_ids() or None)  # the old board lost its buttons
    await fake.wait_for(lambda: not old.embeds or None)  # ...and its stale picture and caption: it points below
    assert "moved below" in old.content and not old.attachments
    elsewhere = await fake.add_channel(w.guild, "tavli")
    nothing = await fake.slash_command(w.bob, elsewhere, "fevga board")  # games belong to their channel
    assert (await nothing.response()).ephemeral
    other = w.general

    exported = await (await fake.slash_command(w.alice, other, "fevga export")).original()
    names = [a.filename for a in exported.attachments]
    assert len(names) == 1 and names[0].endswith((".mat", ".txt")) and exported.attachments[0].data
    replay = await (await fake.slash_command(w.alice, other, "fevga replay")).original()
    assert replay.attachments or replay.content


async def test_language_help_and_hint(fake: FakeDiscord, bot: Any, world: World) -> None:
    w = world
    english = await (await fake.slash_command(w.carol, w.general, "fevga help")).original()
    await (await fake.slash_command(w.carol, w.general, "fevga lang", {"code": "el"})).response()
    greek = await (await fake.slash_command(w.carol, w.general, "fevga help")).original()
    text_en = english.content + str(english.embeds)
    text_el = greek.content + str(greek.embeds)
    assert text_en != text_el and any("\u0370" <= ch <= "\u03ff" for ch in text_el)

    board = await accepted_game(fake, w)
    assert board.component(next(c for c in board.custom_ids() if c.startswith("fvs:")))["placeholder"]
    for member in (w.alice, w.bob):
        hint = await fake.slash_command(member, w.general, "fevga hint")
        assert (await hint.original()).content or (await hint.original()).embeds
    assert not fake.failed_calls()


async def test_a_game_can_run_in_its_own_thread(fake: FakeDiscord, bot: Any, world: World, core: Any) -> None:
    w = world
    room = FakeChannel(
        snowflake(), "alice vs bob", type=11, guild_id=w.guild.id, parent_id=w.general.id, owner_id=w.alice.id
    )
    await fake.register_channel(room)
    thread = await fake.wait_for(lambda: bot.get_channel(room.id))
    assert isinstance(thread, discord.Thread)
    handle = await fake.slash_command(w.alice, room, "fevga challenge", {"user": w.bob})
    challenge = await handle.original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, challenge, accept)).response()
    assert challenge.channel_id == room.id and step_ids(challenge)
    assert await remembered_board(core, challenge.embeds[0]["footer"]["text"].split(" · ")[0]) == (
        f"{room.id}:{challenge.id}"
    )
    busy = await fake.slash_command(w.alice, w.general, "fevga board")  # the game belongs to the thread
    assert (await busy.response()).ephemeral
    assert not fake.messages(w.general)
