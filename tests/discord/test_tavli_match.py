"""A 5-point tavli match between two members of a Discord server, through discord.py and the fake Discord:
random legal plays typed (``/fevga move``), pressed whole (the play buttons) and built step by step from the
steps menu; the rotation, who starts each game, a Plakoto draw (planted) that moves the rotation on, the
score, and the ratings (the tavli board only). The Telegram twin: tests/telegram/test_tavli_match.py."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fevga.match import game_kind
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, StoredMessage
from tests.tavli_match import DRAW_PLAY, check_tavli_record, plant_plakoto_draw

from .conftest import World
from .playing import BOARD_WAIT, DEFERRED_UPDATE, place_ref, player_ref, take_turn_by_slash

pytestmark = pytest.mark.timeout(400)


def boards(fake: FakeDiscord, channel: FakeChannel) -> list[StoredMessage]:
    """The channel's messages that carry a board picture, oldest first."""
    return [m for m in fake.messages(channel) if any(a.filename == "board.png" for a in m.attachments)]


def latest_board(fake: FakeDiscord, channel: FakeChannel) -> StoredMessage:
    """The newest message of the channel that carries a board picture."""
    return boards(fake, channel)[-1]


def shown(message: StoredMessage) -> str:
    """A message's text and embeds, as one string to search."""
    return f"{message.content}\n{message.embeds}"


async def click(fake: FakeDiscord, member: FakeMember, board: StoredMessage, custom_id: str,
                rng: random.Random) -> None:
    """Press a button or pick a random option of a menu on the board; waits for the board's edit."""
    edits = board.edits
    if custom_id.startswith("fvs:"):
        options = board.component(custom_id)["options"]
        handle = await fake.select(member, board, custom_id, [str(rng.choice(options)["value"])])
    else:
        handle = await fake.press_button(member, board, custom_id)
    response = await handle.response()
    assert not response.ephemeral, (custom_id, (await handle.original()).content)
    if response.type == DEFERRED_UPDATE:
        await fake.wait_for(lambda: board.edits > edits or None, BOARD_WAIT, "the board edit after a defer")


def ids(board: StoredMessage, prefix: str) -> list[str]:
    return [c for c in board.custom_ids() if c.startswith(prefix)]


async def type_draw(fake: FakeDiscord, core: Any, channel: FakeChannel, member: FakeMember) -> None:
    """The planted Plakoto game's drawing play, typed, and confirmed if the core asks."""
    handle = await fake.slash_command(member, channel, "fevga move", {"play": DRAW_PLAY})
    assert not (await handle.response()).ephemeral
    if ids(await handle.original(), "fv:confirm:"):
        assert not (await (await fake.slash_command(member, channel, "fevga confirm")).response()).ephemeral


async def test_a_tavli_match_to_five_in_a_server(fake: FakeDiscord, bot: Any, world: World, core: Any) -> None:
    w = world
    rules = await (await fake.slash_command(w.bob, w.general, "fevga rules", {"game": "plakoto"})).original()
    assert "Plakoto in short" in shown(rules)
    asked = await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob, "game": "tavli",
                                                                            "points": 5})  # fmt: skip
    challenge = await asked.original()
    assert "(tavli: Portes, Plakoto, Fevga in turn)" in shown(challenge)
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, challenge, accept)).response()
    await fake.wait_for(lambda: boards(fake, w.general) or None, BOARD_WAIT, "the first board")
    members = {str(w.alice.id): w.alice, str(w.bob.id): w.bob}
    rng, place = random.Random(11), place_ref(w.general)
    turns, planted, ways = 0, False, {"typed": 0, "whole": 0, "steps": 0}
    while True:
        view = (await core.service.board(player_ref(w.alice), place)).view
        assert view is not None
        if view.status != "play":
            break
        assert (view.kind, view.game) == ("tavli", game_kind("tavli", view.game_no))
        turns += 1
        assert turns < 3000
        mover, board = members[view.players[view.turn].user_id], latest_board(fake, w.general)
        if view.game == "plakoto" and not planted:  # the first Plakoto game is drawn
            await plant_plakoto_draw(core.service, view.game_id)
            planted = True
            await type_draw(fake, core, w.general, mover)
            told = shown(latest_board(fake, w.general))
            assert "is a draw: both mothers are pinned" in told and "begins after the draw" in told
        elif turns % 2 == 1 and ids(board, "fv:play:"):  # whole plays: offered when the roll allows a few
            await click(fake, mover, board, rng.choice(ids(board, "fv:play:")), rng)
            ways["whole"] += 1
        elif turns % 3 != 0 and ids(board, "fvs:step:"):
            for _ in range(8):
                confirm = ids(board, "fv:confirm:")
                await click(fake, mover, board, confirm[0] if confirm else ids(board, "fvs:step:")[0], rng)
                if confirm:
                    break
            else:
                raise AssertionError("a turn built from the steps menu never asked for confirmation")
            ways["steps"] += 1
        else:
            assert await take_turn_by_slash(core, fake, w.general, mover, rng)
            ways["typed"] += 1
    assert planted and all(ways.values()), ways
    assert view.match_winner is not None and max(view.score) >= 5
    record = (await core.service.record(view.game_id)).messages[0].args["record"]["games"]
    # the planted draw (random play may draw a later Plakoto game too)
    assert check_tavli_record(record, view.score, 5) >= 1 and record[1]["outcome"]["winner"] is None
    assert not fake.failed_calls() and not fake.unknown_routes

    def listed(message: StoredMessage) -> str:
        (embed,) = message.embeds
        return f"{embed.get('title', '')}\n{embed.get('description', '')}"

    tavli = await (await fake.slash_command(w.carol, w.general, "fevga top", {"game": "tavli"})).original()
    assert "alice" in listed(tavli) and "bob" in listed(tavli)
    for game in ("fevga", "portes", "plakoto"):  # a tavli match rates tavli only
        board_of = await (await fake.slash_command(w.carol, w.general, "fevga top", {"game": game})).original()
        assert "alice" not in shown(board_of) and "bob" not in shown(board_of), game


async def test_play_the_ai_at_plakoto_with_the_game_option(fake: FakeDiscord, bot: Any, world: World,
                                                          core: Any) -> None:
    w = world
    handle = await fake.slash_command(w.carol, w.general, "fevga play", {"game": "plakoto", "level": "easy",
                                                                         "points": 3})  # fmt: skip
    assert not (await handle.response()).ephemeral
    await fake.wait_for(lambda: boards(fake, w.general) or None, BOARD_WAIT, "the board")
    view = (await core.service.board(player_ref(w.carol), place_ref(w.general))).view
    assert view is not None and (view.kind, view.game, view.match_length) == ("plakoto", "plakoto", 3)
    assert "Plakoto" in shown(latest_board(fake, w.general))
    refused = await fake.slash_command(w.bob, w.general, "fevga challenge", {"user": w.alice, "game": "portes",
                                                                             "unlock": 14})  # fmt: skip
    told = await refused.original()
    assert (await refused.response()).ephemeral and "Fevga's options" in told.content  # a clear refusal
