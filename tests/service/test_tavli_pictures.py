"""The chats' pictures of tavli boards through the presenter: a Portes turn being built from the bar (a pending
step (0, n)) drawn as a PNG with the entry made, a tavli match's board with its match line (which game of the
rotation), a Portes match's "game N", and a drawn Plakoto game with the draw banner and no winner."""

from __future__ import annotations

from bot.chat.presenter import caption, present, scene_for
from bot.service import GameService
from bot.service.models import Result
from bot.service.session import Session
from bot.service.views import build_view
from fevga import Board, FixedDice, Game, Rules
from fevga.variants import PortesRules, TavliPosition
from renderers import render_text
from tests.engine.tavli_positions import tpos
from tests.tavli_match import DRAW_PLAY, plakoto_draw_game, plant_game

from .conftest import ALICE, BOB, HERE

PNG = b"\x89PNG\r\n\x1a\n"


def portes_on_the_bar(first: int) -> Game:
    """Portes, ``first`` to play 3-5 with one checker on the bar (his point 3 open to enter)."""
    game = Game.new(PortesRules(), FixedDice([(3, 5)]), first=first)
    on_bar = tpos("portes", {1: 1, 12: 5, 17: 3, 19: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, me_bar=1)
    game.board = Board(on_bar, game.turn, game.rules)
    return game


async def test_a_portes_turn_built_from_the_bar_is_drawn(service: GameService) -> None:
    assert (await service.challenge(ALICE, HERE, BOB, length=3, kind="portes")).ok
    started = await service.accept(BOB, HERE)
    assert started.view is not None
    gid = started.view.game_id
    version = await plant_game(service, gid, portes_on_the_bar)
    mover = started.view.players[started.view.turn]
    stepped = await service.step(mover, HERE, gid, version, 0, 3)  # bar/3
    assert stepped.ok and stepped.view is not None, stepped.messages
    view = stepped.view
    assert view.pending == ((0, 3),) and not view.pending_complete
    scene = scene_for(view, "en")
    assert scene.pending_steps == ((0, 3),) and scene.dice_used == (3,)
    shown = scene.shown_position()
    assert isinstance(shown, TavliPosition) and shown.me_bar + shown.opp_bar == 0  # the entry is made
    (board,) = [r for r in await present(stepped, "en") if r.game_id == gid]
    assert board.image is not None and board.image.startswith(PNG) and board.board_text
    assert "bar→3 — choose the next step" in caption(view, "en")
    assert "Portes  ·  game 1, match to 3" in scene.match_line(0)  # a Portes match says which game too


async def test_a_tavli_match_board_says_which_game_it_is(service: GameService) -> None:
    assert (await service.challenge(ALICE, HERE, BOB, length=5, kind="tavli")).ok
    started = await service.accept(BOB, HERE)
    assert started.view is not None and started.view.kind == "tavli"
    (board,) = [r for r in await present(started, "en") if r.game_id == started.view.game_id]
    assert board.image is not None and board.image.startswith(PNG)
    assert board.board_text is not None and "Portes · game 1 of tavli to 5 · 0–0" in board.board_text
    (greek,) = [r for r in await present(started, "el") if r.game_id == started.view.game_id]
    assert greek.board_text is not None and "Πόρτες · παρτίδα 1 · τάβλι στα 5" in greek.board_text


def test_a_drawn_plakoto_game_has_the_draw_banner_and_no_winner() -> None:
    game = plakoto_draw_game()
    game.play(DRAW_PLAY)
    assert game.outcome is not None and game.outcome.is_draw
    s = Session("g1", HERE, (ALICE, BOB), 3, Rules(), game, 0.0, 3600.0, kind="plakoto")
    view = build_view(s, 1)  # the game as it ended, before the match moves on
    assert view.drawn and view.winner is None
    scene = scene_for(view, "en")
    assert scene.drawn and scene.winner is None and scene.turn is None and not scene.mars
    text = render_text(scene, 0)
    assert "Draw: both mothers pinned (0 points)" in text and "WINS" not in text and "to play" not in text
    assert caption(view, "en").endswith("draw: both mothers pinned")
    assert "ισοπαλία" in caption(view, "el") and "Ισοπαλία" in render_text(scene_for(view, "el"), 1)


async def test_the_drawn_board_is_presented_as_a_picture() -> None:
    game = plakoto_draw_game(first=1)
    game.play(DRAW_PLAY)
    view = build_view(Session("g2", HERE, (ALICE, BOB), 1, Rules(), game, 0.0, 3600.0, kind="plakoto"), 1)
    replies = await present(Result(ok=True, view=view, game_id="g2"), "en")
    (board,) = [r for r in replies if r.game_id == "g2"]
    assert board.image is not None and board.image.startswith(PNG)
    assert board.board_text is not None and "Draw: both mothers pinned" in board.board_text
