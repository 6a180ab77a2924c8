"""``help ai`` in the terminal chat: how to play the AI and how strong each level is (the ladder's Elo,
random play = 0), in English and in Greek with the same figures; ``help bot`` is the same topic."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.chat.core import BotCore
from bot.console import ConsoleChat

LEVELS = ("random", "easy", "medium", "hard", "expert")


def ladder_rows(text: str) -> dict[str, int]:
    """Level -> Elo from the table's lines ("• hard +1234 ...")."""
    return {m[1]: int(m[2]) for m in re.finditer(r"^• (\w+) ([+-]?\d+) ", text, re.MULTILINE)}


async def test_help_ai_shows_the_ladder_in_both_languages(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.start()
    start = len(out.getvalue())
    await chat.command("help ai")
    english = out.getvalue()[start:]
    assert "play ai [easy|medium|hard|expert]" in english and "Elo" in english
    rows = ladder_rows(english)
    assert tuple(rows) == LEVELS, english
    assert rows["random"] == 0 and 0 < rows["easy"] < rows["medium"] < rows["hard"]
    assert re.search(r"[\d,]+ games", english)
    start = len(out.getvalue())
    await chat.command("help bot")
    assert ladder_rows(out.getvalue()[start:]) == rows
    await chat.command("lang el")
    start = len(out.getvalue())
    await chat.command("help ai")
    greek = out.getvalue()[start:]
    assert "παρτίδες" in greek and "play ai" in greek
    greek_words = dict(zip(("τυχαίο", "εύκολο", "μέτριο", "δύσκολο", "έμπειρο"), LEVELS, strict=True))
    assert {greek_words[k]: v for k, v in ladder_rows(greek).items()} == rows  # the same figures, Greek level words
