"""Posting the core's replies to a Telegram chat. A reply with ``game_id`` is that game's board: one photo
message per game, edited in place (editMessageMedia). Which version is shown where, one drawer at a time,
retries and coalescing belong to the platform-neutral :class:`bot.delivery.BoardTracker`; this module only
supplies its platform calls (``edit_board`` / ``post_board``) and maps Telegram's errors (429 and 5xx and
timeouts: retry later; no access: undeliverable). Other replies become messages, documents (exports) or
animations (replays)."""

from __future__ import annotations

import asyncio
import hashlib
import warnings
from collections import OrderedDict
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message, ReplyParameters
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TelegramError

from bot.chat.core import BotCore
from bot.delivery import BoardTracker, Outcome, RetryLater, Undeliverable
from bot.delivery.budgets import PlaceBudgets
from bot.delivery.replies import Reply
from bot.logging_setup import get_logger
from bot.service.models import Place, PlayerRef

from .groups import IN_PLAY, accept_link_button, is_group
from .identity import chat_id_of, user_chat_id
from .keyboards import keyboard
from .texts import MAX_CAPTION, MAX_TEXT, clip, split_text, utf16_len, with_mentions
from .web_button import BoardLinks

log = get_logger(__name__)

_REPOST_ERRORS = (
    "message to edit not found",
    "message can't be edited",
    "there is no media in the message to edit",
    "there is no text in the message to edit",
    "message_id_invalid",
)
_GAMES_KEPT = 2_000  # board refs and picture file ids kept by one instance
HANDLER_BUDGET = 0.0  # a handler tries a board once; the outbox consumer retries (see bot/delivery)
HANDLER_WAIT = 5.0  # seconds a handler waits for another drawer (the consumer) to show its change


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


def board_caption(reply: Reply, hint: str = "") -> str:
    """The caption under a board: whose turn with which dice, what just happened, then (in a group) how
    to move there."""
    lines = [line for line in (reply.caption, reply.text) if line]
    body = clip("\n".join(lines), MAX_CAPTION - (utf16_len(hint) + 1 if hint else 0))
    return f"{body}\n{hint}" if hint else body


def platform_error(error: TelegramError) -> Exception:
    """A Telegram error as the tracker's signal: retry later (429, 5xx, timeouts) or undeliverable."""
    if isinstance(error, RetryAfter):
        with warnings.catch_warnings():  # PTB 22 warns that the type becomes a timedelta; both are handled
            warnings.simplefilter("ignore")
            after = error.retry_after
        return RetryLater(after if isinstance(after, int | float) else after.total_seconds())
    if isinstance(error, Forbidden | BadRequest):
        return Undeliverable(error.message)
    if isinstance(error, NetworkError):  # timeouts, dropped connections, 5xx ("Bad Gateway")
        return RetryLater(None)
    return Undeliverable(error.message)


class Delivery:
    """Sends replies; boards go through the shared :class:`BoardTracker`, for which this is the surface."""

    def __init__(self, core: BotCore, links: BoardLinks | None = None, budgets: PlaceBudgets | None = None) -> None:
        self.core = core
        self.links = links  # the "Open board" button (WEB_BASE_URL set)
        self.budgets = budgets  # each group's budget: boards, pings and notices (bot/delivery/budgets.py)
        self.bot: Bot | None = None  # set by attach (the Application's bot)
        self.tracker = BoardTracker(core.store, core.board_reply, self)
        self.pinger = core.pinger(self)  # turn pings and game ends, shared with the outbox consumer
        self._pinging: set[asyncio.Task[None]] = set()
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

    # ---- the group's budget (boards first) --------------------------------------------------------
    async def pace(self, place: Place, ref: str | None, *, urgent: bool) -> None:
        """Wait for room in the group's budget (about 20 calls a minute, edits included); other chats and
        the terminal are not limited here (PTB's limiter still is)."""
        target = parse_ref(ref)
        chat_id = target[0] if target is not None else chat_id_of(place)
        if self.budgets is not None and chat_id is not None and is_group(chat_id):
            await self.budgets.take(str(chat_id), urgent=urgent)

    # ---- the tracker's surface -------------------------------------------------------------------
    def attach(self, bot: Bot) -> None:
        """The bot the tracker's platform calls go through."""
        self.bot = bot

    async def edit_board(self, ref: str, reply: Reply) -> bool:
        """Edit the board message ``ref``; False when it is gone (the tracker posts a new one)."""
        target = parse_ref(ref)
        if target is None or self.bot is None:
            return False
        try:
            return await self._edit(self.bot, target, reply)
        except TelegramError as error:
            raise platform_error(error) from error

    async def edit_challenge(self, ref: str, text: str) -> bool:
        """Say how a challenge ended in its message, without its buttons; False when the message is gone."""
        target = parse_ref(ref)
        if target is None or self.bot is None:
            return False
        try:
            await self.bot.edit_message_text(clip(text, 4096), chat_id=target[0], message_id=target[1],
                                             reply_markup=None)
        except BadRequest as error:
            if _is(error, ("message is not modified",)):
                return True
            if _is(error, _REPOST_ERRORS):
                return False
            raise platform_error(error) from error
        except TelegramError as error:
            raise platform_error(error) from error
        return True

    async def post_board(self, place: Place, reply: Reply) -> str:
        """Post a new board message in the place's chat; its ref."""
        chat_id = chat_id_of(place)
        if chat_id is None or self.bot is None:
            raise Undeliverable(str(place))
        try:
            message = await self._post_board(self.bot, chat_id, reply)
        except TelegramError as error:
            raise platform_error(error) from error
        ref = f"{chat_id}:{message.message_id}"
        self._keep(self._games_by_ref, ref, reply.game_id or "")
        return ref

    # ---- the pinger's surface ---------------------------------------------------------------------
    async def post_ping(self, place: Place, reply: Reply, board_ref: str | None) -> str | None:
        """A short message replying to the board, pinging ``reply.mention`` by text_mention; its ref."""
        chat_id = chat_id_of(place)
        if chat_id is None or self.bot is None:
            raise Undeliverable(str(place))
        board = parse_ref(board_ref)
        answer = (ReplyParameters(board[1], allow_sending_without_reply=True)
                  if board is not None and board[0] == chat_id else None)
        text, entities = with_mentions(clip(reply.text, MAX_TEXT), reply.mention)
        await self.pace(place, None, urgent=False)
        try:
            message = await self.bot.send_message(chat_id, text, entities=entities or None, reply_parameters=answer)
        except TelegramError as error:
            raise platform_error(error) from error
        return f"{chat_id}:{message.message_id}"

    async def delete_ping(self, ref: str) -> None:
        """Delete an earlier ping (gone already, or too old to delete: left as it is)."""
        target = parse_ref(ref)
        if target is None or self.bot is None:
            return
        await self.pace(Place("telegram", str(target[0]), str(target[0])), ref, urgent=False)
        try:
            await self.bot.delete_message(*target)
        except TelegramError as error:
            signal = platform_error(error)
            if isinstance(signal, RetryLater):
                raise signal from error
            log.info("telegram_ping_kept", ref=ref, error=error.message)

    async def direct_ping(self, player: PlayerRef, reply: Reply, board_ref: str | None) -> None:
        """The ping as a private message (only reaches players who started the bot)."""
        user_id = user_chat_id(player)
        if user_id is None or self.bot is None:
            return
        try:
            await self.bot.send_message(user_id, clip(reply.text, MAX_TEXT))
        except TelegramError as error:
            signal = platform_error(error)
            if isinstance(signal, RetryLater):
                raise signal from error
            log.info("telegram_direct_ping_not_sent", user_id=user_id, error=error.message)

    # ---- sending ---------------------------------------------------------------------------------
    async def send(
        self,
        bot: Bot,
        chat_id: int,
        replies: list[Reply],
        *,
        reply_to: int | None = None,
        fresh_board: bool = False,
    ) -> None:
        """Post every reply in order: boards through the tracker, the rest as new messages (answering
        reply_to). fresh_board: post boards anew (``/board``). A board the platform refuses now is shown
        later by the outbox consumer; the chat is told so (the change itself is saved)."""
        for reply in replies:
            try:
                if reply.game_id is not None:
                    outcome = await self.show_board(bot, chat_id, reply, fresh=fresh_board)
                    if outcome in (Outcome.LATER, Outcome.BUSY):
                        await self._later(bot, chat_id, reply, reply_to)
                    elif reply.version is not None:
                        await self._ping(reply.game_id, reply.version)
                else:
                    await self.post(bot, chat_id, reply, reply_to=reply_to)
            except Forbidden as error:
                log.warning("telegram_chat_forbidden", chat_id=chat_id, error=error.message)
                return

    async def show_board(self, bot: Bot, chat_id: int, reply: Reply, *, fresh: bool = False) -> Outcome:
        """Show the game's board (fresh: post a new one and take the keyboard off the old one)."""
        assert reply.game_id is not None
        self.attach(bot)
        old = await self.tracker.shown(reply.game_id) if fresh else (0, None)
        version = reply.version if reply.version is not None else 0
        place = Place("telegram", str(chat_id), str(chat_id))  # where to post (only the chat id is used)
        outcome = await self.tracker.show(reply.game_id, version, hint=reply, place=place, fresh=fresh,
                                          budget=HANDLER_BUDGET, wait=HANDLER_WAIT)
        if fresh and outcome is Outcome.SHOWN and old[1] is not None:
            target = parse_ref(old[1])
            if target is not None and target[0] == chat_id:
                await self._retire(bot, target)
        return outcome

    async def _ping(self, game_id: str, version: int) -> None:
        """The board shows the change: ping the player to move, once, in the background (a group allows
        20 messages a minute: the command's answer never waits behind the rate limiter for its ping; the
        outbox consumer sends a ping this instance could not)."""
        task = asyncio.create_task(self._ping_now(game_id, version))
        self._pinging.add(task)
        task.add_done_callback(self._pinging.discard)

    async def _ping_now(self, game_id: str, version: int) -> None:
        try:
            await self.pinger.ping(game_id, version, wait=HANDLER_WAIT)
        except Exception:
            log.warning("telegram_ping_deferred", game_id=game_id, exc_info=True)

    async def pings_sent(self, timeout: float = 10.0) -> None:
        """Wait (bounded) for the pings this instance started (tests; shutdown)."""
        if self._pinging:
            await asyncio.wait(set(self._pinging), timeout=timeout)

    async def _later(self, bot: Bot, chat_id: int, reply: Reply, reply_to: int | None) -> None:
        """Say the change is saved and the board will follow (best effort: the platform is refusing)."""
        place = Place("telegram", str(chat_id), str(chat_id))
        lang = await self.core.language(None, place)
        text = "\n".join(line for line in (reply.text, self.core.t("board_later", lang)) if line)
        try:
            await self.post(bot, chat_id, Reply(text), reply_to=reply_to)
        except TelegramError as error:
            log.info("telegram_board_later_not_sent", chat_id=chat_id, error=error.message)

    async def _edit(self, bot: Bot, target: tuple[int, int], reply: Reply) -> bool:
        """Edit the board message; False when Telegram says it cannot be edited (a new one is needed)."""
        chat_id, message_id = target
        markup = await self._board_markup(bot, reply, chat_id)
        caption = board_caption(reply, await self._hint(chat_id, reply))
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
        markup = await self._board_markup(bot, reply, chat_id)
        caption, entities = with_mentions(board_caption(reply, await self._hint(chat_id, reply)), reply.mention,
                                          prepend=False)
        if reply.image is not None:
            name = reply.image_name or "board.png"
            sent = await bot.send_photo(
                chat_id, self._photo(reply.image), caption=caption, caption_entities=entities or None,
                reply_markup=markup, filename=name,
            )  # fmt: skip
            self._note_photo(reply.image, sent)
            return sent
        return await bot.send_message(chat_id, clip(reply.text or caption, 4096), reply_markup=markup)

    async def _hint(self, chat_id: int, reply: Reply) -> str:
        """In a group, under a board with a turn to play: the forms that reach the bot in privacy mode."""
        if not is_group(chat_id) or not any(b.kind in IN_PLAY for b in reply.buttons):
            return ""
        lang = await self.core.language(None, Place("telegram", str(chat_id), str(chat_id)))
        return self.core.t("group_tg_move_hint", lang)

    async def _markup(self, bot: Bot, chat_id: int, reply: Reply) -> InlineKeyboardMarkup | None:
        """The reply's keyboard; under a challenge in a group also a link to accept it privately."""
        markup = keyboard(reply.buttons)
        if markup is None or not is_group(chat_id):
            return markup
        lang = await self.core.language(None, Place("telegram", str(chat_id), str(chat_id)))
        link = accept_link_button(self.core, lang, bot.username or "", reply)
        if link is None:
            return markup
        return InlineKeyboardMarkup([*markup.inline_keyboard, [link]])

    async def _board_markup(self, bot: Bot, reply: Reply, chat_id: int) -> InlineKeyboardMarkup | None:
        """The board's keyboard, with the "Open board" row when the web board is on."""
        markup = keyboard(reply.buttons)
        if self.links is None:
            return markup
        try:
            username: str | None = bot.username
        except RuntimeError:  # not initialised (no getMe yet): the plain page link in groups
            username = None
        return await self.links.add(markup, reply, chat_id, username)

    async def _retire(self, bot: Bot, target: tuple[int, int]) -> None:
        """Take the keyboard off a board message that was replaced by a newer one (best effort)."""
        try:
            await bot.edit_message_reply_markup(chat_id=target[0], message_id=target[1], reply_markup=None)
        except TelegramError as error:
            log.debug("telegram_old_board_kept", error=error.message)

    async def post(self, bot: Bot, chat_id: int, reply: Reply, *, reply_to: int | None = None) -> None:
        """A reply that is not a board: a document, an animation or picture, or text (split if long). In a group
        it waits for the group's budget, after any board that is waiting."""
        await self.pace(Place("telegram", str(chat_id), str(chat_id)), None, urgent=False)
        answer = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to is not None else None
        markup = await self._markup(bot, chat_id, reply)
        if reply.pictures:
            await self._text(bot, chat_id, reply, answer, markup)
            await self._album(bot, chat_id, reply.pictures)
            return
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

    async def _album(self, bot: Bot, chat_id: int, pictures: tuple[tuple[bytes, str], ...]) -> None:
        """Pictures with captions as one album (sendMediaGroup takes 2-10; a single one is a photo)."""
        if len(pictures) == 1:
            png, caption = pictures[0]
            await bot.send_photo(chat_id, png, filename="blunder-1.png", caption=clip(caption, MAX_CAPTION) or None)
            return
        media = [InputMediaPhoto(png, caption=clip(caption, MAX_CAPTION) or None, filename=f"blunder-{n}.png")
                 for n, (png, caption) in enumerate(pictures[:10], 1)]
        await bot.send_media_group(chat_id, media)

    async def _text(self, bot: Bot, chat_id: int, reply: Reply, answer: ReplyParameters | None, markup: Any) -> None:
        text, entities = with_mentions(reply.text, reply.mention)
        chunks = split_text(text)
        if len(chunks) != 1 or chunks[0] != text:
            entities = []  # offsets no longer hold once the text is cut
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            sent = await bot.send_message(
                chat_id, chunk, entities=entities or None, reply_parameters=answer if index == 0 else None,
                reply_markup=markup if last else None,
            )  # fmt: skip
            if last and reply.buttons:  # a challenge: its message is edited when it ends (bot/delivery)
                await self.core.remember_challenge_message(reply, f"{chat_id}:{sent.message_id}")
