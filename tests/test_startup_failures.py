"""``python -m bot`` as an operator runs it: arguments, and every start-up failure as one redacted line (JSON under
LOG_FORMAT=json) with exit code 1, never a raw traceback, a token or a password."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bot.config import Settings
from bot.storage import LocalRedis
from tests.redis_cluster import LocalCluster

pytestmark = pytest.mark.timeout(120)
REPO = Path(__file__).resolve().parents[1]
TG_TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"
PASSWORD = "s3cretpw"


def run_bot(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` in ``cwd`` (no .env unless the test wrote one) with only ``env`` set of our variables."""
    base = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    base.update(PYTHONPATH=str(REPO), OPENBLAS_NUM_THREADS="1", **env)
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=base, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=90)


def failure_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one 'could not start' line, after checking exit code 1 and that nothing resembling a traceback came out."""
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr and 'File "' not in result.stderr, result.stderr
    [line] = [line for line in result.stderr.splitlines() if "could not start" in line]
    return line


def unreachable_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_help_describes_the_program_and_its_configuration_without_starting(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "--help", REDIS_URL=f"redis://127.0.0.1:{unreachable_port()}/0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: fevga-bot")
    assert "environment variables" in result.stdout and ".env.example" in result.stdout and "README" in result.stdout
    assert "could not start" not in result.stderr and "terminal chat" not in result.stdout


def test_version_comes_from_the_package_metadata(tmp_path: Path) -> None:
    from importlib.metadata import version

    result = run_bot(tmp_path, "--version", REDIS_URL=f"redis://127.0.0.1:{unreachable_port()}/0")
    assert (result.returncode, result.stdout.strip()) == (0, f"fevga-bot {version('fevga-bot')}")


def test_an_unknown_argument_is_a_usage_error(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "--bogus", REDIS_URL=f"redis://127.0.0.1:{unreachable_port()}/0")
    assert result.returncode == 2 and "unrecognized arguments: --bogus" in result.stderr


@pytest.mark.parametrize("fmt", ["console", "json"])
def test_unreachable_redis_is_one_line_naming_it_without_the_password(tmp_path: Path, fmt: str) -> None:
    url = f"redis://:{PASSWORD}@127.0.0.1:{unreachable_port()}/0"
    line = failure_line(run_bot(tmp_path, REDIS_URL=url, LOG_FORMAT=fmt))
    assert PASSWORD not in line
    assert "could not start: Redis at redis://:[REDACTED]@127.0.0.1:" in line and "is unreachable" in line
    if fmt == "json":
        assert json.loads(line)["level"] == "error"


def test_a_wrong_redis_password_and_a_bad_db_index_are_one_line_each(tmp_path: Path,
                                                                     redis_server: LocalRedis) -> None:
    host_port = redis_server.url.split("://", 1)[1].split("/", 1)[0]
    line = failure_line(run_bot(tmp_path, REDIS_URL=f"redis://nobody:{PASSWORD}@{host_port}/0"))
    assert PASSWORD not in line and "refused the credentials" in line
    line = failure_line(run_bot(tmp_path, REDIS_URL=f"redis://{host_port}/99"))
    assert "answered with an error" in line and "DB index is out of range" in line


def test_an_env_file_not_in_utf8_is_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"LOG_LEVEL=info\nFEVGA_LANGUAGE=\xe5\xeb\n")
    line = failure_line(run_bot(tmp_path, LOG_FORMAT="json"))
    assert "not UTF-8" in json.loads(line)["event"]


@pytest.mark.parametrize(("env", "named"), [
    ({"FEVGA_AI_LEVEL": "nonsense"}, ["FEVGA_AI_LEVEL: expected one of: easy, medium, hard, expert, got 'nonsense'"]),
    ({"FEVGA_TICK_SECONDS": "abc"}, ["FEVGA_TICK_SECONDS: expected a number", "got 'abc'"]),
    ({"HEALTH_PORT": "70000", "FEVGA_LANGUAGE": "xx"}, ["HEALTH_PORT: expected", "FEVGA_LANGUAGE: expected"]),
    ({"FEVGA_SWITCH_MS": "1\n2", "LOG_FORMAT": "json"}, ["FEVGA_SWITCH_MS: expected", "got '1\\n2'"]),
])
def test_a_bad_setting_is_one_line_naming_it_with_the_start_failures_exit_code(
        tmp_path: Path, env: dict[str, str], named: list[str]) -> None:
    result = run_bot(tmp_path, REDIS_URL=f"redis://127.0.0.1:{unreachable_port()}/0", **env)
    line = failure_line(result)  # exit code 1, as every other failed start
    assert result.stderr.strip() == line and result.stdout == "", result.stderr  # nothing else: no usage, no details
    if env.get("LOG_FORMAT") == "json":
        line = json.loads(line)["event"]
    assert "fevga-bot: could not start: invalid configuration: " in line
    assert all(part in line for part in named), line


class _Unauthorized(BaseHTTPRequestHandler):
    """A Bot API that rejects every token, as Telegram does for a revoked one."""

    def do_POST(self) -> None:
        body = b'{"ok": false, "error_code": 401, "description": "Unauthorized"}'
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@pytest.fixture
def rejecting_bot_api() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Unauthorized)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/bot"
    finally:
        server.shutdown()
        server.server_close()


def test_a_rejected_telegram_token_is_one_line_without_the_token(
    tmp_path: Path, redis_server: LocalRedis, rejecting_bot_api: str
) -> None:
    result = run_bot(tmp_path, REDIS_URL=redis_server.url, TELEGRAM_TOKEN=TG_TOKEN,
                     TELEGRAM_API_BASE_URL=rejecting_bot_api)
    line = failure_line(result)
    assert "TELEGRAM_TOKEN" in line
    assert TG_TOKEN not in result.stderr + result.stdout and TG_TOKEN.split(":")[1] not in result.stderr


def test_a_busy_health_port_stops_start_up_with_one_line(tmp_path: Path, redis_server: LocalRedis) -> None:
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        port = busy.getsockname()[1]
        line = failure_line(run_bot(tmp_path, REDIS_URL=redis_server.url, HEALTH_PORT=str(port)))
    assert f"HEALTH_PORT {port} cannot be bound" in line


def test_a_plain_url_to_a_tls_cluster_and_a_wrong_ca_are_one_line_each(tmp_path: Path,
                                                                       tls_cluster: LocalCluster) -> None:
    """``redis+cluster://`` to TLS-only nodes, and ``rediss+cluster://`` trusting another CA: the store is checked
    before anything starts, and the one line says what to fix, without the password."""
    assert tls_cluster.certs is not None
    hosts = ",".join(n.address for n in tls_cluster.live_nodes())
    line = failure_line(run_bot(tmp_path, REDIS_URL=f"redis+cluster://fevga:{PASSWORD}@{hosts}"))
    assert PASSWORD not in line and "Redis at redis+cluster://fevga:[REDACTED]@127.0.0.1:" in line
    assert "is unreachable" in line and "a cluster that speaks only TLS is rediss+cluster://" in line
    other = tmp_path / "other-ca.crt"
    other.write_bytes(tls_cluster.certs.client_cert.read_bytes())  # a certificate, but not the nodes' CA
    url = f"rediss+cluster://fevga:{PASSWORD}@{hosts}/?ssl_ca_certs={other}"
    line = failure_line(run_bot(tmp_path, REDIS_URL=url))
    assert PASSWORD not in line and "CERTIFICATE_VERIFY_FAILED" in line and "check its ssl_ca_certs" in line
    line = failure_line(run_bot(tmp_path, REDIS_URL=f"rediss+cluster://{hosts}/?ssl_ca_certs={tmp_path / 'no.crt'}"))
    assert f"the TLS files in REDIS_URL (ssl_ca_certs={tmp_path / 'no.crt'}) could not be loaded" in line


def test_a_single_redis_url_at_a_cluster_node_says_to_use_the_cluster_form() -> None:
    """A node of a Redis Cluster behind ``redis://`` answers MOVED: the line says to write ``redis+cluster://``
    (it showed only "answered with an error: 15891 127.0.0.1:17003")."""
    from redis.exceptions import MovedError

    from bot.__main__ import failure_reason

    settings = Settings(redis_url=f"redis://:{PASSWORD}@127.0.0.1:17001/0", _env_file=None)  # type: ignore[call-arg]
    line = failure_reason(MovedError("15891 127.0.0.1:17003"), settings)
    assert "is a node of a Redis Cluster" in line and "redis+cluster://" in line and PASSWORD not in line
