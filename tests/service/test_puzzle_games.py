"""Puzzles of every game in the service, on every store: ``puzzle portes`` (plakoto, fevga) gives that game's
puzzles from then on and ``puzzle tavli`` every game's, a puzzle held of another game is set aside (not counted),
none left of a game is told and changes nothing, the daily puzzle is of the place's ``default_game``, and a Portes
or Plakoto puzzle is answered with its step buttons (entering from the bar, a hit, a pin, a bear-off)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.i18n import translate
from bot.service import GameService
from bot.service.keys import place_settings
from bot.service.puzzles import keys
from bot.service.puzzles.trainer import Solver
from bot.storage.base import Commit
from fevga.puzzles import Puzzle, load_seed

from .conftest import ALICE, BOB, HERE, FakeClock
from .test_daily_puzzle import at_hour
from .test_puzzle_buttons import answer_path, build
from .test_puzzles import DM, given, msg

SEED = load_seed()


async def test_a_game_named_chooses_its_puzzles_until_tavli_is(service: GameService) -> None:
    shown = await service.puzzle(ALICE, DM, "portes")
    args = msg(shown, "puzzle")
    assert args["game"] == "portes" and "Portes" in translate("puzzle_head", "en", **args)
    assert "Πόρτες" in translate("puzzle_head", "el", **args)
    first = await given(service, ALICE, DM)  # the same one again, without naming the game
    assert first.id == args["id"] and first.game == "portes"
    assert msg(await service.puzzle_answer(ALICE, DM, first.answer), "puzzle_verdict")["correct"] is True
    second = await given(service, ALICE, DM)
    assert second.game == "portes" and second.id != first.id
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert me.game == "portes" and me.current == second.id
    assert msg(await service.puzzle(ALICE, DM, "tavli"), "puzzle")["id"] == second.id  # kept: any game will do
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert me.game == "" and me.answered == 1


async def test_a_puzzle_of_another_game_is_set_aside_uncounted(service: GameService) -> None:
    held = msg(await service.puzzle(ALICE, DM, "fevga"), "puzzle")
    assert held["game"] == "fevga"
    other = msg(await service.puzzle(ALICE, DM, "plakoto"), "puzzle")
    assert other["game"] == "plakoto" and other["id"] != held["id"]
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert (me.answered, me.current, me.game) == (0, other["id"], "plakoto")
    stored = await service.puzzles.bank.ids("plakoto")
    assert other["id"] in stored and held["id"] not in stored
    assert set(await service.puzzles.bank.ids()) >= {held["id"], other["id"]}


async def test_none_left_of_a_game_is_told_and_changes_nothing(service: GameService) -> None:
    await service.puzzle(ALICE, DM, "fevga")
    version, before = await service.puzzles.trainer.solver(ALICE)
    done = Commit()
    for pid in await service.puzzles.bank.ids("plakoto"):
        done.hset(keys.answered(ALICE.platform, ALICE.user_id), pid, "1")
    await service.store.commit(done)
    refused = await service.puzzle(ALICE, DM, "plakoto")
    assert not refused.ok and refused.error_key == "puzzle_none_left_game"
    assert "Plakoto" in translate("puzzle_none_left_game", "en", **msg(refused, "puzzle_none_left_game"))
    assert await service.puzzles.trainer.solver(ALICE) == (version, before)  # still Fevga, the same puzzle


async def test_the_daily_puzzle_is_of_the_places_default_game(service: GameService, clock: FakeClock) -> None:
    games = []
    for day, kind in enumerate(("portes", "plakoto", None)):
        if kind is not None:
            assert (await service.set_setting(ALICE, HERE, "default_game", kind, is_admin=True)).ok
        else:
            await service.store.commit(Commit().hdel(place_settings(HERE), "default_game"))
        await at_hour(service, clock, 10 + day)
        clock.advance(61)
        (posted,) = [r for r in await service.tick() if r.place == HERE]
        args = msg(posted, "puzzle_daily")
        games.append(args["game"])
        assert args["game"] in translate("puzzle_daily_head", "en", **args).lower()
        asked = await service.puzzle(BOB, HERE, "plakoto")  # in the group: today's, and where to ask for one's own
        assert msg(asked, "puzzle_daily")["id"] == args["id"]
        assert "Plakoto puzzles of your own" in translate("puzzle_game_in_private", "en",
                                                           **msg(asked, "puzzle_game_in_private"))
        assert await service.puzzles.trainer.solver(BOB) == (0, Solver())  # nothing of his changed
        clock.advance(86400)
    assert games == ["portes", "plakoto", "fevga"]


def _first(game: str, test: Callable[[Puzzle], bool]) -> str:
    """The id of the first shipped puzzle of ``game`` that passes ``test``."""
    return next(p.id for p in SEED if p.game == game and test(p))


@pytest.mark.parametrize("pid", [
    _first("portes", lambda p: p.answer.startswith("bar/")),  # enter from the bar first
    _first("portes", lambda p: "*" in p.answer and not p.answer.startswith("bar/")),  # a hit
    _first("plakoto", lambda p: "*" in p.answer),  # a pin
    _first("plakoto", lambda p: "bear_off" in p.themes),
])
async def test_a_portes_or_plakoto_puzzle_is_answered_with_its_step_buttons(service: GameService, pid: str) -> None:
    await service.puzzles.bank.ensure_seeded()
    holding = Solver(current=pid)
    await service.store.commit(Commit().put_versioned(keys.player(ALICE.platform, ALICE.user_id), 1,
                                                      holding.encode(), 3600))
    shown = await service.puzzle(ALICE, DM)
    assert msg(shown, "puzzle")["id"] == pid
    found = await service.puzzles.bank.get(pid)
    assert found is not None
    puzzle = found[0]
    right = await build(service, ALICE, DM, puzzle, shown, answer_path(puzzle))
    verdict = msg(right, "puzzle_verdict")
    assert verdict["correct"] is True and verdict["best"] == puzzle.answer
    assert msg(right, "puzzle_rating")["streak"] == 1
