"""Helpers that play Fevga (and Portes, Plakoto) through the fake Discord, only with what a member sees and
can click or type."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.service.models import Place, PlayerRef
from fevga import Rules, format_play, legal_plays
from tests.fakes.discord import FakeChannel, FakeDiscord, FakeMember, InteractionHandle, StoredMessage
from tests.service.helpers import mover_position

# Move-entry components, in the order a player here prefers them.
STEP_PREFIXES = ("fv:confirm:", "fvs:play:", "fvs:step:", "fv:die:", "fvs:from:")
MAX_CLICKS_PER_TURN = 24
MAX_TURNS = 400
DEFERRED_UPDATE = 6  # the interaction callback type of a silent acknowledgement
BOARD_WAIT = 10.0  # seconds for the board edit that follows an acknowledgement


def step_ids(message: StoredMessage) -> list[str]:
    """The move-entry components of a message (selects of plays/points, die and confirm buttons)."""
    return [c for c in message.custom_ids() if c.startswith(STEP_PREFIXES)]


def pick(message: StoredMessage) -> str | None:
    ids = step_ids(message)
    for prefix in STEP_PREFIXES:
        found = next((c for c in ids if c.startswith(prefix)), None)
        if found is not None:
            return found
    return None


def first_option(message: StoredMessage, custom_id: str) -> str:
    return str(message.component(custom_id)["options"][0]["value"])


async def use(fake: FakeDiscord, member: FakeMember, message: StoredMessage, custom_id: str) -> InteractionHandle:
    """Click a button, or choose the first option of a select menu."""
    if custom_id.startswith("fvs:"):
        return await fake.select(member, message, custom_id, [first_option(message, custom_id)])
    return await fake.press_button(member, message, custom_id)


async def take_turn_by_buttons(fake: FakeDiscord, board: StoredMessage, member: FakeMember) -> bool:
    """Play ``member``'s turn with the board's components; False if it was not their turn."""
    target, acted = board, False
    for _ in range(MAX_CLICKS_PER_TURN):
        custom_id = pick(target)
        if custom_id is None:
            return acted
        edits = board.edits
        handle = await use(fake, member, target, custom_id)
        response = await handle.response()
        assert response.delay < 3, "answered after Discord's deadline"
        if response.type == DEFERRED_UPDATE:  # acknowledged first: the board edit follows (ack, then deliver)
            await fake.wait_for(lambda before=edits: board.edits > before or None, BOARD_WAIT, "the edit after a defer")
        if response.ephemeral:
            private = await handle.original()
            if not step_ids(private):
                return acted  # refused: not (or no longer) this member's turn
            target = private  # a private prompt, e.g. which die to use
            continue
        acted, target = True, board
        if custom_id.startswith("fv:confirm:"):
            return True
    raise AssertionError("a turn took too many clicks")


async def play_out_by_buttons(fake: FakeDiscord, board: StoredMessage, players: list[FakeMember]) -> int:
    """Play until the board offers no more moves; returns the number of turns played."""
    turns, misses, seat = 0, 0, 0
    for _ in range(MAX_TURNS):
        if not step_ids(board):
            return turns
        if await take_turn_by_buttons(fake, board, players[seat]):
            turns, misses = turns + 1, 0
        else:
            misses += 1
            assert misses < 3, "neither player could move although the board offers moves"
        seat ^= 1
    raise AssertionError("the game did not end")


async def remembered_board(core: Any, game_id: str, timeout: float = 5.0) -> str:
    """The core's record of where the game's board is (written just after the board is posted)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (ref := await core.board_message(game_id)) is None:
        assert loop.time() < deadline, f"no board message remembered for {game_id}"
        await asyncio.sleep(0.02)
    return str(ref)


def player_ref(member: FakeMember) -> PlayerRef:
    return PlayerRef("discord", str(member.id), member.user.username)


def place_ref(channel: FakeChannel) -> Place:
    return Place("discord", str(channel.guild_id), str(channel.id))


async def legal_play_texts(core: Any, member: FakeMember, channel: FakeChannel) -> list[str]:
    """What ``member`` could type now, worked out with the rules engine from the game's state (the
    player's own knowledge of the rules); empty when it is not their turn."""
    me = player_ref(member)
    view = (await core.service.board(me, place_ref(channel))).view
    if view is None or view.status != "play" or view.dice is None or not view.players[view.turn].same(me):
        return []
    rules = Rules(**view.rules) if view.game == "fevga" else None  # Portes and Plakoto: their own rules
    plays = legal_plays(mover_position(view), view.dice, *([rules] if rules else []))
    return [format_play(p) for p in plays]


async def take_turn_by_slash(core: Any, fake: FakeDiscord, channel: FakeChannel, member: FakeMember,
                             rng: random.Random | None = None) -> bool:
    """Type one legal play (the first, or a random one with ``rng``) with /fevga move; False if it was not
    ``member``'s turn."""
    plays = await legal_play_texts(core, member, channel)
    if not plays:
        return False
    handle = await fake.slash_command(member, channel, "fevga move", {"play": rng.choice(plays) if rng else plays[0]})
    response = await handle.response()
    assert response.delay < 3
    if response.ephemeral:
        return False
    confirm = await handle.original()
    if "fv:confirm:" in " ".join(confirm.custom_ids()):  # the core wants the play confirmed
        handle = await fake.slash_command(member, channel, "fevga confirm")
        assert not (await handle.response()).ephemeral
    return True


async def play_out_by_slash(
    core: Any, fake: FakeDiscord, channel: FakeChannel, board: StoredMessage, players: list[FakeMember]
) -> int:
    turns, misses, seat = 0, 0, 0
    for _ in range(MAX_TURNS):
        if not step_ids(board):
            return turns
        if await take_turn_by_slash(core, fake, channel, players[seat]):
            turns, misses = turns + 1, 0
        else:
            misses += 1
            assert misses < 3, "neither player could move although the board offers moves"
        seat ^= 1
    raise AssertionError("the game did not end")
