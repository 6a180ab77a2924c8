"""Batches of commands on a Redis Cluster: one raw exchange per master (the commands in one write on one pooled
connection, as the single store reads), all in parallel, and read requests (see base.py) on top of that."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from redis.exceptions import AskError, ClusterDownError, MovedError

from .base import Read
from .cluster_nodes import Address, SlotMap
from .connections import exchange
from .read_ops import check_answer, decode_read, read_command, shaped, text

NO_KEY = "fevga:{none}"  # routes a placeholder command (an index lookup that found nothing)


async def per_master(nodes: SlotMap, keys: Sequence[str], commands: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Run ``commands[i]`` on the master of ``keys[i]``: one exchange per master, in parallel. Raw answers in
    order (shaped by the caller), errors as values; an ``ASK`` redirection is followed once (``ASKING`` first);
    ``MOVED`` teaches ``nodes`` the slot's new master and is raised, as are lost connections (the caller retries
    the batch: only idempotent commands come here)."""
    groups: dict[Address, list[int]] = {}
    for i, key in enumerate(keys):
        address = nodes.master_of(key)
        if address is None:
            raise ClusterDownError(f"no master known for the slot of {key!r}")
        groups.setdefault(address, []).append(i)
    out: list[Any] = [None] * len(keys)

    async def run(address: Address, indices: list[int], asking: bool = False) -> None:
        sent: list[tuple[Any, ...]] = []
        for i in indices:
            if asking:
                sent.append(("ASKING",))
            sent.append(commands[i])
        answers = await exchange(nodes.client(address).connection_pool, sent)  # the connection goes back
        for i, answer in zip(indices, answers[1::2] if asking else answers, strict=True):
            out[i] = answer

    await asyncio.gather(*(run(a, ix) for a, ix in groups.items()))
    asked: dict[Address, list[int]] = {}
    for i, answer in enumerate(out):
        if isinstance(answer, MovedError):
            nodes.learn(answer.slot_id, (answer.host, int(answer.port)))
            raise answer
        if isinstance(answer, AskError):
            asked.setdefault((answer.host, int(answer.port)), []).append(i)
    await asyncio.gather(*(run(a, ix, asking=True) for a, ix in asked.items()))
    return out


async def read_once(nodes: SlotMap, requests: Sequence[Read]) -> list[Any]:
    """One attempt at a batch of reads; ``("via_get", key or None, value)`` is the second half of an index
    lookup (see ClusterStore.read)."""

    def command_of(req: Read) -> tuple[Any, ...]:
        kind, key = req[0], req[1]
        command = read_command(req)
        if command is not None:
            return command
        if kind == "via_get":
            return ("GET", key) if key is not None else ("EXISTS", NO_KEY)
        if kind == "via_lua":  # (kind, index key, field, prefix, suffix, sha): [id, GET(prefix + id + suffix)]
            return ("EVALSHA", req[5], 1, key, req[2], req[3], req[4])
        if kind == "type":
            return ("TYPE", key)
        raise ValueError(f"unknown read {kind!r}")

    commands = [command_of(req) for req in requests]  # an unknown kind fails before anything is sent
    raw = await per_master(nodes, [r[1] if r[1] is not None else NO_KEY for r in requests], commands)
    out: list[Any] = []
    for req, value in zip(requests, raw, strict=True):
        check_answer(req, value)
        if req[0] == "via_get":
            out.append([None if req[2] is None else text(req[2]), value if req[1] is not None else None])
        else:
            out.append(decode_read(req[0], shaped(req[0], value)))
    return out
