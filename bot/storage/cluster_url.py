"""Reading a Redis Cluster URL (``redis+cluster://[user:pass@]host:port,host:port/``, or ``rediss+cluster://``
with redis-py's ``ssl_*`` options in its query for TLS to every node), and what TLS needs around it: the
certificates loaded once at start-up, and a hint after a connection failure that looks like a TLS mismatch."""

from __future__ import annotations

import inspect
import ssl
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from redis.asyncio.connection import SSLConnection, parse_url

SCHEME = "redis+cluster"
TLS_SCHEME = "rediss+cluster"  # TLS to every node
SCHEMES = (SCHEME, TLS_SCHEME)
CERT_REQS = ("none", "optional", "required")  # ssl_cert_reqs, as redis-py reads it
FILE_OPTIONS = ("ssl_ca_certs", "ssl_ca_path", "ssl_certfile", "ssl_keyfile")


def _tls_option_names() -> tuple[str, ...]:
    """The ``ssl_*`` options of redis-py's SSLConnection, but ``ssl_password`` (a secret has no place in a
    URL's query, which logs do not hide): what a ``rediss+cluster://`` URL's query may set."""
    names = inspect.signature(SSLConnection.__init__).parameters
    return tuple(name for name in names if name.startswith("ssl_") and name != "ssl_password")


TLS_OPTIONS = _tls_option_names()


def parse_cluster_url(url: str) -> tuple[list[tuple[str, int]], dict[str, Any]]:
    """``redis+cluster://[user:pass@]host:port,host:port/`` -> startup nodes and connection options (auth).

    ``rediss+cluster://`` speaks TLS to every node: the options then hold redis-py's ``SSLConnection`` as
    ``connection_class`` and the query's TLS options (``?ssl_ca_certs=/ca.crt&ssl_cert_reqs=required...``,
    the names and values of redis-py's ``rediss://`` URLs, parsed by redis-py: see ``TLS_OPTIONS``).
    Raises ValueError for a bad node, an unknown option, or a TLS option without TLS."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise ValueError(f"a cluster URL starts with {SCHEME}:// or {TLS_SCHEME}:// (TLS)")
    auth, _, hosts = parts.netloc.rpartition("@")
    nodes: list[tuple[str, int]] = []
    for item in hosts.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"cluster node {item!r} is not host:port")
        nodes.append((host.strip("[]"), int(port)))
    options: dict[str, Any] = {}
    if auth:  # percent-encoded, as in redis:// URLs (a password holding "@" or ":" is written %40, %3A)
        user, colon, password = (unquote(part) for part in auth.partition(":"))
        options.update(username=user or None, password=password if colon else user)
        if not colon:
            options["username"] = None
    return nodes, options | _query_options(parts.query, tls=scheme == TLS_SCHEME)


def _query_options(query: str, *, tls: bool) -> dict[str, Any]:
    """The query's options, read by redis-py's own URL parser (as for ``rediss://``: ``ssl_check_hostname``
    a boolean, percent-encoding undone), plus ``connection_class`` for TLS."""
    names = [name for name, _ in parse_qsl(query, keep_blank_values=True)]
    unknown = [name for name in names if name not in TLS_OPTIONS]
    if unknown:
        raise ValueError(f"a cluster URL takes no option {unknown[0]!r} (its query may hold TLS options: "
                         f"{', '.join(TLS_OPTIONS)})")
    if names and not tls:
        raise ValueError(f"{names[0]} needs TLS: write {TLS_SCHEME}://")
    options: dict[str, Any] = dict(parse_url(f"{'rediss' if tls else 'redis'}://cluster/?{query}"))
    options.pop("host", None)
    cert_reqs = options.get("ssl_cert_reqs")
    if cert_reqs is not None and cert_reqs not in CERT_REQS:
        raise ValueError(f"ssl_cert_reqs is one of {', '.join(CERT_REQS)}")
    return options


def client_options(options: dict[str, Any]) -> dict[str, Any]:
    """Pool ``options`` as ``redis.asyncio.Redis(...)`` keywords: ``connection_class`` SSLConnection becomes
    ``ssl=True`` (as redis-py's ``RedisCluster.from_url`` does)."""
    options = dict(options)
    if options.pop("connection_class", None) is SSLConnection:
        options["ssl"] = True
    return options


def check_tls_files(options: dict[str, Any]) -> None:
    """Load the certificates and key that TLS ``options`` name, once, as every node's connections will: a
    missing or unreadable file then stops start-up naming it (OSError), not as a cluster that is down."""
    connection_class = options.get("connection_class")
    if connection_class is None or not issubclass(connection_class, SSLConnection):
        return
    tls = {k: v for k, v in options.items() if k.startswith("ssl_")}
    try:
        connection_class(**tls).ssl_context.get()
    except OSError as exc:  # ssl.SSLError too; the file's name is not always in the error
        named = ", ".join(f"{k}={v}" for k, v in tls.items() if k in FILE_OPTIONS)
        raise OSError(f"the TLS files in REDIS_URL ({named}) could not be loaded: {exc}") from exc


def tls_hint(error: BaseException | None, tls: bool) -> str:
    """A hint after a connection failure that looks like TLS was (not) expected, or a certificate refused."""
    causes: list[BaseException] = []
    while error is not None and len(causes) < 5:
        causes.append(error)
        error = error.__cause__ or error.__context__
    said = " ".join(str(c) for c in causes)
    if any(isinstance(c, ssl.SSLCertVerificationError) for c in causes) or "CERTIFICATE_VERIFY_FAILED" in said:
        return " (the nodes' certificate is not one REDIS_URL trusts: check its ssl_ca_certs)"
    if tls and (any(isinstance(c, ssl.SSLError) for c in causes) or "SSL" in said):
        return f" (do the nodes speak TLS? a cluster without it is {SCHEME}://)"
    reset = any(isinstance(c, ConnectionResetError) for c in causes) or "reset by peer" in said
    if not tls and (reset or "closed by server" in said):  # what a TLS-only node does to a plain hello
        return f" (a cluster that speaks only TLS is {TLS_SCHEME}://)"
    return ""


__all__ = ["SCHEMES", "TLS_OPTIONS", "check_tls_files", "client_options", "parse_cluster_url", "tls_hint"]
