"""A player who leaves a server: his ordinary matches there end at once (a resignation once both have moved,
rated as one; called off before that and against the AI), with the verdict in the outbox; his challenges
there are withdrawn. Told twice (two bot instances), it happens once; another server's games stay."""

from __future__ import annotations

import random

from bot.service import Place, PlayerRef
from bot.service.result_codec import decode_result
from tests.service.conftest import HERE, THERE
from tests.service.test_tournament_service import both_move, outbox_notices

ALICE, BOB, CAROL = (PlayerRef("discord", str(n), name) for n, name in ((11, "alice"), (12, "bob"), (13, "carol")))
ELSEWHERE, AWAY = Place("discord", "guild2", "chan9"), Place("discord", "guild2", "chan8")


async def started(service, a: PlayerRef, b: PlayerRef, place: Place) -> str:
    made = await service.challenge(a, place, b)
    taken = await service.accept(b, place, made.actions[0].game_id)
    assert taken.ok and taken.game_id, taken.messages
    return taken.game_id


async def test_a_leavers_matches_end_once_and_his_challenges_go(service):
    rated = await started(service, ALICE, BOB, HERE)
    await both_move(service, rated, HERE, random.Random(3))
    early = await started(service, CAROL, ALICE, THERE)  # nobody moved yet: called off
    far = await started(service, ALICE, CAROL, ELSEWHERE)  # another server: stays
    asked = await service.challenge(BOB, AWAY, ALICE)
    waiting = await service.challenge(ALICE, Place("discord", "guild1", "chan3"), None)  # an open one of his
    assert asked.ok and waiting.ok
    await outbox_notices(service.store)  # set aside what came before
    for _ in range(2):  # two instances got the event
        assert (await service.player_gone(ALICE, "guild1", channels=["chan3"])).ok
    s = (await service.sessions.load(rated, take=False)).session
    assert s is not None and s.status == "done" and s.end == "left" and s.players[s.winner].same(BOB)
    assert (await service.sessions.load(early, take=False)).session.status == "aborted"
    assert (await service.sessions.load(far, take=False)).session.status == "play"
    told = [decode_result(raw) for raw in await outbox_notices(service.store)]
    keys = sorted(m.key for r in told for m in r.messages if m.key.startswith("left_game"))
    assert keys == ["left_game_aborted", "left_game_resigned"]  # once each
    resigned = next(r for r in told if any(m.key == "left_game_resigned" for m in r.messages))
    assert resigned.view is not None and resigned.view.status == "done" and resigned.to_notify == [BOB]
    assert "rematch" not in [a.kind for a in resigned.actions]  # nobody to ask: no Rematch under the final board
    refused = await service.rematch(BOB, HERE)
    assert refused.error_key == "rematch_left"
    assert (await service.rematch(CAROL, THERE)).error_key == "rematch_left"  # called off by his leaving: no rematch
    assert (await service.rematch(ALICE, HERE)).error_key == "rematch_left"  # the leaver, back: none either
    assert (await service.accept(BOB, Place("discord", "guild1", "chan3"))).error_key == "no_challenge"
    assert (await service.accept(ALICE, AWAY)).ok  # another server's challenge stays
    assert (await service.stats(BOB, HERE)).ok
