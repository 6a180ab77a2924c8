"""The terminal chat on the real core and a real redis-server: a full game against the AI and a
hot-seat game, typed as a person would, with the text board and the PNG written beside it."""

from __future__ import annotations

import io
import random
from pathlib import Path

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from tests.botkit import a_legal_play_text


async def play_until_over(chat: ConsoleChat, core: BotCore, rng: random.Random) -> int:
    for moves in range(400):
        actor = await chat.actor()
        result = await core.service.board(actor, chat.place)
        view = result.view
        if view is None or view.status != "play":
            return moves
        await chat.command(a_legal_play_text(view, rng))
    raise AssertionError("the game did not end")


async def test_full_game_against_the_ai(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.start()
    text = out.getvalue()
    assert "Fevga in your terminal" in text and "AI (medium)" in text
    pictures = list(tmp_path.glob("*.png"))
    assert len(pictures) == 1 and pictures[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "│" in text and "pips 360" in text  # the text board
    moves = await play_until_over(chat, core, random.Random(1))
    assert moves > 5
    final = out.getvalue()
    assert "wins" in final.lower() or "you win" in final.lower()  # "You win", in the second person
    await chat.command("stats")
    assert "no rated matches" in out.getvalue()  # games against the AI are not rated


async def test_hot_seat_game_and_errors_change_nothing(core: BotCore, tmp_path: Path) -> None:
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command("challenge friend")
    assert await core.has_game(chat.place, chat.you)
    before = (await core.service.board(chat.you, chat.place)).view
    assert before is not None
    for bad in ("13/19", "hello", "x" * 1000, "1/30", "resign now"):
        await chat.command(bad)
    after = (await core.service.board(chat.you, chat.place)).view
    assert after is not None and after.version == before.version and after.position_id == before.position_id
    assert out.getvalue().count("! ") >= 5  # every bad line got an error
    await play_until_over(chat, core, random.Random(2))
    assert not await core.has_game(chat.place, chat.you)
    mark = len(out.getvalue())
    await chat.command("stats")
    assert "rating" in out.getvalue()[mark:]


async def test_a_hot_seat_rematch_starts_at_once_and_stats_speak_to_you(core: BotCore, tmp_path: Path) -> None:
    """`rematch` after a match with the friend is accepted by the friend at the keyboard, as `challenge friend` is;
    after an AI game it starts the AI game again without an error. `stats` says "You have", not "You has"."""
    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.command("stats")
    await chat.command("dice")
    assert "You have no rated matches" in out.getvalue() and "You has" not in out.getvalue()
    assert "You have no finished games" in out.getvalue()
    await chat.command("challenge friend")
    await play_until_over(chat, core, random.Random(4))
    assert not await core.has_game(chat.place, chat.you)
    mark = len(out.getvalue())
    await chat.command("rematch")
    assert await core.has_game(chat.place, chat.you), out.getvalue()[mark:]
    assert "! " not in out.getvalue()[mark:]
    await chat.command("resign")
    await chat.command("resign yes")
    await chat.command("play ai easy")
    await play_until_over(chat, core, random.Random(5))
    mark = len(out.getvalue())
    await chat.command("rematch")
    assert await core.has_game(chat.place, chat.you) and "! " not in out.getvalue()[mark:]


async def test_the_ai_is_named_in_the_chats_language(core: BotCore, tmp_path: Path) -> None:
    """The AI's stored name ("AI (medium)") is shown in Greek words in a Greek chat: the caption, the messages,
    the board picture's scene and the web page's seats; the stored name itself is unchanged."""
    from bot.chat.presenter import caption, scene_for
    from bot.web.state import for_viewer

    out = io.StringIO()
    chat = ConsoleChat(core, board_dir=tmp_path, out=out)
    await chat.start()
    await chat.command("lang el")
    start = len(out.getvalue())
    await chat.command("board")
    greek = out.getvalue()[start:]
    assert "Υπολογιστής (μέτριο)" in greek and "AI (medium)" not in greek
    view = (await core.service.board(chat.you, chat.place)).view
    assert view is not None and "AI (medium)" in view.names  # stored as it always was
    assert "Υπολογιστής (μέτριο)" in scene_for(view, "el").names and "AI (medium)" in scene_for(view, "en").names
    assert "Υπολογιστής (μέτριο)" in caption(view, "el") and "AI (medium)" in caption(view, "en")
    base = {"turn": 0, "seats": [{"name": "AI (medium)", "side": 0}, {"name": "AI (bogus)", "side": 1}]}
    assert [s["name"] for s in for_viewer(base, "el", None)["seats"]] == ["Υπολογιστής (μέτριο)", "AI (bogus)"]
    assert base["seats"][0]["name"] == "AI (medium)"  # the shared state is not changed for other viewers


async def test_a_game_left_from_the_last_run_is_shown_at_start(core: BotCore, tmp_path: Path) -> None:
    """Started again with a game in progress: its board is shown at once (only the prompt came before), and no
    new game is started."""
    first = ConsoleChat(core, board_dir=tmp_path, out=io.StringIO())
    await first.start()  # the first run starts a game against the AI
    view = (await core.service.board(first.you, first.place)).view
    assert view is not None
    out = io.StringIO()
    again = ConsoleChat(core, board_dir=tmp_path, out=out)
    await again.start()
    assert "│" in out.getvalue() and "AI (medium)" in out.getvalue()  # the text board of the game left
    still = (await core.service.board(again.you, again.place)).view
    assert still is not None and still.game_id == view.game_id and still.version == view.version
