"""The network's weights: made, saved, loaded, and run in numpy (:mod:`.kernel` runs the
same in compiled code; the training framework is never needed to play).

A network is kept as one ``.npz`` of float32 arrays ``w1, b1, w2, b2, w3, b3``
(:data:`.kernel.Weights`) and a JSON file beside it (the same name, ``.json``) saying
how it was made: the inputs' version, the games, the epochs, the seed, the command, the
date. The shipped network is ``value.npz`` / ``value.json`` in this folder
(:func:`shipped`).
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from stairgames.core.errors import InvalidOptionError
from stairgames.games.stairs.research.endgame_kernel import IMAGES
from stairgames.games.stairs.research.learn.kernel import (
    HIDDEN,
    HIDDEN_2,
    NUM_INPUTS,
    NUM_PLANES,
    POLICY_INPUTS,
    POLICY_OUTPUTS,
    SQUARES,
    PolicyWeights,
    Weights,
)
from stairgames.i18n import N_

FEATURES_VERSION: Final = 1
"""The version of the inputs (:func:`.kernel.features`): weights trained on another
are refused."""
NAMES: Final = ("w1", "b1", "w2", "b2", "w3", "b3")
SHAPES: Final = (
    (NUM_INPUTS, HIDDEN),
    (HIDDEN,),
    (HIDDEN, HIDDEN_2),
    (HIDDEN_2,),
    (HIDDEN_2,),
    (1,),
)
SHIPPED: Final = "value.npz"
"""The shipped network's file in this package."""
POLICY_NAMES: Final = ("wp", "bp")
POLICY_SHAPES: Final = ((POLICY_INPUTS, POLICY_OUTPUTS), (POLICY_OUTPUTS,))
POLICY_SHIPPED: Final = "policy.npz"
"""The shipped policy head's file in this package (it reads :data:`SHIPPED`'s hidden
layers, so the two are trained and shipped together)."""
_PACKAGE: Final = __name__.rpartition(".")[0]

Inputs = npt.NDArray[np.float32]


def initial(rng: np.random.Generator) -> Weights:
    """Fresh weights (He's initialisation for the ReLU layers, zero biases)."""
    arrays = []
    for shape in SHAPES:
        if len(shape) == 2:
            arrays.append(rng.normal(0.0, np.sqrt(2.0 / shape[0]), shape))
        elif shape == (HIDDEN_2,) and len(arrays) == 4:  # w3
            arrays.append(rng.normal(0.0, np.sqrt(1.0 / shape[0]), shape))
        else:
            arrays.append(np.zeros(shape))
    return as_weights(arrays)


def as_weights(arrays: Any) -> Weights:
    """Six arrays of :data:`SHAPES` as float32 weights, each C-contiguous (as the
    compiled forward pass reads them).

    :raises InvalidOptionError: the arrays are not six, of these shapes."""
    w1, b1, w2, b2, w3, b3 = _float32(arrays, SHAPES)
    return (w1, b1, w2, b2, w3, b3)


def _float32(arrays: Any, wanted: tuple[tuple[int, ...], ...]) -> list[npt.NDArray[np.float32]]:
    """``arrays`` as C-contiguous float32 arrays (as the compiled code reads them).

    :raises InvalidOptionError: they are not of the shapes ``wanted``, in order."""
    found = [np.ascontiguousarray(np.asarray(a, dtype=np.float32)) for a in arrays]
    shapes = tuple(a.shape for a in found)
    if shapes != wanted:
        raise InvalidOptionError(
            message_id=N_("the network's weights have the shapes {found}, not {wanted}"),
            arguments={"found": shapes, "wanted": wanted},
        )
    return found


def initial_policy(rng: np.random.Generator) -> PolicyWeights:
    """A fresh policy head: small random weights, zero biases (every move alike)."""
    return as_policy([rng.normal(0.0, 0.01, POLICY_SHAPES[0]), np.zeros(POLICY_SHAPES[1])])


def as_policy(arrays: Any) -> PolicyWeights:
    """Two arrays of :data:`POLICY_SHAPES` as a float32 policy head.

    :raises InvalidOptionError: the arrays are not two, of these shapes."""
    wp, bp = _float32(arrays, POLICY_SHAPES)
    return (wp, bp)


def policy_inputs(weights: Weights, inputs: Inputs) -> npt.NDArray[np.float32]:
    """What the policy head reads (a row of :data:`.kernel.POLICY_INPUTS` a position): the
    inputs, then both hidden layers of the value network after ReLU."""
    w1, b1, w2, b2, _, _ = weights
    h1 = np.maximum(inputs.astype(np.float32) @ w1 + b1, np.float32(0.0))
    h2 = np.maximum(h1 @ w2 + b2, np.float32(0.0))
    return np.concatenate([inputs.astype(np.float32), h1, h2], axis=1)


def move_shares(
    weights: Weights, policy: PolicyWeights, inputs: Inputs, moves: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """The policy's share of each of the kernel moves ``moves`` (``source * 64 +
    target``) of the one position whose inputs are ``inputs`` (numpy: for checks)."""
    wp, bp = policy
    logits = policy_inputs(weights, inputs.reshape(1, -1))[0] @ wp + bp
    z = logits[moves >> 6].astype(np.float64) + logits[SQUARES + (moves & 63)]
    shares: npt.NDArray[np.float64] = np.exp(z - z.max())
    shares /= shares.sum()
    return shares


def forward(weights: Weights, inputs: Inputs) -> npt.NDArray[np.float32]:
    """The network's outputs for a batch of inputs (rows of :data:`.kernel.NUM_INPUTS`):
    the chance that the colour to move wins each position, in float32."""
    w1, b1, w2, b2, w3, b3 = weights
    h1 = np.maximum(inputs.astype(np.float32) @ w1 + b1, np.float32(0.0))
    h2 = np.maximum(h1 @ w2 + b2, np.float32(0.0))
    logits = h2 @ w3 + b3[0]
    chances: npt.NDArray[np.float32] = (1.0 / (1.0 + np.exp(-logits))).astype(np.float32)
    return chances


def symmetric(inputs: Inputs, symmetry: int) -> Inputs:
    """The inputs of the same positions seen through ``symmetry`` (0-7) of the square
    (:func:`..endgame_kernel.image_of`): each plane's squares moved to their images, the
    inputs of the whole board unchanged."""
    images = IMAGES[6, symmetry, :SQUARES]
    planes = inputs[:, : NUM_PLANES * SQUARES].reshape(-1, NUM_PLANES, SQUARES)
    moved = np.empty_like(planes)
    moved[:, :, images] = planes
    rest = inputs[:, NUM_PLANES * SQUARES :]
    return np.concatenate([moved.reshape(len(inputs), -1), rest], axis=1)


def save(
    path: Path,
    weights: Weights | PolicyWeights,
    about: dict[str, Any],
    names: tuple[str, ...] = NAMES,
) -> Path:
    """Writes ``weights`` (arrays called ``names``: the value network's, or
    :data:`POLICY_NAMES` for a policy head) to ``path`` (``.npz``) and ``about`` (with
    the inputs' version and the shapes added) to the JSON file beside it; returns that
    file's path."""
    arrays: dict[str, Any] = dict(zip(names, weights, strict=True))
    np.savez(path, **arrays)
    told = path.with_suffix(".json")
    record = {
        "features_version": FEATURES_VERSION,
        "shapes": {name: "x".join(map(str, a.shape)) for name, a in arrays.items()},
        **about,
    }
    told.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return told


def load(path: Path) -> Weights:
    """The weights in the ``.npz`` file ``path``.

    :raises InvalidOptionError: the file holds other arrays or shapes, or its JSON
        names another version of the inputs."""
    return as_weights(_arrays(path, NAMES))


def load_policy(path: Path) -> PolicyWeights:
    """The policy head in the ``.npz`` file ``path`` (:func:`load`'s checks)."""
    return as_policy(_arrays(path, POLICY_NAMES))


def _arrays(path: Path, names: tuple[str, ...]) -> list[npt.NDArray[Any]]:
    """The arrays ``names`` of the ``.npz`` file ``path``, once its JSON (if any) is
    found to name this version of the inputs."""
    told = path.with_suffix(".json")
    if told.exists():
        version = json.loads(told.read_text(encoding="utf-8")).get("features_version")
        if version != FEATURES_VERSION:
            raise InvalidOptionError(
                message_id=N_(
                    "{path} was trained on inputs of version {found}; this code reads "
                    "version {wanted}"
                ),
                arguments={"path": str(path), "found": version, "wanted": FEATURES_VERSION},
            )
    with np.load(path) as data:
        if sorted(data.files) != sorted(names):
            raise InvalidOptionError(
                message_id=N_("{path} holds no network's weights"),
                arguments={"path": str(path)},
            )
        return [data[name] for name in names]


@functools.cache
def shipped() -> Weights:
    """The network shipped with the package (``value.npz``), loaded once a process."""
    with resources.as_file(resources.files(_PACKAGE) / SHIPPED) as path:
        return load(path)


@functools.cache
def shipped_policy() -> PolicyWeights:
    """The policy head shipped with the package (``policy.npz``), loaded once a process."""
    with resources.as_file(resources.files(_PACKAGE) / POLICY_SHIPPED) as path:
        return load_policy(path)


def shipped_about() -> dict[str, Any]:
    """What ``value.json`` says of the shipped network."""
    text = (resources.files(_PACKAGE) / "value.json").read_text(encoding="utf-8")
    about: dict[str, Any] = json.loads(text)
    return about
