"""``analyze``: a finished game is analysed once in a worker process, stored with its record, read back."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor, Executor, Future
from typing import Any

import pytest

from bot.i18n import translate
from bot.service import GameService, Place, keys
from bot.storage import RedisStore
from fevga import format_play
from fevga.analysis import Report

from .conftest import ALICE, BOB, CAROL, HERE, THERE, FakeClock, make_service
from .helpers import play_out, random_play, start_game


@pytest.fixture
def analysing(redis_store: RedisStore, clock: FakeClock) -> Iterator[GameService]:
    """A service on the real redis-server that judges at 0-ply (fast)."""
    service = make_service(redis_store, clock, analysis_ply=0)
    yield service
    service.close()


async def test_no_game_gives_a_clear_message(analysing: GameService) -> None:
    result = await analysing.analyze(ALICE, HERE)
    assert not result.ok and result.error_key == "analysis_no_game"
    assert analysing.analyses.runs == 0


async def test_a_running_game_is_refused(analysing: GameService) -> None:
    started = await start_game(analysing, ALICE, BOB, HERE)
    result = await analysing.analyze(ALICE, HERE)
    assert not result.ok and result.error_key == "analysis_running"
    assert result.messages[0].args["game_id"] == started.game_id
    assert analysing.analyses.runs == 0


async def test_finished_game_is_analysed_once_stored_and_cached(analysing: GameService,
                                                                 redis_store: RedisStore) -> None:
    started = await start_game(analysing, ALICE, BOB, HERE)
    gid = started.game_id
    assert gid is not None
    await play_out(analysing, started, HERE, random.Random(3))

    first = await analysing.analyze(ALICE, HERE)
    assert first.ok, first.messages
    msg = first.messages[0]
    assert msg.key == "analysis" and msg.args["game_id"] == gid and msg.args["names"] == ["alice", "bob"]
    assert msg.args["game"] == "fevga"  # the header names a Portes or Plakoto game ("game 2 (Plakoto)")
    assert translate("analysis", "en", **{**msg.args, "game": "plakoto"}).startswith("Analysis of game 1 (Plakoto)")
    report = Report.from_dict(msg.args["report"])
    assert report.judge and report.result is not None
    assert report.players[0].decisions + report.players[1].decisions > 0
    stored = (await redis_store.read([("get", keys.game_analysis(gid, 1))]))[0]
    assert stored is not None and len(stored) <= 1024
    assert Report.decode(stored) == report
    ttl = await redis_store.client.ttl(keys.game_analysis(gid, 1))
    assert keys.RECORD_KEEP - 60 < ttl <= keys.RECORD_KEEP
    assert analysing.analyses.runs == 1

    again = await analysing.analyze(BOB, HERE)  # the opponent asks too: read back, not analysed again
    assert again.ok and again.messages[0].args["report"] == msg.args["report"]
    assert analysing.analyses.runs == 1

    # Named from another channel, by someone else: the same stored report.
    named = await analysing.analyze(CAROL, Place("discord", "guild1", "elsewhere"), game_id=gid)
    assert named.ok and named.messages[0].args["report"] == msg.args["report"]
    assert analysing.analyses.runs == 1


async def test_stats_show_the_rolling_average_error_rate(analysing: GameService) -> None:
    rates = []
    for seed in (1, 2):
        started = await start_game(analysing, ALICE, BOB, HERE)
        await play_out(analysing, started, HERE, random.Random(seed))
        result = await analysing.analyze(ALICE, HERE)
        assert result.ok, result.messages
        seat = result.messages[0].args["names"].index("alice")
        rates.append(Report.from_dict(result.messages[0].args["report"]).players[seat].error_rate)
    stats = await analysing.stats(ALICE, HERE)
    shown = [m for m in stats.messages if m.key == "stats_analysis"]
    assert len(shown) == 1
    assert shown[0].args["games"] == 2
    assert shown[0].args["rate"] == round(sum(rates) / 2, 1)
    nothing = await analysing.stats(CAROL, HERE)
    assert not any(m.key == "stats_analysis" for m in nothing.messages)


class _PairedPool(Executor):
    """Runs each analysis in the caller's thread but hands out the results only once two were asked for,
    together: two analyses then finish at the same instant, as two workers may."""

    def __init__(self) -> None:
        self.waiting: list[tuple[Future[Any], Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.waiting.append((future, fn(*args, **kwargs)))
        if len(self.waiting) == 2:
            for done, result in self.waiting:
                done.set_result(result)
        return future


async def test_two_analyses_finishing_at_once_are_both_counted(analysing: GameService,
                                                               redis_store: RedisStore) -> None:
    for seed, (opponent, place) in enumerate(((BOB, HERE), (CAROL, THERE))):
        started = await start_game(analysing, ALICE, opponent, place)
        await play_out(analysing, started, place, random.Random(seed + 1))
    analysing.analyses._pool = _PairedPool()
    both = await asyncio.gather(analysing.analyze(ALICE, HERE), analysing.analyze(ALICE, THERE))
    assert all(r.ok for r in both) and analysing.analyses.runs == 2
    stats = await analysing.stats(ALICE, HERE)
    (shown,) = [m for m in stats.messages if m.key == "stats_analysis"]
    assert shown.args["games"] == 2  # neither rolling-list update was lost
    for opponent in (BOB, CAROL):  # each opponent's list has his one game
        theirs = await analysing.stats(opponent, HERE)
        assert [m.args["games"] for m in theirs.messages if m.key == "stats_analysis"] == [1]


async def test_an_old_plain_rate_list_is_kept_and_extended(analysing: GameService, redis_store: RedisStore) -> None:
    key = keys.player_rates(ALICE.platform, ALICE.user_id)
    await redis_store.client.set(key, b'[["old:1", 4.0]]')  # written before the list was versioned
    started = await start_game(analysing, ALICE, BOB, HERE)
    await play_out(analysing, started, HERE, random.Random(6))
    assert (await analysing.analyze(ALICE, HERE)).ok
    stats = await analysing.stats(ALICE, HERE)
    (shown,) = [m for m in stats.messages if m.key == "stats_analysis"]
    assert shown.args["games"] == 2


async def test_unknown_named_game(analysing: GameService) -> None:
    result = await analysing.analyze(ALICE, HERE, game_id="nosuchgame")
    assert not result.ok
    assert analysing.analyses.runs == 0


async def test_export_carries_marks_and_losses_once_analysed(analysing: GameService) -> None:
    started = await start_game(analysing, ALICE, BOB, HERE)
    await play_out(analysing, started, HERE, random.Random(5))
    plain = (await analysing.export(ALICE, HERE)).messages[0].args["text"]
    assert "?" not in plain and "[Analysis" not in plain

    analysed = await analysing.analyze(ALICE, HERE)
    report = Report.from_dict(analysed.messages[0].args["report"])
    text = (await analysing.export(ALICE, HERE)).messages[0].args["text"]
    assert f'; [Analysis "{report.judge}"' in text
    assert f"{report.players[0].error_rate:.1f}" in text
    blunders = sum(p.blunders for p in report.players)
    errors = sum(p.errors for p in report.players)
    moves = "\n".join(line for line in text.splitlines() if not line.startswith(";"))
    assert moves.count("??") == blunders and blunders > 0
    assert moves.count("?") - 2 * blunders == errors
    worst = [m for p in report.players for m in p.worst]
    for move in worst:
        assert f"{move.played}{move.mark} [-{move.loss:.3f}]" in text
    judged = sum(1 for code in report.marks if code not in ("-", "f"))  # every unforced move has its loss
    assert judged > 0 and moves.count(" [-") == judged
    rows = [line for line in moves.splitlines() if re.match(r" *\d+\) ", line)]
    for row in rows:  # a long first move never runs into the second: "[-0.000]45:" would be one word
        assert not re.search(r"\][^ \n]", row), row


class _BrokenPool(Executor):
    """An executor whose worker has died: every job fails as a real broken process pool's would."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_exception(BrokenExecutor("a worker died"))
        return future


async def test_a_broken_worker_pool_is_an_error_reply_and_is_replaced(analysing: GameService) -> None:
    started = await start_game(analysing, ALICE, BOB, HERE)
    await play_out(analysing, started, HERE, random.Random(8))
    analysing.analyses._pool = _BrokenPool()
    failed = await analysing.analyze(ALICE, HERE)
    assert not failed.ok and failed.error_key == "error"
    assert analysing.analyses._pool is None  # a fresh pool next time
    again = await analysing.analyze(ALICE, HERE)
    assert again.ok and again.messages[0].key == "analysis"


async def test_a_called_off_match_neither_hides_the_running_one_nor_reads_as_running(analysing: GameService) -> None:
    """Called off before any game ended, a match has nothing to analyse ("no game", not "still being played");
    then a new match's first finished game is the one analysed, not hidden behind the called-off one."""
    await start_game(analysing, ALICE, BOB, HERE)
    assert (await analysing.abort(ALICE, HERE)).ok
    nothing = await analysing.analyze(ALICE, HERE)
    assert not nothing.ok and nothing.error_key == "analysis_no_game"
    started = await start_game(analysing, ALICE, BOB, HERE, length=25)  # a long match: game 1 ends, it runs on
    result, rng = started, random.Random(4)
    while result.view is not None and result.view.game_no == 1:
        view = result.view
        result = await analysing.move(view.players[view.turn], HERE, format_play(random_play(view, rng)),
                                      game_id=view.game_id)
        assert result.ok, result.messages
    analysed = await analysing.analyze(ALICE, HERE)
    assert analysed.ok, analysed.messages
    assert analysed.messages[0].args["game_id"] == started.game_id and analysed.messages[0].args["game_no"] == 1


async def test_analyze_while_the_automatic_post_is_being_made_points_to_it(analysing: GameService,
                                                                            redis_store: RedisStore) -> None:
    """After a game against the AI its analysis is posted by itself; ``analyze`` typed while that post is being
    analysed says it is on its way instead of posting it twice; once it is out, asking shows it again."""
    started = await analysing.play_ai(ALICE, HERE, "easy")
    gid = started.game_id
    assert started.ok and gid is not None
    await play_out(analysing, started, HERE, random.Random(4))
    gate = asyncio.Event()
    real = analysing.analyses._analyse

    async def slow(*args: Any) -> Report | None:
        await gate.wait()  # the automatic post's analysis is still running
        return await real(*args)

    analysing.analyses._analyse = slow  # type: ignore[method-assign]
    posting = asyncio.ensure_future(analysing.analyses.after_game(gid, 1))
    for _ in range(100):
        if await redis_store.read([("get", f"{keys.game_analysis(gid, 1)}:posted")]) != [None]:
            break
        await asyncio.sleep(0.01)
    soon = await analysing.analyze(ALICE, HERE)
    assert soon.ok and [m.key for m in soon.messages] == ["analysis_just_posted"]
    gate.set()
    posted = await posting
    assert posted.ok and [m.key for m in posted.messages] == ["analysis"]
    later = await analysing.analyze(ALICE, HERE)
    assert later.ok and [m.key for m in later.messages] == ["analysis"]
    assert later.messages[0].args["report"] == posted.messages[0].args["report"]
    assert analysing.analyses.runs == 1


async def test_analyze_before_the_automatic_post_takes_its_place(analysing: GameService) -> None:
    """A player's ``analyze`` in the game's place before the automatic post claimed it: he gets the analysis and
    the automatic post is not made (one post, whichever comes first); elsewhere it does not count."""
    started = await analysing.play_ai(ALICE, HERE, "easy")
    gid = started.game_id
    assert started.ok and gid is not None
    await play_out(analysing, started, HERE, random.Random(6))
    asked = await analysing.analyze(ALICE, HERE)
    assert asked.ok and [m.key for m in asked.messages] == ["analysis"]
    skipped = await analysing.analyses.after_game(gid, 1)
    assert skipped.ok and skipped.messages == []
    assert (await analysing.analyze(ALICE, HERE)).messages[0].key == "analysis"  # asked again: shown again


async def test_a_match_game_is_judged_at_the_score_the_players_faced(analysing: GameService) -> None:
    """The analysis of a match's game (a 3-point tavli match here) judges every play at the score before the
    game, as the AI and ``hint`` played it: the stored report is the engine's at that score, not money play's."""
    from fevga.ai.stakes import MatchScore
    from fevga.analysis import analyse

    started = await analysing.challenge(ALICE, HERE, BOB, length=3, kind="tavli")
    assert started.ok, started.messages
    started = await analysing.accept(BOB, HERE)
    rng = random.Random(4)
    while True:  # random plays until game 2 has ended: it is played at the score game 1 left
        view = started.view
        assert view is not None and view.status == "play"
        started = await analysing.move(view.players[view.turn], HERE, format_play(random_play(view, rng)),
                                       game_id=view.game_id)
        assert started.ok, started.messages
        records, _ = await analysing.analyses.info.records(view.game_id)
        if sum(r.get("outcome") is not None for r in records) >= 2 or started.view is None \
                or started.view.status != "play":
            break
    gid = view.game_id
    records, _ = await analysing.analyses.info.records(gid)
    record = next(r for r in records if r["game_no"] == 2)
    assert record["outcome"] is not None and sum(record["score_before"]) > 0
    result = await analysing.analyze(ALICE, HERE, game_id=gid)
    assert result.ok, result.messages
    report = Report.from_dict(result.messages[0].args["report"])
    assert result.messages[0].args["game_no"] == 2 and report.match
    score = MatchScore(3, record["score_before"][0], record["score_before"][1], "tavli", 2)
    assert report == analyse(record["game"], 0, score=score)
    assert report.to_dict()["l"] != analyse(record["game"], 0).to_dict()["l"]  # money play judges otherwise
    text = translate("analysis", "en", **result.messages[0].args)
    assert text.startswith("Analysis of game 2 (Plakoto)")


def test_export_gives_no_error_rate_to_a_player_without_decisions() -> None:
    """A player whose turns were all forced has no error rate in the export (0.0 read as flawless play)."""
    from bot.service.records import _analysed
    from fevga.analysis import PlayerReport

    idle = PlayerReport(0, 2, 0.0, 0, 0, 0.0, None, ())
    busy = PlayerReport(9, 1, 4.2, 1, 0, 0.0, None, ())
    lines = _analysed(Report("hard", None, "", (idle, busy)), ["Ann", "Bob"])
    assert "; [Error rate Ann -, no decisions (2 forced)]" in lines
    assert "; [Error rate Bob 4.2, 1 errors, 0 blunders]" in lines
