"""The frontend around the games: command menus in English and Greek, webhook mode, Telegram's flood
limits (retry_after), a board that can no longer be edited, /board, turn reminders from the tick job to
private chats, and the language switch."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from bot.chat.presenter import context_words
from bot.i18n import translate
from bot.storage.local_redis import free_port
from bot.telegram import run_telegram
from bot.telegram.command_list import COMMANDS
from tests.fakes.telegram import FakeTelegram

from .harness import Chat, CoreSpy, actor_ref, game_view, group_place, make_core, running_bot, settings_for
from .scenes import a_legal_play, check_board, group_game, seats, the_board


async def test_command_menus_in_english_and_greek(fake: FakeTelegram, app: Any):
    menus = {None: list(COMMANDS), "all_private_chats": [n for n in COMMANDS if n != "tournament"],
             "all_group_chats": [n for n in COMMANDS if n != "start"]}  # fmt: skip
    for kind, names in menus.items():
        scope = None if kind is None else {"type": kind}
        english, greek = fake.commands("", scope), fake.commands("el", scope)
        assert english is not None and greek is not None
        assert [name for name, _ in english] == [name for name, _ in greek] == names
        assert dict(english)["challenge"] != dict(greek)["challenge"]
        assert "tavli" in dict(english)["challenge"] and "τάβλι" in dict(greek)["challenge"]  # the game words
        for name in ("rules", "top"):
            assert all(game in dict(english)[name] for game in ("fevga", "portes", "plakoto", "tavli"))
        assert "πλακωτό" in dict(greek)["ai"]
    assert fake.commands("de", None) is None  # only English (the default) and Greek are set


async def test_webhook_mode(fake: FakeTelegram, core: CoreSpy):
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/fevga"
    options: dict[str, Any] = {
        "telegram_webhook_url": url, "telegram_webhook_listen": "127.0.0.1",
        "telegram_webhook_port": port, "telegram_webhook_secret": "s3cret-token",
    }  # fmt: skip
    async with running_bot(core, fake, **options) as app:
        chat = Chat(fake, app)
        assert fake.webhook is not None and (fake.webhook.url, fake.webhook.secret_token) == (url, "s3cret-token")
        alice = fake.user(101, "Alice", "alice_tavli")
        home = fake.private_chat(alice)
        await chat.say(alice, home, "/rules")
        assert fake.last_bot_message(home).text == translate("rules_summary", "en")
        update = {"update_id": fake.new_update_id(), "message": fake.text_message(alice, home, "/help").to_dict()}
        assert await fake.deliver_webhook(url, update, "wrong-secret") == 403
        assert len(fake.bot_messages(home)) == 1 and fake.webhook_errors == []
        assert app.bot_data["test_errors"] == []


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_retry_after_is_honoured(fake: FakeTelegram, chat: Chat):
    alice = fake.user(101, "Alice", "alice_tavli")
    home = fake.private_chat(alice)
    fake.rate_limit("sendMessage", times=1, retry_after=1)
    started = time.monotonic()
    await chat.say(alice, home, "/help")
    assert time.monotonic() - started >= 1.0
    assert [c.status for c in fake.calls_of("sendMessage")] == [429, 200]
    assert fake.last_bot_message(home).text == translate("help", "en", **context_words("telegram", "en"))


async def test_a_board_that_cannot_be_edited_is_posted_again(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    game_id = core.last_board().game_id
    assert await core.board_message(game_id) == f"{room.id}:{board.message_id}"
    _view, mover, _waiting = await seats(core, fake, alice, room)
    messages = len(fake.bot_messages(room))
    fake.fail_next("editMessageMedia", description="Bad Request: message is not modified: same content")
    quiet = await chat.press(mover, board, core.tokens("step")[0])  # "not modified" is no failure
    assert quiet.answered and not quiet.show_alert and len(fake.bot_messages(room)) == messages

    board.deleted = True  # someone deleted the bot's board message
    await chat.press(mover, board, core.tokens("undo")[0], check=False)
    new_board = the_board(fake, room)
    assert new_board is not board and new_board.photo is not None
    assert await core.board_message(game_id) == f"{room.id}:{new_board.message_id}"
    failed = [c for c in fake.calls_of("editMessageMedia") if not c.ok]
    assert failed and failed[-1].error is not None and "message to edit not found" in failed[-1].error.description

    await chat.say(alice, room, "/board")  # asked for: the board comes back to the bottom of the chat
    newest = fake.last_bot_message(room)
    assert newest.kind == "photo" and newest is not new_board and new_board.buttons == []
    assert await core.board_message(game_id) == f"{room.id}:{newest.message_id}"


async def test_turn_reminders_reach_players_who_started_the_bot(fake: FakeTelegram, redis_url: str):
    now = [1_000_000.0]
    real = await make_core(redis_url, clock=lambda: now[0], turn_deadline=3600.0)
    core = CoreSpy(real)
    try:
        async with running_bot(core, fake, tick_seconds=0.05) as app:
            chat = Chat(fake, app)
            alice, _bob, room, board = await group_game(fake, chat, core)
            view, mover, waiting = await seats(core, fake, alice, room)
            home = fake.private_chat(mover)  # the player to move has started the bot; the other has not

            sent = len(fake.bot_messages(room))
            now[0] += 0.6 * 3600  # past the first reminder (half the deadline)
            reminder = await fake.wait_for(lambda: fake.bot_messages(home), timeout=5, what="a private reminder")
            assert mover.first_name in reminder[0].content and "your turn" in reminder[0].content
            ping = await fake.wait_for(lambda: fake.bot_messages(room)[sent:], timeout=5, what="a ping in the group")
            assert [e["user"]["id"] for e in ping[0].entities if e["type"] == "text_mention"] == [mover.id]

            await chat.say(mover, room, a_legal_play(view, random.Random(4)))  # a reminder moves no checker
            _view, now_to_move, _ = await seats(core, fake, alice, room)
            assert now_to_move is waiting and waiting.id not in fake.chats
            sent = len(fake.bot_messages(room))
            now[0] += 0.6 * 3600  # his reminder: Telegram refuses the private message (403), the group gets it
            ping = await fake.wait_for(lambda: fake.bot_messages(room)[sent:], timeout=5, what="the second ping")
            assert [e["user"]["id"] for e in ping[0].entities if e["type"] == "text_mention"] == [waiting.id]
            refused = await fake.wait_for_call("sendMessage", lambda c: c.params.get("chat_id") == waiting.id)
            assert refused.status == 403 and len(fake.bot_messages(home)) == 1
            await chat.idle()
            assert app.bot_data["test_errors"] == [] and the_board(fake, room) is board
    finally:
        await real.close()


async def test_language_switch_in_a_private_chat(fake: FakeTelegram, chat: Chat):
    alice = fake.user(101, "Alice", "alice_tavli")
    home = fake.private_chat(alice)
    await chat.say(alice, home, "/lang el")
    await chat.say(alice, home, "/rules")
    assert fake.last_bot_message(home).text == translate("rules_summary", "el")


async def test_a_move_made_through_another_instance_updates_the_board(fake: FakeTelegram, core: CoreSpy, chat: Chat):
    alice, _bob, room, board = await group_game(fake, chat, core)
    view, mover, _waiting = await seats(core, fake, alice, room)
    edits = len(board.history)
    play = a_legal_play(view, random.Random(5))
    # Another instance took this update: the change reaches this one only through core.updates().
    replies = (await core.real.handle_text(actor_ref(mover), group_place(room), play, idem="elsewhere-1")).replies
    assert replies and replies[0].game_id == view.game_id
    await fake.wait_for(lambda: len(board.history) > edits, timeout=5, what="the board edited by the event")
    await fake.settle(quiet=0.3)
    assert len(board.history) == edits + 1 and board.history[-1].method == "editMessageMedia"
    check_board(board, await game_view(core, actor_ref(alice), group_place(room)))


async def test_every_menu_command_is_understood(fake: FakeTelegram, chat: Chat):
    dora = fake.user(104, "Dora", "dora_tavli")
    home = fake.private_chat(dora)
    unknown = {translate("cmd_unknown", "en", word=name, suggestion="help") for name in COMMANDS}
    for name in COMMANDS:
        versions = {m.message_id: len(m.history) for m in fake.bot_messages(home)}
        await chat.say(dora, home, f"/{name}")
        changed = [m for m in fake.bot_messages(home) if len(m.history) > versions.get(m.message_id, 0)]
        assert changed, f"/{name} got no answer"  # a new message, or the board edited in place
        for answer in changed:
            assert answer.content and answer.content not in unknown and "Traceback" not in answer.content
    assert chat.busy.count == 0 and fake.bot_messages(home)[-1].kind == "text"


async def test_an_open_challenge_is_taken_by_whoever_presses_accept(fake: FakeTelegram, chat: Chat):
    alice, erin = fake.user(101, "Alice", "alice_tavli"), fake.user(105, "Erin")
    room = fake.group(-1001, "Tavli")
    await chat.say(alice, room, "/challenge open")
    invitation = fake.last_bot_message(room)
    mine = await chat.press(alice, invitation, invitation.button("Accept").callback_data or "")
    assert mine.show_alert and mine.text  # not one's own challenge
    taken = await chat.press(erin, invitation, invitation.button("Accept").callback_data or "")
    assert taken.answered and not taken.show_alert
    board = the_board(fake, room)
    assert "Alice" in board.content and "Erin" in board.content and invitation.buttons == []


async def test_run_telegram_serves_until_cancelled(fake: FakeTelegram, core: CoreSpy):
    alice = fake.user(101, "Alice", "alice_tavli")
    home = fake.private_chat(alice)
    task = asyncio.create_task(run_telegram(core, settings_for(fake)))
    await fake.wait_for(lambda: fake.open_polls == 1, timeout=10, what="the bot to poll")
    await fake.send_text(alice, home, "/rules")
    answer = await fake.wait_for(lambda: fake.bot_messages(home), timeout=10, what="an answer")
    assert answer[0].text == translate("rules_summary", "en")
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await fake.wait_for(lambda: fake.open_polls == 0, timeout=5, what="the poll to be released")
