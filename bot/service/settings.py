"""Per-place and per-player settings: turn deadline, default variants, auto-play, language, turn pings, the
daily puzzle's hour."""

from __future__ import annotations

import logging

from bot.service.game_words import MATCH_KINDS, game_word
from bot.storage.base import Commit, DamagedKey, Store
from fevga import FevgaError, Rules

from . import keys
from .commits import Change
from .config import Options
from .fairness import MIN_RATED_DEADLINE, deadline_rated
from .flow import MatchFlow
from .models import Msg, Place, PlayerRef, Result
from .puzzles.schedule import parse_hour, schedule
from .reads import Reads, read_one
from .session import Session
from .sessions import Sessions

LANGUAGES = ("en", "el")
MIN_DEADLINE_HOURS = 0.05  # 3 minutes
log = logging.getLogger(__name__)
MAX_DEADLINE_HOURS = 24 * 14
PING_AFTER = 30.0  # seconds the player to move is idle before his turn ping (default of ``ping_after``)
MAX_PING_AFTER = 3600.0

# name -> (where it lives, needs an admin)
SETTINGS: dict[str, tuple[str, bool]] = {
    "deadline_hours": ("place", True),
    "unlock_point": ("place", True),
    "strict_start_quarter": ("place", True),
    "place_lang": ("place", True),
    "default_game": ("place", True),  # what a bare challenge / play ai plays: fevga, portes, plakoto, tavli
    "analysis": ("place", True),  # post an analysis after every game: on, off, ai (only in games against the AI)
    "threads": ("place", True),  # Discord: each game in its own thread (on), else the board is re-posted
    "ping_after": ("place", True),  # seconds the player to move is idle before his turn ping (0: at once)
    "puzzle_hour": ("place", True),  # the hour (0-23 UTC) the daily puzzle is posted here, or off (bot/service/puzzles)
    "season": ("place", True),  # monthly seasons of the leaderboard (bot/service/seasons): monthly or off
    "autoplay": ("player", False),
    "lang": ("player", False),
    "ping": ("player", False),  # pinged when it is his turn in a game between two people (groups)
    "ping_dm": ("player", False),  # ... also by a private message
}
DURATIONS = {"deadline_hours": 3600.0}  # settings that are spans of time: seconds per unit of their value
ALIASES = {"deadline": "deadline_hours", "language": "lang", "auto": "autoplay", "variant": "unlock_point",
           "game": "default_game"}
_ON = {"on": "on", "yes": "on", "true": "on", "1": "on", "off": "off", "no": "off", "false": "off", "0": "off"}


def owner_of(place: Place) -> PlayerRef | None:
    """The one person of a private place (a Telegram private chat, a Discord DM, the terminal), else None."""
    for prefix in ("private:", "dm:"):
        if place.scope_id.startswith(prefix):
            return PlayerRef(place.platform, place.scope_id[len(prefix):], "")
    if place.platform == "terminal":
        return PlayerRef("terminal", "you", "")
    return None


def setting_msg(key: str, name: str, value: str) -> Msg:
    """``setting_line`` or ``setting_changed`` for one setting; a span of time also in words ("0.5 (30
    minutes)"), through the catalogue's one duration helper."""
    unit = DURATIONS.get(name)
    if unit is not None:
        try:
            return Msg(f"{key}_duration", {"name": name, "value": value, "seconds": float(value) * unit})
        except ValueError:  # a stored value that is not a number is shown as it is
            pass
    return Msg(key, {"name": name, "value": value})


def _chosen(values: dict[str, str], hint: str | None) -> str | None:
    """A player's language from his settings: his own choice, else ``hint``, else his last known locale."""
    for found in (values.get("lang"), hint, values.get("locale")):
        if found in LANGUAGES:
            return str(found)
    return None


def normalise(name: str, value: str) -> tuple[str, str] | Result:
    """The canonical name and value of a setting, or an error Result saying what is accepted."""
    name = ALIASES.get(name.strip().lower(), name.strip().lower())
    raw = str(value).strip().lower()
    if name not in SETTINGS:
        return Result.error("setting_unknown", name=name, names=", ".join(SETTINGS))
    if name == "deadline_hours":
        try:
            hours = float(raw)
        except ValueError:
            hours = -1.0
        if not MIN_DEADLINE_HOURS <= hours <= MAX_DEADLINE_HOURS:
            return Result.error("setting_bad_value", name=name, allowed=f"{MIN_DEADLINE_HOURS}-{MAX_DEADLINE_HOURS}")
        return name, f"{hours:g}"
    if name == "ping_after":
        try:
            seconds = float(raw.removesuffix("s"))
        except ValueError:
            seconds = -1.0
        if not 0 <= seconds <= MAX_PING_AFTER:  # NaN fails too
            return Result.error("setting_bad_value", name=name, allowed=f"0-{MAX_PING_AFTER:g}")
        return name, f"{seconds:g}"
    if name == "puzzle_hour":
        if raw != "off" and parse_hour(raw) is None:
            return Result.error("setting_bad_value", name=name, allowed="0-23, off")
        return name, raw if raw == "off" else str(int(raw))
    if name == "unlock_point":
        if raw not in ("13", "14"):
            return Result.error("setting_bad_value", name=name, allowed="13, 14")
        return name, raw
    if name == "default_game":
        kind = game_word(raw)
        if kind is None:
            return Result.error("setting_bad_value", name=name, allowed=", ".join(MATCH_KINDS))
        return name, kind
    if name == "analysis":
        if raw not in (*_ON, "ai"):
            return Result.error("setting_bad_value", name=name, allowed="on, off, ai")
        return name, _ON.get(raw, raw)
    if name == "season":
        if raw not in ("monthly", "month", *_ON):
            return Result.error("setting_bad_value", name=name, allowed="monthly, off")
        return name, "off" if _ON.get(raw) == "off" else "monthly"
    if name in ("strict_start_quarter", "autoplay", "ping", "ping_dm", "threads"):
        if raw not in _ON:
            return Result.error("setting_bad_value", name=name, allowed="on, off")
        return name, _ON[raw]
    if raw not in LANGUAGES:
        return Result.error("setting_bad_value", name=name, allowed=", ".join(LANGUAGES))
    return name, raw


class Settings:
    """Read and change settings; they apply to games started afterwards (auto-play also at once)."""

    def __init__(self, store: Store, options: Options, sessions: Sessions, flow: MatchFlow) -> None:
        self.store = store
        self.options = options
        self.sessions = sessions
        self.flow = flow

    async def place_defaults(self, place: Place) -> tuple[float, Rules]:
        """The turn deadline (seconds) and default rule variants of a place."""
        deadline, rules, _kind = await self.place_choice(place)
        return deadline, rules

    async def place_choice(self, place: Place) -> tuple[float, Rules, str]:
        """The turn deadline (seconds), default Fevga variants and default game (``default_game``) of a place."""
        values = await place_values(self.store, place)
        deadline = self.options.turn_deadline
        if "deadline_hours" in values:
            try:
                hours = float(values["deadline_hours"])
                if not 0 < hours <= MAX_DEADLINE_HOURS:
                    raise ValueError(f"out of range: {hours}")
                deadline = hours * 3600
            except ValueError as exc:
                log.error("bad deadline_hours setting in %s (%s); using the default", place.scope_id, exc)
        try:
            rules = Rules(unlock_point=int(values.get("unlock_point", 13)),
                          strict_start_quarter=values.get("strict_start_quarter") == "on")
        except (FevgaError, ValueError):
            log.error("bad rule settings in %s; using the default rules", place.scope_id)
            rules = Rules()
        return deadline, rules, default_game(values, place)

    async def lang(self, actor: PlayerRef | None, place: Place, hint: str | None = None) -> str:
        """The language of personal replies: the player's ``lang``, else his platform's language (``hint``,
        e.g. Telegram's ``language_code``, remembered for later), else the place's."""
        return (await self.languages(actor, place, hint))[0]

    async def place_lang(self, place: Place) -> str:
        """The language of shared messages and boards here (see :meth:`languages`)."""
        return (await self.languages(None, place))[1]

    async def languages(self, actor: PlayerRef | None, place: Place, hint: str | None = None,
                        default: str = "en") -> tuple[str, str]:
        """(personal, shared) languages in one read. Shared messages and boards use the place's ``place_lang``;
        without one, a one-person place (a private chat, a DM, the terminal) speaks its owner's language and
        any other place ``default`` (FEVGA_LANGUAGE). Personal replies use the player's ``lang``, else ``hint``
        (one of our languages, from the platform), else the one he was last seen with, else the place's."""
        owner = owner_of(place)
        reads = Reads()
        here = reads.hgetall(keys.place_settings(place))
        mine = reads.hgetall(keys.player_settings(actor.platform, actor.user_id)) if actor is not None else None
        theirs = reads.hgetall(keys.player_settings(owner.platform, owner.user_id)) if owner is not None else None
        try:
            await reads.run(self.store)
        except DamagedKey as exc:  # a damaged settings key must not silence the bot
            log.error("settings %s are damaged; answering in English", exc.key)
            return hint if hint in LANGUAGES else default, default
        found = here.value.get("place_lang")
        shared = str(found) if found in LANGUAGES else None
        if shared is None:  # the owner's hint counts at once when he is the one speaking (his first message)
            own_hint = hint if actor is not None and owner is not None and actor.same(owner) else None
            shared = _chosen(theirs.value if theirs is not None else {}, own_hint) or default
        if mine is None or actor is None:
            return shared, shared
        personal = _chosen(mine.value, hint) or shared
        if hint in LANGUAGES and mine.value.get("locale") != hint:  # remembered for notices in his own chat
            try:
                await self.store.commit(Commit().hset(keys.player_settings(actor.platform, actor.user_id),
                                                      "locale", str(hint)))
            except Exception:  # only a remembered default: never a reason to fail a reply
                log.warning("could not remember the language of %s:%s", actor.platform, actor.user_id)
        return personal, shared

    async def settings(self, actor: PlayerRef, place: Place) -> Result:
        """Every setting that applies to the actor here, with its value."""
        reads = Reads()
        here = reads.hgetall(keys.place_settings(place))
        mine = reads.hgetall(keys.player_settings(actor.platform, actor.user_id))
        await reads.run(self.store)
        defaults = {"deadline_hours": f"{self.options.turn_deadline / 3600:g}", "unlock_point": "13",
                    "strict_start_quarter": "off", "place_lang": "en", "default_game": "fevga",
                    "autoplay": "off", "lang": "-",
                    "analysis": "ai", "ping": "on", "ping_dm": "off", "threads": "on",
                    "ping_after": f"{PING_AFTER:g}", "puzzle_hour": "off",
                    "season": "monthly"}
        messages = []
        for name, (where, _admin) in SETTINGS.items():
            source = here.value if where == "place" else mine.value
            messages.append(setting_msg("setting_line", name, source.get(name, defaults[name])))
        return Result(ok=True, messages=messages, place=place)

    async def set_setting(self, actor: PlayerRef, place: Place, name: str, value: str, is_admin: bool = False,
                          idem: str | None = None) -> Result:
        """Change one setting; place settings need ``is_admin`` (a chat admin; always true in the terminal)."""
        known = ALIASES.get(name.strip().lower(), name.strip().lower())
        if known in SETTINGS and SETTINGS[known][1] and not is_admin:  # who may, before what may be set
            return Result.error("setting_admin_only", name=known)
        checked = normalise(name, value)
        if isinstance(checked, Result):
            return checked
        name, value = checked
        where, _admin_only = SETTINGS[name]
        key = keys.place_settings(place) if where == "place" else keys.player_settings(actor.platform, actor.user_id)
        commit = Commit().hset(key, name, value)
        if name == "puzzle_hour":  # the channel's next daily post (its due time lives in the channel's home)
            schedule(commit, place, value, self.sessions.clock())
        await self.store.commit(commit)
        if name == "autoplay":  # also for the game the player has running here
            on = value == "on"

            async def apply(s: Session, version: int, seat: int) -> Change | Result:
                if s.status != "play" or s.autoplay[seat] == on:
                    return Result(ok=True)
                s.autoplay[seat] = on
                change = Change(kind="settings")
                if on and s.game.turn == seat and len(s.game.legal_plays()) == 1:
                    await self.flow.advance(s, change)  # his single legal play now goes by itself
                    await self.flow.rate(s, change)
                return change

            await self.sessions.update(actor, place, None, None, apply)
        messages = [setting_msg("setting_changed", name, value)]
        if name == "deadline_hours" and not deadline_rated(float(value) * 3600):
            messages.append(Msg("unrated_deadline", {"seconds": MIN_RATED_DEADLINE}))
        return Result(ok=True, messages=messages, place=place)


async def place_values(store: Store, place: Place) -> dict[str, str]:
    """A place's settings hash; empty (the defaults, logged) when its key is damaged: a bad settings key must not
    break every new game or daily post there."""
    try:
        return await read_one(store, lambda r: r.hgetall(keys.place_settings(place)))
    except DamagedKey as exc:
        log.error("place settings %s are damaged; using the defaults", exc.key)
        return {}


def default_game(values: dict[str, str], place: Place) -> str:
    """The place's ``default_game`` (fevga, portes, plakoto, tavli) from its settings hash: fevga when unset or bad."""
    kind = values.get("default_game", "fevga")
    if kind not in MATCH_KINDS:
        log.error("bad default_game setting in %s; playing fevga", place.scope_id)
        kind = "fevga"
    return kind
