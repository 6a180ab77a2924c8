"""Settings: defaults, .env files, and start-up errors that name the bad variable."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.config import EXPECTS, ConfigError, Settings, load_settings

REPO = Path(__file__).resolve().parents[1]
VARIABLES = sorted(name.upper() for name in Settings.model_fields)
TG_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1"
DC_TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0Mw.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting leaks in from the machine running the tests."""
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


@contextmanager
def env(**values: str) -> Iterator[None]:
    """Set environment variables for a block and restore them afterwards (usable inside hypothesis)."""
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def problems(**values: str) -> list[str]:
    """The ConfigError lines for these environment values (fails if they load fine)."""
    with env(**values), pytest.raises(ConfigError) as info:
        load_settings(None)
    return info.value.problems


def test_defaults_without_environment_or_file() -> None:
    s = load_settings(None)
    assert s.discord_token is None and s.telegram_token is None
    assert s.discord_api_base_url == "https://discord.com/api/v10"
    assert s.discord_gateway_url is None and s.discord_shard_count is None
    assert s.discord_command_prefix == "!fevga "
    assert s.telegram_api_base_url == "https://api.telegram.org/bot"
    assert s.telegram_webhook_url is None and not s.telegram_webhook_mode
    assert (s.telegram_webhook_listen, s.telegram_webhook_port) == ("0.0.0.0", 8443)
    assert s.redis_url is None and s.fevga_data_dir == Path("data")
    assert (s.fevga_language, s.fevga_ai_level) == ("en", "medium")
    assert (s.fevga_turn_deadline_hours, s.fevga_challenge_ttl_minutes) == (24.0, 10.0)
    assert (s.log_level, s.log_format, s.health_port) == ("INFO", "console", None)
    assert not s.has_discord and not s.has_telegram


def test_env_file_is_read_and_real_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        f"TELEGRAM_TOKEN={TG_TOKEN}\nFEVGA_LANGUAGE=el\nHEALTH_PORT=9090\n"
        'DISCORD_COMMAND_PREFIX="?f "\nUNRELATED_VARIABLE=whatever\n'
    )
    monkeypatch.setenv("HEALTH_PORT", "7070")
    s = load_settings(str(dotenv))
    assert s.has_telegram and s.telegram_token is not None
    assert s.telegram_token.get_secret_value() == TG_TOKEN
    assert s.fevga_language == "el"
    assert s.discord_command_prefix == "?f "
    assert s.health_port == 7070


def test_missing_env_file_means_environment_only(tmp_path: Path) -> None:
    assert load_settings(str(tmp_path / "absent.env")).log_level == "INFO"


def test_env_example_documents_every_variable_with_its_default() -> None:
    lines = (REPO / ".env.example").read_text().splitlines()
    assigned = [(i, m.group(1)) for i, line in enumerate(lines) if (m := re.match(r"([A-Z_][A-Z0-9_]*)=", line))]
    assert sorted(name for _, name in assigned) == VARIABLES
    for index, name in assigned:
        comment = lines[index - 1]
        assert comment.startswith("# ") and "Default:" in comment, f"{name} lacks a comment line with its default"


def test_env_example_loads_to_the_defaults() -> None:
    assert load_settings(str(REPO / ".env.example")) == load_settings(None)


def test_every_variable_has_an_expectation_text() -> None:
    assert sorted(k.upper() for k in EXPECTS) == VARIABLES


def test_bad_number_names_the_variable_and_what_it_expects() -> None:
    assert problems(FEVGA_TURN_DEADLINE_HOURS="abc") == [
        "FEVGA_TURN_DEADLINE_HOURS: expected a number greater than 0 (at most 8760), got 'abc'"
    ]


@pytest.mark.parametrize(
    ("name", "value", "expects"),
    [
        ("FEVGA_TURN_DEADLINE_HOURS", "0", "a number greater than 0"),
        ("FEVGA_TURN_DEADLINE_HOURS", "-3", "a number greater than 0"),
        ("FEVGA_TURN_DEADLINE_HOURS", "inf", "a number greater than 0"),
        ("FEVGA_TURN_DEADLINE_HOURS", "nan", "a number greater than 0"),
        ("FEVGA_CHALLENGE_TTL_MINUTES", "ten", "a number greater than 0"),
        ("DISCORD_SHARD_COUNT", "0", "a whole number of at least 1"),
        ("DISCORD_SHARD_COUNT", "2.5", "a whole number of at least 1"),
        ("DISCORD_API_BASE_URL", "discord.com/api", "an http:// or https:// URL"),
        ("DISCORD_GATEWAY_URL", "https://gateway.discord.gg", "a ws:// or wss:// URL"),
        ("DISCORD_COMMAND_PREFIX", "   ", "a prefix that is not only spaces"),
        ("TELEGRAM_API_BASE_URL", "ftp://api.telegram.org/bot", "an http:// or https:// URL"),
        ("TELEGRAM_WEBHOOK_LISTEN", "everywhere", "an IP address"),
        ("TELEGRAM_WEBHOOK_PORT", "70000", "a port number from 1 to 65535"),
        ("REDIS_URL", "http://localhost:6379", "a redis://, rediss:// or unix:// URL"),
        ("REDIS_URL", "redis://localhost:notaport", "a redis://, rediss:// or unix:// URL"),
        ("FEVGA_LANGUAGE", "fr", "one of: en, el"),
        ("FEVGA_AI_LEVEL", "grandmaster", "one of: easy, medium, hard, expert"),
        ("LOG_LEVEL", "loud", "one of: DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ("LOG_FORMAT", "xml", "one of: json, console"),
        ("HEALTH_PORT", "0", "a port number from 1 to 65535"),
    ],
)
def test_each_bad_value_is_reported_by_name(name: str, value: str, expects: str) -> None:
    [line] = problems(**{name: value})
    assert line.startswith(f"{name}: expected {expects}")
    assert f"got '{value.lower()}'" in line.lower() or f"got '{value.strip().lower()}'" in line.lower()


def test_one_line_per_bad_variable() -> None:
    lines = problems(HEALTH_PORT="x", FEVGA_LANGUAGE="de", DISCORD_SHARD_COUNT="-1")
    assert sorted(line.split(":")[0] for line in lines) == ["DISCORD_SHARD_COUNT", "FEVGA_LANGUAGE", "HEALTH_PORT"]
    assert "Traceback" not in "\n".join(lines) and "pydantic" not in "\n".join(lines)


def test_config_error_is_a_value_error_with_the_lines_as_message() -> None:
    with env(LOG_FORMAT="xml"), pytest.raises(ValueError, match=r"^LOG_FORMAT: expected one of: json, console"):
        load_settings(None)


def test_webhook_mode_requires_a_secret() -> None:
    lines = problems(TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg")
    assert lines == [
        "TELEGRAM_WEBHOOK_SECRET: required when TELEGRAM_WEBHOOK_URL is set "
        "(1 to 256 characters from A-Z, a-z, 0-9, _ and -)"
    ]
    with env(
        TELEGRAM_TOKEN=TG_TOKEN,
        TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg",
        TELEGRAM_WEBHOOK_SECRET="s3cret_Value-1",
    ):
        s = load_settings(None)
    assert s.telegram_webhook_mode and s.has_telegram


def test_missing_secret_is_reported_together_with_other_errors() -> None:
    lines = problems(TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg", FEVGA_AI_LEVEL="godlike")
    assert sorted(line.split(":")[0] for line in lines) == ["FEVGA_AI_LEVEL", "TELEGRAM_WEBHOOK_SECRET"]


@pytest.mark.parametrize("secret", ["has spaces inside", "x" * 257, "ünïcode", "semi;colon"])
def test_bad_webhook_secret_is_rejected_without_echoing_it(secret: str) -> None:
    [line] = problems(TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg", TELEGRAM_WEBHOOK_SECRET=secret)
    assert line.startswith("TELEGRAM_WEBHOOK_SECRET: expected 1 to 256 characters")
    assert secret not in line and "hidden value" in line


@pytest.mark.parametrize(
    ("name", "value", "password"),
    [
        ("REDIS_URL", "redis://:s3cretpw@redis:99999/0", "s3cretpw"),
        ("REDIS_URL", "rediss://fevga:p@ss%40w0rd@redis:nope/0", "p@ss%40w0rd"),
        ("REDIS_URL", "redis+cluster://user:clusterpw@a:7000,user:otherpw@b:99999", "clusterpw"),
        ("REDIS_URL", "redis+cluster://user:clusterpw@a:7000,user:otherpw@b:99999", "otherpw"),
        ("REDIS_URL", "rediss+cluster://user:tlsclusterpw@a:7000,b:7001/?ssl_cert_reqs=maybe", "tlsclusterpw"),
        ("REDIS_URL", "redis+cluster://user:tlsclusterpw@a:7000/?ssl_ca_certs=/ca.crt", "tlsclusterpw"),
        ("WEB_BASE_URL", "https://user:webpw1@fevga.example.org:nope", "webpw1"),
        ("DISCORD_API_BASE_URL", "ftp://bob:dcpw12@discord.com/api", "dcpw12"),
    ],
)
def test_a_rejected_url_is_shown_without_its_password(name: str, value: str, password: str) -> None:
    """A URL's userinfo password never reaches the error line (the old code echoed the whole URL)."""
    [line] = problems(**{name: value})
    assert line.startswith(f"{name}: expected ")
    assert password not in line and "[REDACTED]@" in line


@pytest.mark.parametrize("value", [
    "rediss://:pw@redis:6380/0?ssl_ca_certs=/ca.crt&ssl_password=KEYPASS123",
    "redis://redis:6379/0?ssl_password=KEYPASS123",
    "rediss+cluster://:pw@a:7000/?ssl_ca_certs=/ca.crt&ssl_password=KEYPASS123",
])
def test_a_key_password_in_the_url_is_refused_and_never_shown(value: str) -> None:
    """``ssl_password`` in REDIS_URL's query: refused for every form (a query is not hidden in logs), and the
    error line hides it (it echoed it, and a single Redis's URL was even accepted)."""
    [line] = problems(REDIS_URL=value)
    assert line.startswith("REDIS_URL: expected ") and "KEYPASS123" not in line and "ssl_password=[REDACTED]" in line


def test_webhook_secret_of_256_allowed_characters_is_accepted() -> None:
    secret = ("Ab9_-" * 52)[:256]
    with env(TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg", TELEGRAM_WEBHOOK_SECRET=secret):
        s = load_settings(None)
    assert s.telegram_webhook_secret is not None and s.telegram_webhook_secret.get_secret_value() == secret


def test_case_and_whitespace_are_forgiven() -> None:
    with env(
        FEVGA_LANGUAGE="EL",
        LOG_LEVEL="debug",
        LOG_FORMAT=" JSON ",
        FEVGA_AI_LEVEL="Hard",
        DISCORD_TOKEN=f"  {DC_TOKEN}\n",
        DISCORD_API_BASE_URL="http://127.0.0.1:8080/api/v10/",
        REDIS_URL="unix:///run/redis.sock",
        TELEGRAM_WEBHOOK_LISTEN="::",
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9000",
        DISCORD_SHARD_COUNT="4",
    ):
        s = load_settings(None)
    assert (s.fevga_language, s.log_level, s.log_format, s.fevga_ai_level) == ("el", "DEBUG", "json", "hard")
    assert s.discord_token is not None and s.discord_token.get_secret_value() == DC_TOKEN
    assert s.has_discord
    assert s.discord_api_base_url == "http://127.0.0.1:8080/api/v10"
    assert s.redis_url == "unix:///run/redis.sock"
    assert s.telegram_webhook_listen == "::"
    assert s.discord_shard_count == 4


def test_blank_values_mean_defaults() -> None:
    with env(DISCORD_TOKEN="   ", HEALTH_PORT="", FEVGA_LANGUAGE=""):
        s = load_settings(None)
    assert not s.has_discord and s.health_port is None and s.fevga_language == "en"


def test_unprefixed_system_variables_are_not_taken_for_ours() -> None:
    # LANGUAGE is set on many Linux systems (e.g. "en_US:en"); only FEVGA_LANGUAGE may count.
    with env(LANGUAGE="en_US:en", LEVEL="x", DATA_DIR="/nope", AI_LEVEL="x"):
        s = load_settings(None)
    assert s.fevga_language == "en" and s.fevga_data_dir == Path("data")


def test_redacted_view_hides_every_secret() -> None:
    with env(
        DISCORD_TOKEN=DC_TOKEN,
        TELEGRAM_TOKEN=TG_TOKEN,
        TELEGRAM_WEBHOOK_URL=f"https://bot.example.org/{TG_TOKEN}",
        TELEGRAM_WEBHOOK_SECRET="webhook_secret_42",
        REDIS_URL="redis://default:hunter2hunter2@redis.internal:6379/0",
    ):
        s = load_settings(None)
    view = s.redacted()
    assert sorted(view) == VARIABLES
    text = repr(view)
    for secret in (DC_TOKEN, TG_TOKEN, "webhook_secret_42", "hunter2hunter2"):
        assert secret not in text
    assert view["DISCORD_TOKEN"] == "[REDACTED]" and view["TELEGRAM_WEBHOOK_SECRET"] == "[REDACTED]"
    assert view["REDIS_URL"] == "redis://default:[REDACTED]@redis.internal:6379/0"
    assert view["TELEGRAM_WEBHOOK_URL"] == "https://bot.example.org/[REDACTED]"
    assert view["FEVGA_TURN_DEADLINE_HOURS"] == 24.0
    assert sorted(s.secret_values()) == sorted([DC_TOKEN, TG_TOKEN, "webhook_secret_42"])


@given(value=st.floats(min_value=1e-6, max_value=8760, allow_nan=False))
def test_any_positive_deadline_in_range_loads(value: float) -> None:
    with env(FEVGA_TURN_DEADLINE_HOURS=repr(value)):
        assert load_settings(None).fevga_turn_deadline_hours == value


ENV_TEXT = st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=40)


@given(name=st.sampled_from([v for v in VARIABLES if not v.endswith(("TOKEN", "SECRET"))]), value=ENV_TEXT)
def test_any_text_either_loads_or_fails_naming_that_variable(name: str, value: str) -> None:
    with env(**{name: value}):
        try:
            load_settings(None)
        except ConfigError as exc:
            assert [line.split(":")[0] for line in exc.problems] == [name]
            assert "expected" in str(exc)


def test_a_tls_cluster_url_is_accepted_and_a_misplaced_tls_option_is_named() -> None:
    url = "rediss+cluster://fevga:pw@a:7000,b:7001/?ssl_ca_certs=/etc/fevga/ca.crt&ssl_check_hostname=false"
    with env(REDIS_URL=url):
        assert load_settings(None).redis_url == url
    [line] = problems(REDIS_URL="redis+cluster://a:7000/?ssl_ca_certs=/etc/fevga/ca.crt")
    assert line.startswith("REDIS_URL: expected ") and line.endswith("ssl_ca_certs needs TLS: write rediss+cluster://")
    [line] = problems(REDIS_URL="rediss+cluster://a:7000/?socket_timeout=3")
    assert "no option 'socket_timeout'" in line and "ssl_ca_certs" in line
