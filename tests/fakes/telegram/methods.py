"""The Bot API methods of the fake (all but getUpdates), with Telegram's checks and error wording."""

from __future__ import annotations

import time
from typing import Any

from .markup import apply_parse_mode
from .objects import JSON, FakeChat, FakeMessage, StoredFile, image_info, utf16_len
from .requests import ApiError, Call, UploadedFile, bad_request, int_param, require
from .state import FakeState, WebhookConfig, scope_key

MAX_TEXT = 4096
MAX_CAPTION = 1024
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the same "
    "as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


class BotApiMethods(FakeState):
    """Synchronous Bot API method handlers: api_<methodName>(call) -> result, or raise ApiError."""

    # ---- helpers -------------------------------------------------------------------------------
    def _chat(self, params: JSON, key: str = "chat_id") -> FakeChat:
        chat_id = require(params, key)
        if isinstance(chat_id, str):  # "@username" of a public chat
            for chat in self.chats.values():
                if chat.username and "@" + chat.username == chat_id:
                    return chat
            raise bad_request("chat not found")
        found = self.chats.get(chat_id)
        if found is None:
            if chat_id in self.users:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            raise bad_request("chat not found")
        return found

    def _target(self, params: JSON, what: str = "edit") -> FakeMessage:
        if params.get("inline_message_id"):
            raise bad_request("inline messages are not supported by the fake")
        chat = self._chat(params)
        message = self._messages.get(chat.id, {}).get(int_param(params, "message_id"))
        if message is None or message.deleted:
            raise bad_request(f"message to {what} not found")
        if what == "edit" and not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    @staticmethod
    def _markup(params: JSON) -> JSON | None:
        markup = params.get("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise bad_request("can't parse reply keyboard markup JSON object")
        for row in markup.get("inline_keyboard", []):
            for button in row:
                if not button.get("text"):
                    raise bad_request("text buttons are unallowed in the inline keyboard")
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    raise bad_request("BUTTON_DATA_INVALID")
        return markup

    def _reply_target(self, chat: FakeChat, params: JSON) -> FakeMessage | None:
        reply = params.get("reply_parameters") or {}
        reply_id = reply.get("message_id") if isinstance(reply, dict) else None
        reply_id = reply_id or params.get("reply_to_message_id")
        if not reply_id:
            return None
        target = self._messages.get(chat.id, {}).get(int(reply_id))
        allow = reply.get("allow_sending_without_reply") or params.get("allow_sending_without_reply")
        if (target is None or target.deleted) and not allow:
            raise bad_request("message to be replied not found")
        return target

    @staticmethod
    def _formatted(raw: Any, parse_mode: Any, entities: Any, caption: bool) -> tuple[str, list[JSON]]:
        """Plain text and entities after parse_mode, checked against Telegram's emptiness/length limits."""
        source = "" if raw is None else str(raw)
        parsed = apply_parse_mode(source, parse_mode)
        text, found = parsed if parsed is not None else (source, list(entities or []))
        if caption:
            if utf16_len(text) > MAX_CAPTION:
                raise bad_request("message caption is too long")
        elif not text.strip():
            raise bad_request("message text is empty")
        elif utf16_len(text) > MAX_TEXT:
            raise bad_request("message is too long")
        return text, found

    def _text(self, params: JSON) -> tuple[str, list[JSON]]:
        return self._formatted(params.get("text"), params.get("parse_mode"), params.get("entities"), False)

    def _caption(self, params: JSON) -> tuple[str | None, list[JSON]]:
        if params.get("caption") in (None, ""):
            return None, []
        mode, entities = params.get("parse_mode"), params.get("caption_entities")
        text, found = self._formatted(params.get("caption"), mode, entities, True)
        return text or None, found

    def _file(self, value: Any, files: dict[str, UploadedFile], kind: str) -> StoredFile:
        """Resolve an uploaded part ("attach://name") or a known file_id to a stored file."""
        if isinstance(value, str) and value.startswith("attach://"):
            part = files.get(value.removeprefix("attach://"))
            if part is None:
                raise bad_request(f"file {value} not found in the request")
            info: dict[str, Any] = {"file_name": part.filename, "mime_type": part.content_type}
            if kind in ("photo", "animation"):
                image = image_info(part.data)
                if image is None:
                    raise bad_request("IMAGE_PROCESS_FAILED")
                info.update(width=image[0], height=image[1], image_format=image[2])
            return self._store_file(part.data, kind, **info)
        stored = self.files.get(str(value))
        if stored is None:
            raise bad_request("wrong file identifier/HTTP URL specified")
        return stored

    def _send(self, call: Call, file: StoredFile | None = None) -> JSON:
        chat = self._chat(call.params)
        key = "text" if file is None else "caption"
        text, entities = self._text(call.params) if file is None else self._caption(call.params)
        message = FakeMessage(
            chat, self._next_message_id(chat), self.bot, file=file, entities=entities,
            reply_markup=self._markup(call.params), reply_to=self._reply_target(chat, call.params),
            parse_mode=call.params.get("parse_mode"), source=call.params.get(key),
        )  # fmt: skip
        if file is None:
            message.text = text
        else:
            message.caption = text
        return self._add_message(message).to_dict()

    def _send_file(self, call: Call, kind: str) -> JSON:
        return self._send(call, self._file(require(call.params, kind), call.files, kind))

    def _edited(self, message: FakeMessage, method: str) -> JSON:
        message.edit_date = int(time.time())
        message.snapshot(method)
        return message.to_dict()

    # ---- identity and webhook --------------------------------------------------------------------
    def api_getMe(self, call: Call) -> JSON:
        return {
            **self.bot.to_dict(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def api_logOut(self, call: Call) -> bool:
        return True

    def api_close(self, call: Call) -> bool:
        return True

    def api_setWebhook(self, call: Call) -> bool:
        url = str(require(call.params, "url"))
        self.webhook = WebhookConfig(
            url, call.params.get("secret_token"), call.params.get("allowed_updates"),
            call.params.get("max_connections"),
        )  # fmt: skip
        if call.params.get("drop_pending_updates"):
            self.pending_updates.clear()
        return True

    def api_deleteWebhook(self, call: Call) -> bool:
        self.webhook = None
        if call.params.get("drop_pending_updates"):
            self.pending_updates.clear()
        return True

    def api_getWebhookInfo(self, call: Call) -> JSON:
        pending = len(self.pending_updates)
        if self.webhook is None:
            return {"url": "", "has_custom_certificate": False, "pending_update_count": pending}
        info: JSON = {"url": self.webhook.url, "has_custom_certificate": False, "pending_update_count": pending}
        if self.webhook.max_connections:
            info["max_connections"] = self.webhook.max_connections
        if self.webhook.allowed_updates:
            info["allowed_updates"] = self.webhook.allowed_updates
        return info

    # ---- commands ----------------------------------------------------------------------------------
    def api_setMyCommands(self, call: Call) -> bool:
        commands = require(call.params, "commands")
        if not isinstance(commands, list) or len(commands) > 100:
            raise bad_request("can't parse commands JSON object")
        pairs: list[tuple[str, str]] = []
        for item in commands:
            name, desc = str(item.get("command", "")), str(item.get("description", ""))
            if not (1 <= len(name) <= 32 and name.replace("_", "a").isalnum() and name == name.lower()):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(desc) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
            pairs.append((name, desc))
        key = (scope_key(call.params.get("scope")), str(call.params.get("language_code") or ""))
        self.command_sets[key] = pairs
        return True

    def api_getMyCommands(self, call: Call) -> list[JSON]:
        pairs = self.commands(str(call.params.get("language_code") or ""), call.params.get("scope")) or []
        return [{"command": c, "description": d} for c, d in pairs]

    def api_deleteMyCommands(self, call: Call) -> bool:
        key = (scope_key(call.params.get("scope")), str(call.params.get("language_code") or ""))
        self.command_sets.pop(key, None)
        return True

    # ---- sending -------------------------------------------------------------------------------------
    def api_sendMessage(self, call: Call) -> JSON:
        return self._send(call)

    def api_sendPhoto(self, call: Call) -> JSON:
        return self._send_file(call, "photo")

    def api_sendDocument(self, call: Call) -> JSON:
        return self._send_file(call, "document")

    def api_sendAnimation(self, call: Call) -> JSON:
        return self._send_file(call, "animation")

    def api_sendMediaGroup(self, call: Call) -> list[JSON]:
        """An album: 2-10 photos (or documents), one message each, sharing a media_group_id."""
        chat = self._chat(call.params)
        media = require(call.params, "media")
        if not isinstance(media, list) or not 2 <= len(media) <= 10:
            raise bad_request("wrong number of media in the album: must be 2-10")
        kinds = {item.get("type") if isinstance(item, dict) else None for item in media}
        if not kinds <= {"photo", "video"} and kinds != {"document"}:
            raise bad_request("can't parse InputMedia JSON object")
        group = f"album{time.time_ns()}"
        reply_to = self._reply_target(chat, call.params)
        sent = []
        for item in media:
            caption, entities = self._caption(item)
            message = FakeMessage(
                chat, self._next_message_id(chat), self.bot, caption=caption, entities=entities, reply_to=reply_to,
                file=self._file(item.get("media"), call.files, str(item["type"])), source=item.get("caption"),
            )  # fmt: skip
            message.media_group_id = group
            sent.append(self._add_message(message).to_dict() | {"media_group_id": group})
        return sent

    def api_sendChatAction(self, call: Call) -> bool:
        self._chat(call.params)
        require(call.params, "action")
        return True

    # ---- editing ---------------------------------------------------------------------------------------
    def api_editMessageText(self, call: Call) -> JSON:
        message = self._target(call.params)
        if message.file is not None:
            raise bad_request("there is no text in the message to edit")
        text, entities = self._text(call.params)
        markup = self._markup(call.params)
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        message.text, message.entities, message.reply_markup = text, entities, markup
        message.source, message.parse_mode = call.params.get("text"), call.params.get("parse_mode")
        return self._edited(message, call.method)

    def api_editMessageCaption(self, call: Call) -> JSON:
        message = self._target(call.params)
        if message.file is None:
            raise bad_request("there is no caption in the message to edit")
        (caption, entities), markup = self._caption(call.params), self._markup(call.params)
        if (caption, entities, markup) == (message.caption, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        message.caption, message.entities, message.reply_markup = caption, entities, markup
        message.source, message.parse_mode = call.params.get("caption"), call.params.get("parse_mode")
        return self._edited(message, call.method)

    def api_editMessageMedia(self, call: Call) -> JSON:
        message = self._target(call.params)
        media = require(call.params, "media")
        if not isinstance(media, dict) or media.get("type") not in ("photo", "document", "animation"):
            raise bad_request("can't parse InputMedia JSON object")
        if message.file is None:
            raise bad_request("there is no media in the message to edit")
        caption, entities = self._caption(media)
        markup = self._markup(call.params)
        message.file = self._file(media.get("media"), call.files, str(media["type"]))
        message.caption, message.entities, message.reply_markup = caption, entities, markup
        message.source, message.parse_mode = media.get("caption"), media.get("parse_mode")
        return self._edited(message, call.method)

    def api_editMessageReplyMarkup(self, call: Call) -> JSON:
        message = self._target(call.params)
        markup = self._markup(call.params)
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        message.reply_markup = markup
        return self._edited(message, call.method)

    def api_deleteMessage(self, call: Call) -> bool:
        message = self._target(call.params, "delete")
        message.deleted = True
        return True

    # ---- callbacks and chats ---------------------------------------------------------------------------
    def api_answerCallbackQuery(self, call: Call) -> bool:
        query = self.callback_queries.get(str(require(call.params, "callback_query_id")))
        if query is None or query.answered:
            raise bad_request(QUERY_TOO_OLD)
        text = call.params.get("text")
        if text is not None and len(str(text)) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        query.answered, query.text = True, None if text is None else str(text)
        query.show_alert = bool(call.params.get("show_alert"))
        query.url, query.cache_time = call.params.get("url"), call.params.get("cache_time")
        return True

    def api_getChat(self, call: Call) -> JSON:
        chat = self._chat(call.params)
        gifts = dict.fromkeys(
            ("unlimited_gifts", "limited_gifts", "unique_gifts", "premium_subscription", "gifts_from_channels"),
            False,
        )
        return {**chat.to_dict(), "accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": gifts}

    def api_getChatMember(self, call: Call) -> JSON:
        chat = self._chat(call.params)
        user_id = int_param(call.params, "user_id")
        user = self.bot if user_id == self.bot.id else self.users.get(user_id)
        if user is None or (chat.type == "private" and user_id not in (chat.id, self.bot.id)):
            raise bad_request("user not found")
        if (chat.id, user_id) in self.owners:
            return {"status": "creator", "user": user.to_dict(), "is_anonymous": False}
        if (chat.id, user_id) in self.departed:
            status = self.departed[(chat.id, user_id)]
            return {"status": status, "user": user.to_dict(), **({"until_date": 0} if status == "kicked" else {})}
        return {"status": "member", "user": user.to_dict()}

    def api_getFile(self, call: Call) -> JSON:
        stored = self.files.get(str(require(call.params, "file_id")))
        if stored is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.data),
            "file_path": f"{stored.kind}s/{stored.file_id}",
        }
