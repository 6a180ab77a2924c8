"""The rules corpus of ``python -m fevga plays``: about 3,000 requests, their answers pinned by digest.

The requests (tests/engine/corpus/plays.jsonl.gz) mix positions of seeded random self-play,
arbitrary placements (crowded home boards, bear-offs, blocks), both unlock points, the strict
variant, passes and a few invalid lines. ``python -m tests.engine.plays_corpus`` writes the file again
(it is stored so that a change in the game code cannot shift the corpus under the pinned digest).
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

CORPUS = Path(__file__).parent / "corpus" / "plays.jsonl.gz"
ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]
BAD_LINES = [
    "not json",
    "[1, 2]",
    '{"me": [15], "opp": [15], "dice": [1, 2]}',
    '{"me": [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "dice": [1, 2]}',
]


def read_corpus() -> bytes:
    """The corpus requests, one JSON line each, as bytes (what the CLI reads on stdin)."""
    return gzip.decompress(CORPUS.read_bytes())


def make_lines(seed: int = 2951, count: int = 2951) -> list[str]:
    """``count`` request lines: 3 in 5 from self-play, the rest arbitrary placements, rules mixed."""
    from tests.engine.positions import random_game_position, random_placement

    rng = random.Random(seed)
    lines: list[str] = []
    for k in range(count - len(BAD_LINES)):
        position = random_game_position(rng) if k % 5 < 3 else random_placement(rng)
        request: dict[str, object] = {
            "me": position.me,
            "opp": position.opp,
            "me_off": position.me_off,
            "opp_off": position.opp_off,
            "dice": list(rng.choice(ROLLS)),
        }
        if k % 4 == 1:
            request["unlock_point"] = 14
        if k % 7 == 2:
            request["strict_start_quarter"] = True
        lines.append(json.dumps(request, separators=(",", ":")))
    for n, bad in enumerate(BAD_LINES):
        lines.insert(1 + n * (len(lines) // len(BAD_LINES)), bad)
    return lines


def main() -> None:
    """Write the corpus file again from its seed."""
    data = ("\n".join(make_lines()) + "\n").encode()
    CORPUS.write_bytes(gzip.compress(data, mtime=0))
    lines = data.count(b"\n")
    print(f"{CORPUS}: {lines} lines, {len(data)} bytes")


if __name__ == "__main__":
    main()
