"""Puzzles through the real discord.py stack and the local stand-in: the daily puzzle posted in a channel (a
picture with the roll), answered right and wrong with ``!fevga puzzle <play>`` (each author told by direct
message, the wrong one with the best play drawn), ``top puzzles``, a Plakoto daily puzzle where Plakoto is the
place's default game, and a member whose direct messages are closed: the channel learns only that his answer is
recorded (never the solution), the step menu tells him privately."""

from __future__ import annotations

import io
import time
from typing import Any

import pytest
from PIL import Image

from bot.chat.buttons import decode
from bot.commands.puzzle_intents import PuzzleStep
from bot.discord import frontend
from bot.service.keys import place_bucket
from bot.service.puzzles import keys
from bot.storage import Commit
from fevga.play import format_steps
from fevga.puzzles import ordered_plays
from tests.fakes.discord import FakeDiscord
from tests.service.test_puzzle_buttons import answer_path

from .conftest import World
from .playing import place_ref

pytestmark = pytest.mark.timeout(90)


async def _say(fake: FakeDiscord, member: Any, channel: Any, text: str, where: Any = None) -> Any:
    said = await fake.send_message(member, channel, text)
    return await fake.wait_for_message(where or channel, lambda m: m.author.bot, after=said.id)


async def test_daily_puzzle_posted_then_answered_right_and_wrong(fake: FakeDiscord, bot: Any, core: Any,
                                                                 world: World) -> None:
    w = world
    refused = await _say(fake, w.bob, w.general, "!fevga settings puzzle_hour 9")
    assert "admin" in (refused.content + str(refused.embeds)).lower()
    await _say(fake, w.alice, w.general, "!fevga settings puzzle_hour 9")
    place = place_ref(w.general)
    due = keys.daily_due(place_bucket(place))
    await core.store.commit(Commit().zadd(due, keys.daily_member(place), time.time() - 1))  # the hour has come
    await core.tick("discord", notices=False)  # the post goes out through the outbox
    post = await fake.wait_for_message(w.general, lambda m: m.author.bot and "Daily puzzle" in m.content, timeout=20)
    picture = Image.open(io.BytesIO(post.attachment("puzzle.png").data))
    assert picture.format == "PNG"
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    puzzle = found[0]
    assert f"{puzzle.dice[0]}-{puzzle.dice[1]}" in post.content

    alice_dm, bob_dm = fake.dm_channel(w.alice.user), fake.dm_channel(w.bob.user)
    right = await _say(fake, w.alice, w.general, f"!fevga puzzle {puzzle.answer}", where=alice_dm)
    assert right.content.startswith("Right!")
    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    told = await _say(fake, w.bob, w.general, f"!fevga puzzle {wrong}", where=bob_dm)
    assert told.content.startswith("Not the best") and puzzle.answer in told.content
    assert told.attachment("puzzle.png").data[:4] == b"\x89PNG"  # the best play drawn beside his
    said = [m.content for m in fake.messages(w.general) if m.author.bot]
    assert not any(t.startswith(("Right!", "Not the best")) for t in said)  # nothing told in the channel
    typed = [m for m in fake.stored_messages.values() if m.content.startswith("!fevga puzzle ")]  # deleted too
    assert len(typed) == 2
    await fake.wait_for(lambda: all(m.deleted for m in typed) or None, 10.0, "the typed answers deleted")

    top = await _say(fake, w.carol, w.general, "!fevga top puzzles")
    text = top.content + " ".join(str(e) for e in top.embeds)
    assert "1. alice" in text and "2. bob" in text
    assert not fake.failed_calls()


async def test_a_plakoto_daily_puzzle_where_plakoto_is_the_default_game(fake: FakeDiscord, bot: Any, core: Any,
                                                                        world: World) -> None:
    w = world
    await _say(fake, w.alice, w.general, "!fevga settings game plakoto")
    await _say(fake, w.alice, w.general, "!fevga settings puzzle_hour 9")
    place = place_ref(w.general)
    due = keys.daily_due(place_bucket(place))
    await core.store.commit(Commit().zadd(due, keys.daily_member(place), time.time() - 1))
    await core.tick("discord", notices=False)
    post = await fake.wait_for_message(w.general, lambda m: m.author.bot and "Daily puzzle" in m.content, timeout=20)
    assert ", Plakoto (rated" in post.content
    assert post.attachment("puzzle.png").data[:4] == b"\x89PNG"
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None and found[0].game == "plakoto"
    answer = found[0].answer.replace("*", "")  # a pin's star is optional when typed
    right = await _say(fake, w.bob, w.general, f"!fevga puzzle {answer}", where=fake.dm_channel(w.bob.user))
    assert right.content.startswith("Right!")
    assert found[0].answer.replace("*", "\\*") in right.content  # Discord's markdown: the star escaped
    assert not fake.failed_calls()


def _step_choice(message: Any, path: tuple[tuple[int, int], ...]) -> tuple[str, str]:
    """The (menu custom id, option value) of the message's puzzle step that presses ``path``."""
    for custom_id in message.custom_ids():
        if not custom_id.startswith("fvs:"):
            continue
        for option in message.component(custom_id)["options"]:
            intent = decode(str(option["value"]))
            if isinstance(intent, PuzzleStep) and intent.path == path:
                return custom_id, str(option["value"])
    raise LookupError(f"no step for {path} among {message.custom_ids()}")


async def daily_post(fake: FakeDiscord, core: Any, w: World) -> Any:
    """Alice (an admin) sets ``puzzle_hour`` in #general, the hour comes and the tick posts the daily puzzle."""
    await _say(fake, w.alice, w.general, "!fevga settings puzzle_hour 9")
    place = place_ref(w.general)
    await core.store.commit(Commit().zadd(keys.daily_due(place_bucket(place)), keys.daily_member(place),
                                          time.time() - 1))  # the hour has come
    await core.tick("discord", notices=False)
    return await fake.wait_for_message(w.general, lambda m: m.author.bot and "Daily puzzle" in m.content, timeout=20)


async def test_daily_puzzle_answered_with_the_step_menu(fake: FakeDiscord, bot: Any, core: Any, world: World) -> None:
    w = world
    post = await daily_post(fake, core, w)
    place = place_ref(w.general)
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    path = answer_path(found[0])
    shown = post
    for n in range(1, len(path) + 1):
        menu, value = _step_choice(shown, path[:n])
        handle = await fake.select(w.alice, shown, menu, [value])
        response = await handle.response()
        assert response.ephemeral  # his steps and his verdict are for him alone
        shown = await handle.original()
        if n < len(path):
            assert "Your play so far" in shown.content
    assert shown.content.startswith("Right!")
    _version, doc = await core.service.puzzles.daily.load(place)
    assert doc["who"] == {str(w.alice.user.id): 1}
    assert not fake.failed_calls()


async def test_a_typed_answer_never_shows_the_channel_the_solution(fake: FakeDiscord, bot: Any, core: Any,
                                                                   world: World) -> None:
    w = world
    none = await _say(fake, w.alice, w.general, "!fevga puzzle")
    assert "/fevga settings name:puzzle_hour value: <0-23>" in none.content.replace("\\", "")  # reaches the bot
    post = await daily_post(fake, core, w)
    place = place_ref(w.general)
    assert "or with /fevga-more puzzle play: <your play>, e.g. /fevga-more puzzle play: 1/7 7/12." in post.content
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    puzzle = found[0]
    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    bob_dm = fake.dm_channel(w.bob.user)
    fake.faults.add("POST", rf"/channels/{bob_dm.id}/messages$", times=10, status=403)  # Bob's DMs are closed
    noted = await _say(fake, w.bob, w.general, f"!fevga puzzle {wrong}")
    assert noted.content.startswith("Your answer is recorded") and not noted.attachments
    (typed,) = [m for m in fake.stored_messages.values() if m.content == f"!fevga puzzle {wrong}"]  # deleted too
    await fake.wait_for(lambda: typed.deleted or None, 10.0, "his typed answer deleted (it names a play)")
    said = [m.content for m in fake.messages(w.general) if m.author.bot]
    assert not any(puzzle.answer in t or t.startswith("Not the best") for t in said)  # no solution for all
    _version, doc = await core.service.puzzles.daily.load(place)
    assert doc["who"] == {str(w.bob.user.id): 0}  # his answer counts
    menu, value = _step_choice(post, answer_path(puzzle)[:1])
    handle = await fake.select(w.bob, post, menu, [value])  # the step menu tells him, for him alone
    response = await handle.response()
    assert response.ephemeral
    told = await handle.original()
    assert "not with the best play" in told.content and puzzle.answer.replace("*", "\\*") in told.content


@pytest.mark.parametrize("slow", [False, True], ids=["answered-at-once", "deferred-first"])
async def test_a_members_steps_are_shown_to_him_alone(fake: FakeDiscord, bot: Any, core: Any, world: World,
                                                      monkeypatch: pytest.MonkeyPatch, slow: bool) -> None:
    """Alice's steps on the channel's puzzle: an ephemeral answer to her press (hers to see, with her next steps),
    also when the press is acknowledged first (a slow core); the channel, where Bob reads, gets no message and the
    shared post is never edited with them."""
    w = world
    if slow:
        monkeypatch.setattr(frontend, "DEFER_AFTER", 0.0)  # every press acknowledged before it is answered
    post = await daily_post(fake, core, w)
    _version, doc = await core.service.puzzles.daily.load(place_ref(w.general))
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    path = answer_path(found[0])
    assert len(path) > 1
    seen, edits, content = [m.id for m in fake.messages(w.general)], post.edits, post.content
    shown = post
    for n in range(1, len(path)):  # her steps before the last (the verdict)
        menu, value = _step_choice(shown, path[:n])
        handle = await fake.select(w.alice, shown, menu, [value])
        response = await handle.response()
        assert response.ephemeral or slow  # slow: a silent acknowledgement, then the answer as a follow-up
        shown = await (handle.followup() if slow else handle.original())
        assert shown.ephemeral and shown.interaction_user is not None and shown.interaction_user.id == w.alice.id
        assert "Your play so far" in shown.content and shown.custom_ids()  # hers, with her next steps
    assert [m.id for m in fake.messages(w.general)] == seen  # the channel (Bob) got nothing
    assert post.edits == edits and post.content == content  # the shared post keeps its words
    assert not fake.failed_calls()
