"""Every message key the Portes/Plakoto engine (fevga/variants) emits is translated in English and Greek."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import has, translate

ROOT = Path(__file__).resolve().parents[2]


def test_every_variant_key_is_in_both_catalogues() -> None:
    keys: set[str] = set()
    sources = [*(ROOT / "fevga" / "variants").glob("*.py"), ROOT / "fevga" / "notation.py", ROOT / "fevga" / "match.py"]
    for path in sources:
        keys |= set(re.findall(r'key\s*=\s*"([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    assert {"bar_first", "blocked", "pinned", "own_pinned_point", "bear_off_pinned", "no_bar", "to_bar"} <= keys
    for lang in ("en", "el"):
        missing = sorted(k for k in keys if not has(k, lang))
        assert not missing, (lang, missing)


def test_only_checkers_counts_in_both_languages() -> None:
    """The engine's ``only_checkers`` (``15/21(4)`` with three on 15) is a plural entry chosen by ``count``."""
    from fevga import IllegalPlayError, parse_play
    from tests.engine.tavli_positions import tpos

    try:
        parse_play("15/21(4)", tpos("plakoto", {1: 12, 15: 3}, {24: 15}), (6, 6))
    except IllegalPlayError as exc:
        args = exc.args_map
        assert translate(exc.key, "en", **args) == "You have only 3 checkers on point 15."
        assert translate(exc.key, "el", **args) == "Έχεις μόνο 3 πούλια στο σημείο 15."
    else:
        raise AssertionError("15/21(4) with three checkers on 15 was taken")
    assert translate("only_checkers", "en", point=9, count=1) == "You have only 1 checker on point 9."
    assert translate("only_checkers", "el", point=9, count=1) == "Έχεις μόνο 1 πούλι στο σημείο 9."
