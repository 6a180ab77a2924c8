"""Deadline adjudication with the injected clock: each rule of issue 24, one test each."""

import random

import pytest

from bot.chat.presenter import scene_for
from bot.service import GameService
from bot.service.tournaments import model
from bot.service.tournaments.adjudication import adjudicate
from bot.service.tournaments.standings import standings
from fevga import format_play
from tests.service.conftest import HERE
from tests.service.helpers import random_play
from tests.service.test_tournament_service import ADMIN, both_move, open_event, players, round_games

DAYS3 = 3 * 86400  # the round's deadline; a turn deadline (the "deadline period") is the default 24 h


async def one_match(service: GameService) -> tuple[str, str]:
    """A 2-player event, started: its id and its one match's game id."""
    tid = await open_event(service, players(2), rounds=1, deadline_secs=DAYS3)
    assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    (gid,) = (await round_games(service, tid)).values()
    return tid, gid


async def play_once(service: GameService, gid: str, rng: random.Random) -> str:
    """The player to move plays; his user id."""
    view = (await service.view_of(gid)).view
    assert view is not None
    mover = view.players[view.turn]
    assert (await service.move(mover, HERE, format_play(random_play(view, rng)), game_id=gid)).ok
    return mover.user_id


async def close(service: GameService, clock, tid: str) -> tuple[str | None, str]:
    """Past the round's deadline: the event's result and the verdict's message key."""
    _v, t = await service.tournaments.load(tid)
    assert t is not None
    clock.now = t.round_ends + 1
    told = await service.tournaments.advance(tid)
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "done" and len(t.results) == 1
    keys = [m.key for r in told for m in r.messages if m.key.startswith("tournament_adjudicated")]
    assert len(keys) == 1
    return t.results[0].winner, keys[0]


async def test_nothing_before_the_deadline(service, clock):
    tid, _gid = await one_match(service)
    clock.advance(DAYS3 - 10)
    assert await service.tournaments.advance(tid) == []
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.status == "running" and t.results == []


async def test_one_never_moved_loses(service, clock):
    tid, gid = await one_match(service)
    clock.advance(100)
    mover = await play_once(service, gid, random.Random(1))
    assert await close(service, clock, tid) == (mover, "tournament_adjudicated_never_moved")


async def test_neither_ever_moved_both_lose(service, clock):
    tid, _gid = await one_match(service)
    assert await close(service, clock, tid) == (None, "tournament_adjudicated_both_idle")


async def test_both_idle_in_the_last_period_both_lose(service, clock):
    tid, gid = await one_match(service)
    await both_move(service, gid, HERE, random.Random(2))  # both moved, but on day one of three
    assert await close(service, clock, tid) == (None, "tournament_adjudicated_both_idle")


async def test_only_one_moved_in_the_last_period_wins(service, clock):
    tid, gid = await one_match(service)
    await both_move(service, gid, HERE, random.Random(3))
    clock.advance(DAYS3 - 3600)  # within the last 24 h of the round
    mover = await play_once(service, gid, random.Random(3))
    assert await close(service, clock, tid) == (mover, "tournament_adjudicated_idle")


async def test_both_active_higher_match_score_wins(service, clock):
    _tid, gid = await one_match(service)
    await both_move(service, gid, HERE, random.Random(4))
    s = (await service.sessions.load(gid, take=False)).session
    assert s is not None
    s.score = [0, 1]
    verdict = adjudicate(s, clock() + 60)
    assert (verdict.winner, verdict.reason) == (1, "score")
    s.score = [2, 1]
    assert adjudicate(s, clock() + 60).winner == 0


async def test_both_active_equal_score_fewer_pips_wins(service, clock):
    tid, gid = await one_match(service)
    rng = random.Random(5)
    await both_move(service, gid, HERE, rng)
    clock.advance(DAYS3 - 600)
    await both_move_again(service, gid, rng)
    s = (await service.sessions.load(gid, take=False)).session
    assert s is not None and s.score == [0, 0]
    pips = [s.game.board.view(seat).pips()[0] for seat in (0, 1)]  # each seat's own count, from his side
    winner, key = await close(service, clock, tid)
    assert key == "tournament_adjudicated_pips"
    expected = 0 if pips[0] <= pips[1] else 1
    assert winner == s.players[expected].user_id


async def both_move_again(service: GameService, gid: str, rng: random.Random) -> None:
    """Plays until both players have moved again (a forced pass can give one player two turns running)."""
    movers: set[str] = set()
    for _ in range(10):
        movers.add(await play_once(service, gid, rng))
        if len(movers) == 2:
            return
    raise AssertionError("one player never had a play")


async def test_removed_player_is_not_paired_again(service, clock):
    field = players(4)
    tid = await open_event(service, field, rounds=3)
    assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    assert (await service.tournaments.remove(ADMIN, HERE, field[3], is_admin=True)).ok
    _v, t = await service.tournaments.load(tid)
    assert t is not None
    clock.now = t.round_ends + 1  # his match is adjudicated like any other; the event goes on without him
    await service.tournaments.advance(tid)
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.round == 2
    assert all(field[3].user_id not in (p.a, p.b) for p in t.pairs)
    assert len(await round_games(service, tid)) == 2 + 1  # round 2: one match (and a bye)
    assert model.slot(2, t.pairs[0].a, str(t.pairs[0].b)) in await round_games(service, tid)


@pytest.mark.parametrize("points", [1, 3])
async def test_an_adjudicated_match_shows_its_winner(service, clock, points):
    """A match judged at the deadline ends its game as the loser's resignation (as a leaver's does): the board
    redrawn from that commit shows the winner, not a game in progress. In a longer match the game in play is
    the one resigned; the match score and the standings are the verdict's alone."""
    tid = await open_event(service, players(2), rounds=1, deadline_secs=DAYS3, points=points)
    assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    (gid,) = (await round_games(service, tid)).values()
    await both_move(service, gid, HERE, random.Random(3))
    clock.advance(DAYS3 - 3600)
    mover = await play_once(service, gid, random.Random(3))
    assert await close(service, clock, tid) == (mover, "tournament_adjudicated_idle")
    s = (await service.sessions.load(gid, take=False)).session
    assert s is not None and s.status == "done" and s.game_no == 1 and s.score == [0, 0]
    seat = next(n for n, p in enumerate(s.players) if p.user_id == mover)
    other = s.players[seat ^ 1].user_id
    assert s.winner == seat and s.game.outcome is not None
    assert (s.game.outcome.winner, s.game.outcome.resigned) == (seat, True)
    view = (await service.view_of(gid)).view
    assert view is not None
    scene = scene_for(view)
    assert scene.winner == seat and scene.turn is None and scene.dice is None
    _v, t = await service.tournaments.load(tid)
    assert t is not None
    assert [(row.player, row.score) for row in standings(t.players, t.results)] == [(mover, 1), (other, 0)]


async def test_a_called_off_match_keeps_its_board(service, clock):
    tid, gid = await one_match(service)
    await both_move(service, gid, HERE, random.Random(2))
    assert await close(service, clock, tid) == (None, "tournament_adjudicated_both_idle")
    s = (await service.sessions.load(gid, take=False)).session
    assert s is not None and s.status == "aborted" and s.winner is None and not s.game.is_over()
