"""A player who leaves the server (or blocks the bot) is withdrawn: before the start he is off the list;
after, his running match goes to his opponent at once (notice through the outbox) and the event goes on."""

from __future__ import annotations

import random

from bot.service.result_codec import decode_result
from bot.service.tournaments import model
from tests.service.conftest import HERE, THERE
from tests.service.test_tournament_service import ADMIN, both_move, open_event, outbox_notices, players, round_games


async def test_gone_player_forfeits_at_once_and_the_event_goes_on(service):
    field = players(4)
    tid = await open_event(service, field, rounds=3)
    assert (await service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    await outbox_notices(service.store)  # round one's pairings: read and set aside
    _v, t = await service.tournaments.load(tid)
    assert t is not None
    gone = field[0]
    pair = next(p for p in t.pairs if gone.user_id in (p.a, p.b))
    opponent = pair.b if pair.a == gone.user_id else pair.a
    elsewhere = await service.player_gone(gone, "another-guild")  # he left another server: nothing changes
    assert elsewhere.ok and elsewhere.messages == []
    left = await service.player_gone(gone, HERE.scope_id)
    assert left.ok and [m.args["id"] for m in left.messages] == [tid]
    games = await round_games(service, tid)
    gid = next(g for slot, g in games.items() if gone.user_id in slot)
    s = (await service.sessions.load(gid, take=False)).session
    assert s is not None and s.status == "done" and s.players[s.winner].user_id == opponent  # at once
    (told,) = [decode_result(raw) for raw in await outbox_notices(service.store)]
    assert told is not None and [m.key for m in told.messages] == ["tournament_adjudicated_gone"]
    assert told.messages[0].args["winner"] == t.name_of(opponent)
    assert (await service.player_gone(gone, HERE.scope_id)).messages == []  # once
    _v, t = await service.tournaments.load(tid)
    assert t is not None and gone.user_id in t.withdrawn and t.round == 1  # the other match is still played
    pair = next(p for p in t.pairs if gone.user_id in (p.a, p.b))
    other = next(p for p in t.pairs if p is not pair and p.b is not None)
    other_gid = games[model.slot(1, other.a, other.b)]
    await both_move(service, other_gid, HERE, random.Random(2))
    assert (await service.resign(t.ref(other.a), HERE, whole_match=True, game_id=other_gid)).ok
    await service.tournaments.advance(tid)
    _v, t = await service.tournaments.load(tid)
    assert t is not None and t.round == 2 and t.status == "running"
    (forfeit,) = [r for r in t.results if gone.user_id in (r.a, r.b)]
    assert forfeit.winner == opponent
    assert all(gone.user_id not in (p.a, p.b) for p in t.pairs)  # no more pairings for him


async def test_gone_before_the_start_is_off_the_list(service, clock):
    field = players(3)
    timed = await open_event(service, field, starts_at=clock() + 3600)
    untimed = await open_event(service, field, place=THERE)  # started by the admin: no start time
    left = await service.player_gone(field[1])  # blocked the bot: every event of the platform
    assert sorted(m.args["id"] for m in left.messages) == sorted([timed, untimed])
    for tid in (timed, untimed):
        _v, t = await service.tournaments.load(tid)
        assert t is not None and [e.id for e in t.players] == [field[0].user_id, field[2].user_id]
    assert await service.tournaments.tick() == []  # the untimed event is not started by a tick
