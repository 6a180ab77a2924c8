"""The ladder plays two levels once when they are the same player (equal search and equal weights), and
apart when a new network has shipped: hard and hard-v2 differ now, hard and hard itself do not."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from fevga.ai import get_player

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_ladder.py"


def ladder_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_ladder", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_twins_are_the_same_search_with_the_same_weights() -> None:
    ladder = ladder_script()
    hard, again = get_player("hard"), get_player("hard")
    assert ladder.plays_alike(hard, again)
    assert not ladder.plays_alike(hard, get_player("hard-v2"))  # the v3 network against the v2 one
    assert not ladder.plays_alike(hard, get_player("expert"))  # the same network, a deeper search
    assert not ladder.plays_alike(hard, get_player("heuristic"))
    assert ladder.twins_of(("random", "hard-v2", "hard"), "fevga") == {}
    assert ladder.twins_of(("random", "neural", "hard"), "fevga") == {"neural": "hard"}  # neural is hard
