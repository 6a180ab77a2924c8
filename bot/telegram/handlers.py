"""PTB handlers: each text message becomes one command-language line for ``core.handle_text``, each
button press one ``core.press``; the replies go back through ``Delivery``. Every callback query is
answered exactly once, and no exception ever reaches a chat as a traceback."""

from __future__ import annotations

import contextlib
import time
from dataclasses import replace
from typing import Any

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.chat.core import BotCore
from bot.commands.puzzle_intents import PuzzleStep
from bot.delivery.replies import Handled, Reply
from bot.delivery.updates import UpdateGate
from bot.logging_setup import get_logger
from bot.service.keys import update_key
from bot.service.models import Place, PlayerRef

from .binding import bind, unbind
from .delivery import Delivery
from .groups import (
    DEEP_ACCEPT,
    WELCOME_LINES,
    WELCOME_PREFIX,
    WELCOME_TEXTS,
    challenge_place,
    start_payload,
    telegram_replies,
    welcome_keyboard,
)
from .identity import Directory, place_of, player_of
from .lines import CommandLine, board_reply_ref, command_line, puzzle_reply_line
from .members import mark_departed
from .ordering import ChatQueue
from .puzzle_steps import steps_privately
from .texts import MAX_ALERT, clip

log = get_logger(__name__)

# only these commands need to know whether the author is an admin
ADMIN_COMMANDS = frozenset({"settings", "lang", "tournament", "ping"})
_ADMIN_STATUSES = ("creator", "administrator")
_ADMIN_CACHE_SECONDS = 300.0
FALLBACK_ERROR = {
    "en": "Sorry, something went wrong. Please try again.",
    "el": "Συγγνώμη, κάτι πήγε στραβά. Δοκίμασε ξανά.",
}


class Handlers:
    """The frontend's reactions to Telegram updates, around one core and one Delivery."""

    def __init__(self, core: BotCore, delivery: Delivery, chats: ChatQueue) -> None:
        self.core = core
        self.delivery = delivery
        self.directory = Directory(core)
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}
        self.chats = chats
        self.gate = UpdateGate(core.store, "telegram")
        self.ends = core.challenge_ends(delivery)  # challenge messages edited by the command that ended them

    async def _challenges_ended(self, handled: Handled) -> None:
        """Say at once, in their messages, how the challenges the command ended ended (the accepted one: its
        challenger sees it taken now, not after the outbox's grace, which only repairs a failed edit)."""
        for entry in handled.challenge_ends:
            await self.ends.now(entry)

    # ---- helpers ---------------------------------------------------------------------------------
    async def _is_admin(self, message: Message, actor_id: int) -> bool:
        """Private chats belong to their user; in groups ask Telegram (cached for a few minutes)."""
        chat = message.chat
        if chat.type == Chat.PRIVATE:
            return True
        key = (chat.id, actor_id)
        cached = self._admins.get(key)
        now = time.monotonic()
        if cached is not None and now - cached[0] < _ADMIN_CACHE_SECONDS:
            return cached[1]
        try:
            member = await message.get_bot().get_chat_member(chat.id, actor_id)
            admin = member.status in _ADMIN_STATUSES
        except TelegramError as error:
            log.info("telegram_admin_check_failed", chat_id=chat.id, error=error.message)
            admin = False
        self._admins[key] = (now, admin)
        return admin

    async def _mentions(self, line: CommandLine, actor: PlayerRef, author_username: str | None,
                        bot_user: User | None = None) -> dict[str, PlayerRef]:
        mentions: dict[str, PlayerRef] = {}
        for word in line.usernames:
            if author_username and word.lstrip("@").lower() == author_username.lower():
                mentions[word] = actor
            elif bot_user is not None and bot_user.username and word.lstrip("@").lower() == bot_user.username.lower():
                mentions[word] = player_of(bot_user)  # the bot itself: marked, so a challenge to it is refused
            else:
                found = await self.directory.lookup(word)
                if found is not None:
                    mentions[word] = found
        for token, user in line.users.items():
            await self.directory.remember(user)
            mentions[token] = player_of(user)
        return mentions

    async def _fallback_error(self, actor: PlayerRef, place: Place) -> str:
        """A translated "something went wrong" (from the core when it has one)."""
        try:
            lang = await self.core.language(actor, place)
        except Exception:
            lang = "en"
        try:
            text = self.core.t("internal_error", lang)
            if isinstance(text, str) and text and text != "internal_error":
                return text
        except Exception:
            log.debug("telegram_no_internal_error_text", exc_info=True)
        return FALLBACK_ERROR.get(lang, FALLBACK_ERROR["en"])

    async def _replied_game(self, message: Message, bot_user: User) -> str | None:
        """The game whose board message this message replies to (None when it is not such a reply)."""
        target = board_reply_ref(message, bot_user)
        if target is None:
            return None
        return await self.delivery.game_of_message(target[0], target[1])

    # ---- text messages ---------------------------------------------------------------------------
    async def on_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A text message (command, bare play, or reply to a board): one line for the core."""
        message = update.effective_message
        if message is None or message.from_user is None:
            return
        bot_id = context.bot.token.partition(":")[0]  # two bots (two tokens) on one Redis share update ids
        if not await self.gate.claim(bot_id, update.update_id):
            return  # a re-delivered webhook update, handled (or being handled) already
        async with self.chats.turn(message.chat.id):
            await self._text(update, message, context)
        await self.gate.done(bot_id, update.update_id)

    async def _text(self, update: Update, message: Message, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert message.from_user is not None
        bot = context.bot
        line = command_line(message, bot.bot)
        await self.directory.remember(message.from_user)
        await self.directory.remember_chat(message.chat)
        if line is None:
            return
        actor, place = player_of(message.from_user), place_of(message.chat)
        idem = update_key(bot.token.partition(":")[0], "u", update.update_id)
        try:
            if line.text.split(" ")[0] == "start":  # /start: the welcome, or a deep link
                await self._start(bot, message, actor, place, start_payload(line.text), idem)
                return
            line = puzzle_reply_line(message, bot.bot, line)  # a bare play replying to a puzzle: its answer
            game = await self._replied_game(message, bot.bot)
            if line.command is None and message.chat.type != Chat.PRIVATE and game is None \
                    and not await self.core.has_game(place, actor):
                return  # chatter that looks like a move ("12/5 meeting at 7pm?") from someone not playing here
            mentions = await self._mentions(line, actor, message.from_user.username, bot.bot)
            if line.command == "challenge":  # no challenge to one who left (asked of Telegram for a challenge only)
                mentions = await mark_departed(bot, message.chat, actor, mentions)
            is_admin = line.command in ADMIN_COMMANDS and await self._is_admin(message, message.from_user.id)
            handled = await self.core.handle_text(
                actor, place, line.text, idem=idem, mentions=mentions, is_admin=is_admin, reply_to_game=game,
                locale=message.from_user.language_code,
            )  # fmt: skip
            fresh = handled.word == "board"  # the command the core read, not a second reading of the line
            unread_move = handled.intent is None and line.command == "move"  # e.g. "/m" alone: show the forms
            word = "move" if unread_move else "help" if handled.word == "help" else None
            replies = await self._privately(bot, message.chat, message.from_user, handled.replies)
            # not told privately: a reply with a fallback (the verdict on a daily puzzle) is not shown to the group
            replies = [Reply(r.fallback) if r.private and r.fallback else r for r in replies]
            replies = await telegram_replies(self.core, actor, message.chat, word, replies)
            await self.delivery.send(bot, message.chat.id, replies, reply_to=message.message_id, fresh_board=fresh)
            await self._challenges_ended(handled)
            if any(r.fallback for r in handled.replies) and message.chat.type != Chat.PRIVATE:
                with contextlib.suppress(TelegramError):  # the typed answer names a play the group could copy:
                    await message.delete()  # deleted where the bot may (an admin who may delete messages)
        except Exception:
            log.exception("telegram_text_failed", chat_id=message.chat.id, command=line.command)
            with contextlib.suppress(Exception):
                await message.reply_text(await self._fallback_error(actor, place))

    async def _privately(self, bot: Any, chat: Chat, user: User | None, replies: list[Reply]) -> list[Reply]:
        """Personal replies (his settings, a puzzle's verdict; not errors) to a command or button in a group go to
        the author's private chat when the bot may write there; the rest (or all, if it may not) is answered in
        the group (a button's as an alert)."""
        if chat.type == Chat.PRIVATE or user is None:
            return replies
        personal = [r for r in replies if r.private and not r.error and not r.buttons and r.game_id is None]
        if not personal:
            return replies
        try:
            for reply in personal:
                await self.delivery.post(bot, user.id, reply)
        except TelegramError as error:  # he never started a private chat with the bot: answer here
            log.info("telegram_private_reply_refused", user_id=user.id, error=error.message)
            return replies
        return [r for r in replies if not any(r is p for p in personal)]

    async def _start(self, bot: Any, message: Message, actor: PlayerRef, place: Place, payload: str | None,
                     idem: str) -> None:
        """``/start``: the welcome with its buttons; ``/start accept_<id>`` (a deep link from a group's
        challenge) accepts that challenge from this private chat: the board goes to the group."""
        lang = await self.core.language(actor, place, getattr(message.from_user, "language_code", None))
        if payload is None or not payload.startswith(DEEP_ACCEPT) or message.chat.type != Chat.PRIVATE:
            keys = welcome_keyboard(self.core, lang)
            await message.reply_text(self.core.t("group_tg_welcome", lang), reply_markup=keys)
            return
        challenge_id = payload.removeprefix(DEEP_ACCEPT)
        where = await challenge_place(self.core, challenge_id)
        if where is None or where.platform != "telegram":
            await message.reply_text(self.core.t("group_tg_bad_link", lang))
            return
        handled = await self.core.handle_text(actor, where, f"accept {challenge_id}", idem=idem)
        public = [r for r in handled.replies if not r.private and not r.error]
        if public:
            await self.delivery.send(bot, int(where.channel_id), public)
            await self._challenges_ended(handled)
            title = where.channel_id
            with contextlib.suppress(TelegramError):
                title = (await bot.get_chat(int(where.channel_id))).title or title
            await message.reply_text(self.core.t("group_tg_accepted_there", lang, chat=title))
        else:
            await self.delivery.send(bot, message.chat.id, handled.replies, reply_to=message.message_id)

    async def _welcome_button(self, query: CallbackQuery, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button of the welcome: play the computer or show the rules (as if typed), or how to challenge."""
        await query.answer()
        message = query.message
        if message is None or query.data is None:
            return
        actor, place = player_of(query.from_user), place_of(message.chat)
        if query.data in WELCOME_TEXTS:
            lang = await self.core.language(actor, place, query.from_user.language_code)
            await context.bot.send_message(message.chat.id, self.core.t(WELCOME_TEXTS[query.data], lang))
            return
        line = WELCOME_LINES.get(query.data)
        if line is not None:
            idem = update_key(context.bot.token.partition(":")[0], "q", query.id)
            handled = await self.core.handle_text(actor, place, line, idem=idem)
            await self.delivery.send(context.bot, message.chat.id, handled.replies)

    # ---- buttons -----------------------------------------------------------------------------------
    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A button press: core.press, then answer the query exactly once (an alert for private replies)
        and update the board or chat for the rest."""
        query = update.callback_query
        if query is None:
            return
        bot_id = context.bot.token.partition(":")[0]
        if not await self.gate.claim(bot_id, update.update_id):
            return  # a re-delivered webhook update, handled (or being handled) already
        chat_id = query.message.chat.id if query.message is not None else 0
        async with self.chats.turn(chat_id):
            await self._press(query, context)
        await self.gate.done(bot_id, update.update_id)

    async def _press(self, query: CallbackQuery, context: ContextTypes.DEFAULT_TYPE) -> None:
        answered = False
        try:
            message = query.message  # a Message, or an InaccessibleMessage (old) that still names its chat
            if query.data is None or message is None:
                await query.answer()
                answered = True
                return
            if query.data.startswith(WELCOME_PREFIX):
                answered = True
                await self._welcome_button(query, context)
                return
            actor, place = player_of(query.from_user), place_of(message.chat)
            await self.directory.remember(query.from_user)
            await self.directory.remember_chat(message.chat)  # a group's title names its puzzle in private chats
            owner, token = unbind(query.data)
            if owner is not None and owner != actor.user_id:
                await query.answer(clip(await self._foreign_button(actor, place, message, owner), MAX_ALERT), True)
                answered = True
                return
            idem = update_key(context.bot.token.partition(":")[0], "q", query.id)
            handled = await self.core.press(actor, place, token, idem=idem, locale=query.from_user.language_code)
            replies = await self._privately(context.bot, message.chat, query.from_user, handled.replies)
            if message.chat.type == Chat.PRIVATE:  # a puzzle's verdict (or his next steps) in his own chat: a
                replies = [replace(r, private=False) if r.private and not r.error else r  # message naming no one
                           for r in replies]
            replies = await telegram_replies(self.core, actor, message.chat, None, replies)
            if isinstance(handled.intent, PuzzleStep) and message.chat.type != Chat.PRIVATE:  # his steps: his alone
                replies = await steps_privately(self.core, self.delivery, context.bot, query.from_user, place,
                                                handled.intent, replies, message.chat.title)
            # An alert can carry no buttons: a private reply with buttons (the resign confirmation) is posted
            # in the chat instead, naming the player it is for, its buttons bound to him.
            private = [r for r in replies if r.private and not r.buttons]
            public = [bind(r, actor) if r.private else r for r in replies if not r.private or r.buttons]
            await self._answer(query, private)
            answered = True
            await self.delivery.send(context.bot, message.chat.id, public)
            shared = isinstance(handled.intent, PuzzleStep) and not handled.intent.owner  # everyone's puzzle post
            if public and not any(r.error for r in public) and isinstance(message, Message) and not shared:
                await self._retire_pressed(message, public)
            await self._challenges_ended(handled)
        except Exception:
            log.exception("telegram_press_failed", data=query.data)
            if not answered:
                with contextlib.suppress(Exception):
                    await self._answer_error(query)
                answered = True
        finally:
            if not answered:  # e.g. cancelled: Telegram would show a spinner for a long time
                with contextlib.suppress(Exception):
                    await query.answer()

    async def _foreign_button(self, actor: PlayerRef, place: Place, message: Any, owner: str) -> str:
        """ "This button is for <owner>": the core's text when it has one."""
        lang = await self.core.language(actor, place)
        name = owner
        for entity in getattr(message, "entities", None) or ():
            if entity.user is not None and str(entity.user.id) == owner:
                name = entity.user.first_name
        return self.core.t("button_not_yours", lang, player=name)

    async def _retire_pressed(self, message: Message, replies: list[Reply]) -> None:
        """A challenge message whose button did its job loses its keyboard (boards keep theirs)."""
        if message.reply_markup is None or not message.reply_markup.inline_keyboard:
            return
        if await self.delivery.is_board(message.chat.id, message.message_id, replies):
            return
        try:
            await message.edit_reply_markup(reply_markup=None)
        except TelegramError as error:
            log.debug("telegram_keyboard_kept", error=error.message)

    async def _answer(self, query: CallbackQuery, private: list[Reply]) -> None:
        if not private:
            await query.answer()
            return
        text = "\n".join(r.text for r in private if r.text)
        await query.answer(clip(text, MAX_ALERT), show_alert=True)

    async def _answer_error(self, query: CallbackQuery) -> None:
        message = query.message
        place = place_of(message.chat) if message is not None else None
        actor = player_of(query.from_user)
        text = await self._fallback_error(actor, place) if place is not None else FALLBACK_ERROR["en"]
        await query.answer(clip(text, MAX_ALERT), show_alert=True)

    # ---- errors ---------------------------------------------------------------------------------------
    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Log what escaped a handler (never shown in a chat); answer a still-open callback query."""
        log.error("telegram_handler_error", error=repr(context.error), exc_info=context.error)
        if isinstance(update, Update) and update.callback_query is not None:
            with contextlib.suppress(Exception):
                await update.callback_query.answer()
