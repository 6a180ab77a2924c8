"""The fake Telegram Bot API drives a real python-telegram-bot Application (polling and webhook), so the
Telegram frontend can later be tested through the real stack. The bot here is a tiny test bot, not the
product: /hello answers a PNG with a button, the button edits the photo, replies get a text answer."""

from __future__ import annotations

import asyncio
import contextlib
import io
import socket
import time
from collections.abc import AsyncIterator

import pytest
from PIL import Image
from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
    Update,
)
from telegram.error import BadRequest, Conflict, EndPointNotFound, Forbidden, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.fakes.telegram import ApiError, FakeMessage, FakeTelegram
from tests.fakes.telegram.markup import apply_parse_mode

RED, BLUE = (200, 30, 30), (30, 30, 200)


def png(color: tuple[int, int, int], size: tuple[int, int] = (64, 48)) -> bytes:
    """A small solid-colour PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def pixel(data: bytes) -> tuple[str, tuple[int, int], object]:
    """(format, size, top-left pixel) of image bytes."""
    with Image.open(io.BytesIO(data)) as image:
        return str(image.format), image.size, image.convert("RGB").getpixel((0, 0))


def flip_keyboard() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("Flip", callback_data="flip")]])


async def hello(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_user is not None
    await update.effective_message.reply_photo(
        png(RED), caption=f"Hello {update.effective_user.first_name}", reply_markup=flip_keyboard()
    )


async def flip(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer(f"{query.from_user.first_name} flipped", show_alert=False)
    await query.edit_message_media(
        InputMediaPhoto(png(BLUE, (80, 60)), caption=f"Flipped by {query.from_user.first_name}"),
        reply_markup=flip_keyboard(),
    )


async def on_reply(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    assert message is not None and message.reply_to_message is not None
    await message.reply_text(f"reply to {message.reply_to_message.message_id}: {message.text}")


async def record_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Keep handler exceptions (PTB would only log them) so the tests can assert there were none."""
    context.bot_data.setdefault("errors", []).append(context.error)


def build_app(fake: FakeTelegram, max_retries: int = 3) -> Application:
    app = (
        Application.builder()
        .token(fake.token)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
        .rate_limiter(AIORateLimiter(max_retries=max_retries))
        .build()
    )
    app.add_handler(CommandHandler("hello", hello))
    app.add_handler(CallbackQueryHandler(flip))
    app.add_handler(MessageHandler(filters.REPLY & filters.TEXT, on_reply))
    app.add_error_handler(record_error)
    return app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def shutdown(app: Application) -> None:
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    await app.shutdown()


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as server:
        yield server


@pytest.fixture
async def polling_app(fake: FakeTelegram) -> AsyncIterator[Application]:
    app = build_app(fake)
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=10)
    try:
        yield app
    finally:
        await shutdown(app)
    assert app.bot_data.get("errors", []) == []


@contextlib.asynccontextmanager
async def initialized(app: Application) -> AsyncIterator[Application]:
    await app.initialize()
    try:
        yield app
    finally:
        await app.shutdown()


async def test_hello_photo_and_a_button_pressed_by_another_user(fake: FakeTelegram, polling_app: Application):
    alice, bob = fake.user(11, "Alice", "alice"), fake.user(22, "Bob", "bob")
    room = fake.group(-1001, "Tavli room")
    await fake.send_text(alice, room, "/hello@fevga_test_bot")
    call = await fake.wait_for_call("sendPhoto")
    assert call.ok and "photo" in call.files  # a real multipart upload
    sent = fake.last_bot_message(room)
    assert sent.photo == png(RED) and pixel(sent.photo) == ("PNG", (64, 48), RED)
    assert sent.caption == "Hello Alice" and sent.reply_to is not None and sent.reply_to.sender == alice
    assert sent.callback_datas == ["flip"]

    query_id = await fake.press_button(bob, sent, "Flip")
    answer = await fake.wait_for_answer(query_id)
    assert (answer.text, answer.show_alert, answer.user) == ("Bob flipped", False, bob)
    edit = await fake.wait_for_call("editMessageMedia")
    assert edit.ok and edit.params["media"]["media"].startswith("attach://")
    assert pixel(sent.photo) == ("PNG", (80, 60), BLUE) and sent.caption == "Flipped by Bob"
    assert [v.method for v in sent.history] == ["send", "editMessageMedia"]
    assert sent.history[0].photo == png(RED) and sent.edit_date is not None
    assert [m.message_id for m in fake.bot_messages(room)] == [sent.message_id]  # edited, not resent


async def test_reply_and_unhandled_text_then_settle(fake: FakeTelegram, polling_app: Application):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    await fake.send_text(alice, room, "/hello")
    photo = await fake.wait_for(lambda: fake.bot_messages(room), what="the photo")
    await fake.send_text(alice, room, "Καλημέρα 🎲", reply_to=photo[0])
    reply = await fake.wait_for_call("sendMessage")
    assert reply.params["text"] == f"reply to {photo[0].message_id}: Καλημέρα 🎲"
    assert fake.last_bot_message(room).reply_to is not None

    mark = fake.mark()
    update_id = await fake.send_text(alice, room, "no handler for this")
    await fake.settle()
    assert fake.consumed() and fake.delivered_update_id == update_id
    assert [c.method for c in fake.calls[mark:]] == ["getUpdates"] * len(fake.calls[mark:])


async def test_entities_use_utf16_offsets_as_ptb_reads_them(fake: FakeTelegram):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    message = fake.text_message(alice, room, "🎲 Ω /play@fevga_test_bot @bob_the_player go")
    parsed = Message.de_json(message.to_dict(), bot=None)
    assert parsed is not None
    assert parsed.parse_entities() == {
        parsed.entities[0]: "/play@fevga_test_bot",
        parsed.entities[1]: "@bob_the_player",
    }
    assert [(e.type, e.offset) for e in parsed.entities] == [("bot_command", 5), ("mention", 26)]


async def test_press_refuses_buttons_the_message_does_not_show(fake: FakeTelegram):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    message = fake.text_message(alice, room, "no keyboard here")
    with pytest.raises(ValueError, match="no button"):
        await fake.press(alice, message, "flip")
    query_id = await fake.press(alice, message, "flip", check=False)  # an outdated client may still send it
    assert fake.callback_answer(query_id).answered is False and len(fake.pending_updates) == 1


async def test_callback_query_can_be_answered_only_once(fake: FakeTelegram, polling_app: Application):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    await fake.send_text(alice, room, "/hello")
    sent: FakeMessage = (await fake.wait_for(lambda: fake.bot_messages(room)))[0]
    query_id = await fake.press(alice, sent, "flip")
    await fake.wait_for_answer(query_id)
    with pytest.raises(BadRequest, match="too old"):
        await polling_app.bot.answer_callback_query(query_id, text="again")
    assert fake.callback_answer(query_id).text == "Alice flipped"


async def test_set_my_commands_per_language_and_scope(fake: FakeTelegram):
    async with initialized(build_app(fake)) as app:
        await app.bot.set_my_commands([BotCommand("play", "Start a game")], language_code="en")
        await app.bot.set_my_commands([BotCommand("play", "Νέο παιχνίδι")], language_code="el")
        await app.bot.set_my_commands([BotCommand("duel", "Challenge")], scope=BotCommandScopeAllGroupChats())
        assert fake.commands("en") == [("play", "Start a game")]
        assert fake.commands("el") == [("play", "Νέο παιχνίδι")]
        assert fake.commands("", {"type": "all_group_chats"}) == [("duel", "Challenge")]
        assert fake.commands("fr") is None
        assert [c.description for c in await app.bot.get_my_commands(language_code="el")] == ["Νέο παιχνίδι"]
        with pytest.raises(BadRequest, match=r"(?i)bot_command_invalid"):
            await app.bot.set_my_commands([BotCommand("Bad Name", "x")])


async def test_retry_after_is_honoured_by_the_rate_limiter(fake: FakeTelegram):
    room = fake.group(-1001, "Tavli room")
    async with initialized(build_app(fake, max_retries=2)) as app:
        fake.rate_limit("sendMessage", times=1, retry_after=1)
        started = time.monotonic()
        message = await app.bot.send_message(room.id, "after the flood")
        assert time.monotonic() - started >= 1.0
        assert message.text == "after the flood"
        assert [c.status for c in fake.calls_of("sendMessage")] == [429, 200]
        error = fake.calls_of("sendMessage")[0].error
        assert error is not None and error.payload()["parameters"] == {"retry_after": 1}
    async with initialized(build_app(fake, max_retries=0)) as app:
        fake.rate_limit("sendMessage", times=1, retry_after=3)
        with pytest.raises(RetryAfter, match="Retry in 3 seconds"):
            await app.bot.send_message(room.id, "no retries")
        assert len(fake.bot_messages(room)) == 1


async def test_telegram_shaped_errors_reach_ptb(fake: FakeTelegram):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    async with initialized(build_app(fake)) as app:
        bot = app.bot
        with pytest.raises(BadRequest, match="Chat not found"):
            await bot.send_message(-999, "nobody here")
        with pytest.raises(Forbidden, match="can't initiate conversation"):
            await bot.send_message(alice.id, "psst")
        fake.private_chat(alice)
        assert (await bot.send_message(alice.id, "hi")).chat.type == "private"
        long_data = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="d" * 65)]])
        with pytest.raises(BadRequest, match=r"(?i)button_data_invalid"):
            await bot.send_message(room.id, "keyboard", reply_markup=long_data)
        with pytest.raises(BadRequest, match=r"(?i)image_process_failed"):
            await bot.send_photo(room.id, b"not an image at all")
        sent = await bot.send_message(room.id, "same")
        with pytest.raises(BadRequest, match="not modified"):
            await bot.edit_message_text("same", chat_id=room.id, message_id=sent.message_id)
        with pytest.raises(BadRequest, match="to edit not found"):
            await bot.edit_message_text("x", chat_id=room.id, message_id=999)
        with pytest.raises(EndPointNotFound):
            await bot.do_api_request("frobnicate")
        assert fake.unknown_methods == ["frobnicate"]
        assert [m.text for m in fake.bot_messages(room)] == ["same"]


async def test_parse_modes_give_plain_text_and_entities_or_telegrams_error(fake: FakeTelegram):
    room = fake.group(-1001, "Tavli room")
    async with initialized(build_app(fake)) as app:
        sent = await app.bot.send_message(
            room.id, "<b>Άλκης</b> &amp; <i>Bob</i> 🎲 <code>1/7</code>", parse_mode="HTML"
        )
        assert sent.text == "Άλκης & Bob 🎲 1/7"
        assert sent.parse_entities() == {
            sent.entities[0]: "Άλκης",
            sent.entities[1]: "Bob",
            sent.entities[2]: "1/7",
        }
        assert [e.type for e in sent.entities] == ["bold", "italic", "code"]
        md = await app.bot.send_message(room.id, r"*Bob* wins 2\-0\! ||gg||", parse_mode="MarkdownV2")
        assert md.text == "Bob wins 2-0! gg" and [e.type for e in md.entities] == ["bold", "spoiler"]
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities: character '\.' is reserved"):
            await app.bot.send_message(room.id, "Well played, john.", parse_mode="MarkdownV2")
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities: unsupported start tag"):
            await app.bot.send_message(room.id, "I <3 tavli", parse_mode="HTML")
        with pytest.raises(BadRequest, match=r"(?i)can't find end tag"):
            await app.bot.send_message(room.id, "<b>open", parse_mode="HTML")
        assert [m.source for m in fake.bot_messages(room)] == [
            "<b>Άλκης</b> &amp; <i>Bob</i> 🎲 <code>1/7</code>",
            r"*Bob* wins 2\-0\! ||gg||",
        ]


@pytest.mark.parametrize(
    ("mode", "source", "plain", "types"),
    [
        ("HTML", '<pre><code class="language-python">x = 1</code></pre> <a href="tg://user?id=5">Bob</a>',
         "x = 1 Bob", ["pre", "text_link"]),
        ("MarkdownV2", r"[Bob](tg://user?id=22) \_x\_ `1/7` __u__ ~s~", "Bob _x_ 1/7 u s",
         ["text_link", "code", "underline", "strikethrough"]),
        ("Markdown", "*b* _i_ [l](http://x) `c`", "b i l c", ["bold", "italic", "text_link", "code"]),
    ],
)  # fmt: skip
def test_parse_modes(mode: str, source: str, plain: str, types: list[str]):
    parsed = apply_parse_mode(source, mode)
    assert parsed is not None and parsed[0] == plain and [e["type"] for e in parsed[1]] == types


@pytest.mark.parametrize(
    ("mode", "source", "error"),
    [
        ("MarkdownV2", "*bold", "Can't find end of Bold entity at byte offset 0"),
        ("MarkdownV2", "Ωa_b", "Can't find end of Italic entity at byte offset 3"),
        ("HTML", "<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("HTML", "<span>x</span>", 'Unsupported start tag "span" at byte offset 0'),
        ("Markdown", "*half", "Can't find end of the entity starting at byte offset 0"),
    ],
)
def test_malformed_markup_is_refused(mode: str, source: str, error: str):
    with pytest.raises(ApiError) as raised:
        apply_parse_mode(source, mode)
    assert raised.value.error_code == 400
    assert raised.value.description == f"Bad Request: can't parse entities: {error}"


async def test_other_methods_answer_objects_ptb_accepts(fake: FakeTelegram):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    gif = io.BytesIO()
    Image.new("RGB", (32, 16), BLUE).save(gif, format="GIF")
    async with initialized(build_app(fake)) as app:
        bot = app.bot
        document = await bot.send_document(room.id, b"1/7 7/12", filename="game.txt")
        assert document.document is not None and document.document.file_name == "game.txt"
        animation = await bot.send_animation(room.id, gif.getvalue(), caption="replay")
        assert animation.animation is not None and animation.animation.width == 32
        assert await bot.send_chat_action(room.id, "upload_photo") is True
        assert (await bot.get_chat(room.id)).title == "Tavli room"
        assert (await bot.get_chat_member(room.id, alice.id)).status == "member"
        assert (await bot.get_webhook_info()).url == ""
        photo = await bot.send_photo(room.id, png(RED), caption="board", reply_markup=flip_keyboard())
        edited = await bot.edit_message_caption(chat_id=room.id, message_id=photo.message_id, caption="board 2")
        assert isinstance(edited, Message) and edited.caption == "board 2" and edited.reply_markup is None
        await bot.edit_message_reply_markup(chat_id=room.id, message_id=photo.message_id, reply_markup=flip_keyboard())
        assert fake.message(room, photo.message_id).callback_datas == ["flip"]
        assert await bot.delete_message(room.id, document.message_id) is True
        assert [m.kind for m in fake.bot_messages(room)] == ["animation", "photo"]
        assert len(fake.bot_messages(room, include_deleted=True)) == 3
        history = fake.message(room, photo.message_id).history
        assert [v.method for v in history] == ["send", "editMessageCaption", "editMessageReplyMarkup"]
        assert [v.caption for v in history] == ["board", "board 2", "board 2"]
    with pytest.raises(TimeoutError, match="waiting for a sendPhoto call"):
        await fake.wait_for_call("sendPhoto", since=fake.mark(), timeout=0.2)


async def test_photo_reuse_by_file_id_and_download(fake: FakeTelegram):
    room = fake.group(-1001, "Tavli room")
    async with initialized(build_app(fake)) as app:
        first = await app.bot.send_photo(room.id, png(RED))
        again = await app.bot.send_photo(room.id, first.photo[-1].file_id, caption="same board")
        assert again.photo[-1].file_id == first.photo[-1].file_id
        assert (first.photo[-1].width, first.photo[-1].height) == (64, 48)
        downloaded = await (await app.bot.get_file(first.photo[-1].file_id)).download_as_bytearray()
        assert bytes(downloaded) == png(RED)
        assert [m.photo for m in fake.bot_messages(room)] == [png(RED), png(RED)]


async def test_shutdown_releases_the_long_poll_quickly(fake: FakeTelegram, polling_app: Application):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    last = await fake.send_text(alice, room, "/hello")
    await fake.wait_for_call("sendPhoto")
    await fake.wait_for(lambda: fake.open_polls == 1, what="a held long poll")
    started = time.monotonic()
    await shutdown(polling_app)
    assert time.monotonic() - started < 2.0  # the poll timeout is 10 s
    await fake.wait_for(lambda: fake.open_polls == 0, what="the poll to be released")
    assert fake.calls_of("getUpdates")[-1].params["offset"] == last + 1  # PTB confirmed what it got
    assert fake.pending_updates == []


async def test_stopping_the_server_releases_a_held_poll():
    fake = await FakeTelegram().start()
    async with initialized(build_app(fake)) as app:
        poll = asyncio.create_task(app.bot.get_updates(timeout=10))
        await fake.wait_for(lambda: fake.open_polls == 1)
        started = time.monotonic()
        await fake.stop()
        assert await asyncio.wait_for(poll, 3) == ()
        assert time.monotonic() - started < 1.0


async def test_a_second_bot_instance_polling_terminates_the_first(fake: FakeTelegram):
    async with initialized(build_app(fake)) as one, initialized(build_app(fake)) as two:
        first = asyncio.create_task(one.bot.get_updates(timeout=10))
        await fake.wait_for(lambda: fake.open_polls == 1)
        second = asyncio.create_task(two.bot.get_updates(timeout=0))
        with pytest.raises(Conflict, match="other getUpdates"):
            await first
        assert await second == ()


async def test_webhook_mode(fake: FakeTelegram):
    alice = fake.user(11, "Alice", "alice")
    room = fake.group(-1001, "Tavli room")
    app = build_app(fake)
    port = free_port()
    await app.initialize()
    await app.start()
    assert app.updater is not None
    try:
        await app.updater.start_webhook(
            listen="127.0.0.1", port=port, url_path="tg", secret_token="s3cret",
            webhook_url=f"http://127.0.0.1:{port}/tg",
        )  # fmt: skip
        assert fake.webhook is not None and fake.webhook.secret_token == "s3cret"
        with pytest.raises(Conflict, match="webhook is active"):
            await app.bot.get_updates()

        await fake.send_text(alice, room, "/hello")  # delivered by the fake's webhook pump
        await fake.wait_for_call("sendPhoto")
        assert fake.consumed() and fake.webhook_errors == []

        update = {
            "update_id": fake.new_update_id(),
            "message": fake.text_message(alice, room, "/hello").to_dict(),
        }
        url = f"http://127.0.0.1:{port}/tg"
        assert await fake.deliver_webhook(url, update, "wrong") == 403
        await fake.settle()
        assert len(fake.bot_messages(room)) == 1  # the bad secret changed nothing
        assert await fake.deliver_webhook(url, update, "s3cret") == 200
        await fake.wait_for(lambda: len(fake.bot_messages(room)) == 2, what="second photo")
    finally:
        await shutdown(app)
    assert app.bot_data.get("errors", []) == []
