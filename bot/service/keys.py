"""The Redis key schema. Every key starts with ``fevga:`` and carries a hash tag ``{...}`` so that all keys
of one game (or one channel, one leaderboard) share a Cluster slot."""

from __future__ import annotations

from .models import Place

PREFIX = "fevga"
TIMERS = f"{PREFIX}:{{t}}:due"  # zset: timer member -> due time

# Retention (seconds), refreshed on each write: see docs/service.md.
LIVE_TTL = 35 * 86400  # a session: well past the longest turn deadline (14 days) and its claim window
FINISHED_TTL = 3 * 86400  # a finished match's session (its last board, rematch); its records stay longer
RECORD_KEEP = 90 * 86400  # a finished game's compact record
STATS_KEEP = 400 * 86400  # a player's rating document (renewed by every rated match)


def timer(kind: str, ident: str, platform: str) -> str:
    """A timer's member: ``c:<challenge>:<platform>`` or ``g:<game>:<platform>`` (ids have no ``:``), so an
    instance serving one platform claims only that platform's timers."""
    return f"{kind}:{ident}:{platform}"


def game(gid: str) -> str:
    """The live session of a game (versioned, compressed JSON)."""
    return f"{PREFIX}:{{g:{gid}}}"


GAME_PREFIX, GAME_SUFFIX = f"{PREFIX}:{{g:", "}"  # game(gid) == GAME_PREFIX + gid + GAME_SUFFIX


def game_record(gid: str, n: int) -> str:
    """The kept record of game ``n`` (1-based) of a match, written when that game ends."""
    return f"{PREFIX}:{{g:{gid}}}:rec:{n}"


def game_analysis(gid: str, n: int) -> str:
    """The stored analysis (``Report.encode()``) of game ``n`` of a match, kept as long as its record."""
    return f"{PREFIX}:{{g:{gid}}}:ana:{n}"


def player_rates(platform: str, user_id: str) -> str:
    """JSON list of a player's last analysed games: ``[[game key, error rate], ...]``, newest last."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:rates"


def player_short(platform: str, user_id: str) -> str:
    """Versioned JSON list of a player's recent short matches ``[[opponent id, name, ended at], ...]``
    (``fairness.py``: repeated short rated matches against one opponent are flagged, then unrated)."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:short"


def player_games(platform: str, user_id: str) -> str:
    """Hash: game id -> JSON ``[platform, scope id, channel id, opponent name]`` of every match the player has
    running on this platform (``mygames``). Set when a match starts, removed when it ends, in the session's
    commit (HSET/HDEL of one field: applying it twice changes nothing)."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:games"


def challenge_message(cid: str) -> str:
    """Where a challenge's message is shown (``channel:message``), written by the frontend that posted it; the
    delivery layer edits that message once when the challenge ends (``bot/delivery/challenges.py``)."""
    return f"{PREFIX}:{{c:{cid}}}:msg"


def challenge(cid: str) -> str:
    return f"{PREFIX}:{{c:{cid}}}"


def _chan(place: Place) -> str:
    return f"{PREFIX}:{{ch:{place.platform}:{place.channel_id}}}"


def channel_games(place: Place) -> str:
    """Hash: user id -> id of his game running in this channel."""
    return f"{_chan(place)}:play"


def channel_challenges(place: Place) -> str:
    """Hash: challenge id -> 'from_user_id|to_user_id' (to is empty for an open challenge)."""
    return f"{_chan(place)}:chal"


def channel_pairs(place: Place) -> str:
    """Hash: 'from_user_id|to_user_id' -> the open challenge between them here (at most one: duplicates are
    refused atomically, the commit checks the field is free)."""
    return f"{_chan(place)}:pairs"


def channel_last(place: Place) -> str:
    """Hash: user id -> id of his last finished game in this channel (for rematch and export)."""
    return f"{_chan(place)}:last"


def idem(platform: str, key: str) -> str:
    """The stored first result of a command with this idempotency key."""
    return f"{PREFIX}:{{i:{platform}:{key}}}"


def board_scope(platform: str, scope_id: str | None) -> str:
    """A leaderboard: a place scope, or the platform's global board when ``scope_id`` is None."""
    return f"{platform}:{scope_id}" if scope_id is not None else f"{platform}:*"


def ratings(scope: str) -> str:
    """Zset: user id -> rating."""
    return f"{PREFIX}:{{r:{scope}}}:z"


def player_stats(scope: str, user_id: str) -> str:
    """A player's rating and stats on one leaderboard (versioned JSON)."""
    return f"{PREFIX}:{{r:{scope}}}:p:{user_id}"


def place_settings(place: Place) -> str:
    return f"{PREFIX}:{{s:{place.platform}:{place.scope_id}}}"


def player_settings(platform: str, user_id: str) -> str:
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:set"


def place_events(platform: str, channel_id: str) -> str:
    """Pub/sub channel: events of every game in a chat channel."""
    return f"{PREFIX}:ev:p:{platform}:{channel_id}"


def game_events(gid: str) -> str:
    return f"{PREFIX}:ev:g:{gid}"


def usernames(platform: str) -> str:
    """Hash: lower-case username -> [user id, display name] (Telegram mentions carry no id)."""
    return f"{PREFIX}:{{n:{platform}}}:names"


def chat_titles(platform: str) -> str:
    """Hash: channel id -> the chat's title, noted by a frontend that knows it (``mygames`` names chats with
    no message links by it)."""
    return f"{PREFIX}:{{n:{platform}}}:titles"


def board_game(platform_ref: str) -> str:
    """The game shown in a board message (``channel:message``)."""
    return f"{PREFIX}:{{m:{platform_ref}}}:game"


def board_ref(gid: str) -> str:
    """Where a game's board message is (same hash tag as the game, for Redis Cluster)."""
    return f"{PREFIX}:{{g:{gid}}}:board"


def update_key(bot_id: object, kind: str, ident: object) -> str:
    """A command's idempotency key as a frontend builds it: scoped by the bot's own identity (two bots on one
    Redis never share keys) and the kind of platform id (update, callback query, interaction, message)."""
    return f"{bot_id}:{kind}:{ident}"


# --- delivery (bot/delivery): the outbox and the board tracker -----------------------------------
def outbox(platform: str) -> str:
    """Stream: the durable outbox of a platform (board changes and notices, one entry per commit)."""
    return f"{PREFIX}:{{o:{platform}}}:out"


def board_shown(gid: str) -> str:
    """Versioned string: the game version its board message shows, then ``channel:message``."""
    return f"{PREFIX}:{{g:{gid}}}:shown"


def board_lease(gid: str) -> str:
    """Versioned string with a TTL: who is drawing the game's board now (one drawer at a time)."""
    return f"{PREFIX}:{{g:{gid}}}:drawing"
