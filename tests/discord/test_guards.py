"""Who may press what: outsiders, out-of-turn players, malformed plays and buttons from before a restart
all get a private answer and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.discord import FakeDiscord, FakeMember, InteractionHandle, StoredMessage

from .conftest import BotFactory, World, make_core
from .playing import BOARD_WAIT, DEFERRED_UPDATE, pick, step_ids, take_turn_by_buttons, use

pytestmark = pytest.mark.timeout(60)


async def private_answer(handle: InteractionHandle) -> StoredMessage:
    """The interaction's answer, which must be ephemeral and sent in time."""
    response = await handle.response()
    assert response.ephemeral and response.delay < 3
    return await handle.original()


async def start_game(fake: FakeDiscord, w: World, opponent: FakeMember) -> StoredMessage:
    """alice challenges ``opponent``, who accepts with the button: the challenge becomes the board."""
    handle = await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": opponent})
    challenge = await handle.original()
    accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))
    await (await fake.press_button(opponent, challenge, accept)).response()
    assert step_ids(challenge)
    return challenge


async def mover_and_waiter(
    fake: FakeDiscord, board: StoredMessage, a: FakeMember, b: FakeMember
) -> tuple[FakeMember, FakeMember]:
    """Find whose turn it is by letting ``a`` try: the refusal is the out-of-turn check."""
    before = board.edits
    custom_id = pick(board)
    assert custom_id is not None
    handle = await use(fake, a, board, custom_id)
    response = await handle.response()
    if response.ephemeral and not step_ids(await handle.original()):
        assert board.edits == before  # refused: nothing changed
        return b, a
    if response.type == DEFERRED_UPDATE:  # acknowledged first (another drawer held the board): its edit follows
        await fake.wait_for(lambda: board.edits > before or None, BOARD_WAIT, "the edit after a defer")
    return a, b


async def test_only_the_challenged_member_may_answer(fake: FakeDiscord, bot: Any, world: World) -> None:
    w = world
    challenge = await (await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})).original()
    accept, decline, withdraw = challenge.custom_ids()
    for member, custom_id in ((w.carol, accept), (w.alice, accept), (w.carol, decline), (w.bob, withdraw)):
        refused = await private_answer(await fake.press_button(member, challenge, custom_id))
        assert refused.content and refused not in fake.messages(w.general)
    assert challenge.edits == 0 and challenge.custom_ids() == [accept, decline, withdraw]

    declined = await fake.press_button(w.bob, challenge, decline)
    assert (await declined.response()).type == 7
    assert challenge.edits == 1 and not challenge.custom_ids()  # the challenge says so and loses its buttons

    opened = await (await fake.slash_command(w.alice, w.general, "fevga challenge")).original()
    assert not opened.mentions
    taken = await fake.press_button(w.carol, opened, opened.custom_ids()[0])  # anyone may take an open one
    assert (await taken.response()).type == 7 and opened.attachments[0].filename == "board.png"


async def test_outsiders_out_of_turn_and_malformed_plays_change_nothing(
    fake: FakeDiscord, bot: Any, world: World
) -> None:
    w = world
    board = await start_game(fake, w, w.bob)
    mover, waiter = await mover_and_waiter(fake, board, w.alice, w.bob)
    edits, picture = board.edits, board.attachments[0].data

    custom_id = pick(board)
    assert custom_id is not None
    not_yours = await private_answer(await use(fake, w.carol, board, custom_id))
    out_of_turn = await private_answer(await use(fake, waiter, board, custom_id))
    assert not_yours.content and out_of_turn.content and not_yours.content != out_of_turn.content
    typed = await private_answer(await fake.slash_command(waiter, w.general, "fevga move", {"play": "1/7 7/12"}))
    assert typed.content

    for bad in ("99/3", "hello", "1/7 7/12 12/18 18/24 24/off 1/2"):
        answer = await private_answer(await fake.slash_command(mover, w.general, "fevga move", {"play": bad}))
        assert answer.content and "Traceback" not in answer.content
    assert (board.edits, board.attachments[0].data) == (edits, picture)

    resign = next(c for c in board.custom_ids() if c.startswith("fv:resign:"))
    assert (await private_answer(await fake.press_button(w.carol, board, resign))).content
    assert board.edits == edits and not fake.failed_calls()


async def test_buttons_survive_a_restart_and_stale_ones_say_so(
    fake: FakeDiscord, start_bot: BotFactory, core: Any, world: World, redis_url: str
) -> None:
    w = world
    async with start_bot(core):
        handle = await fake.slash_command(w.alice, w.general, "fevga challenge", {"user": w.bob})
        challenge = await handle.original()
        accept = next(c for c in challenge.custom_ids() if c.startswith("fv:accept:"))  # kept by a stale client
        board = await (await fake.slash_command(w.bob, w.general, "fevga accept")).original()
        assert step_ids(board)  # accepted by typing: the challenge message is edited to say so (the outbox)
        old_ids = step_ids(board)
        mover, _ = await mover_and_waiter(fake, board, w.alice, w.bob)
        assert await take_turn_by_buttons(fake, board, mover)
        assert step_ids(board) != old_ids

    restarted = await make_core(redis_url)  # a new process: a new core on the same Redis
    try:
        async with start_bot(restarted):
            assert (await private_answer(await fake.press_button(w.bob, challenge, accept, strict=False))).content
            stale = old_ids[0]  # a component the board no longer shows (a client that missed an edit)
            if stale.startswith("fvs:"):
                gone = await fake.select(w.alice, board, stale, ["x"], strict=False)
            else:
                gone = await fake.press_button(w.alice, board, stale, strict=False)
            assert (await private_answer(gone)).content
            edits = board.edits
            moved = await take_turn_by_buttons(fake, board, w.alice) or await take_turn_by_buttons(fake, board, w.bob)
            assert moved and board.edits > edits  # the current buttons work after the restart
    finally:
        await restarted.close()
    assert not fake.failed_calls()
