"""What the fake Telegram knows (users, chats, messages, files, queued updates, calls) and the test API
that plays the human side: users typing text and pressing inline buttons."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass
from typing import Any

from .objects import JSON, FakeChat, FakeMessage, FakeUser, StoredFile, auto_entities
from .requests import Call


@dataclass
class CallbackQuery:
    """A button press queued for the bot, and the bot's answer once it called answerCallbackQuery."""

    query_id: str
    user: FakeUser
    message: FakeMessage
    data: str
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


@dataclass
class WebhookConfig:
    """What setWebhook recorded."""

    url: str
    secret_token: str | None
    allowed_updates: list[str] | None
    max_connections: int | None


def scope_key(scope: JSON | None) -> str:
    """A stable key for a BotCommandScope (None and {"type": "default"} are the same scope)."""
    if not scope or scope == {"type": "default"}:
        return "default"
    return json.dumps(scope, sort_keys=True)


class FakeState:
    """State of the fake Bot API plus the human-side test API (users, chats, send_text, press, accessors)."""

    def __init__(self, token: str, bot_username: str, bot_first_name: str) -> None:
        self.token = token
        bot_id = int(token.split(":", 1)[0]) if token.split(":", 1)[0].isdigit() else 1
        self.bot = FakeUser(bot_id, bot_first_name, bot_username, language_code=None, is_bot=True)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.owners: set[tuple[int, int]] = set()  # (chat id, user id): getChatMember says "creator"
        self.departed: dict[tuple[int, int], str] = {}  # (chat id, user id): getChatMember says "left" / "kicked"
        self._messages: dict[int, dict[int, FakeMessage]] = {}
        self.files: dict[str, StoredFile] = {}
        self.pending_updates: list[JSON] = []  # queued, not yet confirmed by a getUpdates offset
        self.delivered_update_id = 0  # highest update_id handed to the bot (getUpdates or webhook)
        self.last_queued_update_id = 0
        self.callback_queries: dict[str, CallbackQuery] = {}
        self.command_sets: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.calls: list[Call] = []
        self.unknown_methods: list[str] = []
        self.webhook: WebhookConfig | None = None
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(4_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._changed = asyncio.Event()
        self.privacy_mode = False  # BotFather's /setprivacy: in groups the bot sees only what is meant for it
        self.withheld: list[FakeMessage] = []  # group messages privacy mode kept from the bot

    # ---- change notification -------------------------------------------------------------------
    def _notify(self) -> None:
        """Wake everything waiting for a state change (long polls, wait_for, webhook delivery)."""
        self._changed.set()
        self._changed = asyncio.Event()

    # ---- world building ------------------------------------------------------------------------
    def user(self, id: int, first_name: str, username: str | None = None, language_code: str | None = "en") -> FakeUser:
        """Register (or replace) a human user and return it."""
        user = FakeUser(id, first_name, username, language_code=language_code)
        self.users[id] = user
        return user

    def group(self, chat_id: int, title: str, type: str = "group") -> FakeChat:
        """Register a group chat (chat_id negative; use type="supergroup" with -100... ids)."""
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        chat = FakeChat(chat_id, type, title=title)
        self.chats[chat_id] = chat
        return chat

    def make_owner(self, chat: FakeChat, user: FakeUser) -> None:
        """``user`` owns ``chat`` (an admin: getChatMember answers "creator")."""
        self.owners.add((chat.id, user.id))

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The user's private chat with the bot; creating it means the user has started the bot, so
        the bot may message them (otherwise sendMessage to the user answers 403 like Telegram)."""
        chat = FakeChat(user.id, "private", username=user.username, first_name=user.first_name)
        self.chats[user.id] = chat
        return chat

    # ---- messages and files --------------------------------------------------------------------
    def _add_message(self, message: FakeMessage) -> FakeMessage:
        self._messages.setdefault(message.chat.id, {})[message.message_id] = message
        message.snapshot("send")
        return message

    def _next_message_id(self, chat: FakeChat) -> int:
        return max(self._messages.get(chat.id, {}), default=0) + 1

    def _store_file(self, data: bytes, kind: str, **info: Any) -> StoredFile:
        n = next(self._file_ids)
        stored = StoredFile(f"FAKE-{kind.upper()}-{n:06d}", f"U{n:06d}", data, kind, **info)
        self.files[stored.file_id] = stored
        return stored

    def messages(self, chat: FakeChat, include_deleted: bool = False) -> list[FakeMessage]:
        """Every message in the chat (users' and bot's), oldest first."""
        found = self._messages.get(chat.id, {}).values()
        return sorted((m for m in found if include_deleted or not m.deleted), key=lambda m: m.message_id)

    def bot_messages(self, chat: FakeChat, include_deleted: bool = False) -> list[FakeMessage]:
        """The bot's messages in the chat, oldest first, each with its current content and history."""
        return [m for m in self.messages(chat, include_deleted) if m.from_bot]

    def last_bot_message(self, chat: FakeChat) -> FakeMessage:
        """The bot's newest (not deleted) message in the chat; LookupError when there is none."""
        sent = self.bot_messages(chat)
        if not sent:
            raise LookupError(f"the bot has sent nothing (left) in chat {chat.id}")
        return sent[-1]

    def message(self, chat: FakeChat, message_id: int) -> FakeMessage:
        """A message by id (KeyError when unknown)."""
        return self._messages[chat.id][message_id]

    def callback_answer(self, query_id: str) -> CallbackQuery:
        """The press with this query id; .answered/.text/.show_alert tell how the bot answered."""
        return self.callback_queries[query_id]

    def commands(self, language_code: str = "", scope: JSON | None = None) -> list[tuple[str, str]] | None:
        """(command, description) pairs set by setMyCommands for this language and scope; None if unset."""
        return self.command_sets.get((scope_key(scope), language_code))

    def calls_of(self, method: str) -> list[Call]:
        """Calls to one Bot API method, oldest first."""
        return [c for c in self.calls if c.method == method]

    def mark(self) -> int:
        """The current length of the call log; pass it as since= to wait_for_call to skip older calls."""
        return len(self.calls)

    # ---- the human side --------------------------------------------------------------------------
    def _queue(self, update: JSON) -> int:
        self.pending_updates.append(update)
        self.last_queued_update_id = update["update_id"]
        self._notify()
        return int(update["update_id"])

    def new_update_id(self) -> int:
        """Reserve the next update id (for hand-built updates given to deliver_webhook)."""
        return next(self._update_ids)

    def text_message(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        reply_to: FakeMessage | None = None,
        entities: list[JSON] | None = None,
    ) -> FakeMessage:
        """Record a user's text message in the chat (with Telegram's automatic entities) without queuing."""
        if chat.id not in self.chats:
            raise ValueError(f"unknown chat {chat.id}: create it with group() or private_chat()")
        self.users.setdefault(user.id, user)
        message = FakeMessage(
            chat, self._next_message_id(chat), user, text=text, reply_to=reply_to,
            entities=sorted(auto_entities(text) + list(entities or []), key=lambda e: e["offset"]),
        )  # fmt: skip
        return self._add_message(message)

    async def send_text(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        reply_to: FakeMessage | None = None,
        entities: list[JSON] | None = None,
    ) -> int:
        """The user writes text in chat (optionally replying to a message); queues the Update and
        returns its update_id. bot_command/mention entities are added like Telegram does; entities adds
        more (e.g. text_mention with a "user")."""
        message = self.text_message(user, chat, text, reply_to, entities)
        if not self.reaches_bot(message):
            self.withheld.append(message)
            return 0
        return self._queue({"update_id": self.new_update_id(), "message": message.to_dict()})

    def member_left(self, user: FakeUser, chat: FakeChat, status: str = "left") -> int:
        """The user leaves the group (``left``) or is removed (``kicked``): a ``chat_member`` update (Telegram
        sends these to a bot that is an admin there and asks for them in allowed_updates)."""
        member = {"status": "member", "user": user.to_dict()}
        self.departed[(chat.id, user.id)] = status
        return self._queue({"update_id": self.new_update_id(), "chat_member": {
            "chat": chat.to_dict(), "from": user.to_dict(), "date": int(time.time()), "old_chat_member": member,
            "new_chat_member": {**member, "status": status, **({"until_date": 0} if status == "kicked" else {})},
        }})  # fmt: skip

    def reaches_bot(self, message: FakeMessage) -> bool:
        """Whether Telegram hands this message to the bot. With privacy mode on, a group message only when
        it is a command (``/cmd`` or ``/cmd@this_bot``), a reply to the bot's message, or mentions the bot."""
        if not self.privacy_mode or message.chat.type not in ("group", "supergroup"):
            return True
        text = message.text or ""
        for entity in message.entities:
            chunk = text[entity["offset"] : entity["offset"] + entity["length"]]
            if entity["type"] == "bot_command" and entity["offset"] == 0:
                target = chunk.partition("@")[2]
                return not target or target.lower() == (self.bot.username or "").lower()
            if entity["type"] == "mention" and chunk[1:].lower() == (self.bot.username or "").lower():
                return True
        return message.reply_to is not None and message.reply_to.from_bot

    async def press(self, user: FakeUser, message: FakeMessage, callback_data: str, check: bool = True) -> str:
        """The user presses an inline button with callback_data on message; queues a callback_query
        Update and returns the query id. With check, the button must be on the message's current keyboard
        (ValueError otherwise); pass check=False to simulate a client showing an outdated keyboard."""
        if check and callback_data not in message.callback_datas:
            raise ValueError(f"message {message.message_id} has no button {callback_data!r}: {message.buttons}")
        self.users.setdefault(user.id, user)
        query_id = str(next(self._query_ids))
        self.callback_queries[query_id] = CallbackQuery(query_id, user, message, callback_data)
        chat_instance = str(abs(message.chat.id) * 7919 % 10**12)
        self._queue(
            {
                "update_id": self.new_update_id(),
                "callback_query": {
                    "id": query_id,
                    "from": user.to_dict(),
                    "message": message.to_dict(),
                    "chat_instance": chat_instance,
                    "data": callback_data,
                },
            }
        )
        return query_id

    async def press_button(self, user: FakeUser, message: FakeMessage, text: str) -> str:
        """Press the current button labelled text (KeyError if absent); returns the query id."""
        data = message.button(text).callback_data
        if data is None:
            raise ValueError(f"button {text!r} has no callback_data")
        return await self.press(user, message, data)
