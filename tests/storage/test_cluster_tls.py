"""``rediss+cluster://``: the Cluster store over TLS to a real TLS-only cluster (tests/redis_cluster.py, a throwaway
CA made with openssl). Every connection is TLS: the slot map's, each node's pool (also one first met in a MOVED
answer or after a failover) and pub/sub's; the certificate options are redis-py's, in the URL's query; a plain URL,
a wrong CA or a foreign client certificate is refused at once with a hint."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from redis.asyncio.connection import SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError

from bot.service import keys
from bot.storage import ClusterStore, Commit, parse_cluster_url
from bot.storage.cluster_store import TLS_OPTIONS
from tests.redis_cluster import Certs, LocalCluster
from tests.service.conftest import ALICE, BOB, HERE, FakeClock, make_service
from tests.service.helpers import start_game, until_both_moved

pytestmark = pytest.mark.timeout(120)


def hosts(cluster: LocalCluster) -> str:
    return ",".join(n.address for n in cluster.live_nodes())


def ca_only_url(cluster: LocalCluster) -> str:
    """The cluster's URL trusting its CA, without a client certificate (what most operators write)."""
    assert cluster.certs is not None
    return f"rediss+cluster://{hosts(cluster)}/?ssl_ca_certs={cluster.certs.ca}"


@pytest.fixture(scope="module")
def other_ca(tmp_path_factory: pytest.TempPathFactory) -> Certs:
    """Certificates of another throwaway CA (neither the cluster's CA nor signed by it)."""
    return Certs.make(tmp_path_factory.mktemp("other-ca"), "other")


def test_the_query_takes_redis_pys_tls_options() -> None:
    nodes, options = parse_cluster_url("rediss+cluster://u:p%40w@a:7000,b:7001/?ssl_ca_certs=/etc/ca%20dir/ca.crt"
                                       "&ssl_cert_reqs=required&ssl_check_hostname=no&ssl_certfile=/c.crt"
                                       "&ssl_keyfile=/c.key")
    assert nodes == [("a", 7000), ("b", 7001)]
    assert options == {"username": "u", "password": "p@w", "connection_class": SSLConnection,
                       "ssl_ca_certs": "/etc/ca dir/ca.crt", "ssl_cert_reqs": "required",
                       "ssl_check_hostname": False, "ssl_certfile": "/c.crt", "ssl_keyfile": "/c.key"}
    assert parse_cluster_url("rediss+cluster://a:7000")[1] == {"connection_class": SSLConnection}
    assert parse_cluster_url("redis+cluster://a:7000/")[1] == {}  # no TLS: redis-py's plain connection
    assert "ssl_password" not in TLS_OPTIONS and {"ssl_ca_certs", "ssl_ca_path", "ssl_min_version"} <= set(TLS_OPTIONS)
    with pytest.raises(ValueError, match="ssl_ca_certs needs TLS: write rediss\\+cluster://"):
        parse_cluster_url("redis+cluster://a:7000/?ssl_ca_certs=/ca.crt")
    with pytest.raises(ValueError, match="no option 'db'"):
        parse_cluster_url("rediss+cluster://a:7000/?db=2")
    with pytest.raises(ValueError, match="ssl_cert_reqs is one of none, optional, required"):
        parse_cluster_url("rediss+cluster://a:7000/?ssl_cert_reqs=sometimes")


async def test_a_game_is_committed_and_read_over_tls(tls_cluster: LocalCluster) -> None:
    """(a) A game on ``rediss+cluster://...?ssl_ca_certs=...``: started, moved, read back; WAIT counted the TLS
    replicas (listed by their tls-port), and pub/sub goes over TLS too."""
    tls_cluster.flushall()
    store = ClusterStore.from_cluster_url(ca_only_url(tls_cluster), wait_replicas=1, wait_ms=2000)
    service = make_service(store, FakeClock())
    try:
        await store.connect()
        assert store.nodes.tls and len(store.nodes.masters()) == 3
        assert all(store.nodes.replicas_of(m) == 1 for m in store.nodes.masters())
        events = await store.subscribe("fevga:tls:events")
        started = await until_both_moved(service, await start_game(service, ALICE, BOB, HERE), HERE,
                                         random.Random(3))
        assert started.ok and started.view is not None
        [saved] = await store.read([("get", keys.game(started.view.game_id))])
        assert saved is not None and store.commits > 0
        assert store.health()["wait_timeouts"] == 0 and store.health()["unreplicated"] == 0
        published = Commit()
        published.ops.append(("pub", "fevga:tls:events", b"hello over tls"))
        assert await store.commit(published)
        assert await anext(events) == b"hello over tls"
        assert all(issubclass(c.connection_pool.connection_class, SSLConnection) for c in store.nodes.clients())
        assert store.pubsub._client is not None
        assert store.pubsub._client.connection_pool.connection_class is SSLConnection
    finally:
        service.close()
        await store.close()


async def test_a_moved_answer_is_followed_over_tls(tls_cluster: LocalCluster) -> None:
    """A node first met through MOVED gets a TLS pool like the others (MOVED names the node's TLS port)."""
    tls_cluster.flushall()
    store = ClusterStore.from_cluster_url(tls_cluster.url, wait_replicas=0)
    try:
        await store.connect()
        key = "fevga:{g:moved}"
        right = store.nodes.master_of(key)
        wrong = next(m for m in store.nodes.masters() if m != right)
        store.nodes.learn(store.nodes.keyslot(key), wrong)  # a stale map: the wrong node answers MOVED
        store.nodes._clients.clear()  # every pool opened from here on
        assert await store.commit(Commit().expect(key, 0).put_versioned(key, 1, b"g"))
        assert store.nodes.master_of(key) == right
        assert {wrong, right} <= set(store.nodes._clients)
        assert await store.read([("get", key)]) == [b"1:g"]
    finally:
        await store.close()


async def test_a_failover_is_ridden_out_over_tls(tls_cluster: LocalCluster) -> None:
    """kill -9 a master: a read waits for the promotion and reaches the promoted replica over TLS, and so do
    commits (the first command after the kill is a read: a commit sent on the dead node's pooled connection
    would rightly be CommitOutcomeUnknown, TLS or not)."""
    tls_cluster.flushall()
    store = ClusterStore.from_cluster_url(tls_cluster.url, wait_replicas=1, wait_ms=2000, failover_wait=30)
    key = "fevga:{g:failover}"
    victim = tls_cluster.master_of_key(key)
    try:
        assert await store.commit(Commit().expect(key, 0).put_versioned(key, 1, b"a"))
        tls_cluster.kill_node(victim)
        assert await store.read([("get", key)]) == [b"1:a"]  # acknowledged, so on the promoted replica
        assert await store.commit(Commit().expect(key, 1).put_versioned(key, 2, b"b"))
        promoted = store.nodes.master_of(key)
        assert promoted is not None and promoted[1] != victim.port
        assert await store.read([("get", key)]) == [b"2:b"]
    finally:
        await store.close()
        tls_cluster.wait_ok(30)
        tls_cluster.restart_node(victim)


async def test_a_plain_url_to_a_tls_cluster_is_refused_at_once_with_a_hint(tls_cluster: LocalCluster) -> None:
    """(b) ``redis+cluster://`` to TLS-only nodes: every node drops the plain hello; connect() says so quickly."""
    store = ClusterStore.from_cluster_url(f"redis+cluster://fevga:s3cretpw@{hosts(tls_cluster)}")
    began = time.monotonic()
    try:
        with pytest.raises(RedisConnectionError, match="no cluster node answered") as caught:
            await store.connect()
    finally:
        await store.close()
    assert time.monotonic() - began < 5
    assert "a cluster that speaks only TLS is rediss+cluster://" in str(caught.value)
    assert "s3cretpw" not in str(caught.value)


async def test_a_wrong_ca_and_a_foreign_client_certificate_are_refused(tls_cluster: LocalCluster,
                                                                        other_ca: Certs) -> None:
    """(c) Nodes whose certificate the URL's CA did not sign are not spoken to; nor does a node accept a
    client certificate of another CA."""
    assert tls_cluster.certs is not None
    wrong_ca = ClusterStore.from_cluster_url(f"rediss+cluster://{hosts(tls_cluster)}/?ssl_ca_certs={other_ca.ca}")
    try:
        with pytest.raises(RedisConnectionError, match=r"CERTIFICATE_VERIFY_FAILED.*check its ssl_ca_certs"):
            await wrong_ca.connect()
    finally:
        await wrong_ca.close()
    foreign = ClusterStore.from_cluster_url(f"{ca_only_url(tls_cluster)}&ssl_certfile={other_ca.client_cert}"
                                            f"&ssl_keyfile={other_ca.client_key}")
    try:
        with pytest.raises(RedisConnectionError, match="no cluster node answered"):
            await foreign.connect()
    finally:
        await foreign.close()


def test_a_missing_certificate_file_stops_start_up_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "ca.crt"
    with pytest.raises(OSError, match=f"the TLS files in REDIS_URL \\(ssl_ca_certs={missing}\\) could not be loaded"):
        ClusterStore.from_cluster_url(f"rediss+cluster://127.0.0.1:7000/?ssl_ca_certs={missing}")
