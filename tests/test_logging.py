"""Logging: JSON/console output through structlog, and no token ever reaching the output."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
import structlog
from hypothesis import given
from hypothesis import strategies as st
from telegram import Bot

from bot import logging_setup
from bot.logging_setup import REDACTED, configure_logging, get_logger, redact_text

TG_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1"
DC_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"


@pytest.fixture(autouse=True)
def restore_logging(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test configures logging from scratch; the global state is put back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    noisy = {name: logging.getLogger(name).level for name in logging_setup._NOISY_LOGGERS}
    monkeypatch.setattr(logging_setup, "_known_secrets", ())
    yield
    structlog.reset_defaults()
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in noisy.items():
        logging.getLogger(name).setLevel(old)
    logging.captureWarnings(False)


def json_lines(out: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def test_json_lines_carry_event_level_logger_and_time() -> None:
    out = io.StringIO()
    configure_logging("INFO", "json", stream=out)
    get_logger("fevga.test").info("game_started", game_id="g1", players=2)
    logging.getLogger("discord.client").warning("logging in using static token")
    first, second = json_lines(out)
    assert first["event"] == "game_started" and first["game_id"] == "g1" and first["players"] == 2
    assert first["level"] == "info" and first["logger"] == "fevga.test" and "timestamp" in first
    assert second["event"] == "logging in using static token"
    assert second["level"] == "warning" and second["logger"] == "discord.client"


def test_console_format_is_readable_text() -> None:
    out = io.StringIO()
    configure_logging("DEBUG", "console", stream=out)
    get_logger("fevga.test").debug("dice_rolled", dice="6-3")
    text = out.getvalue()
    assert "dice_rolled" in text and "dice=6-3" in text and "{" not in text


def test_level_filters_both_structlog_and_stdlib_records() -> None:
    out = io.StringIO()
    configure_logging("WARNING", "json", stream=out)
    get_logger("fevga.test").info("hidden")
    logging.getLogger("telegram.ext").info("hidden too")
    get_logger("fevga.test").error("shown")
    assert [line["event"] for line in json_lines(out)] == ["shown"]


def test_bad_format_and_level_are_rejected() -> None:
    with pytest.raises(ValueError, match="log format"):
        configure_logging("INFO", "xml")
    with pytest.raises(ValueError, match="log level"):
        configure_logging("LOUD", "json")


def test_tokens_in_structlog_events_are_redacted() -> None:
    out = io.StringIO()
    configure_logging("DEBUG", "json", stream=out)
    log = get_logger("fevga.test")
    log.info(f"calling https://api.telegram.org/bot{TG_TOKEN}/getMe", attempt=1)
    log.info("login", token="plain-but-under-a-token-key", client_secret="xyz-secret-value")
    log.info("nested", request={"headers": {"Authorization": f"Bot {DC_TOKEN}"}, "urls": [f"/bot{TG_TOKEN}/x"]})
    log.info("redis", url="redis://:hunter2hunter2@redis:6379/0")
    text = out.getvalue()
    for secret in (TG_TOKEN, DC_TOKEN, "plain-but-under-a-token-key", "xyz-secret-value", "hunter2hunter2"):
        assert secret not in text
    lines = json_lines(out)
    assert lines[0]["event"] == f"calling https://api.telegram.org/bot{REDACTED}/getMe"
    assert lines[1]["token"] == REDACTED and lines[1]["client_secret"] == REDACTED
    assert lines[2]["request"] == {"headers": {"Authorization": REDACTED}, "urls": [f"/bot{REDACTED}/x"]}
    assert lines[3]["url"] == f"redis://:{REDACTED}@redis:6379/0"


def test_tokens_in_library_records_and_tracebacks_are_redacted() -> None:
    out = io.StringIO()
    configure_logging("DEBUG", "console", stream=out)
    logging.getLogger("discord.http").debug("headers %s", {"Authorization": f"Bot {DC_TOKEN}"})
    logging.getLogger("telegram.ext.Updater").error("Error while getting updates: bot%s/getUpdates", TG_TOKEN)
    try:
        raise ConnectionError(f"could not reach https://api.telegram.org/bot{TG_TOKEN}/getMe")
    except ConnectionError:
        logging.getLogger("telegram.ext.Application").exception("network trouble")
    text = out.getvalue()
    assert TG_TOKEN not in text and DC_TOKEN not in text
    assert "Error while getting updates" in text and "ConnectionError" in text and "network trouble" in text
    assert text.count(REDACTED) == 3  # header, Updater message, exception message


def test_registered_secrets_are_redacted_even_without_a_token_shape() -> None:
    out = io.StringIO()
    configure_logging("INFO", "json", stream=out, secrets=["opaque-stand-in-token", "x"])
    get_logger("fevga.test").info("using opaque-stand-in-token for the stand-in server; x marks")
    [line] = json_lines(out)
    assert line["event"] == f"using {REDACTED} for the stand-in server; x marks"


class _FakeBotApi(BaseHTTPRequestHandler):
    """Answers any Bot API call with a getMe result, and remembers the request paths."""

    paths: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        self.paths.append(self.path)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps(
            {"ok": True, "result": {"id": 123456789, "is_bot": True, "first_name": "Fevga", "username": "fevga_bot"}}
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Silence the stand-in server's own access log."""


@pytest.fixture
def fake_bot_api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeBotApi)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _FakeBotApi.paths = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    finally:
        server.shutdown()
        server.server_close()


async def test_real_telegram_bot_request_logs_keep_the_token_out(fake_bot_api: str) -> None:
    out = io.StringIO()
    configure_logging("DEBUG", "json", stream=out)
    async with Bot(token=TG_TOKEN, base_url=fake_bot_api) as bot:
        me = await bot.get_me()
    assert me.username == "fevga_bot"
    assert any(TG_TOKEN in path for path in _FakeBotApi.paths)  # the token really was in the URL
    text = out.getvalue()
    httpx_lines = [line for line in json_lines(out) if line["logger"] == "httpx"]
    assert httpx_lines, "httpx should log its requests at DEBUG level"
    assert all(f"/bot{REDACTED}/getMe" in str(line["event"]) for line in httpx_lines)
    assert TG_TOKEN not in text


async def test_httpx_request_lines_are_quiet_at_info_level(fake_bot_api: str) -> None:
    out = io.StringIO()
    configure_logging("INFO", "json", stream=out)
    async with Bot(token=TG_TOKEN, base_url=fake_bot_api) as bot:
        await bot.get_me()
    assert _FakeBotApi.paths
    assert not [line for line in json_lines(out) if line["logger"] == "httpx"]
    assert TG_TOKEN not in out.getvalue()


TEXT_AROUND = st.text(alphabet=B64URL + " /:.=&?\n\"'", max_size=30)


@given(
    before=TEXT_AROUND,
    after=TEXT_AROUND,
    bot_id=st.integers(min_value=10_000, max_value=10**10),
    secret=st.text(alphabet=B64URL, min_size=35, max_size=35),
)
def test_any_telegram_token_in_any_text_is_redacted(before: str, after: str, bot_id: int, secret: str) -> None:
    token = f"{bot_id}:{secret}"
    assert token not in redact_text(before + token + after)


@given(
    before=TEXT_AROUND,
    after=TEXT_AROUND,
    first=st.text(alphabet=B64URL, min_size=24, max_size=28),
    middle=st.text(alphabet=B64URL, min_size=6, max_size=6),
    last=st.text(alphabet=B64URL, min_size=27, max_size=38),
)
def test_any_discord_token_in_any_text_is_redacted(before: str, after: str, first: str, middle: str, last: str) -> None:
    token = f"{first}.{middle}.{last}"
    assert token not in redact_text(before + token + after)


@pytest.mark.parametrize(
    "text",
    [
        "player 1/7 7/12 plays 6-5 at 2026-11-22T07:38:11Z",
        "game 5f0c2a7e-8d7b-4a5e-9b1e-3c2d1f0e9a8b saved",
        "https://discord.com/api/v10/channels/123456789012345678/messages",
        "module bot.service.sessions.store loaded",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact_text(text) == text
