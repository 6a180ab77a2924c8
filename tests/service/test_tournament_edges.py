"""Tournament edge cases a QA pass found, on a real Redis: a knockout nobody wins, too few players at the
start (scheduled and by hand), the standings' round, a pair kept from starting by another match here, the
round closing at its deadline and judged as it stood then, unknown ids and private places."""


import random

from bot.i18n import translate
from bot.service import GameService
from bot.service.result_codec import decode_result
from tests.service.conftest import HERE
from tests.service.test_tournament_deadlines import DAYS3
from tests.service.test_tournament_service import ADMIN, finish_round, open_event, outbox_notices, players


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
