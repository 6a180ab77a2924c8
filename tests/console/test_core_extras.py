"""BotCore helpers the frontends lean on: play suggestions, the username directory, board messages."""

from __future__ import annotations

from bot.core import BotCore
from bot.service import Place, PlayerRef
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
