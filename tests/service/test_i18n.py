"""The message catalogues cover every key the service and the engine emit, in English and Greek."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from bot.i18n import catalogue, has, plurals, translate

ROOT = Path(__file__).resolve().parents[2]


def _emitted_keys() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "bot" / "service").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:Msg|Result\.error)\(\s*"([a-z0-9_]+)"', text))
        for line in text.splitlines():  # conditional keys: Msg("a" if x else "b"), key = "a" if x else "b"
            if "Msg(" in line or "Result.error(" in line or re.search(r"\bkey = ", line):
                found |= set(re.findall(r'"([a-z0-9_]+)" if ', line))
                found |= set(re.findall(r'else "([a-z0-9_]+)"', line))
        found |= {f"btn_{k}" for k in re.findall(r'Action\(\s*"([a-z_]+)"', text)}
        found |= {f"btn_{k.lower()}" for k in re.findall(r"Action\(\s*ButtonKind\.([A-Z_]+)", text)}
    for path in (ROOT / "fevga").glob("*.py"):
        found |= set(re.findall(r'key\s*=\s*"([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    return found


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_emitted_key_is_in_both_catalogues() -> None:
    keys = _emitted_keys()
    assert {"played", "turn_already_played", "r3", "runner_lock", "btn_step", "game_won_mars"} <= keys
    for lang in ("en", "el"):
        missing = sorted(k for k in keys if not has(k, lang))  # a plain message or a plural entry
        assert not missing, (lang, missing)


def test_greek_has_the_same_placeholders_and_is_greek() -> None:
    en, el = catalogue("en"), catalogue("el")
    assert set(en) == set(el)
    for key, template in en.items():
        assert _fields(template) == _fields(el[key]), key
    en_forms, el_forms = plurals("en"), plurals("el")
    assert set(en_forms) == set(el_forms)
    for key, forms in en_forms.items():
        assert "other" in forms and "other" in el_forms[key], key
    greek = sum(1 for v in el.values() if re.search(r"[α-ωΑ-Ω]", v))
    marks = sum(1 for k in el if k.startswith("word_cmd_"))  # "/" or nothing before a command word
    assert greek >= len(el) - 9 - marks  # a few are only numbers, names and marks, e.g. "{rank}. {play}", "*", "· "
    for key, template in el.items():  # and those have no word left in English
        bare = re.sub(r"\{[^}]*\}", "", template)
        assert re.search(r"[α-ωΑ-Ωά-ώ]", template) or not re.search(r"[A-Za-z]", bare), key


def test_translate_falls_back_and_never_raises() -> None:
    assert translate("bad_point", "en", point=30) == "There is no point 30: points are 1-24 and off."
    assert "30" in translate("bad_point", "el", point=30) and "σημείο" in translate("bad_point", "el", point=30)
    assert translate("bad_point", "xx", point=3).startswith("There is no point 3")
    assert "?" in translate("bad_point", "en")
    assert translate("no_such_key", "el") == "no_such_key"


def test_part_files_merge_and_come_in_pairs() -> None:
    folder = ROOT / "bot" / "i18n"
    parts = {p.name.split(".", 1)[1] for p in folder.glob("*.*.json")}
    for part in parts:
        assert (folder / f"en.{part}").is_file() and (folder / f"el.{part}").is_file(), part
    for part in parts:
        en = json.loads((folder / f"en.{part}").read_text(encoding="utf-8"))
        plain = {key: value for key, value in en.items() if not isinstance(value, dict)}
        assert plain.items() <= catalogue("en").items(), part
        for key, forms in en.items():  # a part's plural entries merge too, none overridden by another file's
            if isinstance(forms, dict):
                assert plurals("en").get(key) == forms, (part, key)


def test_the_rules_texts_teach_notation_the_bot_reads() -> None:
    """Every play written in `rules portes|plakoto` (both languages) reads as forward steps in this project's
    numbering: a backgammon book's 13/8* would be refused as going backwards."""
    from fevga.notation import parse_moves

    for lang in ("en", "el"):
        for game in ("portes", "plakoto"):
            text = translate(f"rules_{game}", lang)
            examples = re.findall(r"(?:bar|\d+)/\d+\*?", text)
            assert examples, (lang, game)
            for example in examples:
                parse_moves(example, game)


def test_greek_points_after_a_verb_are_in_the_accusative() -> None:
    """"Ο αντίπαλος παίρνει 2 πόντους", not "πόντοι": the object of a verb takes the accusative plural forms."""
    for key in ("resign_confirm_prompt", "resigned", "resigned_you"):
        assert "2 πόντους" in translate(key, "el", player="Ann", points=2), key
        assert "1 πόντο" in translate(key, "el", player="Ann", points=1) and "πόντος" not in translate(
            key, "el", player="Ann", points=1), key
