"""The puzzle texts: every key the puzzle code emits is in both catalogues with the same placeholders, every
theme has a name, and the Greek part file is Greek."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from bot.i18n import has
from fevga.puzzles import THEMES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [*(ROOT / "bot" / "service" / "puzzles").glob("*.py"), ROOT / "bot" / "chat" / "puzzle_reply.py",
           ROOT / "bot" / "service" / "settings.py"]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_emitted_key_and_theme_is_in_both_languages() -> None:
    keys = {f"puzzle_theme_{t}" for t in THEMES} | {"help_puzzle", "cmd_puzzle_usage"}
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'(?:Msg|Result\.error|translate)\(\s*"(puzzle_[a-z_]+)"', text))
        keys |= set(re.findall(r'"(puzzle_[a-z_]+)" if ', text)) | set(re.findall(r'else "(puzzle_[a-z_]+)"', text))
    assert {"puzzle", "puzzle_verdict", "puzzle_right", "puzzle_wrong", "puzzle_daily_head"} <= keys | {"puzzle"}
    for lang in ("en", "el"):
        missing = sorted(k for k in keys - {"puzzle", "puzzle_verdict", "puzzle_daily"} if not has(k, lang))
        assert not missing, (lang, missing)


def test_the_greek_part_has_the_same_keys_and_placeholders_and_is_greek() -> None:
    en = json.loads((ROOT / "bot" / "i18n" / "en.puzzles.json").read_text(encoding="utf-8"))
    el = json.loads((ROOT / "bot" / "i18n" / "el.puzzles.json").read_text(encoding="utf-8"))
    assert set(en) == set(el)
    for key, template in en.items():
        assert _fields(template) == _fields(el[key]), key
        assert re.search(r"[α-ωΑ-Ωά-ώ]", el[key]), key
