"""The test cluster's launcher (tests/redis_cluster.py): a node whose port was taken between picking and binding
(by another test worker's server) is started again on another port, and a server that is not the node's own is
never taken for it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

import tests.redis_cluster as launcher
from tests.redis_cluster import LocalCluster


def test_a_node_whose_port_was_taken_starts_on_another(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()  # another worker's server: listening on the port the launcher picks first
        busy = taken.getsockname()[1]
        free = launcher.free_cluster_port({busy, busy + launcher.BUS_OFFSET})
        picks = iter([busy, free])
        monkeypatch.setattr(launcher, "free_cluster_port", lambda _taken=frozenset(): next(picks))
        cluster = LocalCluster(tmp_path)
        try:
            node = cluster._start_new_node()
            assert node.port == free and node.alive and len(node.node_id) == 40
            assert [n.port for n in cluster.nodes] == [free]  # the failed try left no node behind
            assert cluster.cli(node, "PING") == "PONG"
        finally:
            cluster.stop()


def test_a_server_answering_on_the_port_is_checked_to_be_the_nodes_own(tmp_path: Path) -> None:
    cluster = LocalCluster(tmp_path)
    try:
        node = cluster._start_new_node()
        assert cluster._answered_by(node)
        assert node.pid is not None
        stranger = launcher.ClusterNode(port=node.port, data_dir=tmp_path / "other", pid=node.pid + 1_000_000)
        assert not cluster._answered_by(stranger)  # same port, another process: not this node's server
    finally:
        cluster.stop()
