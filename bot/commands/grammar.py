"""One grammar for every chat: text in, a typed intent (or a CommandError saying what to type) out.

``parse_command`` never raises: anything a player types gives an Intent or a CommandError.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable

from bot.commands.numbers import ascii_digits, not_digits, shown, whole_number
from bot.service.game_words import game_word, level_word, names_the_ai
from bot.service.seasons.keys import MONTH
from fevga import FevgaError, Rules

from . import intents as i
from . import puzzle_grammar, tournament_grammar

MAX_INPUT = 300
MAX_NAME = 64
SEASON_WORDS = ("season", "σεζόν", "σεζον")  # ``top season [2026-11]``: a season's table
LAST_WORDS = ("last", "previous", "prev", "προηγούμενη", "προηγουμενη", "περασμένη", "περασμενη")  # last month's
MAX_TOP_ASKED = 1_000_000  # "top 1000" is read (the service clamps it to its maximum and says so)
_PLAY_START = re.compile(r"^\s*(?:\d{1,2}|[α-ωά-ώΑ-Ω]|bar|μπαρ)\s*[/\\-]", re.IGNORECASE)  # Portes: bar/3
_NUMERIC_START = re.compile(r"^\s*(\S{1,3}?)\s*[/\\-]")  # ``7²/12`` or ``½/7``: a play, in signs that are not digits

# Every word a player may start a command with, aliases included.
ALIASES: dict[str, str] = {
    "help": "help", "h": "help", "?": "help", "βοήθεια": "help", "βοηθεια": "help", "start": "help",
    "rules": "rules", "κανόνες": "rules", "κανονες": "rules",
    "challenge": "challenge", "ch": "challenge", "c": "challenge", "duel": "challenge", "πρόκληση": "challenge",
    "προκληση": "challenge",
    "accept": "accept", "a": "accept", "yes": "accept", "δέχομαι": "accept", "δεχομαι": "accept",
    "decline": "decline", "no": "decline", "refuse": "decline",
    "cancel": "cancel",
    "play": "play", "ai": "ai", "bot": "ai",
    "move": "move", "m": "move", "mv": "move", "κίνηση": "move", "κινηση": "move",
    "undo": "undo", "u": "undo", "back": "undo",
    "confirm": "confirm", "ok": "confirm", "done": "confirm",
    "board": "board", "b": "board", "show": "board", "ταμπλό": "board", "ταμπλο": "board",
    "hint": "hint", "suggest": "hint",
    "resign": "resign", "concede": "resign", "giveup": "resign", "ff": "resign",
    "abort": "abort",
    "claim": "claim",
    "rematch": "rematch", "again": "rematch",
    "top": "top", "lb": "top", "leaderboard": "top", "leaders": "top", "ranking": "top",
    "stats": "stats", "stat": "stats", "me": "stats", "rating": "stats",
    "export": "export", "mat": "export", "record": "export",
    "mygames": "mygames", "games": "mygames", "παρτίδες": "mygames", "παρτιδες": "mygames",
    "replay": "replay", "gif": "replay",
    "dice": "dice", "ζάρια": "dice", "ζαρια": "dice",
    "h2h": "h2h", "headtohead": "h2h",
    "analyze": "analyze", "analysis": "analyze", "analyse": "analyze", "ανάλυση": "analyze", "αναλυση": "analyze",
    "lang": "lang", "language": "lang", "γλώσσα": "lang", "γλωσσα": "lang",
    "settings": "settings", "set": "settings", "config": "settings",
    "ping": "ping", "notify": "ping",
    "pass": "pass",
    "tournament": "tournament", "tour": "tournament", "τουρνουά": "tournament", "τουρνουα": "tournament",
    "tournaments": "tournaments", "events": "tournaments",
    "puzzle": "puzzle", "γρίφος": "puzzle", "γριφος": "puzzle",
}
COMMANDS = sorted(set(ALIASES.values()) - {"ai", "pass"})


def _normalize(text: str) -> str:
    """Tidy what a player typed: NFC, no control characters, one space between words."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(text.split())


def looks_like_play(text: str) -> bool:
    """A bare play such as ``1/7 7/12``, ``α/ζ`` or ``pass``."""
    numeric = _NUMERIC_START.match(text)
    return (bool(_PLAY_START.match(text)) or text.strip().lower() in ("pass", "πάσο", "πασο")
            or (numeric is not None and numeric.group(1).isnumeric()))


def _is_number(word: str) -> bool:
    """A word written only in number signs (``5``, ``٥``, ``²``, ``½``): meant as a number, digits or not."""
    return word.isnumeric()


def _not_a_number(word: str) -> i.CommandError:
    """The answer to a number written in signs that are not digits (``²``, ``½``, ``①``)."""
    return i.CommandError("cmd_not_digits", {"value": shown(word)})


def _length(word: str) -> int | i.CommandError:
    """A match length (1-25 points), in decimal digits of any script."""
    if not_digits(word):
        return _not_a_number(word)
    value = whole_number(word)
    if value is None or not 1 <= value <= 25:
        return i.CommandError("cmd_bad_length", {"value": shown(word)})
    return value


def _challenge(words: list[str]) -> i.Intent | i.CommandError:
    target: str | None = None
    is_open = False
    length = 1
    unlock = 13
    strict = False
    chosen = False
    kind: str | None = None
    for word in words:
        low = word.lower()
        if low in ("open", "anyone", "all", "ανοιχτή"):
            is_open = True
        elif kind is None and (named := game_word(low)) is not None:
            kind = named
        elif _is_number(low) or low.startswith(("points=", "length=")):
            value = _length(low.split("=", 1)[-1])
            if isinstance(value, i.CommandError):
                return value
            length = value
        elif low in ("strict", "strict=on", "strict_start_quarter"):
            strict = chosen = True
        elif low in ("unlock14", "unlock=14", "unlock_point=14"):
            unlock, chosen = 14, True
        elif low in ("unlock13", "unlock=13", "unlock_point=13"):
            unlock, chosen = 13, True
        elif target is None and not is_open:
            if len(word) > MAX_NAME:
                return i.CommandError("cmd_name_too_long", {"max": MAX_NAME})
            target = word
        else:
            return i.CommandError("cmd_bad_option", {"option": word[:30]})
    if target is None and not is_open:
        return i.CommandError("cmd_challenge_who")
    if chosen and kind not in (None, "fevga", "tavli"):  # unlock/strict are Fevga's options
        return i.CommandError("cmd_option_not_for_game", {"game": kind})
    try:
        rules = Rules(unlock_point=unlock, strict_start_quarter=strict) if chosen else None
    except FevgaError:
        return i.CommandError("cmd_bad_option", {"option": "unlock"})
    return i.Challenge(None if is_open else target, length, rules, kind)


def _play_ai(words: list[str]) -> i.Intent | i.CommandError:
    level: str | None = None  # the configured default
    length = 1
    kind: str | None = None
    for word in words:
        low = word.lower()
        if names_the_ai(low):
            continue
        if (named_level := level_word(low)) is not None:
            level = named_level
        elif kind is None and (named := game_word(low)) is not None:
            kind = named
        elif _is_number(low):
            value = _length(low)
            if isinstance(value, i.CommandError):
                return value
            length = value
        else:
            return i.CommandError("cmd_bad_level", {"value": word[:30], "levels": ", ".join(i.AI_LEVELS)})
    return i.PlayAI(level, length, kind)


def _simple(factory: Callable[[], i.Intent]) -> Callable[[list[str]], i.Intent | i.CommandError]:
    def parse(words: list[str]) -> i.Intent | i.CommandError:
        return factory()

    return parse


def _with_id(factory: Callable[[str | None], i.Intent]) -> Callable[[list[str]], i.Intent | i.CommandError]:
    def parse(words: list[str]) -> i.Intent | i.CommandError:
        if len(words) > 1:
            return i.CommandError("cmd_too_many_words", {"command": factory(None).word})
        return factory(words[0][:40] if words else None)

    return parse


def _move(words: list[str]) -> i.Intent | i.CommandError:
    if not words:
        return i.CommandError("cmd_move_what")
    return i.Move(" ".join(words))


CONFIRM_WORDS = ("yes", "y", "confirm", "ναι")


def _resign(words: list[str]) -> i.Intent | i.CommandError:
    """``resign [match]`` asks first; ``resign [match] yes`` resigns (the answer to that question)."""
    low = [w.lower() for w in words]
    whole = bool(low) and low[0] == "match"
    if low and low[0] in ("match", "game"):
        low = low[1:]
    if len(low) > 1 or (low and low[0] not in CONFIRM_WORDS):
        return i.CommandError("cmd_bad_option", {"option": (low[-1] if low else words[0])[:30]})
    if low:
        return i.Resign(whole_match=whole)
    return i.ResignPrompt(whole_match=whole)


def _top(words: list[str]) -> i.Intent | i.CommandError:
    if puzzle_grammar.is_top_puzzles(words):
        return puzzle_grammar.top_puzzles(words)
    global_ = False
    count = 10
    kind: str | None = None
    season: str | None = None
    for word in words:
        low = word.lower()
        if low in ("global", "all", "world"):
            global_ = True
        elif low in SEASON_WORDS:
            season = season or ""
        elif season == "" and MONTH.match(low):  # the service says when it is not a real month
            season = low
        elif season == "" and low in LAST_WORDS:  # ``top season last``: the season before this one
            season = "last"
        elif kind is None and (named := game_word(low)) is not None:
            kind = named
        elif (number := whole_number(low)) is not None:
            if number < 1:  # "top 0": how many rows, not an unknown word
                return i.CommandError("cmd_top_count", {"value": shown(word)})
            count = min(number, MAX_TOP_ASKED)  # the service shows at most its maximum and says so
        elif not_digits(low):
            return _not_a_number(word)
        else:
            return i.CommandError("cmd_bad_option", {"option": word[:30]})
    if season is not None and global_:
        return i.CommandError("cmd_bad_option", {"option": "global"})
    return i.Top(global_, count, kind, season)


def _stats(words: list[str]) -> i.Intent | i.CommandError:
    """``stats [player]``; ``stats [player] vs player`` is the head-to-head."""
    low = [w.lower() for w in words]
    if "vs" in low or "εναντίον" in low:
        at = low.index("vs") if "vs" in low else low.index("εναντίον")
        return _h2h(words[:at] + words[at + 1:], "stats")
    if low and low[0] in SEASON_WORDS:  # a season's standing is its table's row: say where to find it
        return i.CommandError("cmd_stats_season")
    if len(words) > 1:
        return i.CommandError("cmd_too_many_words", {"command": "stats"})
    if words and len(words[0]) > MAX_NAME:
        return i.CommandError("cmd_name_too_long", {"max": MAX_NAME})
    return i.Stats(words[0] if words else None)


def _h2h(words: list[str], command: str = "h2h") -> i.Intent | i.CommandError:
    """``h2h player`` (the actor against him) or ``h2h player player``."""
    if not words:
        return i.CommandError("cmd_h2h_who")
    if len(words) > 2:
        return i.CommandError("cmd_too_many_words", {"command": command})
    if any(len(w) > MAX_NAME for w in words):
        return i.CommandError("cmd_name_too_long", {"max": MAX_NAME})
    return i.Stats(words[0], words[1]) if len(words) == 2 else i.Stats(None, words[0])


def _dice(words: list[str]) -> i.Intent | i.CommandError:
    """``dice`` (the actor), ``dice @player`` or ``dice <game id>``."""
    if len(words) > 1:
        return i.CommandError("cmd_too_many_words", {"command": "dice"})
    if words and len(words[0]) > MAX_NAME:
        return i.CommandError("cmd_name_too_long", {"max": MAX_NAME})
    return i.Dice(words[0] if words else None)


def _rules(words: list[str]) -> i.Intent | i.CommandError:
    """``rules`` (Fevga), ``rules portes|plakoto|fevga|tavli`` (any accepted name of the game)."""
    if len(words) > 1:
        return i.CommandError("cmd_too_many_words", {"command": "rules"})
    if not words:
        return i.ShowRules()
    kind = game_word(words[0])
    if kind is None:
        return i.CommandError("cmd_bad_game", {"value": words[0][:30], "games": "fevga, portes, plakoto, tavli"})
    return i.ShowRules(kind)


def _analyze(words: list[str]) -> i.Intent | i.CommandError:
    """``analyze`` alone (the last game here) or ``analyze <game id>``."""
    if len(words) > 1:
        return i.CommandError("cmd_too_many_words", {"command": "analyze"})
    if words and not (0 < len(words[0]) <= 40 and words[0].replace("-", "").replace("_", "").isalnum()):
        return i.CommandError("cmd_bad_option", {"option": words[0][:30]})
    return i.Analyze(words[0] if words else None)


def _lang(words: list[str]) -> i.Intent | i.CommandError:
    if len(words) != 1 or words[0].lower() not in i.LANGUAGES:
        return i.CommandError("cmd_bad_lang", {"languages": ", ".join(i.LANGUAGES)})
    return i.Lang(words[0].lower())


def _settings(words: list[str]) -> i.Intent | i.CommandError:
    if not words:
        return i.Settings()
    if len(words) != 2:
        return i.CommandError("cmd_settings_usage")
    if not_digits(words[1]):  # ``deadline ½``: say how to write it, not that the value is out of range
        return _not_a_number(words[1])
    return i.Settings(words[0].lower()[:40], ascii_digits(words[1][:40]))


def _ping(words: list[str]) -> i.Intent | i.CommandError:
    """``ping on|off`` (pinged in groups when it is your turn), ``ping dm on|off`` (also privately),
    ``ping after <seconds>`` (the place's idle time before a ping)."""
    low = [w.lower() for w in words]
    if len(low) == 1 and low[0] in ("on", "off"):
        return i.Settings("ping", low[0])
    if len(low) == 2 and low[0] in ("dm", "private", "pm") and low[1] in ("on", "off"):
        return i.Settings("ping_dm", low[1])
    if len(low) == 2 and low[0] in ("after", "delay"):  # the place's idle time before a ping (admins)
        return i.Settings("ping_after", low[1][:40])
    return i.CommandError("cmd_ping_usage")


def _help(words: list[str]) -> i.Intent | i.CommandError:
    topic = ALIASES.get(words[0].lower()) if words else None
    return i.Help({"pass": "move"}.get(topic or "", topic))  # help ai: how to play it and how strong each level is


def _play(words: list[str]) -> i.Intent | i.CommandError:
    linked = len(words) > 1 and words[0].lower() in ("vs", "against", "με")  # "play με υπολογιστή"
    opponent = words[1] if linked else words[0] if words else ""
    if opponent.lower() not in ("", "vs", "against", "με") and names_the_ai(opponent):
        return _play_ai(words[1:])
    return i.CommandError("cmd_play_what")


PARSERS: dict[str, Callable[[list[str]], i.Intent | i.CommandError]] = {
    "help": _help,
    "rules": _rules,
    "challenge": _challenge,
    "accept": _with_id(lambda cid: i.Accept(cid)),
    "decline": _with_id(lambda cid: i.Decline(cid)),
    "cancel": _with_id(lambda cid: i.Cancel(cid)),
    "play": _play,
    "ai": _play_ai,
    "move": _move,
    "undo": _simple(i.Undo),
    "confirm": _simple(i.Confirm),
    "board": _simple(i.ShowBoard),
    "hint": _simple(i.Hint),
    "resign": _resign,
    "abort": _simple(i.Abort),
    "claim": _simple(i.Claim),
    "rematch": _simple(i.Rematch),
    "top": _top,
    "stats": _stats,
    "export": _simple(i.Export),
    "mygames": _simple(i.MyGames),
    "replay": _simple(i.Replay),
    "analyze": _analyze,
    "dice": _dice,
    "h2h": _h2h,
    "lang": _lang,
    "settings": _settings,
    "ping": _ping,
    "tournament": tournament_grammar.tournament,
    "tournaments": tournament_grammar.tournaments,
    "puzzle": puzzle_grammar.puzzle,
    "pass": lambda words: i.Move("pass") if not words else i.CommandError("cmd_too_many_words", {"command": "pass"}),
}


def _head(line: str) -> tuple[str, list[str]]:
    """A tidied line's command word, lower case, and its words from that word on (a leading ``fevga`` word
    dropped; Telegram's ``/move@fevga_bot`` read as ``move``)."""
    words = line.split(" ")
    head = words[0].split("@", 1)[0].lower()
    if head in ("fevga", "tavli", "φεύγα") and len(words) > 1:
        words = words[1:]
        head = words[0].lower()
    return head, words


def command_of(text: str, prefixes: tuple[str, ...] = ("/", "!")) -> str | None:
    """The command a line asks for, in its canonical word ("challenge" for ``πρόκληση @bob``), without reading
    the rest of it; None for a play or an unknown word. Lets a frontend do a command's own lookups only for it."""
    line = _normalize(text) if isinstance(text, str) else ""
    for prefix in prefixes:
        if line.startswith(prefix):
            line = line[len(prefix) :].lstrip()
            break
    return ALIASES.get(_head(line)[0]) if line else None


def parse_command(text: str, *, prefixes: tuple[str, ...] = ("/", "!")) -> i.Intent | i.CommandError:
    """Read one chat line. A leading ``/`` or ``!`` and a ``fevga`` word are optional; a bare play
    (``1/7 7/12``) is a move. Never raises."""
    if not isinstance(text, str):
        return i.CommandError("cmd_empty")
    if len(text) > MAX_INPUT:
        return i.CommandError("cmd_too_long", {"max": MAX_INPUT})
    line = _normalize(text)
    for prefix in prefixes:
        if line.startswith(prefix):
            line = line[len(prefix) :].lstrip()
            break
    if not line:
        return i.CommandError("cmd_empty")
    head, words = _head(line)
    if looks_like_play(line) and head not in ALIASES:
        return i.Move(line)
    command = ALIASES.get(head)
    if command is None:
        close = difflib.get_close_matches(head, list(ALIASES), n=1, cutoff=0.6)
        suggestion = ALIASES[close[0]] if close else "help"
        return i.CommandError("cmd_unknown", {"word": head[:30], "suggestion": suggestion})
    return PARSERS[command](words[1:])
