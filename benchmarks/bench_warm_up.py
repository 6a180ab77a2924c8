"""What ``renderers.warm_up`` (run by start-up in a worker thread) saves the first board: the first picture
with rare-script names (Ethiopic, CJK, Arabic: fallback fonts) in a fresh process, cold and after the warm-up.

Run: ``python benchmarks/bench_warm_up.py`` (each case in its own fresh process; prints ms). It is
already small, so ``--smoke`` runs the same two cases.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

NAMES = ("ዮሐንስ 張伟", "محمد")


def one(mode: str) -> None:
    """In this process: optionally warm up, then time the first and the second board."""
    from fevga import Position
    from renderers import BoardScene, render_board, warm_up

    if mode == "warm":
        start = time.perf_counter()
        warm_up()
        print(f"  warm_up itself: {1000 * (time.perf_counter() - start):.0f} ms (start-up runs it in a thread)")
    scene = BoardScene(Position.start(), turn=0, dice=(6, 5), names=NAMES)
    start = time.perf_counter()
    render_board(scene, 0)
    first = time.perf_counter() - start
    start = time.perf_counter()
    render_board(scene, 1)
    second = time.perf_counter() - start
    print(f"{mode:>4}: first board {1000 * first:.0f} ms, the next {1000 * second:.0f} ms")


def main() -> None:
    """Each mode in a fresh interpreter (the caches live per process)."""
    if len(sys.argv) > 1 and sys.argv[1] in ("cold", "warm"):
        one(sys.argv[1])
        return
    for mode in ("cold", "warm"):
        subprocess.run([sys.executable, __file__, mode], check=True)


if __name__ == "__main__":
    main()
