"""Message catalogues (``en.json``, ``el.json``, plus ``en.<area>.json`` parts) and :func:`translate`.

Each part file holds the messages of one area (e.g. ``en.web.json``), so areas grow without touching
one shared file. :func:`translate` never raises.

A key missing in a language falls back to English; a missing key altogether shows the key itself; a
missing argument shows as ``?``. Other catalogues (e.g. the command language) can be merged in with
:func:`register`.

Plurals come from Babel's CLDR plural rules, never from "(s)": a catalogue entry may be an object of plural
forms, ``{"one": "{n} match", "other": "{n} matches"}``. Such an entry is chosen by the ``count`` (else ``n``)
argument when translated as a key, and a template can use one for a number inside a sentence with the
format spec ``@``: ``"{games:@matches}"`` writes ``games`` through the plural entry ``matches``.
``{seconds:@duration}`` writes a span of time as hours and minutes ("1 hour 5 minutes", "45 minutes"; under a
minute "30 seconds"): every duration shown to a player goes through it. And
``{flag:?key}`` writes the message ``key`` only when ``flag`` is true (a mark such as a provisional rating's).
``{kind:#prefix_}`` writes the message ``prefix_<value>`` (with the same arguments), or nothing when there is
none (`` of Portes`` after a match, nothing for Fevga: ``{kind:#match_of_}``).
"""

from __future__ import annotations

import json
import math
import re
import string
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale

from .greek_names import agree

LANGUAGES = ("en", "el")
DEFAULT = "en"
PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
_HERE = Path(__file__).parent
_extra: dict[str, dict[str, str]] = {}
_generation = 0  # bumped by register (see generation)


# "in this chat" / "in this channel", "a group" / "a server channel"...: see the presenter
PLATFORM_WORDS = ("here", "elsewhere", "scope", "slash", "shared", "cmd")  # cmd: "/" before a command word on Telegram
# a command as it must be typed to reach the bot in a group or channel (Telegram's privacy mode passes only
# /commands; Discord only slash or prefix commands): the same in every language, so not in the catalogues
COMMAND_FORMS: dict[str, dict[str, str]] = {
    "puzzle_cmd": {"telegram": "/puzzle", "discord": "/fevga-more puzzle play:", "any": "puzzle"},
    "puzzle_hour_cmd": {"telegram": "/settings puzzle_hour", "discord": "/fevga settings name:puzzle_hour value:",
                        "any": "settings puzzle_hour"},
}
_AI_NAME = re.compile(r"AI \((easy|medium|hard|expert)\)")  # the built-in AI's stored name (bot/service/challenges.py)


class _Args(dict[str, Any]):
    """A message's arguments: a missing one shows as "?", a missing platform word in a neutral form."""

    def __init__(self, values: dict[str, Any], lang: str = DEFAULT) -> None:
        """The arguments, and the language whose neutral platform words fill a missing one."""
        super().__init__(values)
        self.lang = lang

    def __missing__(self, key: str) -> str:
        """A missing argument: "?", or a platform word in its neutral form ("here")."""
        if key in PLATFORM_WORDS:
            return catalogue(self.lang).get(f"word_{key}_any") or catalogue(DEFAULT).get(f"word_{key}_any", "")
        if key in COMMAND_FORMS:
            return COMMAND_FORMS[key]["any"]
        return "?"


@cache
def _load(lang: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """The plain messages and the plural entries of ``lang``, from its files and :func:`register`."""
    data: dict[str, str] = {}
    forms: dict[str, dict[str, str]] = {}
    for path in [_HERE / f"{lang}.json", *sorted(_HERE.glob(f"{lang}.*.json"))]:
        if path.is_file():
            for key, value in json.loads(path.read_text(encoding="utf-8")).items():
                if isinstance(value, dict):
                    forms[key] = {str(k): str(v) for k, v in value.items()}
                else:
                    data[key] = str(value)
    data.update(_extra.get(lang, {}))
    return data, forms


def catalogue(lang: str) -> dict[str, str]:
    """The plain (non-plural) messages of ``lang`` (an empty dict for an unknown language)."""
    return _load(lang)[0]


def plurals(lang: str) -> dict[str, dict[str, str]]:
    """The plural entries of ``lang``: key -> {CLDR form: template}."""
    return _load(lang)[1]


def register(lang: str, messages: dict[str, str]) -> None:
    """Add (or override) messages of a language, e.g. from another part of the bot."""
    global _generation
    _extra.setdefault(lang, {}).update(messages)
    _load.cache_clear()
    _generation += 1


def generation() -> int:
    """A number that changes whenever a catalogue does (:func:`register`): what caches of translated words key on."""
    return _generation


def has(key: str, lang: str = DEFAULT) -> bool:
    """Whether ``lang``'s own catalogue has ``key`` (a plain message or a plural entry; no English fallback)."""
    return key in catalogue(lang) or key in plurals(lang)


@cache
def _locale(lang: str) -> Locale:
    """Babel's locale of one of our languages (English for any other)."""
    return Locale.parse(lang if lang in LANGUAGES else DEFAULT)


def plural_form(n: float, lang: str) -> str:
    """The CLDR plural category of ``n`` in ``lang`` ("one", "other", ...), by Babel."""
    return str(_locale(lang).plural_form(abs(n)))


def _number(value: Any) -> float | None:
    """``value`` as a number, None when it is not one (its plural form is then "other")."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _plural(key: str, lang: str, n: Any) -> str | None:
    """The template of plural entry ``key`` for the number ``n`` (None when there is no such entry)."""
    forms = plurals(lang).get(key) if lang in LANGUAGES else None
    if forms is None:
        forms = plurals(DEFAULT).get(key)
        lang = DEFAULT
    if forms is None:
        return None
    number = _number(n)
    form = plural_form(number, lang) if number is not None else "other"
    return forms.get(form) or forms.get("other") or next(iter(forms.values()), "")


class _Formatter(string.Formatter):
    """``str.format`` plus the ``@plural_key`` and ``@duration`` specs, in one language."""

    def __init__(self, lang: str) -> None:
        """A formatter for ``lang``'s plural rules and words."""
        self.lang = lang
        self.args: Any = {}  # the message's arguments, for the word a ``#`` field writes

    def vformat(self, format_string: str, args: Any, kwargs: Any) -> str:
        """The template filled in; its arguments are kept for the ``#`` fields' words."""
        self.args = kwargs
        return super().vformat(format_string, args, kwargs)

    def format_field(self, value: Any, format_spec: str) -> str:
        """One field: ``?key`` a mark, ``#prefix`` a word by value, ``@duration`` a span of time, ``@key`` a plural
        entry, else as usual."""
        if format_spec.startswith("?"):  # a mark shown only when the value is true, e.g. a provisional rating
            return translate(format_spec[1:], self.lang) if value and value != "?" else ""
        if format_spec.startswith("#"):  # a word chosen by the value, e.g. the name of a game
            key = f"{format_spec[1:]}{value}"  # a value with no entry (or missing, in an old message): nothing
            return translate(key, self.lang, **dict(self.args)) if has(key, self.lang) else ""
        if not format_spec.startswith("@"):
            return str(super().format_field(value, format_spec))
        word = format_spec[1:]
        if word == "duration":
            return duration(value, self.lang)
        template = _plural(word, self.lang, value)
        if template is None:
            return str(value)
        outer = self.args  # the plural's own ``{n}`` must not replace the message's arguments for later fields
        try:
            return self.vformat(template, (), _Args({"n": value}, self.lang))
        finally:
            self.args = outer


def duration(seconds: Any, lang: str = DEFAULT) -> str:
    """A span of time in words: whole hours and minutes, the zero parts left out ("45 minutes"); under a
    minute, in seconds rounded up ("30 seconds"), never "0 minutes". The one place a duration is worded."""
    number = _number(seconds)
    if number is None or not math.isfinite(number):  # a missing argument shows as "?", never as a time
        return "?"
    number = max(0.0, number)
    fmt = _Formatter(lang)
    if math.ceil(number) < 60:
        return fmt.format_field(math.ceil(number), "@seconds")
    hours, minutes = divmod(max(1, int(number // 60)), 60)
    if hours and minutes:
        return translate("duration_both", lang, hours=fmt.format_field(hours, "@hours"),
                         minutes=fmt.format_field(minutes, "@minutes"))
    return fmt.format_field(hours, "@hours") if hours else fmt.format_field(minutes, "@minutes")


@lru_cache(maxsize=4096)
def _plain(template: str) -> bool:
    """Whether ``template`` uses only ``str.format``'s own specs (no ``@``, ``?`` or ``#`` field), so that the C
    formatter fills it in (:func:`render`'s fast path: ``string.Formatter`` is Python, ~10x slower)."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return False
    return all(not spec or (spec[0] not in "@?#" and "{" not in spec) for _, _, spec, _ in fields)


def display_name(name: str, lang: str = DEFAULT) -> str:
    """A player's name as shown in ``lang``: the built-in AI's stored name ("AI (hard)") in the language's words
    ("Υπολογιστής (δύσκολο)"; ``play ai`` takes those level words too), any other name as it is."""
    match = _AI_NAME.fullmatch(name) if name.startswith("AI (") else None
    if match is None or lang not in LANGUAGES:
        return name
    words = catalogue(lang)
    level = words.get(f"ai_level_{match.group(1)}") or match.group(1)
    return render(words.get("ai_name") or "AI ({level})", lang, level=level)


@lru_cache(maxsize=4)
def _masculine_for(_generation: int) -> tuple[str, ...]:
    """The Greek nouns heading the bot's own names: the AI's ("Υπολογιστής") and the hot-seat friend's ("Φίλος")."""
    words = catalogue("el")
    ai = (words.get("ai_name") or "").split(" ")[0]
    return tuple(w for w in (ai, words.get("console_friend", "")) if w and "{" not in w)


def _masculine() -> tuple[str, ...]:
    return _masculine_for(generation())


def greek_agreeing(template: str, **args: Any) -> str:
    """A Greek ``template`` whose articles agree with the bot's own masculine names among ``args`` (for
    templates another formatter fills in: the board's words); only the articles change."""
    return agree(template, args, _masculine())[0]


def render(template: str, lang: str = DEFAULT, /, **args: Any) -> str:
    """A catalogue template (with ``@`` plural and ``?`` mark specs) filled in, in ``lang``; never raises. A
    name among the arguments is shown in the language (:func:`display_name`)."""
    try:
        if lang != DEFAULT and any(isinstance(v, str) and v.startswith("AI (") for v in args.values()):
            args = {k: display_name(v, lang) if isinstance(v, str) else v for k, v in args.items()}
        if lang == "el":  # "ο Υπολογιστής", "τον Φίλο": the bot's own names are known masculine nouns
            template, args = agree(template, args, _masculine())
        values = _Args(args, lang if lang in LANGUAGES else DEFAULT)
        if _plain(template):
            return template.format_map(values)
        return _Formatter(lang).vformat(template, (), values)
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):
        return template


class Localised(str):
    """A catalogue template whose ``.format(**args)`` is :func:`render` in its language: hand it to code that
    formats templates itself (``fevga.analysis_text``), and its plurals still agree."""

    lang: str = DEFAULT

    def format(self, *args: Any, **kwargs: Any) -> str:
        """The template filled in with :func:`render` (positional arguments are not used by catalogues)."""
        return render(str(self), self.lang, **kwargs)


def localised(template: str, lang: str) -> Localised:
    """``template`` as a :class:`Localised` of ``lang``."""
    out = Localised(template)
    out.lang = lang
    return out


def translate(key: str, lang: str = DEFAULT, /, **args: Any) -> str:
    """The message ``key`` in ``lang`` (else English, else the key) with ``args`` filled in; a plural entry
    is chosen by the ``count`` (else ``n``) argument."""
    template = catalogue(lang).get(key) if lang in LANGUAGES else None
    if template is None:
        template = catalogue(DEFAULT).get(key)
    if template is None:
        template = _plural(key, lang, args.get("count", args.get("n")))
    if template is None:
        template = key
    return render(template, lang, **args)


def plural(key: str, n: float, lang: str = DEFAULT, /, **args: Any) -> str:
    """The plural entry ``key`` for the number ``n`` (as ``{n}``), e.g. ``plural("matches", 1)`` -> "1 match"."""
    return translate(key, lang, **{**args, "count": n, "n": n})


def language_of(code: str | None) -> str | None:
    """One of our languages for a platform's language code (Telegram's ``language_code``, e.g. "el-GR"):
    Greek for ``el*``, English for any other code, None when there is none."""
    if not code:
        return None
    return "el" if code.strip().lower().startswith("el") else "en"


__all__ = ["LANGUAGES", "Localised", "catalogue", "duration", "has", "language_of", "localised", "plural",
           "plural_form", "plurals", "register", "render", "translate"]
