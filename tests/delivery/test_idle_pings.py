"""Turn pings wait for the player to move to be idle for the place's ``ping_after`` time: none when he moves
first, exactly one across two instances when he does not (fired by the ping timer, claimed once), direct pings
by the same rule, and a timer whose instance is gone fired by another instance's sweep."""

from __future__ import annotations

import asyncio

from bot.chat.core import BotCore
from bot.delivery import Outcome, Pinger
from bot.delivery.ping_timers import CLAIM_LEASE
from bot.service import keys

from .kit import ALICE, BOB, GROUP, play, start_game, stored_version
from .test_pings import PingLog, mover

IDLE = 1.0  # seconds (the place's ping_after; long enough that a loaded machine moves within half of it)


async def settle(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def test_a_player_who_moves_before_the_idle_time_is_never_pinged(core: BotCore) -> None:
    core.ping_after = IDLE
    game = await start_game(core)
    log = PingLog()
    pinger = Pinger(core.store, core.ping_plan, log)
    for _ in range(4):  # each player moves within half the idle time
        assert await pinger.ping(game, await stored_version(core, game)) is Outcome.SHOWN
        await settle(IDLE / 2)
        await play(core, 1)
    assert await pinger.ping(game, await stored_version(core, game)) is Outcome.SHOWN
    assert log.posts == [] and pinger.pinged == 0
    await settle(IDLE * 2.5)  # now the player to move stays idle: one ping, to him, after the idle time
    assert [ids for _, ids, _ in log.posts] == [(await mover(core, game),)]
    await settle(IDLE * 2)
    assert len(log.posts) == 1  # one per turn, never repeated
    pinger.close()


async def test_the_idle_ping_goes_out_once_across_two_instances(core: BotCore) -> None:
    core.ping_after = IDLE
    game = await start_game(core)
    log = PingLog()
    one, two = Pinger(core.store, core.ping_plan, log), Pinger(core.store, core.ping_plan, log)
    version = await stored_version(core, game)
    started = asyncio.get_running_loop().time()
    await asyncio.gather(one.ping(game, version), two.ping(game, version))
    assert log.posts == []  # armed, not sent
    for _ in range(100):
        if log.posts:
            break
        await settle(0.02)
    waited = asyncio.get_running_loop().time() - started
    assert IDLE <= waited < IDLE + 1.0, waited
    await settle(IDLE * 2)
    assert len(log.posts) == 1 and one.pinged + two.pinged == 1
    assert await one.look(game) is Outcome.CURRENT and await two.look(game) is Outcome.CURRENT  # nothing armed
    assert len(log.posts) == 1
    await play(core, 1)  # the next turn: the previous ping is deleted when the next one is sent
    version = await stored_version(core, game)
    await asyncio.gather(one.ping(game, version), two.ping(game, version))
    await settle(IDLE * 3)
    assert len(log.posts) == 2 and log.deleted == [log.posts[0][0]]
    one.close()
    two.close()


async def test_direct_pings_wait_for_the_idle_time_too(core: BotCore) -> None:
    core.ping_after = IDLE
    game = await start_game(core)
    first = await mover(core, game)
    player = ALICE if ALICE.user_id == first else BOB
    await core.handle_text(player, GROUP, "ping dm on")
    log = PingLog()
    pinger = Pinger(core.store, core.ping_plan, log)
    assert await pinger.ping(game, await stored_version(core, game)) is Outcome.SHOWN
    assert log.direct == [] and log.posts == []
    await settle(IDLE * 2.5)
    assert log.direct == [first] and len(log.posts) == 1
    pinger.close()


async def test_the_place_setting_sets_the_idle_time(core: BotCore) -> None:
    core.ping_after = 3600.0  # the default would never fire within the test
    refused = await core.handle_text(BOB, GROUP, "ping after 0.3")
    assert [r.code for r in refused.replies] == ["setting_admin_only"]
    admin = await core.handle_text(ALICE, GROUP, "ping after 0.3s", is_admin=True)  # the group's ping_after
    assert not any(r.error for r in admin.replies), admin.replies
    for bad in ("soon", "-1", "nan", "3601"):
        answer = await core.handle_text(ALICE, GROUP, f"ping after {bad}", is_admin=True)
        assert [r.code for r in answer.replies] == ["setting_bad_value"], bad
    game = await start_game(core)
    log = PingLog()
    pinger = Pinger(core.store, core.ping_plan, log)
    await pinger.ping(game, await stored_version(core, game))
    await settle(1.0)
    assert len(log.posts) == 1
    pinger.close()


async def test_a_timer_whose_instance_is_gone_is_fired_by_another_instances_sweep(core: BotCore) -> None:
    core.ping_after = IDLE
    game = await start_game(core)
    log = PingLog()
    gone, alive = Pinger(core.store, core.ping_plan, log), Pinger(core.store, core.ping_plan, log)
    await gone.ping(game, await stored_version(core, game))
    gone.close()  # its local wake-up dies with it; the timer stays stored
    assert await core.store.due(keys.ping_timers(game), 1e18, 10) == [f"p:{game}:telegram"]
    assert await alive.sweep("telegram") == 0  # not due yet
    await settle(IDLE + 0.1)
    assert log.posts == []
    assert await alive.sweep("telegram") == 1 and len(log.posts) == 1
    assert await alive.sweep("telegram") == 0 and len(log.posts) == 1
    assert await core.store.due(keys.ping_timers(game), 1e18, 10) == []  # sent: the timer is gone


async def test_a_move_racing_the_timer_pings_nobody_for_the_old_turn(core: BotCore) -> None:
    core.ping_after = IDLE
    game = await start_game(core)
    log = PingLog()
    pinger = Pinger(core.store, core.ping_plan, log)
    await pinger.ping(game, await stored_version(core, game))
    pinger.close()  # the timer is left to fire by a sweep, after the move below
    await settle(IDLE + 0.1)
    await play(core, 1)  # he moved just as his ping became due; the board for it is not drawn yet
    assert await pinger.sweep("telegram") == 1
    assert log.posts == []  # the fired timer found a new turn: it armed that one instead
    await settle(IDLE + 0.1)
    await pinger.sweep("telegram")  # (the new turn's own wake-up may have fired it already)
    assert [ids for _, ids, _ in log.posts] == [(await mover(core, game),)]
    pinger.close()


async def test_an_idle_ping_the_platform_refuses_is_sent_by_a_later_sweep(core: BotCore) -> None:
    core.ping_after = IDLE
    game = await start_game(core)
    log = PingLog(outage=True)
    pinger = Pinger(core.store, core.ping_plan, log)
    await pinger.ping(game, await stored_version(core, game))
    await settle(IDLE + 0.2)  # the wake-up fired; the platform refused (429): the timer stays, claimed
    assert log.posts == [] and await core.store.due(keys.ping_timers(game), 1e18, 10) == [f"p:{game}:telegram"]
    log.outage = False
    await settle(CLAIM_LEASE)  # the claim runs out
    assert await pinger.sweep("telegram") == 1
    assert len(log.posts) == 1 and await core.store.due(keys.ping_timers(game), 1e18, 10) == []
    pinger.close()


async def test_the_direct_ping_names_the_game_being_played(core: BotCore) -> None:
    """The private turn ping says which game is on (it said Fevga for every game), in the player's language."""
    await core.handle_text(ALICE, GROUP, "challenge @bob portes", mentions={"@bob": BOB})
    accepted = await core.handle_text(BOB, GROUP, "accept")
    game = next(r.game_id for r in accepted.replies if r.game_id)
    assert game is not None
    for player in (ALICE, BOB):
        await core.handle_text(player, GROUP, "ping dm on")
    plan = await core.ping_plan(game)
    assert plan is not None and plan.direct is not None
    assert plan.direct.text.startswith("Your turn in Portes (")
    assert plan.mover is not None
    await core.handle_text(plan.mover, GROUP, "lang el")
    greek = await core.ping_plan(game)
    assert greek is not None and greek.direct is not None
    assert greek.direct.text.startswith("Σειρά σου στις Πόρτες (")
