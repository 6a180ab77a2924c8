"""A real Redis Cluster for tests and benchmarks: N masters + replicas as loopback redis-server processes.

Reusable launcher (stable API, used by the store/service tests, the failover and resharding tests and
``benchmarks/bench_scale.py``)::

    cluster = LocalCluster(tmp_dir)          # 3 masters, 1 replica each, node timeout 1000 ms
    cluster.start()                          # processes up, `--cluster create`, every node says ok
    cluster.url                              # "redis+cluster://127.0.0.1:p1,127.0.0.1:p2,..."
    node = cluster.master_of_key("g:{abc}")  # ClusterNode(port, pid, node_id, ...)
    new = cluster.kill_master(node)          # kill -9, wait for a replica's promotion; the new master
    cluster.restart_node(node)               # back on its port and folder: it rejoins as a replica
    cluster.reshard(src, dst, 100)           # `redis-cli --cluster reshard`, waits until all agree
    cluster.flushall(); cluster.stop()

    tls = LocalCluster(tmp_dir, masters=3, replicas=0, tls=True)   # TLS only (clients, bus, replication)
    tls.start(); tls.url                     # "rediss+cluster://127.0.0.1:p1,...?ssl_ca_certs=<its CA>"
    tls.certs.ca, tls.certs.client_cert      # a throwaway CA (made with openssl) and a client certificate

Every server runs under :mod:`bot.storage.watchdog`, so it dies with the process that started it
(even after ``kill -9`` of pytest). Only ``redis-server`` and ``redis-cli`` (same package) are needed.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.storage.local_redis import WATCHDOG, answers_ping, redis_server_path, terminate
from bot.storage.watchdog import pid_alive

SLOTS = 16384
BUS_OFFSET = 10000  # the cluster bus listens on port + 10000, so a node's port must be <= 55535
OPENSSL = "openssl"


@dataclass(frozen=True)
class Certs:
    """A throwaway CA, a server certificate it signed (for 127.0.0.1 and localhost) and a client certificate."""

    ca: Path
    ca_key: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path

    @classmethod
    def make(cls, folder: str | Path, name: str = "fevga-test") -> Certs:
        """Generate them in ``folder`` with the ``openssl`` command (EC P-256 keys: made in milliseconds)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        certs = cls(*(folder / f for f in ("ca.crt", "ca.key", "server.crt", "server.key", "client.crt",
                                           "client.key")))
        key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        _openssl("req", "-x509", *key, "-keyout", certs.ca_key, "-out", certs.ca, "-days", "2",
                 "-subj", f"/CN={name} CA")
        for cert, key_file, cn, extra in (
            (certs.server_cert, certs.server_key, "localhost", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
            (certs.client_cert, certs.client_key, f"{name} client", "extendedKeyUsage=clientAuth"),
        ):
            request = folder / f"{cert.stem}.csr"
            _openssl("req", "-new", *key, "-keyout", key_file, "-out", request, "-subj", f"/CN={cn}")
            extensions = folder / f"{cert.stem}.ext"
            extensions.write_text(extra + "\n")
            _openssl("x509", "-req", "-in", request, "-CA", certs.ca, "-CAkey", certs.ca_key, "-CAcreateserial",
                     "-days", "2", "-out", cert, "-extfile", extensions)
        return certs


def _openssl(*args: str | Path) -> None:
    """Run one ``openssl`` command; raise with its output when it fails."""
    out = subprocess.run([OPENSSL, *map(str, args)], capture_output=True, text=True, timeout=30,
                         stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        raise RuntimeError(f"openssl {args[0]} failed:\n{out.stderr}")


def _bindable(port: int) -> bool:
    """True when 127.0.0.1:``port`` can be bound right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_cluster_port(taken: set[int] = frozenset()) -> int:  # type: ignore[assignment]
    """A free loopback port <= 55535 whose cluster bus port (+10000) is free too."""
    for _ in range(1000):
        port = random.randint(20000, 65535 - BUS_OFFSET)
        if port not in taken and port + BUS_OFFSET not in taken and _bindable(port) and _bindable(port + BUS_OFFSET):
            return port
    raise RuntimeError("no free port pair for a cluster node")


@dataclass
class ClusterNode:
    """One redis-server of the cluster: its port, folder, process and (once known) cluster node id."""

    port: int
    data_dir: Path
    node_id: str = ""
    pid: int | None = None
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    pipe: int | None = field(default=None, repr=False)

    @property
    def address(self) -> str:
        """``127.0.0.1:<port>``, as redis-cli and redis-py's startup nodes want it."""
        return f"127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        """True while the server process exists."""
        return self.pid is not None and pid_alive(self.pid)


class ClusterError(RuntimeError):
    """The cluster did not reach the awaited state in time (message says which)."""


class LocalCluster:
    """``masters`` masters with ``replicas`` replicas each, on free loopback ports, in ``base_dir``."""

    def __init__(self, base_dir: str | Path, masters: int = 3, replicas: int = 1,
                 node_timeout_ms: int = 1000, executable: str | None = None, *, tls: bool = False,
                 tls_auth_clients: str = "no") -> None:
        """With ``tls``, every node serves TLS only (``--port 0``; cluster bus and replication over TLS too)
        with certificates of a throwaway CA (:attr:`certs`); ``tls_auth_clients`` ("no", "optional", "yes")
        says whether clients must show a certificate of that CA."""
        self.base_dir = Path(base_dir).resolve()
        self.certs = Certs.make(self.base_dir / "tls") if tls else None
        self.tls_auth_clients = tls_auth_clients
        self.masters_count, self.replicas_count = masters, replicas
        self.node_timeout_ms = node_timeout_ms
        self.executable = executable or redis_server_path() or "redis-server"
        self.cli_path = str(Path(self.executable).with_name("redis-cli")) if "/" in self.executable else "redis-cli"
        self.nodes: list[ClusterNode] = []

    # ----------------------------------------------------------------------------------- lifecycle
    def start(self, timeout: float = 60.0) -> None:
        """Start every server, create the cluster and wait until all nodes report ``cluster_state:ok``."""
        total = self.masters_count * (1 + self.replicas_count)
        for _ in range(total):
            self._start_new_node()
        self.cli_cluster("create", *(n.address for n in self.nodes),
                         "--cluster-replicas", str(self.replicas_count), "--cluster-yes")
        self.wait_ok(timeout)

    def stop(self) -> None:
        """Stop every server (SIGTERM through its watchdog)."""
        for node in self.nodes:
            self._stop_node(node)

    def __enter__(self) -> LocalCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        """``redis+cluster://`` URL listing every live node (what ``REDIS_URL`` takes); for a TLS cluster
        ``rediss+cluster://...?ssl_ca_certs=<its CA>`` (and the client certificate when clients must show one)."""
        hosts = ",".join(n.address for n in self.nodes if n.alive)
        if self.certs is None:
            return "redis+cluster://" + hosts
        query = f"ssl_ca_certs={self.certs.ca}"
        if self.tls_auth_clients != "no":
            query += f"&ssl_certfile={self.certs.client_cert}&ssl_keyfile={self.certs.client_key}"
        return f"rediss+cluster://{hosts}/?{query}"

    @property
    def startup_nodes(self) -> list[tuple[str, int]]:
        """(host, port) of every live node."""
        return [("127.0.0.1", n.port) for n in self.nodes if n.alive]

    # -------------------------------------------------------------------------------- processes
    def _new_node(self) -> ClusterNode:
        """A node record on a fresh port and folder (not started)."""
        port = free_cluster_port({p for n in self.nodes for p in (n.port, n.port + BUS_OFFSET)})
        node = ClusterNode(port=port, data_dir=self.base_dir / f"node-{port}")
        node.data_dir.mkdir(parents=True, exist_ok=True)
        self.nodes.append(node)
        return node

    def _start_new_node(self, tries: int = 5) -> ClusterNode:
        """A node on a fresh port, started. A port free when picked may be taken before the server binds it (by
        another test worker): the server then exits, and the node is tried again on another port."""
        for attempt in range(tries):
            node = self._new_node()
            try:
                self._spawn(node)
                return node
            except ClusterError:
                self.nodes.remove(node)
                self._stop_node(node)
                if attempt == tries - 1:
                    raise
        raise AssertionError("unreachable")

    def _spawn(self, node: ClusterNode, timeout: float = 10.0) -> None:
        """Start ``node``'s redis-server under the watchdog and wait until it answers PING, checking that the
        server answering on the port is this one (its process id), not another worker's that took the port."""
        # TLS only: no plain port; clients, the cluster bus and replicas use TLS
        ports = ["--port", str(node.port)] if self.certs is None else ["--port", "0", "--tls-port", str(node.port)]
        args = [
            self.executable, "--bind", "127.0.0.1", *ports, "--dir", str(node.data_dir),
            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
            "--cluster-node-timeout", str(self.node_timeout_ms),
            "--cluster-replica-validity-factor", "0",  # a replica may always take over (tests kill freely)
            "--cluster-require-full-coverage", "no",  # other slots keep serving while one fails over
            "--appendonly", "no", "--save", "", "--protected-mode", "yes", "--enable-debug-command", "local",
            "--logfile", str(node.data_dir / "redis.log"),
        ]  # fmt: skip
        if self.certs is not None:
            args += ["--tls-cluster", "yes", "--tls-replication", "yes", "--tls-cert-file", str(self.certs.server_cert),
                     "--tls-key-file", str(self.certs.server_key), "--tls-ca-cert-file", str(self.certs.ca),
                     "--tls-auth-clients", self.tls_auth_clients]
        read_end, node.pipe = os.pipe()  # the watchdog's "0": never restart (the tests kill nodes on purpose)
        try:
            node.process = subprocess.Popen(
                [sys.executable, "-I", "-S", str(WATCHDOG), str(os.getpid()), str(read_end), "0", *args],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                pass_fds=(read_end,), start_new_session=True)
        finally:
            os.close(read_end)
        assert node.process.stdout is not None
        line = node.process.stdout.readline()
        node.pid = int(line) if line.strip().isdigit() else None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and node.alive:
            with contextlib.suppress(subprocess.SubprocessError, OSError):
                if self.cli(node, "PING", timeout=1.0) == "PONG" and self._answered_by(node):
                    node.node_id = self.cli(node, "CLUSTER", "MYID")
                    return
            time.sleep(0.05)
        raise ClusterError(f"redis-server on {node.port} did not start; see {node.data_dir / 'redis.log'}")

    def _answered_by(self, node: ClusterNode) -> bool:
        """True when the server answering on ``node``'s port is ``node``'s own process."""
        info = self.cli(node, "INFO", "server", timeout=1.0)
        return f"process_id:{node.pid}" in info.replace("\r", "").split("\n")

    def _stop_node(self, node: ClusterNode) -> None:
        """Stop one server gracefully and forget its process handles."""
        if node.pipe is not None:
            os.close(node.pipe)  # EOF: the watchdog stops the server
            node.pipe = None
        if node.process is not None:
            try:
                node.process.wait(10)
            except subprocess.TimeoutExpired:
                node.process.kill()
                node.process.wait()
            if node.process.stdout is not None:
                node.process.stdout.close()
            node.process = None
        if node.pid is not None and pid_alive(node.pid):
            terminate(node.pid)

    # ------------------------------------------------------------------------------------- redis-cli
    def cli(self, node: ClusterNode | int, *args: str, timeout: float = 30.0) -> str:
        """Run one command on ``node`` (or a port) with ``redis-cli``; its stripped output."""
        port = node.port if isinstance(node, ClusterNode) else node
        out = subprocess.run([self.cli_path, *self._cli_tls(), "-h", "127.0.0.1", "-p", str(port), *args],
                             capture_output=True, text=True, timeout=timeout, check=True)
        return out.stdout.strip()

    def _cli_tls(self) -> list[str]:
        """redis-cli's TLS options for a TLS cluster (its CA, and the client certificate), else none."""
        if self.certs is None:
            return []
        return ["--tls", "--cacert", str(self.certs.ca), "--cert", str(self.certs.client_cert),
                "--key", str(self.certs.client_key)]

    def cli_cluster(self, *args: str, timeout: float = 120.0) -> str:
        """Run ``redis-cli --cluster <args>``; raise with its output when it fails."""
        out = subprocess.run([self.cli_path, *self._cli_tls(), "--cluster", *args], capture_output=True, text=True,
                             timeout=timeout, stdin=subprocess.DEVNULL)
        if out.returncode != 0 or "[ERR]" in out.stdout:
            raise ClusterError(f"redis-cli --cluster {args[0]} failed:\n{out.stdout}\n{out.stderr}")
        return out.stdout

    def info(self, node: ClusterNode) -> dict[str, str]:
        """``CLUSTER INFO`` of ``node`` as a dict."""
        lines = self.cli(node, "CLUSTER", "INFO", timeout=2.0).splitlines()
        return dict(line.strip().split(":", 1) for line in lines if ":" in line)

    def slot_owners(self, node: ClusterNode | None = None) -> dict[int, str]:
        """Slot -> master node id, as ``node`` (default: any live node) sees it (``CLUSTER NODES``)."""
        source = node or self.live_nodes()[0]
        owners: dict[int, str] = {}
        for line in self.cli(source, "CLUSTER", "NODES", timeout=2.0).splitlines():
            parts = line.split()
            if len(parts) < 8 or "master" not in parts[2] or "fail" in parts[2]:
                continue
            for span in parts[8:]:
                if span.startswith("["):
                    continue  # a slot being migrated/imported
                lo, _, hi = span.partition("-")
                for slot in range(int(lo), int(hi or lo) + 1):
                    owners[slot] = parts[0]
        return owners

    # ------------------------------------------------------------------------------------- waiting
    def live_nodes(self) -> list[ClusterNode]:
        """Nodes whose process is running."""
        return [n for n in self.nodes if n.alive]

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Wait until every live node says ``cluster_state:ok``, knows every live node, all live nodes
        agree on who serves each of the 16384 slots (each served by a live master), and every live
        replica's link to its master is up."""
        deadline = time.monotonic() + timeout
        problem = "not checked"
        while time.monotonic() < deadline:
            problem = self._problem()
            if not problem:
                return
            time.sleep(0.1)
        raise ClusterError(f"cluster not ok after {timeout} s: {problem}")

    def _problem(self) -> str:
        """What keeps the cluster from being settled right now ('' when it is)."""
        live = self.live_nodes()
        live_ids = {n.node_id for n in live}
        views: list[dict[int, str]] = []
        try:
            for node in live:
                info = self.info(node)
                if info.get("cluster_state") != "ok":
                    return f"{node.address} state {info.get('cluster_state')}"
                if int(info.get("cluster_known_nodes", 0)) < len(live):
                    return f"{node.address} knows {info.get('cluster_known_nodes')} nodes"
                views.append(self.slot_owners(node))
                role = self.cli(node, "INFO", "replication", timeout=2.0)
                if "role:slave" in role and "master_link_status:up" not in role:
                    return f"replica {node.address} not in sync with its master"
        except (subprocess.SubprocessError, OSError, ValueError) as exc:
            return f"query failed: {exc}"
        first = views[0]
        if len(first) != SLOTS or not set(first.values()) <= live_ids:
            return "slots not all served by live masters"
        if any(view != first for view in views[1:]):
            return "nodes disagree on slot owners"
        return ""

    # ------------------------------------------------------------------------------------- topology
    def by_id(self, node_id: str) -> ClusterNode:
        """The node with cluster id ``node_id``."""
        return next(n for n in self.nodes if n.node_id == node_id)

    def keyslot(self, key: str) -> int:
        """The hash slot of ``key`` (``CLUSTER KEYSLOT``, so hash tags count exactly as Redis does)."""
        return int(self.cli(self.live_nodes()[0], "CLUSTER", "KEYSLOT", key))

    def master_of_slot(self, slot: int) -> ClusterNode:
        """The live master serving ``slot``."""
        return self.by_id(self.slot_owners()[slot])

    def master_of_key(self, key: str) -> ClusterNode:
        """The live master serving ``key``'s slot."""
        return self.master_of_slot(self.keyslot(key))

    def masters(self) -> list[ClusterNode]:
        """Live masters (as the first live node sees them)."""
        return [self.by_id(i) for i in sorted(set(self.slot_owners().values()))]

    def replicas_of(self, master: ClusterNode) -> list[ClusterNode]:
        """Live replicas of ``master`` (``CLUSTER REPLICAS``)."""
        lines = self.cli(self.live_nodes()[0], "CLUSTER", "REPLICAS", master.node_id).splitlines()
        ids = {line.split()[0] for line in lines if line.split() and "fail" not in line.split()[2]}
        return [n for n in self.nodes if n.node_id in ids and n.alive]

    # ------------------------------------------------------------------------------------- faults
    def kill_node(self, node: ClusterNode) -> None:
        """``kill -9`` one server (no flush, no goodbye)."""
        if node.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(node.pid, signal.SIGKILL)
            while pid_alive(node.pid):
                time.sleep(0.01)
        if node.pipe is not None:
            os.close(node.pipe)
            node.pipe = None
        if node.process is not None:
            node.process.wait(10)  # the watchdog follows its server
            if node.process.stdout is not None:
                node.process.stdout.close()
            node.process = None

    def kill_master(self, master: ClusterNode, timeout: float = 30.0) -> ClusterNode:
        """``kill -9`` ``master`` and wait until one of its replicas serves its slots; the new master."""
        slots = [s for s, owner in self.slot_owners().items() if owner == master.node_id]
        if not slots:
            raise ClusterError(f"{master.address} serves no slots")
        self.kill_node(master)
        self.wait_ok(timeout)
        return self.master_of_slot(slots[0])

    def restart_node(self, node: ClusterNode, timeout: float = 30.0) -> None:
        """Start a stopped/killed node again on its port and folder; it rejoins (a former master as a
        replica of its successor). Waits until the cluster is settled."""
        if node.alive:
            return
        self._spawn(node)
        self.wait_ok(timeout)

    def pause(self, node: ClusterNode, ms: int) -> None:
        """Make ``node`` unresponsive for ``ms`` (``DEBUG SLEEP`` in the background): e.g. a replica,
        so that ``WAIT`` times out."""
        subprocess.Popen([self.cli_path, *self._cli_tls(), "-h", "127.0.0.1", "-p", str(node.port), "DEBUG", "SLEEP",
                          str(ms / 1000)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and self._answers_ping(node):
            time.sleep(0.02)  # until the node is really asleep

    def _answers_ping(self, node: ClusterNode) -> bool:
        """True when ``node`` answers PING within 0.1 s (through redis-cli on a TLS cluster)."""
        if self.certs is None:
            return answers_ping(node.port, 0.1)
        try:
            return self.cli(node, "PING", timeout=0.5) == "PONG"
        except (subprocess.SubprocessError, OSError):
            return False

    # ------------------------------------------------------------------------------------- growth
    def add_master(self, timeout: float = 30.0) -> ClusterNode:
        """Start a new empty master and join it to the cluster (``--cluster add-node``)."""
        node = self._start_new_node()
        self.cli_cluster("add-node", node.address, self.masters()[0].address)
        self._wait_known(timeout)
        return node

    def _wait_known(self, timeout: float) -> None:
        """Wait until every live node knows every live node."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            live = self.live_nodes()
            if all(int(self.info(n).get("cluster_known_nodes", 0)) >= len(live) for n in live):
                return
            time.sleep(0.1)
        raise ClusterError("new node not known to all nodes in time")

    def reshard(self, source: ClusterNode, target: ClusterNode, slots: int, timeout: float = 120.0) -> None:
        """Move ``slots`` slots (with their keys) from ``source`` to ``target`` with
        ``redis-cli --cluster reshard``, then wait until every node agrees."""
        self.cli_cluster("reshard", source.address, "--cluster-from", source.node_id,
                         "--cluster-to", target.node_id, "--cluster-slots", str(slots),
                         "--cluster-yes", timeout=timeout)
        self.wait_ok(timeout)

    # ------------------------------------------------------------------------------------- data
    def flushall(self) -> None:
        """Empty every master (replicas follow)."""
        for master in self.masters():
            self.cli(master, "FLUSHALL")
