"""hard-v2: the second trained network (weights-v2.npz) kept as a named player, searched as ``hard``
is, so that the next ``hard`` is measured against it; its file is checked like every weights file."""

from __future__ import annotations

import importlib.resources
import shutil

import pytest

import fevga.ai.network as network
from fevga import DEFAULT_RULES, legal_plays
from fevga.ai import NAMES, get_player
from fevga.ai.network import V2_PATH, Network, WeightsError, v2_network
from fevga.ai.search import NeuralPlayer


def test_hard_v2_is_the_second_network_searched_as_hard(sample_positions):
    v2, hard = get_player("hard-v2"), get_player("hard")
    assert "hard-v2" in NAMES and importlib.resources.files("fevga.ai").joinpath("weights-v2.npz").is_file()
    assert isinstance(v2, NeuralPlayer) and isinstance(hard, NeuralPlayer)
    assert v2.name == "hard-v2" and v2.net is v2_network()
    assert v2.net.hidden == 160 and v2.net.meta["games"] == 300_000  # the network of issue 16's run
    assert V2_PATH.stat().st_size < 2_000_000
    search = ("ply", "keep1", "margin", "keep2", "max_work", "max_work2", "widen")
    assert [getattr(v2, k) for k in search] == [getattr(hard, k) for k in search]
    for position, dice in sample_positions[:4]:
        assert v2.choose(position, dice, DEFAULT_RULES) in legal_plays(position, dice)


def test_a_corrupt_v2_file_gives_an_error_naming_it(tmp_path, monkeypatch):
    broken = tmp_path / "weights-v2.npz"
    shutil.copy(V2_PATH, broken)
    broken.write_bytes(broken.read_bytes()[: broken.stat().st_size // 2])  # cut in half
    with pytest.raises(WeightsError, match=r"weights-v2\.npz: corrupt or unreadable"):
        Network.load(broken)
    # the player loads through the same check: a broken shipped file is named, never played
    monkeypatch.setattr(network, "V2_PATH", broken)
    monkeypatch.setattr(network, "_V2", None)
    with pytest.raises(WeightsError, match=r"weights-v2\.npz"):
        network.v2_network()
