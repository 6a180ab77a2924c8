"""A claimed timer of a dead instance is retried after a short lease, and a timer fired late still says what
was due: one reminder for the reminders missed, or the deadline notice once the deadline has passed."""

from __future__ import annotations

from bot.service import GameService, keys
from bot.service.config import Options

from .conftest import ALICE, BOB, HERE, FakeClock
from .helpers import start_game

DAY = 86400.0


async def _dead_claim(service: GameService, clock: FakeClock) -> tuple[str, float]:
    """Start a game and let an instance that then dies claim its turn timer the moment it is due."""
    started = await start_game(service, ALICE, BOB, HERE)
    assert started.view is not None
    member = keys.timer("g", started.view.game_id, HERE.platform)
    clock.advance(DAY * 0.5 + 1)
    assert await service.store.claim(keys.timers(member), member, clock(), service.options.timer_lease)
    return member, clock()


def test_the_lease_is_a_few_seconds() -> None:
    assert 1 <= Options().timer_lease <= 10
    assert Options().timer_lease < Options().quick_deadline * 0.05


async def test_a_dead_claimers_reminder_is_sent_once_its_short_lease_runs_out(service: GameService,
                                                                             clock: FakeClock) -> None:
    await _dead_claim(service, clock)
    lease = service.options.timer_lease
    clock.advance(lease - 1)
    assert await service.tick() == []  # still leased to the dead instance
    clock.advance(2)
    fired = await service.tick()
    assert [r.messages[0].key for r in fired] == ["turn_reminder"]
    assert fired[0].messages[0].args["hours"] == 11  # the 50% reminder, a few seconds late
    assert await service.tick() == []


async def test_a_timer_fired_late_sends_one_reminder_for_all_that_were_due(service: GameService,
                                                                          clock: FakeClock) -> None:
    await _dead_claim(service, clock)
    clock.advance(DAY * 0.45)  # both the 50% and the 90% reminders are due now
    fired = await service.tick()
    assert [r.messages[0].key for r in fired] == ["turn_reminder"]
    left = fired[0].messages[0].args
    assert (left["hours"], left["minutes"]) == (1, 11)  # the time really left, not the 50% reminder's
    assert await service.tick() == []  # the 90% reminder is not sent a second time
    clock.advance(DAY * 0.05 + 1)
    passed = await service.tick()
    assert [r.messages[0].key for r in passed] == ["deadline_passed"]


async def test_a_timer_fired_after_the_deadline_sends_the_deadline_notice_once(service: GameService,
                                                                              clock: FakeClock) -> None:
    await _dead_claim(service, clock)
    clock.advance(DAY)
    fired = await service.tick()
    assert [r.messages[0].key for r in fired] == ["deadline_passed"]
    assert await service.tick() == []
    clock.advance(DAY)
    assert await service.tick() == []
