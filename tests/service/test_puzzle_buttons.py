"""Answering puzzles with step buttons, through the service: the buttons a puzzle is posted with, a whole play
built step by step and answered as the typed play (once: a double click is judged but counts nothing), two
players building the daily puzzle at once, and stale, foreign or broken buttons refused, changing nothing."""

from __future__ import annotations

import pytest

from bot.chat.buttons import decode, encode_puzzle
from bot.chat.presenter import button, texts
from bot.commands.puzzle_intents import PuzzleStep
from bot.service import GameService, PlayerRef
from bot.service.button_kinds import ButtonKind
from bot.service.keys import chat_titles
from bot.service.models import Action, Place, Result
from bot.service.puzzles.steps import builder
from bot.storage import RedisStore
from bot.storage.base import Commit
from fevga.puzzles import Puzzle, ordered_plays
from fevga.rules import OFF

from .conftest import ALICE, BOB, HERE, FakeClock, make_service
from .test_daily_puzzle import at_hour
from .test_puzzles import BOB_DM, DM, given, msg

pytestmark = pytest.mark.timeout(120)
Path = tuple[tuple[int, int], ...]


def clicks(puzzle: Puzzle, steps: tuple[tuple[int, int], ...]) -> Path:
    """The (from point, die) buttons that make a play's (from, to) steps, found with the builder's offers."""
    path: Path = ()
    for a, b in steps:
        offered = builder(puzzle, path).options.get(a, [])
        die = next(d for d in sorted(offered) if a + d == b or (b == OFF and a + d >= OFF))
        path = (*path, (a, die))
    return path


def offered(result: Result) -> dict[Path, Action]:
    """A result's step buttons by the path each would press (undo left out)."""
    out: dict[Path, Action] = {}
    for action in result.actions:
        if action.kind is ButtonKind.STEP:
            intent = decode(button(action, "en").token)
            assert isinstance(intent, PuzzleStep)
            out[intent.path] = action
    return out


async def build(service: GameService, who: PlayerRef, place: Place, puzzle: Puzzle, first: Result,
                path: Path, start: int = 1) -> Result:
    """Press the buttons of ``path`` one after another (from its ``start``-th step on: ``first`` shows the steps
    before it), each one taken from the buttons the last press gave."""
    shown = first
    for n in range(start, len(path) + 1):
        action = offered(shown)[path[:n]]
        intent = decode(button(action, "en").token)
        assert isinstance(intent, PuzzleStep)
        shown = await service.puzzle_step(who, place, intent.pid, intent.owner, intent.path)
        assert shown.ok, shown
        if n < len(path):
            assert msg(shown, "puzzle_steps")["id"] == puzzle.id
            assert all(a.payload["owner"] == who.user_id for a in shown.actions)  # his own buttons now
    return shown


def answer_path(puzzle: Puzzle) -> Path:
    """The clicks of the puzzle's best play."""
    best = next(p for p in ordered_plays(puzzle.start(), puzzle.dice) if p.result.id() == puzzle.result)
    return clicks(puzzle, best.steps)


def wrong_path(puzzle: Puzzle) -> Path:
    """The clicks of a legal play that is not the best."""
    play = next(p for p in ordered_plays(puzzle.start(), puzzle.dice) if p.result.id() != puzzle.result)
    return clicks(puzzle, play.steps)


async def test_a_puzzle_answered_with_its_step_buttons_counts_once(service: GameService) -> None:
    puzzle = await given(service, ALICE, DM)
    shown = await service.puzzle(ALICE, DM)
    first = builder(puzzle, ())
    assert {p[0] for p in offered(shown)} == {(point, die) for point, dice in first.options.items() for die in dice}
    path = answer_path(puzzle)
    right = await build(service, ALICE, DM, puzzle, shown, path)
    assert msg(right, "puzzle_verdict")["correct"] is True and msg(right, "puzzle_rating")["streak"] == 1
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert (me.solved, me.answered) == (1, 1)
    again = await service.puzzle_step(ALICE, DM, puzzle.id, ALICE.user_id, path)  # a double click
    assert msg(again, "puzzle_verdict")["correct"] is True
    assert "puzzle_answered_before" in [m.key for m in again.messages]
    _v, after = await service.puzzles.trainer.solver(ALICE)
    assert after == me


async def test_undo_takes_back_a_step_and_bad_buttons_change_nothing(service: GameService) -> None:
    puzzle = await given(service, ALICE, DM)
    path = answer_path(puzzle)
    one = await service.puzzle_step(ALICE, DM, puzzle.id, ALICE.user_id, path[:1])
    if len(path) > 1:
        undo = [a for a in one.actions if a.kind is ButtonKind.UNDO]
        assert len(undo) == 1
        back = decode(button(undo[0], "en").token)
        assert isinstance(back, PuzzleStep) and back.path == ()
    foreign = await service.puzzle_step(BOB, DM, puzzle.id, ALICE.user_id, path)
    assert not foreign.ok and foreign.error_key == "puzzle_button_not_yours"
    other = await service.puzzle_step(ALICE, DM, "0123456789", ALICE.user_id, path)  # not his puzzle
    assert not other.ok and other.error_key == "puzzle_button_stale"
    broken = await service.puzzle_step(ALICE, DM, puzzle.id, ALICE.user_id, ((24, 6), (24, 6), (24, 6)))
    assert not broken.ok and broken.error_key == "puzzle_button_stale"
    _v, me = await service.puzzles.trainer.solver(ALICE)
    assert (me.answered, me.current) == (0, puzzle.id)  # nothing answered


async def test_two_players_build_the_daily_puzzle_at_once(redis_store: RedisStore, clock: FakeClock) -> None:
    service = make_service(redis_store, clock)
    await at_hour(service, clock)
    clock.advance(61)
    (posted,) = [r for r in await service.tick() if r.place == HERE]
    assert posted.actions and all(a.payload["owner"] == "" for a in posted.actions)  # anyone may start
    pid = msg(posted, "puzzle_daily")["id"]
    found = await service.puzzles.bank.get(pid)
    assert found is not None
    puzzle = found[0]
    right, wrong = answer_path(puzzle), wrong_path(puzzle)
    assert len(right) > 1 and len(wrong) > 1
    alice = await service.puzzle_step(ALICE, HERE, pid, "", right[:1])  # both start before either ends
    bob = await service.puzzle_step(BOB, HERE, pid, "", wrong[:1])
    assert msg(alice, "puzzle_steps") and msg(bob, "puzzle_steps")
    double = await service.puzzle_step(ALICE, HERE, pid, "", right[:1])  # the same step again: shown already
    assert not double.ok and double.error_key == "puzzle_steps_shown" and not double.actions
    alice_done = await build(service, ALICE, HERE, puzzle, alice, right, start=2)
    bob_done = await build(service, BOB, HERE, puzzle, bob, wrong, start=2)
    assert msg(alice_done, "puzzle_verdict")["correct"] is True
    assert msg(bob_done, "puzzle_verdict")["correct"] is False and float(msg(bob_done, "puzzle_verdict")["loss"]) > 0
    _v, doc = await service.puzzles.daily.load(HERE)
    assert doc["who"] == {ALICE.user_id: 1, BOB.user_id: 0}
    again = await service.puzzle_step(ALICE, HERE, pid, ALICE.user_id, right)  # a double click of the last step
    assert not again.ok and again.error_key == "puzzle_answered_right"
    later = await service.puzzle_step(BOB, HERE, pid, "", wrong[:1])  # a press on the post after answering
    assert not later.ok and later.error_key == "puzzle_answered_wrong" and not later.actions
    assert msg(later, "puzzle_answered_wrong")["best"] == puzzle.answer  # his own answer is in: told privately
    _v, doc_after = await service.puzzles.daily.load(HERE)
    assert doc_after["who"] == doc["who"]


def test_a_puzzle_token_fits_telegram_and_round_trips() -> None:
    owner = "1" * 19  # a Discord user id
    path = ((1, 6), (1, 6), (7, 6), (13, 6))
    token = encode_puzzle("a1b2c3d4e5", owner, "016016076136")
    assert len(token.encode()) <= 64
    assert decode(token) == PuzzleStep(pid="a1b2c3d4e5", owner=owner, path=path)
    for bad in ("Z.a1b2c3d4e5..017", "Z.a1b2c3d4e5..257", "Z.a1b2c3d4e5..01", "Z..x.016", "Z.a1.b.c.016",
                "Z.a1b2c3d4e5..016016016016016"):
        assert decode(bad) is None, bad
    with pytest.raises(ValueError):
        encode_puzzle("a1b2c3d4e5", owner, "017")


async def group_daily(service: GameService, clock: FakeClock) -> tuple[str, Puzzle]:
    """The group's daily puzzle, posted at its hour: its id and the puzzle."""
    await at_hour(service, clock)
    clock.advance(61)
    (posted,) = [r for r in await service.tick() if r.place == HERE]
    pid = msg(posted, "puzzle_daily")["id"]
    found = await service.puzzles.bank.get(pid)
    assert found is not None
    return pid, found[0]


async def test_steps_begun_in_a_group_go_on_in_his_private_chat(redis_store: RedisStore, clock: FakeClock) -> None:
    """A member's step buttons sent to his private chat (his steps are for him alone) answer the group's daily
    puzzle there, counted in the group's tally; nobody else's private chat can press them, and steps that never
    reached him (forgotten: ``unshown``) may be pressed again."""
    service = make_service(redis_store, clock)
    pid, puzzle = await group_daily(service, clock)
    right, wrong = answer_path(puzzle), wrong_path(puzzle)
    assert len(right) > 1
    first = await service.puzzle_step(ALICE, HERE, pid, "", right[:1])  # pressed on the group's post
    assert msg(first, "puzzle_steps")["id"] == pid
    done = await build(service, ALICE, DM, puzzle, first, right, start=2)  # the next ones in her private chat
    assert msg(done, "puzzle_verdict")["correct"] is True
    _v, doc = await service.puzzles.daily.load(HERE)
    assert doc["who"] == {ALICE.user_id: 1}  # the group's puzzle answered, once
    stranger = await service.puzzle_step(BOB, BOB_DM, pid, BOB.user_id, wrong[:2])  # never began it in the group
    assert not stranger.ok and stranger.error_key == "puzzle_button_stale"

    bob = await service.puzzle_step(BOB, HERE, pid, "", wrong[:1])
    assert msg(bob, "puzzle_steps")
    assert (await service.puzzle_step(BOB, HERE, pid, "", wrong[:1])).error_key == "puzzle_steps_shown"
    await service.puzzles.unshown(BOB, HERE, pid)  # they never reached him (no private chat)
    assert msg(await service.puzzle_step(BOB, HERE, pid, "", wrong[:1]), "puzzle_steps")


async def test_steps_in_his_private_chat_name_the_group_and_none_is_not_pass(redis_store: RedisStore,
                                                                             clock: FakeClock) -> None:
    """His steps of a group's daily puzzle shown in his private chat say whose puzzle they answer (he may be in
    several groups): the group's title when a frontend noted it, else "the group's daily puzzle"; in the group
    itself no such line. Undone back to no steps they say so ("no steps yet"), not "pass"."""
    service = make_service(redis_store, clock)
    pid, puzzle = await group_daily(service, clock)
    right = answer_path(puzzle)
    assert len(right) > 1
    first = await service.puzzle_step(ALICE, HERE, pid, "", right[:1])  # pressed on the group's post
    assert [m.key for m in first.messages] == ["puzzle_steps"]
    undone = await service.puzzle_step(ALICE, DM, pid, ALICE.user_id, ())  # undone in her private chat: none left
    assert undone.ok and [m.key for m in undone.messages] == ["puzzle_steps_in_a_group", "puzzle_steps_none"]
    assert present_text(undone) == "The group's daily puzzle:\nYour play so far: no steps yet. Choose a step."
    assert "κανένα βήμα ακόμη" in present_text(undone, "el") and offered(undone)
    await service.store.commit(Commit().hset(chat_titles(HERE.platform), HERE.channel_id, "Tavli Club"))
    again = await service.puzzle_step(ALICE, DM, pid, ALICE.user_id, right[:1])
    assert (again.messages[0].key, again.messages[0].args) == ("puzzle_steps_in_group", {"group": "Tavli Club"})
    assert present_text(again).startswith("Today's puzzle in Tavli Club:\nYour play so far: ")
    assert present_text(again, "el").startswith("Ο γρίφος της ημέρας στην ομάδα Tavli Club:\n")
    bob = await service.puzzle_step(BOB, HERE, pid, "", ())  # none in the group: said the same way
    assert [m.key for m in bob.messages] == ["puzzle_steps_none"]


def present_text(result: Result, lang: str = "en") -> str:
    """A result's words as the chats show them."""
    return texts(result, lang)
