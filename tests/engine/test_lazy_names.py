"""fevga's public names load on first use: the stub type checkers read (fevga/__init__.pyi) names the
same objects as the package, and ``python -m fevga plays`` starts without the modules it does not use."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import fevga

STUB = Path(fevga.__file__).with_suffix(".pyi")


def stub_names() -> dict[str, str]:
    """Public name -> its module, as the stub imports them."""
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    return {
        alias.name: node.module or ""
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_stub_and_the_package_name_the_same_things() -> None:
    names = stub_names()
    assert names == fevga._HOMES
    assert sorted(fevga.__all__) == sorted(names)
    for name, module in names.items():
        assert getattr(fevga, name) is getattr(importlib.import_module(f"fevga.{module}"), name)
    assert set(fevga.__all__) <= set(dir(fevga))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        fevga.Nope  # noqa: B018
    with pytest.raises(ImportError):
        exec("from fevga import Nope", {})


def test_the_plays_command_starts_without_what_it_does_not_use() -> None:
    code = "import sys, fevga.cli; print(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                timeout=60).stdout.split())
    assert "fevga.jsonlines" in loaded and "fevga.batch" in loaded
    assert not loaded & {"numpy", "fevga.ai", "fevga.game", "fevga.board", "fevga.notation", "logging"}
