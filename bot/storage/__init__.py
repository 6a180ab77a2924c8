"""Where games live: the Store interface, Redis and in-memory stores, and a local redis-server launcher."""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urlsplit

from .base import Commit, CommitOutcomeUnknown, DamagedKey, DamagedValue, Entry, Store
from .cluster_store import SCHEMES as CLUSTER_SCHEMES
from .cluster_store import ClusterStore, parse_cluster_url
from .local_redis import LocalRedis, redis_server_path
from .memory import MemoryStore
from .redis_store import RedisStore

log = logging.getLogger(__name__)

MEMORY_WARNING = (
    "NO REDIS: REDIS_URL is unset and no redis-server is on PATH. Using an in-memory store: "
    "games WILL NOT survive a restart and several bot instances cannot share them."
)


def open_store(redis_url: str | None, data_dir: str | Path = "data/redis", *, wait_replicas: int | None = None,
               wait_ms: int = 500) -> tuple[Store, LocalRedis | None]:
    """The store to use: ``redis_url`` if set (``redis+cluster://`` for a Redis Cluster, ``rediss+cluster://``
    for one spoken to over TLS), else a local redis-server (AOF in ``data_dir``), else memory.
    ``wait_replicas`` (None: 1 on a cluster, 0 otherwise) replicas must confirm each commit within ``wait_ms``
    (see durability.py).

    Returns the store and the local server it started (stop it at shutdown), if any.
    """
    if redis_url and urlsplit(redis_url).scheme.lower() in CLUSTER_SCHEMES:
        replicas = 1 if wait_replicas is None else wait_replicas
        return ClusterStore.from_cluster_url(redis_url, wait_replicas=replicas, wait_ms=wait_ms), None
    if redis_url:
        return RedisStore.from_url(redis_url, wait_replicas=wait_replicas or 0, wait_ms=wait_ms), None
    if redis_server_path():
        server = LocalRedis(data_dir)
        server.start()
        log.info("started a local redis-server on %s (data in %s)", server.url, server.data_dir)
        return RedisStore.from_url(server.url), server
    log.warning(MEMORY_WARNING)
    return MemoryStore(), None


__all__ = [
    "CLUSTER_SCHEMES", "MEMORY_WARNING", "ClusterStore", "Commit", "CommitOutcomeUnknown", "DamagedKey",
    "DamagedValue", "Entry", "LocalRedis", "MemoryStore", "RedisStore", "Store", "open_store", "parse_cluster_url",
]  # fmt: skip
