"""Loads fevga's optional compiled core (fevga._core, built from fevga/_core.c by ``pip install``):
the move generators of Fevga, Portes and Plakoto and the network input encoder.

``core`` is the extension module when it is built and wanted, else None (the pure-Python path).
``FEVGA_PURE_PYTHON=1`` forces the pure-Python path; a missing build logs one warning.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .play import Play
from .position import Position
from .variants.plakoto import PlakotoSteps
from .variants.portes import PortesSteps
from .variants.position import TavliPosition
from .variants.tavli import TavliPlay

_built: ModuleType | None
try:  # an optional binary module: imported by name so a missing build is an ordinary ImportError
    _built = importlib.import_module("fevga._core")
except ImportError as exc:  # not built (no compiler at install time): the pure-Python path
    _built = None
    _BUILD_ERROR = str(exc)
else:
    _BUILD_ERROR = ""

log = logging.getLogger("fevga")

PURE_ENV = "FEVGA_PURE_PYTHON"


def _load() -> ModuleType | None:
    """Import and initialise the extension, or say (once, at import) why the slow path is in use."""
    if os.environ.get(PURE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        log.info("fevga: %s is set, using the pure-Python move generator", PURE_ENV)
        return None
    if _built is None:
        log.warning(
            "fevga: compiled core not available (%s); using the slower pure-Python move generator "
            "(install a C compiler and reinstall with pip to build it)",
            _BUILD_ERROR,
        )
        return None
    return compiled()


def compiled() -> ModuleType:
    """The initialised extension whatever ``FEVGA_PURE_PYTHON`` says (tests compare both paths).

    Raises ImportError, with the build's own reason, when the extension was not built.
    """
    if _built is None:
        raise ImportError(f"fevga._core is not built: {_BUILD_ERROR}")
    _built.init(Position, Play)
    _built.init_tavli(TavliPosition, TavliPlay, PortesSteps, PlakotoSteps)
    return _built


core: ModuleType | None = _load()


def enabled() -> bool:
    """True when the compiled core is in use."""
    return core is not None


@contextmanager
def pure_python() -> Iterator[None]:
    """Run the block on the pure-Python path (benchmarks and tests compare both paths)."""
    with _using(None):
        yield


@contextmanager
def compiled_path() -> Iterator[None]:
    """Run the block on the compiled path even when ``FEVGA_PURE_PYTHON`` is set; ImportError if not built."""
    with _using(compiled()):
        yield


@contextmanager
def _using(module: ModuleType | None) -> Iterator[None]:
    global core
    saved = core
    core = module
    try:
        yield
    finally:
        core = saved
