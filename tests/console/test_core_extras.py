"""BotCore helpers the frontends lean on: play suggestions, the username directory, board messages."""

from __future__ import annotations

from bot.chat.buttons import encode
from bot.chat.core import BotCore
from bot.commands import intents as i
from bot.service import Place, PlayerRef, keys
from bot.service.button_kinds import ButtonKind
from bot.storage import Commit
from fevga import format_play, legal_plays
from tests.botkit import mover_position

ME = PlayerRef("discord", "1", "me")
OTHER = PlayerRef("discord", "2", "other")
HERE = Place("discord", "g", "c")


async def test_suggest_plays_are_the_legal_plays_of_the_player_to_move(core: BotCore) -> None:
    await core.handle_text(ME, HERE, "play ai easy")
    view = (await core.service.board(ME, HERE)).view
    assert view is not None and view.dice is not None
    expected = sorted(format_play(p) for p in legal_plays(mover_position(view), view.dice))
    assert sorted(await core.suggest_plays(ME, HERE)) == expected
    first = expected[0].split(" ")[0]
    assert all(s.startswith(first) for s in await core.suggest_plays(ME, HERE, first))
    assert await core.suggest_plays(ME, HERE, "zz") == []
    assert await core.suggest_plays(OTHER, HERE) == []


async def test_username_directory_and_board_messages(core: BotCore) -> None:
    await core.remember_username("telegram", "@Maria", PlayerRef("telegram", "42", "Maria"))
    assert await core.player_by_username("telegram", "maria") == PlayerRef("telegram", "42", "Maria")
    assert await core.player_by_username("telegram", "nobody") is None
    await core.remember_board_message("g1", "100:200")
    assert await core.board_message("g1") == "100:200"
    assert await core.game_for_board_message("100:200") == "g1"
    assert await core.board_message("g2") is None
    await core.store.commit(Commit().put(keys.board_game("100:201"), b"\xff\xfe not utf-8"))
    assert await core.game_for_board_message("100:201") is None  # damaged: no game, no exception


async def test_the_core_hands_back_the_intent_it_read_with_its_replies(core: BotCore) -> None:
    started = await core.handle_text(ME, HERE, "/play ai easy 3")
    assert started.intent == i.PlayAI("easy", 3) and started.word == "play" and started.replies
    board = await core.handle_text(ME, HERE, "b", reply_to_game="ignored-for-non-moves")
    assert board.intent == i.ShowBoard() and board.word == "board"
    unreadable = await core.handle_text(ME, HERE, "resing")
    assert unreadable.intent is None and unreadable.word is None and unreadable.replies[0].error
    moved = await core.handle_text(ME, HERE, "1/7 7/12", reply_to_game="g-replied")
    assert moved.intent == i.Move("1/7 7/12", game_id="g-replied")
    view = board.replies[0]
    assert view.game_id is not None and view.version is not None
    prompt = await core.press(ME, HERE, encode(ButtonKind.RESIGN, view.game_id, view.version))
    assert prompt.intent == i.ResignPrompt(view.game_id, view.version) and prompt.word == "resign"
    assert prompt.replies and all(r.private for r in prompt.replies)
    forged = await core.press(ME, HERE, "not a token")
    assert forged.intent is None and forged.replies[0].error and forged.replies[0].private
