"""The Redis key schema. Every key starts with ``fevga:`` and carries a Redis Cluster hash tag ``{...}``.

Hot-path keys live in one of :data:`BUCKETS` *homes* (hash tag ``{h:<bucket>}``): a channel's indexes,
its challenges and games (their ids start with their home's letter), the idempotency records of commands
given there, the home's timer set and outbox streams. So every command commit touches a single slot, on
one Redis as on a Redis Cluster. Leaderboards (``{r:<scope>}``) and per-user keys (``{u:...}``) live in
their own slots; a match's ratings reach them after the game's commit (bot/service/appliers.py).
"""

from __future__ import annotations

import binascii
import secrets

from .models import Place

PREFIX = "fevga"
ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"  # url-safe base64
BUCKETS = len(ID_ALPHABET)  # 64 homes, spread over the cluster's slots (resharding moves whole homes)
TIMER_BUCKETS = BUCKETS  # one timer zset per home; every instance ticks all of them


def home(bucket: int) -> str:
    """The key prefix (with hash tag) of home ``bucket``."""
    return f"{PREFIX}:{{h:{bucket}}}"


def place_bucket(place: Place) -> int:
    """The home of a chat channel (CRC of platform and channel id)."""
    return binascii.crc_hqx(f"{place.platform}:{place.channel_id}".encode(), 0) % BUCKETS


def id_bucket(ident: str) -> int:
    """The home of a game or challenge id: its first letter (any other id: a CRC of it)."""
    index = ID_ALPHABET.find(ident[:1]) if ident else -1
    return index if index >= 0 else binascii.crc_hqx(ident.encode(), 0) % BUCKETS


def new_id_in(bucket: int) -> str:
    """A fresh 8-letter id (fits in button payloads) whose home is ``bucket``."""
    return ID_ALPHABET[bucket] + secrets.token_urlsafe(6)[1:]


def is_game_id(text: str) -> bool:
    """True when ``text`` has the shape of an id :func:`new_id_in` makes (8 url-safe base64 letters)."""
    return len(text) == 8 and all(c in ID_ALPHABET for c in text)


def timers(member: str) -> str:
    """The zset (timer member -> due time) of ``member``'s home (a ``g:<game>:..`` or ``c:<challenge>:..``
    member lives with its game or challenge, so the timer is written in the same one-slot commit)."""
    return timers_bucket(id_bucket(member.split(":")[1] if member.count(":") >= 2 else member))


def timers_bucket(bucket: int) -> str:
    """The timer zset of home ``bucket`` (0 .. BUCKETS - 1)."""
    return f"{home(bucket)}:due"


ALL_TIMERS = tuple(timers_bucket(b) for b in range(TIMER_BUCKETS))


def ping_timers(gid: str) -> str:
    """The zset (``p:<game>:<platform>`` -> when its turn ping is due) of the game's home: the player to move
    is pinged only once he has been idle that long (``bot/delivery/ping_timers.py``)."""
    return f"{home(id_bucket(gid))}:pings"


ALL_PING_TIMERS = tuple(f"{home(b)}:pings" for b in range(BUCKETS))

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
    """The live session of a game (versioned, compressed JSON), in the home its id names."""
    return f"{home(id_bucket(gid))}:g:{gid}"


def games_prefix(index: str) -> str:
    """What precedes a game id in the keys of the games of the home of the channel index ``index``
    (``game(gid) == games_prefix(channel_games(place)) + gid`` for a game started in that channel)."""
    return index[: index.index("}") + 1] + ":g:"


def game_record(gid: str, n: int) -> str:
    """The kept record of game ``n`` (1-based) of a match, written when that game ends."""
    return f"{game(gid)}:rec:{n}"


def game_analysis(gid: str, n: int) -> str:
    """The stored analysis (``Report.encode()``) of game ``n`` of a match, kept as long as its record."""
    return f"{game(gid)}:ana:{n}"


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


def player_done(platform: str, user_id: str) -> str:
    """Hash: game id -> ``<ended>:<games>`` (unix milliseconds, games played) of every match the player finished
    (``dice``: his rolls over his kept records). Set by the same pending writes as :func:`player_games`."""
    return f"{PREFIX}:{{u:{platform}:{user_id}}}:done"


def challenge_message(cid: str) -> str:
    """Where a challenge's message is shown (``channel:message``), written by the frontend that posted it; the
    delivery layer edits that message once when the challenge ends (``bot/delivery/challenges.py``)."""
    return f"{challenge(cid)}:msg"


def challenge(cid: str) -> str:
    """A challenge (versioned JSON), in the home its id names."""
    return f"{home(id_bucket(cid))}:c:{cid}"


def _chan(place: Place) -> str:
    return f"{home(place_bucket(place))}:ch:{place.platform}:{place.channel_id}"


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


def idem(platform: str, key: str, place: Place | None = None) -> str:
    """The stored first result of a command with this idempotency key, in the home of the channel the
    command came from (where its game lives), so it is written in the command's one-slot commit."""
    bucket = place_bucket(place) if place is not None else id_bucket(key)
    return f"{home(bucket)}:i:{platform}:{key}"


def board_scope(platform: str, scope_id: str | None) -> str:
    """A leaderboard: a place scope, or the platform's global board when ``scope_id`` is None."""
    return f"{platform}:{scope_id}" if scope_id is not None else f"{platform}:*"


def kind_board(scope: str, kind: str) -> str:
    """The leaderboard of one kind of match (fevga, portes, plakoto, tavli) on ``scope``: Fevga's is the board
    itself (so boards stored before tavli are Fevga's), the others ``<scope>#<kind>``."""
    return scope if kind == "fevga" else f"{scope}#{kind}"


def ratings(scope: str) -> str:
    """Zset: user id -> rating."""
    return f"{PREFIX}:{{r:{scope}}}:z"


def rated_marker(scope: str, gid: str) -> str:
    """Set when a match's ratings were applied to this board (bot/service/appliers.py): never twice."""
    return f"{PREFIX}:{{r:{scope}}}:done:{gid}"


def sagas(bucket: int) -> str:
    """Hash in a home: ``<game>:rate`` -> the pending ratings of a match that ended there (JSON)."""
    return f"{home(bucket)}:sagas"


def rating_history(scope: str, user_id: str) -> str:
    """Zset on a board: ``<game>:<rating>:<RD>`` -> when that match's rating was applied (the rating graph);
    written in the same commit as the player's document."""
    return f"{PREFIX}:{{r:{scope}}}:hist:{user_id}"


def player_stats(scope: str, user_id: str) -> str:
    """A player's rating and stats on one leaderboard (versioned JSON)."""
    return f"{PREFIX}:{{r:{scope}}}:p:{user_id}"


def place_settings(place: Place) -> str:
    return f"{PREFIX}:{{s:{place.platform}:{place.scope_id}}}"


def thread_refused(place: Place) -> str:
    """String with a TTL, in the place settings' slot: the platform refused to start a thread in this channel
    (the value: a fingerprint of the place settings then, so a settings change makes the bot try again)."""
    return f"{place_settings(place)}:nothread:{place.channel_id}"


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
    return f"{game(gid)}:board"


def update_key(bot_id: object, kind: str, ident: object) -> str:
    """A command's idempotency key as a frontend builds it: scoped by the bot's identity and the kind of platform id."""
    return f"{bot_id}:{kind}:{ident}"


# --- delivery (bot/delivery): the outbox and the board tracker -----------------------------------
def outbox(platform: str, bucket: int) -> str:
    """Stream: a platform's durable outbox in one home (one entry per commit; read for all homes: :func:`outboxes`)."""
    return f"{home(bucket)}:out:{platform}"


def outboxes(platform: str) -> list[str]:
    """Every home's outbox stream of ``platform``."""
    return [outbox(platform, b) for b in range(BUCKETS)]


def board_shown(gid: str) -> str:
    """Versioned string: the game version its board message shows, then ``channel:message``."""
    return f"{game(gid)}:shown"


def board_lease(gid: str) -> str:
    """Versioned string, short TTL renewed while held: who draws the game's board now (``bot/delivery/lease.py``)."""
    return f"{game(gid)}:drawing"


def ping_state(gid: str) -> str:
    """Versioned string: the game version last pinged for, then what was sent (``bot/delivery/pings.py``)."""
    return f"{game(gid)}:ping"


def ping_lease(gid: str) -> str:
    """Versioned string with a short TTL, renewed while held: who is pinging for the game now (one at a time)."""
    return f"{game(gid)}:pinging"


def legacy_ping_state(gid: str) -> str:
    """Where the ping state was kept before it moved to the game's home: renamed by the start-up migration
    (``migrate.py``) on one Redis, and read when the new key is missing (a rollout; a Cluster is not migrated),
    so no turn is pinged twice. Drop after 30 days (the old state's TTL)."""
    return f"{PREFIX}:{{g:{gid}}}:ping"


def update_claim(platform: str, bot_id: object, kind: str, ident: object) -> str:
    """Versioned string with a TTL: one platform update (re-deliveries included) is being or was handled
    (``bot/delivery/updates.py``), scoped by the bot's identity like idempotency keys (two bots on one Redis each
    handle their own). Older keys need no migration: claims live 30 s, handled marks an hour."""
    return f"{PREFIX}:{{u:{platform}}}:upd:{update_key(bot_id, kind, ident)}"
