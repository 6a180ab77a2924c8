"""``puzzle`` in the terminal chat: the puzzle as text, text board and picture; answered right, then a new
one answered wrong with the best play drawn; ``top puzzles`` and ``help puzzle`` (English and Greek)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from bot.service import PlayerRef
from fevga.play import format_steps
from fevga.puzzles import ordered_plays


async def test_puzzle_in_the_terminal(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.start()
    you = PlayerRef("terminal", "you", "")
    await chat.command("puzzle")
    text = out.getvalue()
    assert "Find the best play" in text and "[picture:" in text
    assert (tmp_path / "fevga.png").read_bytes()[:4] == b"\x89PNG"
    _v, me = await core.service.puzzles.trainer.solver(you)
    found = await core.service.puzzles.bank.get(me.current)
    assert found is not None
    await chat.command(f"puzzle {found[0].answer}")
    assert "Right!" in out.getvalue() and "streak 1" in out.getvalue()
    await chat.command("puzzle")
    _v, me = await core.service.puzzles.trainer.solver(you)
    found = await core.service.puzzles.bank.get(me.current)
    assert found is not None
    puzzle = found[0]
    wrong = next(format_steps(p.steps) for p in ordered_plays(puzzle.start(), puzzle.dice)
                 if p.result.id() != puzzle.result)
    before = len(out.getvalue())
    await chat.command(f"puzzle {wrong}")
    said = out.getvalue()[before:]
    assert "Not the best" in said and puzzle.answer in said and "[picture:" in said
    await chat.command("top puzzles")
    assert "Best puzzle solvers" in out.getvalue()
    await chat.command("help puzzle")
    assert "puzzle_hour" in out.getvalue()
    await chat.command("lang el")
    await chat.command("help puzzle")
    assert "γρίφος" in out.getvalue()
