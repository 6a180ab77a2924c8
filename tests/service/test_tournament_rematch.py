"""A tournament's pairing is not rematched: its final board offers no Rematch and ``rematch`` is refused (the
event pairs its players), while an ordinary match between the same two still offers one."""

import random

from bot.service import GameService, PlayerRef
from bot.service.button_kinds import ButtonKind
from bot.service.session import decode, encode
from tests.service.conftest import HERE
from tests.service.test_tournament_service import both_move, open_event, round_games

ALICE, BOB = PlayerRef("discord", "201", "alice"), PlayerRef("discord", "202", "bob")


async def test_a_tournament_match_is_not_rematched(service: GameService) -> None:
    tid = await open_event(service, [ALICE, BOB], rounds=1)
    assert (await service.tournaments.start(PlayerRef("discord", "1", "admin"), HERE, is_admin=True)).ok
    (gid,) = (await round_games(service, tid)).values()
    s = (await service.sessions.load(gid, take=False)).session
    assert s is not None and s.event == tid and decode(encode(s)).event == tid  # stored with the match
    await both_move(service, gid, HERE, random.Random(3))
    ended = await service.resign(ALICE, HERE, whole_match=True, game_id=gid)
    assert ended.ok and ended.view is not None and ended.view.status == "done"
    assert ButtonKind.REMATCH not in [a.kind for a in ended.actions]  # the final board: no Rematch
    for who in (ALICE, BOB):
        refused = await service.rematch(who, HERE)
        assert refused.error_key == "rematch_event"
    shown = (await service.board(BOB, HERE)).view
    assert shown is not None and shown.game_id == gid and shown.status == "done"  # nothing new started


async def test_an_ordinary_match_still_offers_a_rematch(service: GameService) -> None:
    made = await service.challenge(ALICE, HERE, BOB)
    taken = await service.accept(BOB, HERE, made.actions[0].game_id)
    assert taken.ok and taken.game_id is not None
    s = (await service.sessions.load(taken.game_id, take=False)).session
    assert s is not None and s.event is None
    await both_move(service, taken.game_id, HERE, random.Random(3))
    ended = await service.resign(ALICE, HERE, whole_match=True, game_id=taken.game_id)
    assert ButtonKind.REMATCH in [a.kind for a in ended.actions]
    assert (await service.rematch(BOB, HERE)).ok
