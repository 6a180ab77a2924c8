"""A stand-in bot process for the local redis-server tests: opens the store the way the bot does (in a
worker thread) on the data folder given, then writes keys ``k<n>`` and prints each acknowledged n."""

from __future__ import annotations

import sys
import threading
import time

import redis

from bot.storage import LocalRedis, open_store


def main(data_dir: str, first: int) -> None:
    """Open the store in a thread (as ``asyncio.to_thread`` does), then write until killed."""
    opened: list[LocalRedis | None] = []
    thread = threading.Thread(target=lambda: opened.append(open_store(None, data_dir)[1]))
    thread.start()
    thread.join()  # the thread that started redis-server is gone from here on
    server = opened[0]
    assert server is not None
    client = redis.Redis(port=server.port)
    print("ready", server.port, server.server_pid, flush=True)
    n = first
    while True:
        client.set(f"k{n}", n)
        print(n, flush=True)
        n += 1
        time.sleep(0.001)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
