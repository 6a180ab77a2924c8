"""A challenge to a player the frontend marks away (no longer a member of the server or group) is refused and
leaves nothing behind; the same player, a member, is challenged as before."""

from dataclasses import replace

from bot.service import GameService, PlayerRef, keys
from tests.service.conftest import HERE

ALICE, BOB = PlayerRef("discord", "301", "alice"), PlayerRef("discord", "302", "bob")


async def test_a_challenge_to_a_player_who_left_is_refused(service: GameService) -> None:
    refused = await service.challenge(ALICE, HERE, replace(BOB, away=True))
    assert refused.error_key == "challenge_not_member" and refused.messages[0].args["player"] == "bob"
    assert not (await service.store.read([("hgetall", keys.channel_challenges(HERE))]))[0]
    assert (await service.challenge(ALICE, HERE, BOB)).ok
