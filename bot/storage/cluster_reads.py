"""Batches of commands on a Redis Cluster: one non-transactional pipeline per master, all in parallel, and
read requests (see base.py) on top of that."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from redis.exceptions import AskError, ClusterDownError, MovedError

from .base import Read
from .cluster_nodes import Address, SlotMap
from .read_ops import check_answer, decode_read, read_command, shaped, text

NO_KEY = "fevga:{none}"  # routes a placeholder command (an index lookup that found nothing)


async def per_master(nodes: SlotMap, keys: Sequence[str], queue: Callable[[Any, int], None]) -> list[Any]:
    """Run command ``i`` (queued on a pipeline by ``queue(pipe, i)``) on the master of ``keys[i]``: one
    pipeline per master, in parallel. Answers in order, errors as values; an ``ASK`` redirection is followed
    once (``ASKING`` first); ``MOVED`` teaches ``nodes`` the slot's new master and is raised, as are lost
    connections (the caller retries the batch: only idempotent commands come here)."""
    groups: dict[Address, list[int]] = {}
    for i, key in enumerate(keys):
        address = nodes.master_of(key)
        if address is None:
            raise ClusterDownError(f"no master known for the slot of {key!r}")
        groups.setdefault(address, []).append(i)
    out: list[Any] = [None] * len(keys)

    async def run(address: Address, indices: list[int], asking: bool = False) -> None:
        async with nodes.client(address).pipeline(transaction=False) as pipe:  # the connection goes back
            for i in indices:
                if asking:
                    pipe.execute_command("ASKING")
                queue(pipe, i)
            answers = await pipe.execute(raise_on_error=False)
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

    def queue(pipe: Any, i: int) -> None:
        req = requests[i]
        kind, key = req[0], req[1]
        command = read_command(req)
        if command is not None:
            pipe.execute_command(*command)
        elif kind == "via_get":
            pipe.get(key) if key is not None else pipe.exists(NO_KEY)
        elif kind == "via_lua":  # (kind, index key, field, prefix, suffix, sha): [id, GET(prefix + id + suffix)]
            pipe.execute_command("EVALSHA", req[5], 1, key, req[2], req[3], req[4])
        elif kind == "type":
            pipe.type(key)
        else:
            raise ValueError(f"unknown read {kind!r}")

    raw = await per_master(nodes, [r[1] if r[1] is not None else NO_KEY for r in requests], queue)
    out: list[Any] = []
    for req, value in zip(requests, raw, strict=True):
        check_answer(req, value)
        if req[0] == "via_get":
            out.append([None if req[2] is None else text(req[2]), value if req[1] is not None else None])
        else:
            out.append(decode_read(req[0], shaped(req[0], value)))
    return out
