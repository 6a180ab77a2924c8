"""A fast group game on Telegram (tests/fastgroup.py) with the group's budget enforced by the fake (20 calls a
minute, edits included; 429 beyond): 60 plies at a move every 4 s, every board shown within 5 s (p95), no
ping while both players keep moving, and exactly one ping once the player to move stays idle for the
group's ping_after (30 s). Time runs ``TEST_SCALE`` (tests/fastgroup.py) times faster than real; the
benchmark (benchmarks/bench_delivery.py --fast-group) runs it in real time."""

from __future__ import annotations

import pytest

from tests.fastgroup import BOARD_P95, IDLE, TEST_SCALE

from .fast_group import telegram_fast_game

pytestmark = pytest.mark.timeout(240)


async def test_a_fast_group_game_sends_no_pings_and_boards_keep_up(redis_url: str) -> None:
    outcome, refused = await telegram_fast_game(redis_url, instances=1, plies=60, scale=TEST_SCALE)
    print(outcome.summary(), f"429s: {refused}", [round(lag, 1) for lag in outcome.lags])
    assert outcome.plies == 60
    assert outcome.p(0.95) <= BOARD_P95, outcome.lags
    assert outcome.pings_while_moving == 0
    assert outcome.pings_later == 1 and outcome.ping_after is not None
    assert IDLE <= outcome.ping_after <= IDLE + 8.0, outcome.ping_after  # after the idle time, not much later
    assert outcome.calls <= outcome.changes * 1.1  # about one edit per change: the budget is not spent on pings


async def test_two_instances_ping_the_idle_player_exactly_once(redis_url: str) -> None:
    outcome, refused = await telegram_fast_game(redis_url, instances=2, plies=6, scale=TEST_SCALE)
    print(outcome.summary(), f"429s: {refused}")
    assert outcome.plies == 6 and outcome.pings_while_moving == 0
    assert outcome.pings_later == 1 and outcome.ping_after is not None and outcome.ping_after >= IDLE
