"""A fast group game on Discord (tests/fastgroup.py) with the channel's budget enforced by the fake (5 message
calls per 5 s; 429 beyond): 60 plies at a move every 4 s, every board shown within 5 s (p95), no ping while
both players keep moving, and exactly one ping once the player to move stays idle for ping_after (30 s).
Time runs ``TEST_SCALE`` (tests/fastgroup.py) times faster than real; the benchmark runs it in real time."""

from __future__ import annotations

import pytest

from tests.fastgroup import BOARD_P95, IDLE, TEST_SCALE

from .fast_group import discord_fast_game

pytestmark = pytest.mark.timeout(240)


async def test_a_fast_group_game_sends_no_pings_and_boards_keep_up(redis_url: str) -> None:
    outcome, refused = await discord_fast_game(redis_url, plies=60, scale=TEST_SCALE)
    print(outcome.summary(), f"429s: {refused}", [round(lag, 1) for lag in outcome.lags])
    assert outcome.plies == 60
    assert outcome.p(0.95) <= BOARD_P95, outcome.lags
    assert outcome.pings_while_moving == 0
    assert outcome.pings_later == 1 and outcome.ping_after is not None
    assert IDLE <= outcome.ping_after <= IDLE + 8.0, outcome.ping_after  # after the idle time, not much later
    assert outcome.calls <= outcome.changes * 1.1  # about one edit per change: the budget is not spent on pings
