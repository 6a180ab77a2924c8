"""Delivery that converges, through the real discord.py stack: Discord rate-limiting (429 with a 3.2 s
``retry_after``) or refusing (503) the board edit after a move. The interaction is answered within 3 s
whatever happens to the edit, nobody is told that nothing changed, and the board catches up."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.chat.buttons import decode
from tests.fakes.discord import FakeDiscord, StoredMessage

from .conftest import World
from .playing import legal_play_texts, place_ref, player_ref, step_ids

pytestmark = pytest.mark.timeout(90)
BOARD_EDIT = r"^/api/v10/channels/\d+/messages/\d+$"
CONVERGE_SECONDS = 10.0


async def accepted_game(fake: FakeDiscord, w: World) -> StoredMessage:
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(w.bob, challenge, accept)).response()
    assert step_ids(challenge)
    return challenge


async def move_by_slash(fake: FakeDiscord, core: Any, w: World) -> Any:
    """The player to move types a legal play; the interaction's response."""
    for member in (w.alice, w.bob):
        plays = await legal_play_texts(core, member, w.general)
        if plays:
            handle = await fake.slash_command(member, w.general, "fevga move", {"play": plays[0]})
            return handle, await handle.response()
    raise AssertionError("nobody could move")


async def stored_version(core: Any, w: World) -> int:
    view = (await core.service.board(player_ref(w.alice), place_ref(w.general))).view
    assert view is not None
    return int(view.version)


def false_failures(fake: FakeDiscord, w: World) -> list[str]:
    return [m.content for m in fake.messages(w.general)
            if "nothing was changed" in (m.content or "") or (m.content or "").startswith("Something went wrong")]


def shown_versions(board: StoredMessage) -> set[int]:
    """The state versions the board's buttons carry (``fv:<kind>:<token>``, read by the core's decoder)."""
    intents = (decode(c.split(":", 2)[2]) for c in board.custom_ids() if c.startswith("fv:"))
    return {v for x in intents if isinstance(v := getattr(x, "version", None), int)}


async def converged(fake: FakeDiscord, core: Any, w: World, board: StoredMessage) -> float:
    """Seconds until the board's buttons are those of the stored version (the version field itself: a
    substring test would match an old button whose point number reads like the new version)."""
    started = time.monotonic()
    version = await stored_version(core, w)
    await fake.wait_for(
        lambda: version in shown_versions(board) or None, CONVERGE_SECONDS, "the board to converge"
    )
    return time.monotonic() - started


async def test_a_3_2_s_retry_after_on_the_edit_still_answers_within_3_s(
    fake: FakeDiscord, bot: Any, core: Any, world: World
) -> None:
    board = await accepted_game(fake, world)
    edits = board.edits
    fake.faults.add("PATCH", BOARD_EDIT, times=1, status=429, retry_after=3.2)
    handle, response = await move_by_slash(fake, core, world)
    assert response.delay < 3 and not response.ephemeral  # acknowledged before the rate-limited edit
    await converged(fake, core, world, board)
    assert fake.faults.hits == 1 and board.edits == edits + 1  # the one edit, after the platform's pause
    assert false_failures(fake, world) == []
    answer = (await handle.original()).content or ""
    if "board will be updated" in answer:  # the handler's edit took the 429: the truth, saved, the board follows
        assert "played" in answer
    else:  # on a loaded machine the outbox consumer may draw first (and take the 429): the handler waited for it
        assert "to play" in answer and "discord.com/channels/" in answer, answer  # then points at the board


async def test_the_answer_links_to_the_board_inside_its_server(fake: FakeDiscord, bot: Any, core: Any,
                                                               world: World) -> None:
    board = await accepted_game(fake, world)
    handle, _ = await move_by_slash(fake, core, world)
    answer = (await handle.original()).content or ""
    assert f"https://discord.com/channels/{world.guild.id}/{world.general.id}/{board.id}" in answer


async def test_a_persistent_503_on_the_edit_converges_after_recovery(
    fake: FakeDiscord, bot: Any, core: Any, world: World
) -> None:
    board = await accepted_game(fake, world)
    fake.faults.add("PATCH", BOARD_EDIT, times=10_000, status=503)
    _, response = await move_by_slash(fake, core, world)
    assert response.delay < 3
    await fake.wait_for(lambda: fake.faults.hits >= 2 or None, 15, "the edit to be retried")
    assert false_failures(fake, world) == []
    fake.faults.clear()  # Discord recovers
    assert await converged(fake, core, world, board) < CONVERGE_SECONDS
    assert false_failures(fake, world) == []
    assert len([m for m in fake.messages(world.general) if m.attachments]) == 1  # edited, not reposted


async def test_a_channel_the_bot_may_not_post_in_tells_the_author_privately(fake: FakeDiscord, bot: Any,
                                                                            world: World) -> None:
    """Every post in the channel refused with 403 (a permission missing): a prefix command's author is told by
    direct message where and why the bot could not answer (it failed silently, with an ERROR traceback)."""
    w = world
    fake.faults.add("POST", rf"/channels/{w.general.id}/messages$", times=10_000, status=403)
    await fake.send_message(w.alice, w.general, "!fevga top")
    dm = fake.dm_channel(w.alice.user)
    told = await fake.wait_for_message(dm, lambda m: "cannot post" in m.content, timeout=10)
    assert "#general" in told.content and "!fevga top" not in told.content and "top" in told.content
