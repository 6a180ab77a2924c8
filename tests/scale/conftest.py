"""Shared by the scale tests: a fresh local Redis Cluster per test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.redis_cluster import LocalCluster


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[LocalCluster]:
    """A fresh 3+3 cluster for this test."""
    launched = LocalCluster(tmp_path / "cluster")
    await asyncio.to_thread(launched.start)
    try:
        yield launched
    finally:
        await asyncio.to_thread(launched.stop)
