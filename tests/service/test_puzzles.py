"""Puzzles in the service, on every store: a puzzle on demand near the player's puzzle rating, the rating moving
the right way, only a first answer counting (also two at once), ``top puzzles``, bad answers changing nothing."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import GameService, Place, PlayerRef
from bot.service.models import Result
from bot.service.puzzles import keys
from bot.storage.base import Commit
from fevga import Position
from fevga.analysis import Move, PlayerReport, Report
from fevga.play import format_steps
from fevga.puzzles import Puzzle, load_seed, ordered_plays

from .conftest import ALICE, BOB, HERE

DM = Place("discord", "dm:100", "dm100")
BOB_DM = Place("discord", "dm:200", "dm200")


def msg(result: Result, key: str) -> dict:
    """The arguments of the result's message ``key`` (fails when it has none)."""
    found = [m.args for m in result.messages if m.key == key]
    assert found, [m.key for m in result.messages]
    return found[0]


async def given(service: GameService, who: PlayerRef, place: Place) -> Puzzle:
    """Ask for a puzzle and return it (as stored)."""
    result = await service.puzzle(who, place)
    assert result.ok, result
    pid = msg(result, "puzzle")["id"]
    found = await service.puzzles.bank.get(pid)
    assert found is not None
    return found[0]


def wrong_play(puzzle: Puzzle) -> str:
    """A legal play that is not the answer."""
    plays = ordered_plays(puzzle.start(), puzzle.dice)
    return next(format_steps(p.steps) for p in plays if p.result.id() != puzzle.result)


async def test_a_right_answer_raises_the_rating_and_a_second_answer_moves_nothing(service: GameService) -> None:
    puzzle = await given(service, ALICE, DM)
    answered = await service.puzzle_answer(ALICE, DM, puzzle.answer)
    assert answered.ok and msg(answered, "puzzle_verdict")["correct"] is True
    rating = msg(answered, "puzzle_rating")
    assert rating["delta"] > 0 and rating["rating"] > 1500 and rating["streak"] == 1
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert (me.solved, me.answered, me.streak) == (1, 1, 1)
    again = await service.puzzles.trainer.answer(ALICE, DM, wrong_play(puzzle), pid=puzzle.id)  # the same puzzle
    assert again.ok and msg(again, "puzzle_verdict")["correct"] is False
    assert "puzzle_answered_before" in [m.key for m in again.messages]
    _v, after = await service.puzzles.trainer.solver(ALICE)
    assert after.rating == me.rating and (after.solved, after.answered, after.streak) == (1, 1, 1)


async def test_a_wrong_answer_lowers_the_rating_and_says_its_loss(service: GameService) -> None:
    puzzle = await given(service, BOB, BOB_DM)
    answered = await service.puzzle_answer(BOB, BOB_DM, wrong_play(puzzle))
    verdict = msg(answered, "puzzle_verdict")
    assert verdict["correct"] is False and float(verdict["loss"]) >= 0.1 and verdict["best"] == puzzle.answer
    assert msg(answered, "puzzle_rating")["delta"] < 0
    _v, me = await service.puzzles.trainer.solver(BOB)
    assert me.rating.rating < 1500 and me.streak == 0 and me.current == ""


async def test_the_same_puzzle_is_given_until_answered_then_a_new_one(service: GameService) -> None:
    first = await given(service, ALICE, DM)
    assert (await given(service, ALICE, DM)).id == first.id
    assert (await service.puzzle_answer(ALICE, DM, first.answer)).ok
    assert (await given(service, ALICE, DM)).id != first.id


async def test_two_answers_at_once_count_once(service: GameService) -> None:
    puzzle = await given(service, ALICE, DM)
    both = await asyncio.gather(*(service.puzzles.trainer.answer(ALICE, DM, puzzle.answer, pid=puzzle.id)
                                  for _ in range(2)))
    rated = [r for r in both if any(m.key == "puzzle_rating" for m in r.messages)]
    assert len(rated) == 1
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert (me.solved, me.answered) == (1, 1)


async def test_a_bad_answer_is_refused_and_changes_nothing(service: GameService) -> None:
    await given(service, ALICE, DM)
    before = await service.store.read([("get", keys.player("discord", "100"))])
    for text in ("24/1", "banana", "1/2 3/4 5/6 7/8 9/10"):
        answered = await service.puzzle_answer(ALICE, DM, text)
        assert not answered.ok and answered.messages and answered.error_key
    assert await service.store.read([("get", keys.player("discord", "100"))]) == before


async def test_answer_without_a_puzzle_and_top_puzzles(service: GameService) -> None:
    none = await service.puzzle_answer(BOB, BOB_DM, "1/7 7/12")
    assert not none.ok and none.error_key == "puzzle_none_given"
    assert msg(await service.top_puzzles(HERE), "puzzle_top_empty") == {}
    for who, place in ((ALICE, DM), (BOB, BOB_DM)):
        puzzle = await given(service, who, place)
        text = puzzle.answer if who is ALICE else wrong_play(puzzle)
        assert (await service.puzzle_answer(who, place, text)).ok
    top = await service.top_puzzles(HERE)
    rows = [m.args for m in top.messages if m.key == "puzzle_top_row"]
    assert [r["name"] for r in rows] == ["alice", "bob"] and rows[0]["rating"] > rows[1]["rating"]
    assert rows[0]["solved"] == "1" and rows[1]["solved"] == "0"


async def test_puzzles_found_in_analysed_games_join_the_bank(service: GameService) -> None:
    await service.puzzles.bank.ensure_seeded()
    before = len(await service.puzzles.bank.ids())
    seed = (await service.puzzles.bank.get((await service.puzzles.bank.ids())[0]))
    assert seed is not None
    moved = Puzzle(seed[0].position, (seed[0].dice[1], seed[0].dice[0]) if seed[0].dice[0] != seed[0].dice[1]
                   else seed[0].dice, seed[0].answer, seed[0].result, seed[0].equities)
    assert await service.puzzles.add_found([moved.encode()]) == 0  # the same position and roll: one puzzle
    other = Puzzle(Position.start().id(), (6, 5), "1/12", Position.start().id(), (1,))
    assert await service.puzzles.add_found([other.encode()]) == 1
    assert len(await service.puzzles.bank.ids()) == before + 1


async def test_a_stored_analysis_adds_the_puzzles_among_its_blunders(service: GameService) -> None:
    seed = load_seed()[0]
    missed = wrong_play(seed)
    k = [p.result.id() for p in ordered_plays(seed.start(), seed.dice)].index(
        next(p.result.id() for p in ordered_plays(seed.start(), seed.dice) if format_steps(p.steps) == missed))
    blunder = Move(4, 0, seed.dice, seed.position, missed, seed.answer, seed.equities[k] / 1000 - 0.2,
                   max(seed.equities) / 1000)
    quiet = PlayerReport(10, 0, 50.0, 0, 1, 0.0, None, (blunder,))
    other = PlayerReport(10, 0, 0.0, 0, 0, 0.0, None, ())
    report = Report("hard", None, "....b", (quiet, other), (0, 0, 0, 0, 200))
    assert await service.puzzles.bank.get(seed.id) is None  # the bank is empty before its first use
    service.analyses.ply = None  # the production depth: analyses feed the bank
    try:
        await service.analyses._mine(report.encode())  # in the worker pool, as after a stored analysis
    finally:
        service.analyses.close()
    found = await service.puzzles.bank.get(seed.id)
    assert found is not None and found[0].result == seed.result


async def test_a_damaged_puzzle_record_is_refused_and_kept(service: GameService) -> None:
    key = keys.player("discord", "100")
    await service.store.commit(Commit().put(key, b"3:{not json"))
    for result in (await service.puzzle(ALICE, DM), await service.puzzle_answer(ALICE, DM, "1/7 7/12")):
        assert not result.ok and result.error_key == "store_damaged"
    assert await service.store.read([("get", key)]) == [b"3:{not json"]


async def test_a_bank_seeded_before_drops_the_retired_puzzles_and_keeps_the_rest(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.service.puzzles import bank as bank_module
    from bot.service.puzzles.bank import Bank
    from bot.service.ratings import Rating

    bank = service.puzzles.bank
    await bank.ensure_seeded()
    shipped = sorted(p.id for p in load_seed())
    assert await bank.ids() == shipped
    first, second = shipped[0], shipped[1]
    await bank.rate(second, Rating(1720.0))
    await service.store.commit(Commit().put(keys.SEEDED, b"44"))  # the marker of an older seed file
    monkeypatch.setattr(bank_module, "load_retired", lambda: frozenset({first, "0000000000"}))
    again = Bank(service.store)  # another instance, or the bot after an upgrade
    await again.ensure_seeded()
    assert await again.ids() == shipped[1:]
    assert await again.get(first) is None
    kept = await again.get(second)
    assert kept is not None and kept[1].rating == 1720.0  # the others keep their ratings
    assert await again.retire([first]) == 0  # done once
