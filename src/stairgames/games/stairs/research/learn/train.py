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
from stairgames.games.stairs.research.endgame_kernel import IMAGES
from stairgames.games.stairs.research.learn import net
from stairgames.games.stairs.research.learn.kernel import SQUARES, PolicyWeights, Weights
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


def adam_step(jax: Any, loss: Callable[..., Any], learning_rate: float) -> Any:
    """One step of Adam (written out) on ``loss(params, *batch) -> (penalised, fitted)``,
    compiled: ``step(params, m, v, t, *batch) -> (params, m, v, fitted)``, ``t`` counting
    the steps from 1."""
    jnp = jax.numpy
    b1_, b2_, eps = 0.9, 0.999, 1e-8

    def update(p: list[Any], m: list[Any], v: list[Any], t: Any, *batch: Any) -> Any:
        (_, fitted), grads = jax.value_and_grad(loss, has_aux=True)(p, *batch)
        m = [b1_ * mi + (1 - b1_) * g for mi, g in zip(m, grads, strict=True)]
        v = [b2_ * vi + (1 - b2_) * g * g for vi, g in zip(v, grads, strict=True)]
        scale = learning_rate * jnp.sqrt(1 - b2_**t) / (1 - b1_**t)
        p = [pi - scale * mi / (jnp.sqrt(vi) + eps) for pi, mi, vi in zip(p, m, v, strict=True)]
        return p, m, v, fitted

    return jax.jit(update)


def fit(
    jax: Any,
    step: Any,
    params: list[Any],
    rng: np.random.Generator,
    count: int,
    settings: Training,
    batch_of: Callable[[npt.NDArray[np.int64]], tuple[Any, ...]],
    epoch_done: Callable[[int, float, list[Any]], None],
) -> list[Any]:
    """``settings.epochs`` passes of :func:`adam_step`'s ``step`` over ``count`` examples in
    an order drawn from ``rng`` each epoch, ``batch_of(rows)`` making each batch; after
    each, ``epoch_done(number, mean fitted loss, params)``. The trained parameters."""
    jnp = jax.numpy
    m = [jnp.zeros_like(a) for a in params]
    v = [jnp.zeros_like(a) for a in params]
    t = 0
    batch = min(settings.batch, count)
    for number in range(1, settings.epochs + 1):
        order = rng.permutation(count)
        losses = []
        for first in range(0, count - batch + 1, batch):
            t += 1
            params, m, v, fitted = step(
                params, m, v, jnp.float32(t), *batch_of(order[first : first + batch])
            )
            losses.append(float(fitted))
        epoch_done(number, float(np.mean(losses)), params)
    return params


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

    step = adam_step(jax, loss, settings.learning_rate)
    evaluate = jax.jit(data_loss)
    predict = jax.jit(logits_of)
    history: list[Epoch] = []

    def batch_of(chosen: npt.NDArray[np.int64]) -> tuple[Any, ...]:
        x = net.symmetric(inputs[chosen], int(rng.integers(8)))
        return jnp.asarray(x), jnp.asarray(labels[chosen])

    def epoch_done(number: int, mean_loss: float, params: list[Any]) -> None:
        held_loss = held_right = None
        if held_out is not None and len(held_out[1]):
            x, y = jnp.asarray(held_out[0]), jnp.asarray(held_out[1])
            held_loss = float(evaluate(params, x, y))
            named = np.asarray(predict(params, x)) > 0.0
            decided = held_out[1] != 0.5
            held_right = float(np.mean(named[decided] == (held_out[1][decided] > 0.5)))
        history.append(Epoch(number, mean_loss, held_loss, held_right))
        if on_epoch is not None:
            on_epoch(history[-1])

    params = fit(jax, step, params, rng, len(labels), settings, batch_of, epoch_done)
    return net.as_weights([np.asarray(a) for a in params]), history


def mean_loss(
    weights: Weights, inputs: npt.NDArray[np.float32], labels: npt.NDArray[np.float32]
) -> float:
    """The cross-entropy of ``weights`` on the positions (numpy: for checks)."""
    p = np.clip(net.forward(weights, inputs).astype(np.float64), 1e-7, 1 - 1e-7)
    return float(np.mean(-(labels * np.log(p) + (1 - labels) * np.log(1 - p))))


@dataclasses.dataclass(frozen=True)
class PolicyEpoch:
    """What one epoch of the policy head reached: the mean cross-entropy of its batches,
    and on held-out positions the cross-entropy and the share whose most visited move
    the policy rates highest (``None`` without any)."""

    number: int
    loss: float
    held_out_loss: float | None
    held_out_top: float | None


PolicyTargets = tuple[npt.NDArray[np.float32], npt.NDArray[np.int16], npt.NDArray[np.float32]]
"""Positions with a policy target: inputs, target moves (-1 padded) and their shares
(:class:`.selfplay.Positions`)."""


def symmetric_moves(moves: npt.NDArray[np.int16], symmetry: int) -> npt.NDArray[np.int32]:
    """Kernel moves (``source * 64 + target``, -1 for none) seen through ``symmetry``
    (0-7) of the square, as :func:`.net.symmetric` moves the inputs' squares."""
    images = IMAGES[6, symmetry, :SQUARES]
    found = moves.astype(np.int32)
    real = found >= 0
    safe = np.where(real, found, 0)
    moved = images[safe >> 6] * 64 + images[safe & 63]
    return np.where(real, moved, -1).astype(np.int32)


def policy_cross_entropy(jax: Any, trunk: Any, policy: Any, x: Any, moves: Any, shares: Any) -> Any:
    """The mean cross-entropy of the policy head (``policy``: ``wp, bp``) reading the
    inputs ``x`` and the hidden layers of ``trunk`` (the value network) against the
    target shares of ``moves``, a softmax over each position's moves (-1: none)."""
    jnp = jax.numpy
    w1, b1, w2, b2, _, _ = trunk
    h1 = jax.nn.relu(x @ w1 + b1)
    h2 = jax.nn.relu(h1 @ w2 + b2)
    logits = jnp.concatenate([x, h1, h2], axis=1) @ policy[0] + policy[1]
    real = moves >= 0
    safe = jnp.where(real, moves, 0)
    z = jnp.take_along_axis(logits, safe >> 6, axis=1) + jnp.take_along_axis(
        logits, SQUARES + (safe & 63), axis=1
    )
    z = jnp.where(real, z, -1e9)
    log_p = z - jax.scipy.special.logsumexp(z, axis=1, keepdims=True)
    return -jnp.mean(jnp.sum(jnp.where(real, shares * log_p, 0.0), axis=1)), z


def train_policy(
    trunk: Weights,
    targets: PolicyTargets,
    *,
    seed: int,
    settings: Training = Training(),
    held_out: PolicyTargets | None = None,
    on_epoch: Callable[[PolicyEpoch], None] | None = None,
) -> tuple[PolicyWeights, list[PolicyEpoch]]:
    """A policy head trained on ``targets`` over the inputs and the frozen hidden layers
    of ``trunk`` (fresh weights drawn from ``seed``; Adam, each batch through one of the
    8 symmetries), and what each epoch reached."""
    jax = require_jax()
    jnp = jax.numpy
    rng = np.random.default_rng(seed)
    frozen = [jnp.asarray(a) for a in trunk]
    params = [jnp.asarray(a) for a in net.initial_policy(rng)]
    inputs, moves, shares = targets

    def loss(p: list[Any], x: Any, m: Any, y: Any) -> Any:
        fitted, _ = policy_cross_entropy(jax, frozen, p, x, m, y)
        return fitted + settings.weight_decay * jnp.sum(p[0] * p[0]), fitted

    step = adam_step(jax, loss, settings.learning_rate)
    evaluate = jax.jit(lambda p, x, m, y: policy_cross_entropy(jax, frozen, p, x, m, y))
    history: list[PolicyEpoch] = []

    def batch_of(chosen: npt.NDArray[np.int64]) -> tuple[Any, ...]:
        symmetry = int(rng.integers(8))
        return (
            jnp.asarray(net.symmetric(inputs[chosen], symmetry)),
            jnp.asarray(symmetric_moves(moves[chosen], symmetry)),
            jnp.asarray(shares[chosen]),
        )

    def epoch_done(number: int, mean_loss: float, params: list[Any]) -> None:
        held_loss = held_top = None
        if held_out is not None and len(held_out[2]):
            fitted, z = evaluate(
                params,
                jnp.asarray(held_out[0]),
                jnp.asarray(held_out[1].astype(np.int32)),
                jnp.asarray(held_out[2]),
            )
            held_loss = float(fitted)
            held_top = top_agreement(np.asarray(z), held_out[1], held_out[2])
        history.append(PolicyEpoch(number, mean_loss, held_loss, held_top))
        if on_epoch is not None:
            on_epoch(history[-1])

    params = fit(jax, step, params, rng, len(shares), settings, batch_of, epoch_done)
    return net.as_policy([np.asarray(a) for a in params]), history


def top_agreement(
    logits: npt.NDArray[np.float32], moves: npt.NDArray[np.int16], shares: npt.NDArray[np.float32]
) -> float | None:
    """The share of positions with two moves or more whose highest-rated move (by the
    per-move ``logits``) is the target's largest share (``None``: no such position)."""
    several = (moves >= 0).sum(axis=1) >= 2
    if not several.any():
        return None
    rated = np.where(moves >= 0, logits, -np.inf)[several]
    return float(np.mean(rated.argmax(axis=1) == shares[several].argmax(axis=1)))
