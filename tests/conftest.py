"""Shared pytest configuration and the real redis-server that the Redis tests share."""

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from bot.storage import LocalRedis
from tests.redis_cluster import LocalCluster

settings.register_profile("default", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("default")


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRedis]:
    """One real redis-server (AOF on) on a free loopback port for the whole session; tests flush it."""
    server = LocalRedis(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """One real Redis Cluster (3 masters, 3 replicas, 1 s node timeout) for the whole session; tests flush it.
    A test that kills or pauses nodes must leave it settled (``restart_node``, ``wait_ok``)."""
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"))
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """One real Redis Cluster speaking TLS only (3 masters, 1 replica each; bus and replication over TLS too),
    with a throwaway CA; clients may show a certificate of that CA (``tls-auth-clients optional``). Its ``url``
    is ``rediss+cluster://...?ssl_ca_certs=...&ssl_certfile=...&ssl_keyfile=...``."""
    cluster = LocalCluster(tmp_path_factory.mktemp("tls-cluster"), tls=True, tls_auth_clients="optional")
    cluster.start()
    yield cluster
    cluster.stop()
