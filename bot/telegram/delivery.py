"""Posting the core's replies to a Telegram chat. A reply with ``game_id`` is that game's board: one photo
message per game, edited in place (editMessageMedia) and remembered in the core so any instance can
edit it; a new one is posted only when the old one cannot be edited. Other replies become messages,
documents (exports) or animations (replays)."""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from typing import Any

from telegram import Bot, InputMediaPhoto, Message, ReplyParameters
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.core import BotCore
from bot.logging_setup import get_logger
from bot.replies import Reply

from .keyboards import keyboard
from .texts import MAX_CAPTION, clip, split_text, utf16_len, with_mentions

log = get_logger(__name__)

_REPOST_ERRORS = (
    "message to edit not found",
    "message can't be edited",
    "there is no media in the message to edit",
    "there is no text in the message to edit",
    "message_id_invalid",
)
_GAMES_KEPT = 2_000  # per-game locks and fingerprints kept by one instance


def _is(error: TelegramError, phrases: tuple[str, ...]) -> bool:
    text = error.message.lower()
    return any(phrase in text for phrase in phrases)


def parse_ref(ref: str | None) -> tuple[int, int] | None:
    """("chat:message" as stored by remember_board_message) -> (chat id, message id)."""
    if not ref:
        return None
    chat, _, message = ref.rpartition(":")
    try:
        return int(chat), int(message)
    except ValueError:
        return None


def board_caption(reply: Reply) -> str:
    """The caption under a board: whose turn with which dice, then what just happened."""
    lines = [line for line in (reply.caption, reply.text) if line]
    return clip("\n".join(lines), MAX_CAPTION)


def _fingerprint(reply: Reply) -> str:
    digest = hashlib.blake2b(digest_size=16)
    parts = (reply.image or b"", board_caption(reply).encode(), *(b.token.encode() for b in reply.buttons))
    for part in parts:
        digest.update(len(part).to_bytes(4, "big") + part)
    return digest.hexdigest()


class Delivery:
    """Sends replies; keeps, per game, a lock (edits of one board never interleave), the newest version
    shown (an older board never overwrites a newer one) and which message shows it."""

    def __init__(self, core: BotCore) -> None:
        self.core = core
        self._locks: OrderedDict[str, asyncio.Lock] = OrderedDict()
        self._shown: OrderedDict[str, tuple[int, str]] = OrderedDict()  # game -> (version, fingerprint)
        self._games_by_ref: OrderedDict[str, str] = OrderedDict()  # "chat:message" -> game id
        self._file_ids: OrderedDict[str, str] = OrderedDict()  # picture digest -> Telegram file_id

    # ---- pictures: an identical board picture is sent again by file_id, not uploaded ---------------
    @staticmethod
    def _digest(image: bytes) -> str:
        return hashlib.blake2b(image, digest_size=16).hexdigest()

    def _photo(self, image: bytes) -> str | bytes:
        """The file_id of this exact picture if Telegram already has it, else the bytes to upload."""
        return self._file_ids.get(self._digest(image), image)

    def _note_photo(self, image: bytes, message: Message | bool) -> None:
        if isinstance(message, Message) and message.photo:
            self._keep(self._file_ids, self._digest(image), message.photo[-1].file_id)

    # ---- bookkeeping ---------------------------------------------------------------------------
    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
            while len(self._locks) > _GAMES_KEPT:
                oldest, old_lock = next(iter(self._locks.items()))
                if old_lock.locked():
                    break
                del self._locks[oldest]
        return lock

    @staticmethod
    def _keep(mapping: OrderedDict[str, Any], key: str, value: Any) -> None:
        mapping[key] = value
        mapping.move_to_end(key)
        while len(mapping) > _GAMES_KEPT:
            mapping.popitem(last=False)

    async def game_of_message(self, chat_id: int, message_id: int) -> str | None:
        """The game whose board is this message, if this instance (or the core) knows it."""
        ref = f"{chat_id}:{message_id}"
        found = self._games_by_ref.get(ref)
        if found is not None:
            return found
        try:
            game = await self.core.game_for_board_message(ref)
        except Exception:
            log.warning("telegram_board_lookup_failed", exc_info=True)
            return None
        return game if isinstance(game, str) else None

    async def is_board(self, chat_id: int, message_id: int, replies: list[Reply]) -> bool:
        """True when the message shows a game's board (known here, or the board of one of these replies)."""
        if await self.game_of_message(chat_id, message_id) is not None:
            return True
        ref = f"{chat_id}:{message_id}"
        for game_id in {r.game_id for r in replies if r.game_id is not None}:
            if await self.core.board_message(game_id) == ref:
                return True
        return False

    # ---- sending ---------------------------------------------------------------------------------
    async def send(
        self,
        bot: Bot,
        chat_id: int,
        replies: list[Reply],
        *,
        reply_to: int | None = None,
        fresh_board: bool = False,
        only_newer: bool = False,
    ) -> None:
        """Post every reply in order: boards in place, the rest as new messages (answering reply_to).
        fresh_board: post boards anew (``/board``); only_newer: skip boards not newer than the one shown."""
        for reply in replies:
            try:
                if reply.game_id is not None:
                    await self.show_board(bot, chat_id, reply, fresh=fresh_board, only_newer=only_newer)
                else:
                    await self.post(bot, chat_id, reply, reply_to=reply_to)
            except Forbidden as error:
                log.warning("telegram_chat_forbidden", chat_id=chat_id, error=error.message)
                return

    async def show_board(
        self, bot: Bot, chat_id: int, reply: Reply, *, fresh: bool = False, only_newer: bool = False
    ) -> None:
        """Show the game's board: edit its message in place, or post it (fresh: always post a new one)."""
        game_id = reply.game_id
        assert game_id is not None
        async with self._lock(game_id):
            version = reply.version if reply.version is not None else -1
            fingerprint = _fingerprint(reply)
            shown = self._shown.get(game_id)
            if shown is not None and not fresh and self._seen(shown, version, fingerprint, only_newer):
                return  # an older board, or this state again (e.g. the same event seen twice)
            target = parse_ref(await self.core.board_message(game_id))
            if target is not None and target[0] == chat_id and not fresh and await self._edit(bot, target, reply):
                self._keep(self._shown, game_id, (version, fingerprint))
                return
            message = await self._post_board(bot, chat_id, reply)
            ref = f"{chat_id}:{message.message_id}"
            await self.core.remember_board_message(game_id, ref)
            self._keep(self._games_by_ref, ref, game_id)
            self._keep(self._shown, game_id, (version, fingerprint))
            if target is not None and target[0] == chat_id and target[1] != message.message_id:
                await self._retire(bot, target)

    @staticmethod
    def _seen(shown: tuple[int, str], version: int, fingerprint: str, only_newer: bool) -> bool:
        return version < shown[0] or (version, fingerprint) == shown or (only_newer and version == shown[0])

    async def _edit(self, bot: Bot, target: tuple[int, int], reply: Reply) -> bool:
        """Edit the board message; False when Telegram says it cannot be edited (a new one is needed)."""
        chat_id, message_id = target
        markup = keyboard(reply.buttons)
        caption = board_caption(reply)
        try:
            if reply.image is not None:
                photo = self._photo(reply.image)
                media = InputMediaPhoto(photo, caption=caption, filename=reply.image_name or "board.png")
                edited = await bot.edit_message_media(
                    media, chat_id=chat_id, message_id=message_id, reply_markup=markup
                )
                self._note_photo(reply.image, edited)
            else:
                text = clip(reply.text or caption, 4096)
                await bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, reply_markup=markup)
        except BadRequest as error:
            if _is(error, ("message is not modified",)):
                return True
            if _is(error, _REPOST_ERRORS):
                log.info("telegram_board_reposted", chat_id=chat_id, message_id=message_id, reason=error.message)
                return False
            raise
        self._keep(self._games_by_ref, f"{chat_id}:{message_id}", reply.game_id or "")
        return True

    async def _post_board(self, bot: Bot, chat_id: int, reply: Reply) -> Message:
        """A new board message; the player to move is pinged through a text_mention in the caption."""
        markup = keyboard(reply.buttons)
        caption, entities = with_mentions(board_caption(reply), reply.mention, prepend=False)
        if reply.image is not None:
            name = reply.image_name or "board.png"
            sent = await bot.send_photo(
                chat_id, self._photo(reply.image), caption=caption, caption_entities=entities or None,
                reply_markup=markup, filename=name,
            )  # fmt: skip
            self._note_photo(reply.image, sent)
            return sent
        return await bot.send_message(chat_id, clip(reply.text or caption, 4096), reply_markup=markup)

    async def _retire(self, bot: Bot, target: tuple[int, int]) -> None:
        """Take the keyboard off a board message that was replaced by a newer one (best effort)."""
        try:
            await bot.edit_message_reply_markup(chat_id=target[0], message_id=target[1], reply_markup=None)
        except TelegramError as error:
            log.debug("telegram_old_board_kept", error=error.message)

    async def post(self, bot: Bot, chat_id: int, reply: Reply, *, reply_to: int | None = None) -> None:
        """A reply that is not a board: a document, an animation or picture, or text (split if long)."""
        answer = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to is not None else None
        markup = keyboard(reply.buttons)
        if reply.document is not None:
            await bot.send_document(
                chat_id, reply.document, filename=reply.document_name or "game.txt", reply_parameters=answer,
                caption=clip(reply.caption or reply.text, MAX_CAPTION) or None, reply_markup=markup,
            )  # fmt: skip
            return
        if reply.image is not None:
            name = reply.image_name or "board.png"
            caption = clip(reply.caption or reply.text, MAX_CAPTION) or None
            if name.lower().endswith((".gif", ".mp4")):
                await bot.send_animation(
                    chat_id, reply.image, filename=name, caption=caption, reply_parameters=answer, reply_markup=markup
                )
            else:
                await bot.send_photo(
                    chat_id, reply.image, filename=name, caption=caption, reply_parameters=answer, reply_markup=markup
                )
            if reply.caption and reply.text and utf16_len(reply.text) > MAX_CAPTION:
                await self._text(bot, chat_id, reply, None, None)
            return
        await self._text(bot, chat_id, reply, answer, markup)

    async def _text(self, bot: Bot, chat_id: int, reply: Reply, answer: ReplyParameters | None, markup: Any) -> None:
        text, entities = with_mentions(reply.text, reply.mention)
        chunks = split_text(text)
        if len(chunks) != 1 or chunks[0] != text:
            entities = []  # offsets no longer hold once the text is cut
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            await bot.send_message(
                chat_id, chunk, entities=entities or None, reply_parameters=answer if index == 0 else None,
                reply_markup=markup if last else None,
            )  # fmt: skip
