"""The web settings: good values load, bad ones name the variable and what it expects (never a secret)."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WEB_PORT", "WEB_BASE_URL", "WEB_SECRET", "TELEGRAM_WEBAPP_NAME"):
        monkeypatch.delenv(name, raising=False)


def test_web_settings_load(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in {"WEB_PORT": "8080", "WEB_BASE_URL": "https://fevga.example.org/",
                        "WEB_SECRET": "  a-long-enough-secret \n", "TELEGRAM_WEBAPP_NAME": "board"}.items():
        monkeypatch.setenv(name, value)
    s = load_settings(None)
    assert (s.web_port, s.web_base_url, s.telegram_webapp_name) == (8080, "https://fevga.example.org", "board")
    assert s.web_secret is not None and s.web_secret.get_secret_value() == "a-long-enough-secret"
    assert "a-long-enough-secret" in s.secret_values() and s.redacted()["WEB_SECRET"] != "a-long-enough-secret"


@pytest.mark.parametrize(("name", "value", "expects"), [
    ("WEB_PORT", "0", "WEB_PORT: expected a port number"),
    ("WEB_BASE_URL", "fevga.example.org", "WEB_BASE_URL: expected an http:// or https:// URL"),
    ("WEB_SECRET", "short", "WEB_SECRET: expected at least 16 characters, got a hidden value of 5 characters"),
    ("TELEGRAM_WEBAPP_NAME", "no spaces!", "TELEGRAM_WEBAPP_NAME: expected the Mini App's short name"),
])
def test_bad_web_settings_are_named(monkeypatch: pytest.MonkeyPatch, name: str, value: str, expects: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings(None)
    assert len(info.value.problems) == 1 and info.value.problems[0].startswith(expects), info.value.problems
    if name == "WEB_SECRET":
        assert value not in str(info.value)
