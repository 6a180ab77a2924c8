"""Puzzles through the real python-telegram-bot stack and the local Bot API stand-in: the daily puzzle posted
in a group (a picture with the roll, naming ``/puzzle <play>``), answered right (told in the private chat) and
wrong (a player who never started the bot: the group learns only that his answer is recorded, never the
solution), answered in privacy mode by a bare play replying to the post, step buttons pressed twice or after
answering (a private alert, nothing posted), a member's steps shown to him alone (an alert, his private chat),
and ``/puzzle`` in a private chat (a Portes one chosen with
``/puzzle πόρτες``)."""

from __future__ import annotations

import io
import time
from typing import Any

from PIL import Image

from bot.chat.buttons import decode
from bot.commands.puzzle_intents import PuzzleStep
from bot.service.keys import place_bucket
from bot.service.puzzles import keys
from bot.service.puzzles.steps import builder
from bot.storage import Commit
from bot.telegram.binding import unbind
from fevga.notation import GREEK_POINTS
from fevga.play import format_steps
from fevga.puzzles import Puzzle, ordered_plays
from fevga.rules import OFF
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.objects import FakeMessage, FakeUser
from tests.service.test_puzzle_buttons import answer_path, wrong_path

from .harness import Chat, CoreSpy, actor_ref, group_place
from .test_tournament import until


async def test_daily_puzzle_posted_then_answered_right_and_wrong(fake: FakeTelegram, core: CoreSpy,
                                                                 chat: Chat) -> None:
    alice, bob = fake.user(101, "Alice", "alice_tavli"), fake.user(102, "Bob", "bob_tavli")
    room = fake.group(-1001, "Tavli")
    fake.make_owner(room, alice)
    alice_dm = fake.private_chat(alice)  # Alice has started the bot: she is told privately
    await chat.say(alice, room, "/puzzle")
    none = fake.last_bot_message(room).content
    assert "no daily puzzle here today" in none and "/settings puzzle_hour <0-23>" in none  # the form seen here
    await chat.say(alice, room, "/settings puzzle_hour 9")
    place = group_place(room)
    due = keys.daily_due(place_bucket(place))
    await core.store.commit(Commit().zadd(due, keys.daily_member(place), time.time() - 1))  # the hour has come
    await core.tick("telegram", notices=False)  # the post goes out through the outbox
    (post,) = await until(lambda: [m for m in fake.bot_messages(room) if "Daily puzzle" in m.content], 20, "post")
    assert post.kind == "photo" and post.photo is not None
    assert Image.open(io.BytesIO(post.photo)).format == "PNG"
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    puzzle = found[0]
    assert f"{puzzle.dice[0]}-{puzzle.dice[1]}" in post.content
    assert "or with /puzzle <your play>, e.g. /puzzle 1/7 7/12." in post.content  # a form the group can send

    before = len(fake.bot_messages(room))
    await chat.say(alice, room, f"/puzzle {puzzle.answer}")
    told = fake.last_bot_message(alice_dm)
    assert told.content.startswith("Right!") and "puzzle rating" in told.content
    assert not any("Right!" in m.content for m in fake.bot_messages(room)[before:])  # nothing in the group

    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    before = len(fake.bot_messages(room))
    await chat.say(bob, room, f"/puzzle {wrong}")  # Bob never started the bot: the group is told only "recorded"
    (noted,) = fake.bot_messages(room)[before:]
    assert noted.kind == "text" and noted.content.startswith("Your answer is recorded")
    assert puzzle.answer not in noted.content and "Not the best" not in noted.content  # no solution for all
    typed = [m for m in fake.messages(room, include_deleted=True) if m.content.startswith("/puzzle ")]
    assert len(typed) == 2 and all(m.deleted for m in typed)  # the typed answers name plays: deleted
    _version, doc = await core.service.puzzles.daily.load(place)
    assert doc["who"] == {"101": 1, "102": 0}  # his answer counts as before
    told = await chat.press(bob, post, post.callback_datas[0])  # the buttons tell him, privately
    assert told.show_alert and "not with the best play" in told.text and puzzle.answer in told.text
    assert len(fake.bot_messages(room)) == before + 1  # nothing more in the group


async def test_puzzle_on_demand_in_a_private_chat(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    carol = fake.user(103, "Carol", "carol_tavli")
    dm = fake.private_chat(carol)
    await chat.say(carol, dm, "/puzzle")
    shown = fake.last_bot_message(dm)
    assert shown.kind == "photo" and "Find the best play" in shown.content
    _v, me = await core.service.puzzles.trainer.solver(actor_ref(carol))
    found = await core.service.puzzles.bank.get(me.current)
    assert found is not None and f"Puzzle {me.current}" in shown.content
    await chat.say(carol, dm, f"/puzzle {found[0].answer}")
    assert fake.last_bot_message(dm).content.startswith("Right!")
    await chat.say(carol, dm, "/top puzzles")
    assert "1. Carol" in fake.last_bot_message(dm).content


async def test_a_portes_puzzle_chosen_and_answered_in_greek_letters(fake: FakeTelegram, core: CoreSpy,
                                                                    chat: Chat) -> None:
    dave = fake.user(104, "Dave", "dave_tavli")
    dm = fake.private_chat(dave)
    await chat.say(dave, dm, "/puzzle πόρτες")
    shown = fake.last_bot_message(dm)
    assert shown.kind == "photo" and shown.photo is not None and ", Portes (rated" in shown.content
    assert Image.open(io.BytesIO(shown.photo)).format == "PNG"
    _v, me = await core.service.puzzles.trainer.solver(actor_ref(dave))
    found = await core.service.puzzles.bank.get(me.current)
    assert found is not None and found[0].game == "portes" and me.game == "portes"
    best = next(p for p in ordered_plays(found[0].start(), found[0].dice) if p.result.id() == found[0].result)
    greek = " ".join(f"{'bar' if a == 0 else GREEK_POINTS[a - 1]}/{'off' if b == OFF else GREEK_POINTS[b - 1]}"
                     for a, b in best.steps)
    await chat.say(dave, dm, f"/puzzle {greek}")
    assert fake.last_bot_message(dm).content.startswith("Right!")
    await chat.say(dave, dm, "/puzzle")
    assert ", Portes (rated" in fake.last_bot_message(dm).content  # his choice holds


def step_data(message: FakeMessage, path: tuple[tuple[int, int], ...]) -> str:
    """The callback data of the message's puzzle step button that presses ``path``."""
    for data in message.callback_datas:
        intent = decode(unbind(data)[1])
        if isinstance(intent, PuzzleStep) and intent.path == path:
            return data
    raise LookupError(f"no step button for {path} among {message.callback_datas}")


async def daily_post(fake: FakeTelegram, core: CoreSpy, chat: Chat, owner: FakeUser, room: Any) -> tuple[Any, Puzzle]:
    """The owner sets ``puzzle_hour``, the hour comes and the tick posts the daily puzzle: (its post, the puzzle)."""
    await chat.say(owner, room, "/settings puzzle_hour 9")
    place = group_place(room)
    await core.store.commit(Commit().zadd(keys.daily_due(place_bucket(place)), keys.daily_member(place),
                                          time.time() - 1))  # the hour has come
    await core.tick("telegram", notices=False)  # the post goes out through the outbox
    (post,) = await until(lambda: [m for m in fake.bot_messages(room) if "Daily puzzle" in m.content], 20, "post")
    _version, doc = await core.service.puzzles.daily.load(place)
    found = await core.service.puzzles.bank.get(doc["pid"])
    assert found is not None
    return post, found[0]


async def test_daily_puzzle_answered_with_step_buttons(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    """A member's steps are his alone: the group sees nothing of them (no message, the post never edited); he
    sees them in an alert, and his next step buttons in his private chat, where they answer the group's puzzle.
    Without a private chat he sees them in the alert only, with how to go on."""
    alice, bob = fake.user(111, "Alice", "alice_steps"), fake.user(112, "Bob", "bob_steps")
    room = fake.group(-1002, "Steps")
    fake.make_owner(room, alice)
    alice_dm = fake.private_chat(alice)  # Alice has started the bot: her steps and verdict come there
    post, puzzle = await daily_post(fake, core, chat, alice, room)
    right, wrong = answer_path(puzzle), wrong_path(puzzle)
    assert len(right) > 1 and len(wrong) > 1
    in_group, shown = len(fake.bot_messages(room)), len(post.history)

    pressed = await chat.press(alice, post, step_data(post, right[:1]))  # both start on the shared post
    mine = format_steps(builder(puzzle, right[:1]).steps)
    assert pressed.show_alert and f"Your play so far: {mine}." in pressed.text and "private chat" in pressed.text
    steps = fake.last_bot_message(alice_dm)
    assert "Your play so far" in steps.content and steps.callback_datas  # her next steps, for her alone
    told = await chat.press(bob, post, step_data(post, wrong[:1]))  # Bob never started the bot: an alert only
    assert told.show_alert and "Your play so far" in told.text and "start a chat with me" in told.text
    assert len(fake.bot_messages(room)) == in_group and len(post.history) == shown  # the group sees nothing
    assert not any("Your play so far" in m.content for m in fake.bot_messages(room)) and post.callback_datas

    for n in range(2, len(right) + 1):
        await chat.press(alice, steps, step_data(steps, right[:n]))
        if n < len(right):
            steps = fake.last_bot_message(alice_dm)
    told_alice = fake.last_bot_message(alice_dm)
    assert told_alice.content.startswith("Right!") and "puzzle rating" in told_alice.content
    assert len(fake.bot_messages(room)) == in_group and len(post.history) == shown  # nor her verdict

    bob_dm = fake.private_chat(bob)  # Bob starts the bot, then presses his first step again
    again = await chat.press(bob, post, step_data(post, wrong[:1]))
    assert again.show_alert and "Your play so far" in again.text and "private chat" in again.text
    steps = fake.last_bot_message(bob_dm)
    for n in range(2, len(wrong) + 1):
        await chat.press(bob, steps, step_data(steps, wrong[:n]))
        if n < len(wrong):
            steps = fake.last_bot_message(bob_dm)
    assert fake.last_bot_message(bob_dm).content.startswith("Not the best")
    assert len(fake.bot_messages(room)) == in_group and len(post.history) == shown
    _version, doc = await core.service.puzzles.daily.load(group_place(room))
    assert doc["who"] == {"111": 1, "112": 0}


async def test_private_steps_name_the_group_not_the_player(fake: FakeTelegram, core: CoreSpy, chat: Chat) -> None:
    """His steps in his private chat say which group's puzzle they answer (he may be in several), by its title,
    and do not open with his own name there; undone back to none they say "no steps yet", not "pass"."""
    alice = fake.user(141, "Alice", "alice_named")
    room = fake.group(-1005, "Tavli Club")
    fake.make_owner(room, alice)
    alice_dm = fake.private_chat(alice)
    post, puzzle = await daily_post(fake, core, chat, alice, room)
    right = answer_path(puzzle)
    pressed = await chat.press(alice, post, step_data(post, right[:1]))
    assert pressed.text.startswith("Your play so far: ")  # the alert, in the group itself: no group line
    steps = fake.last_bot_message(alice_dm)
    assert steps.content.startswith("Today's puzzle in Tavli Club:\nYour play so far: ") and steps.callback_datas
    await chat.press(alice, steps, step_data(steps, ()))  # undo: no steps left
    undone = fake.last_bot_message(alice_dm)
    assert undone is not steps and undone.callback_datas
    assert undone.content == "Today's puzzle in Tavli Club:\nYour play so far: no steps yet. Choose a step."
    await chat.press(alice, undone, step_data(undone, right[:1]))
    again = fake.last_bot_message(alice_dm)
    assert again.content.startswith("Today's puzzle in Tavli Club:\nYour play so far: ")


async def test_daily_puzzle_answered_by_a_bare_play_replying_to_the_post(fake: FakeTelegram, core: CoreSpy,
                                                                       chat: Chat) -> None:
    fake.privacy_mode = True  # the bot sees only /commands and replies to its messages
    alice, bob = fake.user(121, "Alice", "alice_reply"), fake.user(122, "Bob", "bob_reply", language_code="el")
    room = fake.group(-1003, "Replies")
    fake.make_owner(room, alice)
    alice_dm = fake.private_chat(alice)
    post, puzzle = await daily_post(fake, core, chat, alice, room)

    withheld, before = len(fake.withheld), len(fake.bot_messages(room))
    await chat.say(alice, room, puzzle.answer, reply_to=post)  # the bare play, as a reply to the post
    assert len(fake.withheld) == withheld  # a reply to the bot reaches it
    told = fake.last_bot_message(alice_dm)
    assert told.content.startswith("Right!") and "puzzle rating" in told.content
    assert len(fake.bot_messages(room)) == before  # the verdict is not shown in the group
    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    await chat.say(bob, room, wrong, reply_to=post)  # Bob (Greek, no private chat): only "recorded" here
    noted = fake.last_bot_message(room)
    assert noted.content.startswith("Η απάντησή σου καταγράφηκε") and puzzle.answer not in noted.content
    _version, doc = await core.service.puzzles.daily.load(group_place(room))
    assert doc["who"] == {"121": 1, "122": 0}


async def test_puzzle_step_pressed_twice_or_after_answering_posts_nothing(fake: FakeTelegram, core: CoreSpy,
                                                                           chat: Chat) -> None:
    alice, bob = fake.user(131, "Alice", "alice_twice"), fake.user(132, "Bob", "bob_twice")
    room = fake.group(-1004, "Twice")
    fake.make_owner(room, alice)
    post, puzzle = await daily_post(fake, core, chat, alice, room)
    right = answer_path(puzzle)
    assert len(right) > 1

    before, bob_dm = len(fake.bot_messages(room)), fake.private_chat(bob)
    first = await fake.press(bob, post, step_data(post, right[:1]))
    second = await fake.press(bob, post, step_data(post, right[:1]))  # a double press
    await chat.idle()
    assert len(fake.bot_messages(room)) == before  # his steps are for him alone
    assert sum("Your play so far" in m.content for m in fake.bot_messages(bob_dm)) == 1  # shown once
    answers = sorted((fake.callback_answer(first).text, fake.callback_answer(second).text), key=len)
    assert "in our private chat already" in answers[0] and "Your play so far" in answers[1]  # where they are

    await chat.say(alice, room, f"/puzzle {puzzle.answer}")  # Alice answers (no private chat: "recorded")
    assert fake.last_bot_message(room).content.startswith("Your answer is recorded")
    before = len(fake.bot_messages(room))
    late = await chat.press(alice, post, step_data(post, right[:1]))  # a press after answering
    assert late.show_alert and "already, and rightly" in late.text and puzzle.answer in late.text
    assert len(fake.bot_messages(room)) == before


def test_a_step_alert_fits_whole_in_every_language() -> None:
    """The alert answering a step pressed in a group (his steps so far, then where to go on) fits Telegram's
    alert whole with four of the widest steps: the Greek how-to was cut off before '/puzzle'."""
    from bot.i18n import LANGUAGES, translate
    from bot.telegram.texts import MAX_ALERT

    for lang in LANGUAGES:
        steps = translate("puzzle_steps", lang, steps="bar/22* 19/off 18/off 17/off")
        for note in ("puzzle_steps_sent", "puzzle_steps_start"):
            assert len(f"{steps}\n{translate(note, lang)}") <= MAX_ALERT, (lang, note)
