"""Training the network on self-play positions (:mod:`.selfplay`), with JAX.

JAX is the optional extra ``train`` (``pip install 'stairgames[train]'``; CPU wheels
from PyPI, ``jax[cuda12]`` runs the same code on a GPU); it is imported only here, and
only when training runs: play reads the weights with numpy or numba. The loss is the
cross-entropy of the network's chance that the colour to move wins against the labels,
plus a small L2 penalty on the weights; Adam (written out below) takes the steps, on
mini-batches drawn from a generator seeded by ``seed``, each batch seen through one of
the 8 symmetries of the square (:func:`.net.symmetric`).
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from stairgames.core.errors import InvalidOptionError
from stairgames.games.stairs.research.learn import net
from stairgames.games.stairs.research.learn.kernel import Weights
from stairgames.i18n import N_


@dataclasses.dataclass(frozen=True)
class Training:
    """How the network is trained."""

    epochs: int = 10
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    """The L2 penalty's weight (on ``w1``, ``w2``, ``w3``)."""


@dataclasses.dataclass(frozen=True)
class Epoch:
    """What one epoch reached: the mean loss of its batches (penalty aside), and the
    loss and the share of winners named rightly (output above or below one half) on
    held-out positions (``None`` without any)."""

    number: int
    loss: float
    held_out_loss: float | None
    held_out_right: float | None


def require_jax() -> Any:
    """The ``jax`` module.

    :raises InvalidOptionError: JAX is not installed (saying how to install it)."""
    try:
        return importlib.import_module("jax")
    except ImportError:
        raise InvalidOptionError(
            message_id=N_(
                "training needs JAX: pip install 'stairgames[train]' (jax[cuda12] on a GPU)"
            )
        ) from None


def logits(jax: Any, p: Any, x: Any) -> Any:
    """The network's log-odds for the inputs ``x`` in JAX (``p``: the six weights)."""
    w1, b1, w2, b2, w3, b3 = p
    h1 = jax.nn.relu(x @ w1 + b1)
    h2 = jax.nn.relu(h1 @ w2 + b2)
    return h2 @ w3 + b3[0]


def forward(weights: Weights, inputs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """:func:`.net.forward` in JAX (for checks: the three forward passes agree)."""
    jax = require_jax()
    z = logits(jax, [jax.numpy.asarray(a) for a in weights], jax.numpy.asarray(inputs))
    return np.asarray(jax.nn.sigmoid(z), dtype=np.float32)


def train(
    inputs: npt.NDArray[np.float32],
    labels: npt.NDArray[np.float32],
    *,
    seed: int,
    settings: Training = Training(),
    held_out: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] | None = None,
    start: Weights | None = None,
    on_epoch: Callable[[Epoch], None] | None = None,
) -> tuple[Weights, list[Epoch]]:
    """Weights trained on ``inputs`` and ``labels`` (from ``start``, or fresh weights drawn
    from ``seed``), and what each epoch reached."""
    jax = require_jax()
    jnp = jax.numpy
    rng = np.random.default_rng(seed)
    params = [jnp.asarray(a) for a in (start if start is not None else net.initial(rng))]

    def logits_of(p: list[Any], x: Any) -> Any:
        return logits(jax, p, x)

    def data_loss(p: list[Any], x: Any, y: Any) -> Any:
        z = logits_of(p, x)
        # cross-entropy of sigmoid(z) against y, written to stay finite
        return jnp.mean(jnp.maximum(z, 0.0) - z * y + jnp.log1p(jnp.exp(-jnp.abs(z))))

    def loss(p: list[Any], x: Any, y: Any) -> tuple[Any, Any]:
        fitted = data_loss(p, x, y)
        penalty = sum(jnp.sum(w * w) for w in (p[0], p[2], p[4]))
        return fitted + settings.weight_decay * penalty, fitted

    b1_, b2_, eps = 0.9, 0.999, 1e-8

    def update(p: list[Any], m: list[Any], v: list[Any], t: Any, x: Any, y: Any) -> Any:
        (_, fitted), grads = jax.value_and_grad(loss, has_aux=True)(p, x, y)
        m = [b1_ * mi + (1 - b1_) * g for mi, g in zip(m, grads, strict=True)]
        v = [b2_ * vi + (1 - b2_) * g * g for vi, g in zip(v, grads, strict=True)]
        scale = settings.learning_rate * jnp.sqrt(1 - b2_**t) / (1 - b1_**t)
        p = [pi - scale * mi / (jnp.sqrt(vi) + eps) for pi, mi, vi in zip(p, m, v, strict=True)]
        return p, m, v, fitted

    step = jax.jit(update)
    evaluate = jax.jit(data_loss)
    predict = jax.jit(logits_of)
    m = [jnp.zeros_like(a) for a in params]
    v = [jnp.zeros_like(a) for a in params]
    t = 0
    history: list[Epoch] = []
    count = len(labels)
    batch = min(settings.batch, count)
    for number in range(1, settings.epochs + 1):
        order = rng.permutation(count)
        losses = []
        for first in range(0, count - batch + 1, batch):
            chosen = order[first : first + batch]
            x = net.symmetric(inputs[chosen], int(rng.integers(8)))
            t += 1
            params, m, v, fitted = step(
                params, m, v, jnp.float32(t), jnp.asarray(x), jnp.asarray(labels[chosen])
            )
            losses.append(float(fitted))
        held_loss = held_right = None
        if held_out is not None and len(held_out[1]):
            x, y = jnp.asarray(held_out[0]), jnp.asarray(held_out[1])
            held_loss = float(evaluate(params, x, y))
            named = np.asarray(predict(params, x)) > 0.0
            decided = held_out[1] != 0.5
            held_right = float(np.mean(named[decided] == (held_out[1][decided] > 0.5)))
        epoch = Epoch(number, float(np.mean(losses)), held_loss, held_right)
        history.append(epoch)
        if on_epoch is not None:
            on_epoch(epoch)
    return net.as_weights([np.asarray(a) for a in params]), history


def mean_loss(
    weights: Weights, inputs: npt.NDArray[np.float32], labels: npt.NDArray[np.float32]
) -> float:
    """The cross-entropy of ``weights`` on the positions (numpy: for checks)."""
    p = np.clip(net.forward(weights, inputs).astype(np.float64), 1e-7, 1 - 1e-7)
    return float(np.mean(-(labels * np.log(p) + (1 - labels) * np.log(1 - p))))
