"""Message catalogues (``en.json``, ``el.json``, plus ``en.<area>.json`` parts) and :func:`translate`.

Each part file holds the messages of one area (e.g. ``en.web.json``), so areas grow without touching
one shared file. :func:`translate` never raises.

A key missing in a language falls back to English; a missing key altogether shows the key itself; a
missing argument shows as ``?``. Other catalogues (e.g. the command language) can be merged in with
:func:`register`.
"""

from __future__ import annotations

import json
import string
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "el")
DEFAULT = "en"
_HERE = Path(__file__).parent
_extra: dict[str, dict[str, str]] = {}


class _Args(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "?"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The messages of ``lang`` (an empty dict for an unknown language)."""
    data: dict[str, str] = {}
    for path in [_HERE / f"{lang}.json", *sorted(_HERE.glob(f"{lang}.*.json"))]:
        if path.is_file():
            data.update(json.loads(path.read_text(encoding="utf-8")))
    data.update(_extra.get(lang, {}))
    return data


def register(lang: str, messages: dict[str, str]) -> None:
    """Add (or override) messages of a language, e.g. from another part of the bot."""
    _extra.setdefault(lang, {}).update(messages)
    catalogue.cache_clear()


def has(key: str, lang: str = DEFAULT) -> bool:
    return key in catalogue(lang)


def translate(key: str, lang: str = DEFAULT, /, **args: Any) -> str:
    """The message ``key`` in ``lang`` (else English, else the key) with ``args`` filled in."""
    template = catalogue(lang).get(key) if lang in LANGUAGES else None
    if template is None:
        template = catalogue(DEFAULT).get(key, key)
    try:
        return string.Formatter().vformat(template, (), _Args(args))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):
        return template


__all__ = ["LANGUAGES", "catalogue", "has", "register", "translate"]
