"""Tournament edge cases a QA pass found, on a real Redis: a knockout nobody wins, too few players at the
start (scheduled and by hand), the standings' round, a pair kept from starting by another match here, the
round closing at its deadline and judged as it stood then, unknown ids and private places."""

import asyncio
import random

from bot.i18n import translate
from bot.service import GameService, Place, keys
from bot.service.result_codec import decode_result
from bot.service.tournaments import model
from bot.service.tournaments.adjudication import adjudicate, pips_at
from tests.service.conftest import HERE, make_service
from tests.service.helpers import start_game
from tests.service.test_tournament_deadlines import DAYS3, one_match, play_once
from tests.service.test_tournament_service import ADMIN, both_move, finish_round, open_event, outbox_notices, players


async def notices(service: GameService) -> list[list[str]]:
    """The message keys of each new notice in the discord outboxes (read once by the test's group)."""
    return [[m.key for m in decode_result(raw).messages] for raw in await outbox_notices(service.store)]


def said(result_or_msgs, lang: str = "en") -> str:
    """The messages in words."""
    msgs = getattr(result_or_msgs, "messages", result_or_msgs)
    return "\n".join(translate(m.key, lang, **m.args) for m in msgs)


async def test_a_knockout_final_lost_by_both_ends_without_a_winner(redis_service, clock):
    tid = await open_event(redis_service, players(2), kind="knockout", deadline_secs=DAYS3)
    assert (await redis_service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    await notices(redis_service)
    _v, t = await redis_service.tournaments.load(tid)
    clock.now = t.round_ends + 1  # nobody moved: both lose the final
    (told,) = await redis_service.tournaments.advance(tid)
    _v, t = await redis_service.tournaments.load(tid)
    assert t.status == "done" and t.winner is None and t.round == 1
    assert told.messages[-1].key == "tournament_over_no_winner"
    for lang in ("en", "el"):
        assert "None" not in said(told, lang)
    assert "ends without a winner: both finalists lost" in said(told)
    (row,) = (await redis_service.tournaments.history(HERE)).messages[1:]
    assert row.key == "tournaments_row_done_no_winner" and "without a winner" in said([row])


async def test_a_knockout_whose_every_match_both_lose_pairs_no_empty_round(redis_service, clock):
    tid = await open_event(redis_service, players(4), kind="knockout", deadline_secs=DAYS3)
    assert (await redis_service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    await notices(redis_service)
    _v, t = await redis_service.tournaments.load(tid)
    clock.now = t.round_ends + 1  # both semi-finals lost by both players: nobody left
    await redis_service.tournaments.advance(tid)
    _v, t = await redis_service.tournaments.load(tid)
    assert (t.status, t.round, t.winner) == ("done", 1, None)  # no round 2 without matches
    (keys,) = await notices(redis_service)
    assert "tournament_pairing" not in keys and keys[-1] == "tournament_over_no_winner_all"


async def test_a_scheduled_start_with_one_player_is_called_off_and_said_once(redis_store, clock):
    one, two = make_service(redis_store, clock), make_service(redis_store, clock)
    tid = await open_event(one, players(1), starts_at=clock() + 7200)
    clock.advance(7201)
    await asyncio.gather(one.tournaments.tick(), two.tournaments.tick(), one.tournaments.tick())
    _v, t = await one.tournaments.load(tid)
    assert t.status == "cancelled"
    told = [decode_result(raw) for raw in await outbox_notices(redis_store)]
    assert [[m.key for m in r.messages] for r in told] == [["tournament_too_few_called_off"]]
    assert "has 1 player; it needs at least two, so it is called off" in said(told[0])
    assert (await one.tournaments.current(HERE)) == (0, None)


async def test_a_manual_start_with_one_player_is_refused_and_the_event_stays_open(redis_service):
    alice, bob = players(2)
    tid = await open_event(redis_service, [alice])
    refused = await redis_service.tournaments.start(ADMIN, HERE, is_admin=True)
    assert refused.error_key == "tournament_too_few" and "It stays open" in said(refused)
    _v, t = await redis_service.tournaments.load(tid)
    assert t.status == "open" and [e.id for e in t.players] == [alice.user_id]
    assert await outbox_notices(redis_service.store) == []
    assert (await redis_service.tournaments.join(bob, HERE)).ok
    assert (await redis_service.tournaments.start(ADMIN, HERE, is_admin=True)).ok


async def test_the_standings_name_the_last_round_played(redis_service):
    tid = await open_event(redis_service, players(4), rounds=3)
    assert (await redis_service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    await finish_round(redis_service, tid, random.Random(1))
    (told,) = await redis_service.tournaments.advance(tid)
    (header,) = [m for m in told.messages if m.key == "tournament_table_header"]
    assert "standings after round 1 of 3" in said([header])
    shown = await redis_service.tournaments.standings(HERE)  # typed mid-round 2
    assert "standings after round 1 of 3" in said(shown.messages[:1])
    assert "μετά τον γύρο 1 από 3" in said(shown.messages[:1], "el")


async def test_a_pair_kept_waiting_by_another_match_here_is_told_and_the_busy_player_loses(redis_service, clock):
    alice, bob = players(2)
    carol = players(3)[2]
    await start_game(redis_service, alice, carol, HERE)  # alice is still in a match in this channel
    tid = await open_event(redis_service, [alice, bob], rounds=1, deadline_secs=DAYS3)
    assert (await redis_service.tournaments.start(ADMIN, HERE, is_admin=True)).ok
    assert await model_games(redis_service, tid) == {}  # the match could not start
    clock.advance(120)
    await redis_service.tournaments.tick()  # tried again: still busy, not told twice
    told = [decode_result(raw) for raw in await outbox_notices(redis_service.store)]
    waits = [r for r in told if r.messages[0].key == "tournament_match_waits"]
    assert len(waits) == 1 and {p.user_id for p in waits[0].to_notify} == {alice.user_id, bob.user_id}
    assert "player0 is still playing another match here" in said(waits[0])
    assert "if it has not started by the round's deadline, player0 loses" in said(waits[0])
    _v, t = await redis_service.tournaments.load(tid)
    clock.now = t.round_ends + 1
    (closed,) = await redis_service.tournaments.advance(tid)
    _v, t = await redis_service.tournaments.load(tid)
    assert t.results[0].winner == bob.user_id
    verdict = closed.messages[0]
    assert verdict.key == "tournament_adjudicated_busy" and "neither" not in said(closed)
    assert "never started because player0 was still playing another match here; player1 wins" in said([verdict])


async def model_games(service: GameService, tid: str) -> dict[str, str]:
    return (await service.store.read([("hgetall", model.round_games(tid))]))[0]


async def test_the_round_closes_at_its_deadline_not_a_poll_later(redis_service, clock):
    tid, _gid = await one_match(redis_service)
    _v, t = await redis_service.tournaments.load(tid)
    clock.now = t.round_ends - 30
    await redis_service.tournaments.tick()  # claims the event (a lease of a poll: 60 s) and finds it running
    due = model.due_key(keys.place_bucket(HERE))
    (score,) = await redis_service.store.read([("zscore", due, model.due_member(t))])
    assert float(score) <= t.round_ends
    clock.now = t.round_ends
    await redis_service.tournaments.tick()
    _v, t = await redis_service.tournaments.load(tid)
    assert t.status == "done"


async def test_a_move_after_the_deadline_does_not_count(redis_service, clock):
    tid, gid = await one_match(redis_service)
    rng = random.Random(7)
    mover = await play_once(redis_service, gid, rng)  # one player moved; the other never did by the deadline
    _v, t = await redis_service.tournaments.load(tid)
    clock.now = t.round_ends + 20
    late = await play_once(redis_service, gid, rng)  # the other moves after it, before the round's close
    assert late != mover
    (told,) = await redis_service.tournaments.advance(tid)
    _v, t = await redis_service.tournaments.load(tid)
    assert t.results[0].winner == mover
    assert told.messages[0].key == "tournament_adjudicated_never_moved"


async def test_pips_are_judged_as_they_stood_at_the_deadline(redis_service, clock):
    _tid, gid = await one_match(redis_service)
    rng = random.Random(8)
    await both_move(redis_service, gid, HERE, rng)
    seen = []  # after each play, a second apart: (time, plays on the board, each seat's pips, the verdict then)
    for _ in range(30):
        clock.advance(1)
        await play_once(redis_service, gid, rng)
        s = (await redis_service.sessions.load(gid, take=False)).session
        assert s.status == "play"
        seen.append((clock(), len(s.game.board.move_stack), pips_at(s, 0), adjudicate(s, clock())))
    position = s.game.board.position
    made = len(s.game.board.move_stack)
    for deadline, plays, pips, verdict in reversed(seen):  # each moment as the deadline
        assert pips_at(s, made - plays) == pips  # the later plays taken back (a forced pass is one too)
        assert adjudicate(s, deadline) == verdict  # judged as it stood then
    assert s.game.board.position == position  # the board is left as it was (it is saved afterwards)


async def test_an_unknown_id_is_named(redis_service):
    await open_event(redis_service, players(2))
    shown = await redis_service.tournaments.standings(HERE, "nosuchid")
    assert shown.error_key == "tournament_unknown_id" and "There is no tournament nosuchid" in said(shown)
    assert "Δεν υπάρχει τουρνουά nosuchid" in said(shown, "el")


async def test_no_event_in_a_private_chat_or_the_terminal(redis_service):
    for place, key in ((Place("discord", "dm:100", "dm-100"), "tournament_private"),
                       (Place("telegram", "private:100", "100"), "tournament_private"),
                       (Place("terminal", "terminal", "chat"), "tournament_private_terminal")):  # fmt: skip
        made = await redis_service.tournaments.create(ADMIN, place, is_admin=True)
        assert made.error_key == key, place
        assert (await redis_service.tournaments.current(place)) == (0, None)
    assert "tournament demo" in said(made)
