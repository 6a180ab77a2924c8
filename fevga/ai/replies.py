"""The search's inner layer: for each position, the expected best 0-ply equity of the player on roll
over the 21 rolls. With the compiled core, every reply of a Fevga, Portes or Plakoto position goes
from the move walk straight to network inputs (no Play or Position objects, which cost more than
judging them)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from fevga import Position, Rules, accel, legal_plays
from fevga.variants import TavliPosition

from .encoding import N_INPUTS_V3
from .evaluate import CHUNK, input_equities, result_equities, tavli_input_equities
from .games import kind
from .network import Network
from .stakes import MONEY, Stakes

ROLLS: list[tuple[tuple[int, int], float]] = [
    ((a, b), (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7)
]
ROLL_WEIGHTS = np.array([w for _, w in ROLLS])
FIRST_FLOATS = 1 << 21  # 8 MB: the inputs of ~10^4 replies, a 2-ply search's inner layer for one play
KEEP_FLOATS = 1 << 24  # 64 MB
_SCRATCH = threading.local()  # each thread its own buffer: the rows are read before the next call


def roll_values(
    net: Network, positions: Sequence[Position], rules: Rules, stakes: Stakes = MONEY
) -> tuple[list[float], int]:
    """For each position: the expected best 0-ply equity of the player on roll over the 21 rolls
    (``stakes``: what the game's ends are worth to him); and how many replies were judged."""
    if not positions:
        return [], 0
    core = accel.core
    if core is not None and isinstance(positions[0], TavliPosition):
        width = kind(positions[0].game).n_inputs
        x, (ends, sizes) = scratch_rows(lambda out: core.tavli_reply_inputs(positions, out), width)
        points = np.frombuffer(ends, dtype=np.float64)
        blocks = range(0, len(x), CHUNK)
        parts = [tavli_input_equities(net, x[i : i + CHUNK], points[i : i + CHUNK], stakes) for i in blocks]
        eq = np.concatenate(parts)
        return best_per_roll(eq, np.frombuffer(sizes, dtype=np.int32), len(positions)), len(x)
    if core is None or any(type(p) is not Position for p in positions):
        results: list[Position] = []
        owners: list[int] = []
        for group, position in enumerate(positions):
            collect_replies(position, rules, group, results, owners)
        return group_values(net, results, owners, len(positions), stakes), len(results)
    extended = net.n_inputs == N_INPUTS_V3
    args = (positions, rules.unlock_point, rules.strict_start_quarter, extended)
    x, (sizes,) = scratch_rows(lambda out: core.reply_inputs(*args, out), net.n_inputs)
    eq = np.concatenate([input_equities(net, x[i : i + CHUNK], stakes) for i in range(0, len(x), CHUNK)])
    return best_per_roll(eq, np.frombuffer(sizes, dtype=np.int32), len(positions)), len(x)


def scratch_rows(
    call: Callable[[NDArray[np.float32]], tuple[Any, ...]], width: int
) -> tuple[NDArray[np.float32], tuple[bytes, ...]]:
    """Rows of ``width`` inputs that ``call`` writes into this thread's scratch buffer (it answers
    their count first, then the rest of its answer), and the rest. A buffer kept from call to call
    is written in place: fresh pages and a copy cost the compiled layer about 40 % of its time.
    When the rows do not fit, the buffer grows and ``call`` runs again."""
    out = scratch(0)
    count, *rest = call(out)
    if count * width > len(out):
        out = scratch(count * width)
        count, *rest = call(out)
    return out[: count * width].reshape(count, width), tuple(rest)


def scratch(need: int) -> NDArray[np.float32]:
    """This thread's float32 scratch buffer, holding at least ``need`` values. It grows by doubling;
    one bigger than KEEP_FLOATS is used once and not kept."""
    buf: NDArray[np.float32] | None = getattr(_SCRATCH, "buf", None)
    if buf is not None and len(buf) >= need:
        return buf
    buf = np.empty(max(need, 2 * len(buf) if buf is not None else FIRST_FLOATS), dtype=np.float32)
    if len(buf) <= KEEP_FLOATS:
        _SCRATCH.buf = buf
    return buf


def best_per_roll(eq: NDArray[np.float64], counts: NDArray[np.int32], groups: int) -> list[float]:
    """For each group of replies (``counts[g * 21 + r]`` rows per group and roll, in order, never 0:
    a pass is one): the expected best equity over the 21 rolls."""
    starts = np.concatenate(([0], np.cumsum(counts[:-1])))
    table = np.maximum.reduceat(eq, starts).reshape(groups, len(ROLLS))
    return [float(v) for v in table @ ROLL_WEIGHTS]


def collect_replies(position: Position, rules: Rules, group: int, results: list[Position], owners: list[int]) -> None:
    """Append the results of every legal play of ``position`` for each of the 21 rolls, and their
    owner ``group * 21 + roll``, to ``results`` and ``owners``."""
    base = group * len(ROLLS)
    for r, (dice, _) in enumerate(ROLLS):
        found = [play.result for play in legal_plays(position, dice, rules)]
        results.extend(found)
        owners.extend([base + r] * len(found))


def group_values(
    net: Network, results: list[Position], owners: list[int], groups: int, stakes: Stakes = MONEY
) -> list[float]:
    """For each group of replies: the expected best 0-ply equity of the player on roll over the 21 rolls."""
    eq = result_equities(net, results, stakes)
    best = np.full(groups * len(ROLLS), -9.0)
    np.maximum.at(best, np.asarray(owners, dtype=np.intp), eq)
    table = best.reshape(groups, len(ROLLS))
    return [float(table[g] @ ROLL_WEIGHTS) for g in range(groups)]
