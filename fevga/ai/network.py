"""A small numpy network: inputs -> sigmoid hidden layer -> 3 sigmoid outputs, for the player on
roll: P(win), P(win with mars), P(lose to mars). Equity = expected points for the player on roll.
Optionally a second sigmoid hidden layer on the first, feeding the outputs beside it (``deepen``: it
starts with zero output weights, so a deepened network plays exactly as the one it grew from).

Weights live in an ``.npz`` file (arrays plus a JSON ``meta`` string); the trained one ships as
``fevga/ai/weights.npz`` and loads without network.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .encoding import FEVGA_ENCODINGS, N_INPUTS
from .stakes import MONEY

FloatArray = NDArray[np.float64]
WEIGHTS_PATH = Path(__file__).with_name("weights.npz")
V1_PATH = Path(__file__).with_name("weights-v1.npz")  # the first trained network, kept as the hard-v1 yardstick
V2_PATH = Path(__file__).with_name("weights-v2.npz")  # the second generation (hard until 2026-11-26): hard-v2


def sigmoid(x: FloatArray) -> FloatArray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -40.0, 40.0)))


def _sigmoid_in_place(z: NDArray[Any]) -> None:
    """The logistic function in place, as 1 / (1 + exp(-z)) in numpy's vectorized float32 exp:
    where exp(-z) overflows to inf the result is exactly 0, as it should be."""
    np.negative(z, out=z)
    with np.errstate(over="ignore"):
        np.exp(z, out=z)
    z += 1.0
    np.reciprocal(z, out=z)


def equity(outputs: FloatArray) -> FloatArray:
    """Expected points for the player on roll from (n, 3) outputs: win, win-mars, lose-mars (money play's
    :class:`~fevga.ai.stakes.Stakes`)."""
    return MONEY.equity(outputs)


def flip_outputs(outputs: FloatArray) -> FloatArray:
    """The same estimates from the other player's side: (1 - win, lose-mars, win-mars)."""
    return np.stack([1.0 - outputs[:, 0], outputs[:, 2], outputs[:, 1]], axis=1)


class WeightsError(ValueError):
    """A weights file that is missing arrays, corrupt, or made for another encoding."""


class Network:
    """Weights and the forward/backward passes (plain gradient steps on squared error)."""

    _f32: tuple[tuple[FloatArray, ...], tuple[NDArray[np.float32], ...]] | None = None
    w3: FloatArray | None = None  # the second hidden layer's weights (units, hidden), or None: one layer
    b3: FloatArray | None = None
    w4: FloatArray | None = None  # its output weights (3, units), beside w2's

    def __init__(self, hidden: int = 80, seed: int = 0, n_inputs: int = N_INPUTS) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.uniform(-0.1, 0.1, size=(hidden, n_inputs))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.uniform(-0.1, 0.1, size=(3, hidden))
        self.b2 = np.zeros(3)
        self.meta: dict[str, Any] = {}

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[0])

    @property
    def deep_layer(self) -> tuple[FloatArray, FloatArray, FloatArray] | None:
        """The second hidden layer's arrays (w3, b3, w4), or None when the network has one hidden layer."""
        if self.w3 is None or self.b3 is None or self.w4 is None:
            return None
        return self.w3, self.b3, self.w4

    @property
    def deep_units(self) -> int:
        """Units of the second hidden layer (0: the network has one hidden layer)."""
        return 0 if self.w3 is None else int(self.w3.shape[0])

    def arrays(self) -> tuple[FloatArray, ...]:
        """The weight arrays in a fixed order (4 for one hidden layer, 7 for two): what training sends,
        averages and saves."""
        base = (self.w1, self.b1, self.w2, self.b2)
        deep = self.deep_layer
        return base if deep is None else (*base, *deep)

    def set_arrays(self, arrays: tuple[FloatArray, ...] | list[FloatArray]) -> None:
        """Put arrays in the order of :meth:`arrays` (4 or 7) into the network, as float64."""
        if len(arrays) not in (4, 7):
            raise ValueError(f"a network has 4 or 7 weight arrays, not {len(arrays)}")
        own = [np.array(a, dtype=np.float64) for a in arrays]
        self.w1, self.b1, self.w2, self.b2 = own[:4]
        self.w3, self.b3, self.w4 = (own[4], own[5], own[6]) if len(own) == 7 else (None, None, None)

    @property
    def n_inputs(self) -> int:
        """The input count, which names the encoding (Fevga: 209 base or 221 v3; Portes, Plakoto)."""
        return int(self.w1.shape[1])

    def forward(self, x: NDArray[np.floating[Any]]) -> FloatArray:
        """Outputs (n, 3) for inputs (n, N_INPUTS), computed in float32: four to five times faster
        than float64 on a block of replies, and within 1e-6 of it (far below any equity margin)."""
        w1, b1, w2, b2, *deep = self._single()
        z = np.asarray(x, dtype=np.float32) @ w1
        z += b1
        _sigmoid_in_place(z)
        out = z @ w2
        out += b2
        if deep:
            w3, b3, w4 = deep
            g = z @ w3
            g += b3
            _sigmoid_in_place(g)
            out += g @ w4
        _sigmoid_in_place(out)
        return out.astype(np.float64)

    def _single(self) -> tuple[NDArray[np.float32], ...]:
        """float32 copies of the weights (matrices transposed for the forward pass), made again whenever
        the weights are replaced or stepped."""
        source = self.arrays()
        cached = self._f32
        if cached is None or len(cached[0]) != len(source) or any(
            a is not b for a, b in zip(cached[0], source, strict=True)
        ):
            copies = tuple(a.T if a.ndim == 2 else a for a in source)
            cached = (source, tuple(np.ascontiguousarray(a, dtype=np.float32) for a in copies))
            self._f32 = cached
        return cached[1]

    def train_batch(self, x: FloatArray, targets: FloatArray, lr: float) -> float:
        """One gradient step moving outputs for ``x`` toward ``targets`` (summed over rows);
        returns the mean squared error before the step."""
        h = sigmoid(x @ self.w1.T + self.b1)
        z = h @ self.w2.T + self.b2
        deep = self.deep_layer
        if deep is not None:
            w3, b3, w4 = deep
            g = sigmoid(h @ w3.T + b3)
            z += g @ w4.T
        y = sigmoid(z)
        err = targets - y
        self._f32 = None  # the steps below change the weights in place
        d_out = err * y * (1.0 - y)
        back = d_out @ self.w2
        if deep is not None:
            d_deep = (d_out @ w4) * g * (1.0 - g)
            back += d_deep @ w3
            w4 += lr * (d_out.T @ g)
            w3 += lr * (d_deep.T @ h)
            b3 += lr * d_deep.sum(axis=0)
        d_hid = back * h * (1.0 - h)
        self.w2 += lr * (d_out.T @ h)
        self.b2 += lr * d_out.sum(axis=0)
        self.w1 += lr * (d_hid.T @ x)
        self.b1 += lr * d_hid.sum(axis=0)
        return float((err * err).mean())

    # --- files -------------------------------------------------------------------------------
    def save(self, path: Path | str) -> None:
        """Write the weights and metadata to ``path`` (atomically, so a checkpoint is never half written)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        arrays: dict[str, Any] = dict(zip(("w1", "b1", "w2", "b2", "w3", "b3", "w4"), self.arrays(), strict=False))
        np.savez_compressed(tmp, **arrays, meta=np.array(json.dumps(self.meta)))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path | str = WEIGHTS_PATH, n_inputs: int | tuple[int, ...] = FEVGA_ENCODINGS) -> Network:
        """Read weights written by :meth:`save` (no pickles) for a network of ``n_inputs`` inputs (one
        count or the counts allowed: any Fevga encoding by default); :class:`WeightsError` says
        clearly what is wrong with a corrupt, truncated or foreign file (FileNotFoundError if it is
        missing)."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                net = cls.__new__(cls)
                net.w1 = data["w1"].astype(np.float64)
                net.b1 = data["b1"].astype(np.float64)
                net.w2 = data["w2"].astype(np.float64)
                net.b2 = data["b2"].astype(np.float64)
                deep = [name for name in ("w3", "b3", "w4") if name in data.files]
                if deep and len(deep) < 3:
                    raise WeightsError(f"{path}: a second hidden layer needs w3, b3 and w4 (has {', '.join(deep)})")
                net.w3, net.b3, net.w4 = (
                    (data["w3"].astype(np.float64), data["b3"].astype(np.float64), data["w4"].astype(np.float64))
                    if deep else (None, None, None)
                )
                net.meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        except (FileNotFoundError, WeightsError):
            raise
        except KeyError as exc:
            raise WeightsError(f"{path}: not a fevga weights file (missing array {exc})") from exc
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise WeightsError(f"{path}: corrupt or unreadable weights file ({exc})") from exc
        allowed = (n_inputs,) if isinstance(n_inputs, int) else n_inputs
        if net.w1.ndim != 2 or net.w1.shape[1] not in allowed:
            shape = net.w1.shape[1] if net.w1.ndim == 2 else net.w1.shape
            wanted = " or ".join(map(str, allowed))
            raise WeightsError(f"{path}: weights expect {shape} inputs, the encoding has {wanted}")
        hidden = net.w1.shape[0]
        if net.b1.shape != (hidden,) or net.w2.shape != (3, hidden) or net.b2.shape != (3,):
            raise WeightsError(f"{path}: inconsistent array shapes for a network of {hidden} hidden units")
        if (layer := net.deep_layer) is not None:
            w3, b3, w4 = layer
            units = w3.shape[0] if w3.ndim == 2 else -1
            if w3.shape != (units, hidden) or b3.shape != (units,) or w4.shape != (3, units):
                raise WeightsError(f"{path}: inconsistent array shapes for the second hidden layer")
        if not all(np.isfinite(a).all() for a in net.arrays()):
            raise WeightsError(f"{path}: weights contain NaN or infinity")
        return net


def extend_inputs(net: Network, n_inputs: int) -> Network:
    """A copy of ``net`` for a wider encoding whose first inputs are ``net``'s: the new inputs get
    zero weights, so the copy computes exactly the same outputs (training starts from the old player)."""
    if n_inputs < net.n_inputs:
        raise ValueError(f"cannot narrow a network of {net.n_inputs} inputs to {n_inputs}")
    wide = Network.__new__(Network)
    wide.set_arrays([np.hstack([net.w1, np.zeros((net.hidden, n_inputs - net.n_inputs))]), *net.arrays()[1:]])
    wide.meta = dict(net.meta)
    return wide


def deepen(net: Network, units: int, seed: int) -> Network:
    """A copy of ``net`` with a second hidden layer of ``units`` on its first, computing the same outputs:
    the new layer gets zero weights to the outputs, so training starts from the old player (the issue's "try
    a second hidden layer", without starting from nothing), and Glorot-uniform weights from the first layer
    (sigmoid's scale: 4 sqrt(6 / (fan in + fan out))). Smaller ones leave every new unit near 0.5 for every
    position, a second bias that the output weights cannot learn from (measured: they stayed ~0.005)."""
    if net.deep_units:
        raise ValueError(f"the network already has a second hidden layer ({net.deep_units} units)")
    if units < 1:
        raise ValueError("a second hidden layer needs at least one unit")
    rng = np.random.default_rng(seed)
    deep = Network.__new__(Network)
    limit = 4.0 * np.sqrt(6.0 / (net.hidden + units))
    deep.set_arrays([*net.arrays(), rng.uniform(-limit, limit, size=(units, net.hidden)), np.zeros(units),
                     np.zeros((3, units))])
    deep.meta = dict(net.meta)
    return deep


_DEFAULT: Network | None = None
_V1: Network | None = None
_V2: Network | None = None


def default_network() -> Network:
    """The shipped network, loaded once (FileNotFoundError if the package has no weights)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Network.load(WEIGHTS_PATH)
    return _DEFAULT


def v1_network() -> Network:
    """The first trained network (80 hidden units, 34,000 games), kept as the ``hard-v1`` yardstick."""
    global _V1
    if _V1 is None:
        _V1 = Network.load(V1_PATH, N_INPUTS)
    return _V1


def v2_network() -> Network:
    """The second trained network (160 hidden units, 300,000 games; ``hard`` until the v3 network replaced
    it), kept as the ``hard-v2`` yardstick so that each generation is measured against it."""
    global _V2
    if _V2 is None:
        _V2 = Network.load(V2_PATH, N_INPUTS)
    return _V2
