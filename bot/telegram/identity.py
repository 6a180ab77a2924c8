"""Who and where on Telegram, in the core's terms: users become ``PlayerRef``s, chats become ``Place``s,
and "@username"s are resolved to the user ids the bot has seen."""

from __future__ import annotations

from telegram import Chat, User

from bot.chat.core import BotCore
from bot.logging_setup import get_logger
from bot.service.models import Place, PlayerRef

PLATFORM = "telegram"
PRIVATE_PREFIX = "private:"
_DIRECTORY_LIMIT = 10_000  # usernames kept in memory by one instance (the core's store keeps them all)

log = get_logger(__name__)


def player_of(user: User) -> PlayerRef:
    """The core's player for a Telegram user: the numeric id, and a name people recognise (bots are marked)."""
    name = user.full_name or (f"@{user.username}" if user.username else str(user.id))
    return PlayerRef(PLATFORM, str(user.id), name, bot=bool(user.is_bot))


def place_of(chat: Chat) -> Place:
    """A group chat is its own place; a private chat is the place "private:<id>" (one per user)."""
    if chat.type == Chat.PRIVATE:
        return Place(PLATFORM, f"{PRIVATE_PREFIX}{chat.id}", str(chat.id))
    return Place(PLATFORM, str(chat.id), str(chat.id))


def chat_id_of(place: Place) -> int | None:
    """The chat to post to for a place of this platform (None for another platform's place)."""
    if place.platform != PLATFORM:
        return None
    try:
        return int(place.channel_id)
    except ValueError:
        return None


def user_chat_id(player: PlayerRef) -> int | None:
    """The private chat id of a Telegram player (a user's private chat id is the user id)."""
    if player.platform != PLATFORM or not player.user_id.lstrip("-").isdigit():
        return None
    return int(player.user_id)


def mention_token(user_id: int) -> str:
    """The word put in a command line for a user known only by id (reply or text_mention)."""
    return f"<@{user_id}>"


class Directory:
    """@username -> player. Every user the bot sees is remembered here; the core's shared store is used
    too when it offers one (``remember_username`` / ``player_by_username``), so that every instance knows
    the same names."""

    def __init__(self, core: BotCore) -> None:
        self.core = core
        self._known: dict[str, PlayerRef] = {}
        self._titles: dict[int, str] = {}

    @staticmethod
    def _key(username: str) -> str:
        return username.lstrip("@").lower()

    async def remember(self, user: User) -> None:
        """Note the user's current @username (usernames can change hands, so the newest wins)."""
        if not user.username or user.is_bot:
            return
        key = self._key(user.username)
        player = player_of(user)
        if self._known.get(key) == player:
            return
        if len(self._known) >= _DIRECTORY_LIMIT:
            self._known.pop(next(iter(self._known)))
        self._known[key] = player
        try:
            await self.core.remember_username(PLATFORM, key, player)
        except Exception:  # the directory is a convenience: a failure must not stop the command
            log.warning("telegram_username_not_stored", exc_info=True)

    async def remember_chat(self, chat: Chat) -> None:
        """Note a group's title (written only when it changed), so ``mygames`` can name a chat that has no
        message links (a basic group)."""
        if chat.type == Chat.PRIVATE or not chat.title or self._titles.get(chat.id) == chat.title:
            return
        if len(self._titles) >= _DIRECTORY_LIMIT:
            self._titles.pop(next(iter(self._titles)))
        self._titles[chat.id] = chat.title
        try:
            await self.core.remember_chat_title(PLATFORM, str(chat.id), chat.title)
        except Exception:  # a convenience: a failure must not stop the command
            log.warning("telegram_chat_title_not_stored", exc_info=True)

    async def lookup(self, username: str) -> PlayerRef | None:
        """The player behind "@username", or None for a user the bot has never seen (Telegram tells bots
        no id for a bare @username; the core then asks to mention the player or reply to his message)."""
        key = self._key(username)
        found = self._known.get(key)
        if found is not None:
            return found
        try:
            stored = await self.core.player_by_username(PLATFORM, key)
        except Exception:
            log.warning("telegram_username_lookup_failed", exc_info=True)
            return None
        if isinstance(stored, PlayerRef):
            self._known[key] = stored
            return stored
        return None
