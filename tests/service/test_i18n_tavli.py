"""Every message key the Portes/Plakoto engine (fevga/variants) emits is translated in English and Greek."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import has

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
