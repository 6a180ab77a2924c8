"""DISCORD_SHARD_IDS (the shards one process runs) and FEVGA_TICK_SECONDS, as read from the environment."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings


@pytest.mark.parametrize(("count", "ids", "expected"), [("2", "1", (1,)), ("4", "0, 2", (0, 2)), ("2", "", None)])
def test_shard_ids_are_read(monkeypatch: pytest.MonkeyPatch, count: str, ids: str, expected: object) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", count)
    monkeypatch.setenv("DISCORD_SHARD_IDS", ids)
    assert load_settings(None).discord_shard_ids == expected


@pytest.mark.parametrize(("count", "ids"), [("2", "2"), ("2", "0,0"), ("2", "x"), (None, "0"), ("2", "-1")])
def test_bad_shard_ids_are_named(monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str) -> None:
    monkeypatch.delenv("DISCORD_SHARD_COUNT", raising=False)
    if count is not None:
        monkeypatch.setenv("DISCORD_SHARD_COUNT", count)
    monkeypatch.setenv("DISCORD_SHARD_IDS", ids)
    with pytest.raises(ConfigError) as error:
        load_settings(None)
    assert any(line.startswith("DISCORD_SHARD_IDS:") for line in error.value.problems)


def test_tick_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_settings(None).fevga_tick_seconds == 30
    monkeypatch.setenv("FEVGA_TICK_SECONDS", "0.5")
    assert load_settings(None).fevga_tick_seconds == 0.5
    monkeypatch.setenv("FEVGA_TICK_SECONDS", "0")
    with pytest.raises(ConfigError):
        load_settings(None)
