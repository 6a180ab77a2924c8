"""A Plakoto game won by pinning the mother (RULES-TAVLI rule 6, example K-5: 2 points) is told and drawn as
a pinned mother, never as a mars; a Plakoto mars (all borne off, the loser none) stays a mars."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.chat.presenter import board_labels, scene_for
from bot.i18n import translate
from bot.service.ai import RandomAI
from bot.service.commits import Change
from bot.service.flow import MatchFlow
from bot.service.records import make_record
from bot.service.session import Session
from bot.service.views import build_view
from bot.storage import MemoryStore, Store
from bot.web.state import _result, strings
from fevga import Board, FixedDice, Game, Rules
from fevga.variants import PlakotoRules
from renderers import BoardScene, render_text
from renderers.from_game import scene_from_game
from tests.engine.tavli_positions import tpos

from .conftest import ALICE, BOB, HERE, FakeClock

K5 = tpos("plakoto", {16: 1, 18: 2, 19: 4, 20: 4, 21: 4}, {24: 1, 5: 7, 3: 7})


def k5_won() -> Game:
    """K-5 with 6-3 for player 0: ``18/24* 16/19`` pins the mother and wins 2 points."""
    game = Game.new(PlakotoRules(), FixedDice([(6, 3)]), first=0)
    game.board = Board(K5, game.turn, game.rules)
    game.play("18/24* 16/19")
    assert game.outcome is not None and (game.outcome.winner, game.outcome.points) == (0, 2)
    return game


async def test_the_flow_tells_a_mother_win_not_a_mars(any_store: Store, clock: FakeClock) -> None:
    game = k5_won()
    assert game.outcome is not None and game.outcome.by_mother
    s = Session("g1", HERE, (ALICE, BOB), 5, Rules(), game, 0.0, 3600.0, kind="plakoto")
    change = Change()
    MatchFlow(any_store, clock, RandomAI(1)).game_over(s, change)
    (won,) = [m for m in change.messages if m.key.startswith("game_won")]
    assert won.key == "game_won_mother" and s.score == [2, 0]
    assert s.mars_wins == [0, 0]  # the stats' and head-to-head's marses do not count it
    record = make_record(s, game, 1, [0, 0], 0.0)
    assert record["outcome"] == {"winner": 0, "points": 2, "mars": False, "resigned": False}
    for lang, words in (("en", "by pinning the mother"), ("el", "πλακώνοντας τη μάνα")):
        text = translate(won.key, lang, **won.args)
        assert words in text and "mars" not in text and "μαρς" not in text


def test_a_plakoto_mars_is_still_a_mars() -> None:
    over = tpos("plakoto", {}, {24: 15}, me_off=15)  # all mine off, none of his
    game = Game.new(PlakotoRules(), FixedDice([(1, 2)]), first=0)
    game.board = Board(over, 0, game.rules)
    outcome = game.board.outcome()
    assert outcome is not None and outcome.mars and not outcome.by_mother
    last = Game.new(PlakotoRules(), FixedDice([(1, 2)]), first=0)  # the same end, reached by a play
    last.board = Board(tpos("plakoto", {23: 1}, {24: 15}, me_off=14), 0, last.rules)
    last.play("23/off")
    s = Session("g1", HERE, (ALICE, BOB), 5, Rules(), last, 0.0, 3600.0, kind="plakoto")
    assert make_record(s, last, 1, [0, 0], 0.0)["outcome"] == {"winner": 0, "points": 2, "mars": True,
                                                                "resigned": False}


@pytest.mark.parametrize("lang", ["en", "el"])
def test_the_board_says_mother_pinned(lang: str) -> None:
    game = k5_won()
    s = Session("g1", HERE, (ALICE, BOB), 5, Rules(), game, 0.0, 3600.0, kind="plakoto")
    view = build_view(s, 1)
    assert view.mother and not view.mars  # the chats' view, and the game's own scene, say how it was won
    assert scene_from_game(game, ("Ann", "Bob")).win_kind == "mother"
    scene = replace(scene_for(view, lang), names=("Ann", "Bob"))
    assert scene.win_kind == "mother"
    banner, result = scene.win_label("banner", name="Ann"), scene.win_label("result", name="Ann")
    text = render_text(scene, 0) + render_text(scene, 1)
    for shown in (banner, result, text):
        assert "mars" not in shown.lower() and "μαρς" not in shown
    word = {"en": "mother pinned", "el": "μάνα"}[lang]
    assert word in banner and word in result and word in text and "2" in banner
    mars = BoardScene(tpos("plakoto", {}, {24: 15}, me_off=15), turn=None, winner=0, mars=True)
    assert mars.win_kind == "mars" and "mars" in mars.win_label("banner", name="Ann")
    you = dict(board_labels(lang, you_won=True))
    assert "mother" in you["banner_mother"] or "μάνα" in you["banner_mother"]


@pytest.mark.parametrize("lang", ["en", "el"])
def test_a_plakoto_resignation_is_not_a_mother_win(lang: str) -> None:
    """Resigning with none borne off gives 2 points: told as a 2-point win (not a mars, not a pinned mother)
    and drawn as a resignation worth 2, never as a mars (the stats count only marses played out) nor a mother."""
    game = Game.new(PlakotoRules(), FixedDice([(6, 3)]), first=0)
    game.board = Board(K5, game.turn, game.rules)
    game.resign(1)
    s = Session("g1", HERE, (ALICE, BOB), 2, Rules(), game, 0.0, 3600.0, kind="plakoto")  # its 2 points end it
    change = Change()
    MatchFlow(MemoryStore(), FakeClock(), RandomAI(1)).game_over(s, change)
    (won,) = [m for m in change.messages if m.key.startswith("game_won")]
    assert won.key == "game_won" and won.args["points"] == 2
    view = build_view(s, 1)
    scene = scene_for(view, lang)
    assert not view.mother and not view.mars and scene.win_kind == "resigned"
    banner = scene.win_label("banner", name="Bob")
    assert "2" in banner and ("resignation" in banner or "εγκατάλειψη" in banner) and "mars" not in banner
    assert scene_from_game(game, ("Ann", "Bob")).win_kind == "resigned"
    assert _result(s)["kind"] == "resigned"


def test_the_web_page_is_told_a_mother_win() -> None:
    s = Session("g1", HERE, (ALICE, BOB), 5, Rules(), k5_won(), 0.0, 3600.0, kind="plakoto")
    result = _result(s)  # the state's "result" (a planted position: the move list cannot be replayed)
    assert result == {"winner": 0, "points": 2, "kind": "mother"}
    for lang, word in (("en", "pinning the mother"), ("el", "πλακώνοντας τη μάνα")):
        assert word in strings(lang)["webpage_won_mother"]
