"""Self-play: games of Stairs' compiled tree search against itself, the positions they
pass through, and who won each (the labels of :mod:`.train`).

Each game opens with a few uniformly random moves (so that the games differ), then both
colours play the compiled search (:func:`..endgame_kernel.tree_search`, UCT with
MCTS-Solver and random playouts) with a small fixed number of iterations a move: the
first moves after the opening drawn in proportion to their visits, the rest the most
visited (a proven win at once). Every position of the game is kept as the network's
inputs (:func:`.kernel.features`), labelled 1 when the colour to move there went on to
win and 0 when it lost, mixed in searched positions with the value the search found
(:attr:`SelfPlay.search_share`); where a move's search proved its position (the solver
of the tree: a win or a loss under perfect play), that exact value is the label instead.
A searched position also keeps the policy's target (:attr:`Positions.moves`,
:attr:`Positions.shares`): each move's share of the root's visits, or a proven winning
move alone; none where every move was proven lost.

Everything is drawn from generators seeded by ``seed``: the same call plays the same
games.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames.core import uct
from stairgames.games.stairs.game import StairsGame, StairsOptions
from stairgames.games.stairs.research import endgame_kernel as ek
from stairgames.games.stairs.research.learn import kernel

CONSTANTS: Final = ek.endgame_constants()
_ACTIONS: Final = {move: move for move in range(64 * 64)} | {uct.PASS: uct.PASS}
"""The search's moves as its own actions (the kernel's moves, ``source * 64 + target``)."""


@dataclasses.dataclass(frozen=True)
class SelfPlay:
    """How the games are played."""

    iterations: int = 300
    """The search's iterations a move."""
    exploration: float = 0.35
    """Its UCB constant (what the levels use for Stairs)."""
    random_moves: tuple[int, int] = (2, 6)
    """The uniformly random moves that open a game: from the first to the second number."""
    sampled_moves: int = 10
    """Moves after the opening chosen in proportion to their visits."""
    search_share: float = 0.5
    """The share of the search's value (the mean value of its root for the colour to
    move) in the label of a searched position that it did not prove, the rest the
    game's result (as KataGo and Leela mix them: the result alone is a noisy label)."""


@dataclasses.dataclass(frozen=True)
class Positions:
    """Positions of self-play games: the network's inputs, the labels, and the game each
    came from (numbered from 0)."""

    inputs: npt.NDArray[np.float32]
    labels: npt.NDArray[np.float32]
    games: npt.NDArray[np.int32]
    proven: npt.NDArray[np.bool_]
    """Whether a position's label is a proven value rather than the game's result."""
    moves: npt.NDArray[np.int16]
    """Per position, the kernel moves (``source * 64 + target``) of its policy target,
    padded with -1 to the widest (all -1: no target)."""
    shares: npt.NDArray[np.float32]
    """Each of those moves' share of the target (summing to 1 where there is one)."""

    def __len__(self) -> int:
        return len(self.labels)


def initial_position() -> ek.Array:
    board = StairsGame(StairsOptions()).new_initial_state().board
    return ek.position_array(board, CONSTANTS)


Estimate = tuple[float, bool] | None
"""A searched position's value for its mover and whether it is proven (``None``: not
searched)."""
Target = tuple[list[int], list[float]]
"""A searched position's policy target: kernel moves and their shares (both empty: none)."""
NO_TARGET: Final[Target] = ([], [])


@dataclasses.dataclass
class Game:
    """One self-play game: its positions (copies), the colour to move in each, each
    one's value for that colour by its search (:data:`Estimate`) and policy target
    (:data:`Target`), and the winner."""

    positions: list[ek.Array] = dataclasses.field(default_factory=list)
    movers: list[int] = dataclasses.field(default_factory=list)
    estimates: list[Estimate] = dataclasses.field(default_factory=list)
    targets: list[Target] = dataclasses.field(default_factory=list)
    winner: int = -1


def play_game(rng: np.random.Generator, settings: SelfPlay) -> Game:
    """One game drawn from ``rng``."""
    s = initial_position()
    found = np.empty(ek.MAX_MOVES, dtype=np.int64)
    game = Game()
    opening = int(rng.integers(settings.random_moves[0], settings.random_moves[1] + 1))
    ply = 0
    while True:
        count = ek.tree_moves(s, CONSTANTS, found)
        if count < 0:
            break
        game.positions.append(s.copy())
        game.movers.append(int(s[ek.TO_MOVE]))
        game.estimates.append(None)
        game.targets.append(NO_TARGET)
        if count == 0:
            ek.tree_play(s, CONSTANTS, uct.PASS)
            continue
        if ply < opening:
            move = int(found[rng.integers(count)])
        else:
            move, game.estimates[-1], game.targets[-1] = _searched_move(
                s, rng, settings, sample=ply < opening + settings.sampled_moves
            )
        ek.tree_play(s, CONSTANTS, move)
        ply += 1
    game.winner = int(ek.winner(s))
    return game


def _searched_move(
    s: ek.Array, rng: np.random.Generator, settings: SelfPlay, *, sample: bool
) -> tuple[int, Estimate, Target]:
    """The search's move in ``s``, its value of ``s`` for its mover, and the policy's
    target there."""
    colour = int(s[ek.TO_MOVE])
    search = uct.TreeSearch(
        ek.tree_search, s.copy(), CONSTANTS, _ACTIONS, (0, 1), max_moves=ek.MAX_MOVES
    )
    search.run(settings.iterations, settings.exploration, int(rng.integers(2**62)))
    proven = search.root_value(colour)
    children = list(search.root_children())
    visits = np.array([search.visits[child] for child in children], dtype=np.float64)
    totals = np.array([search.totals[child] for child in children], dtype=np.float64)
    estimate: Estimate = (
        (proven, True) if proven is not None else (totals.sum() / max(visits.sum(), 1.0), False)
    )
    winning = [child for child in children if search.proven[child] == colour]
    moves = [int(search.move[child]) for child in children]
    target: Target = NO_TARGET
    if winning:
        target = ([int(search.move[winning[0]])], [1.0])
    elif proven != 0.0 and visits.sum() > 0:
        target = (moves, list(visits / visits.sum()))
    if sample and not winning and proven is None and visits.sum() > 0:
        pick = children[int(rng.choice(len(children), p=visits / visits.sum()))]
        return search.action(pick), estimate, target
    return search.best_action(), estimate, target


def play(
    games: int,
    seed: int,
    settings: SelfPlay = SelfPlay(),
    on_game: Callable[[int], None] | None = None,
) -> Positions:
    """``games`` self-play games drawn from ``seed``; ``on_game(done)`` is told after each."""
    rng = np.random.default_rng(seed)
    uct.seed(int(rng.integers(2**62)))
    inputs: list[npt.NDArray[np.float32]] = []
    labels: list[float] = []
    numbers: list[int] = []
    proven: list[bool] = []
    targets: list[Target] = []
    for number in range(games):
        game = play_game(rng, settings)
        won = game.winner
        targets.extend(game.targets)
        for s, mover, estimate in zip(game.positions, game.movers, game.estimates, strict=True):
            x = np.empty(kernel.NUM_INPUTS, dtype=np.float32)
            kernel.features(s, CONSTANTS, x)
            inputs.append(x)
            result = float(mover == won)
            if estimate is None:
                label = result
            elif estimate[1]:
                label = estimate[0]
            else:
                share = settings.search_share
                label = (1.0 - share) * result + share * estimate[0]
            labels.append(label)
            numbers.append(number)
            proven.append(estimate is not None and estimate[1])
        if on_game is not None:
            on_game(number + 1)
    moves, shares = _padded(targets)
    return Positions(
        np.array(inputs, dtype=np.float32).reshape(-1, kernel.NUM_INPUTS),
        np.array(labels, dtype=np.float32),
        np.array(numbers, dtype=np.int32),
        np.array(proven, dtype=np.bool_),
        moves,
        shares,
    )


def _padded(
    targets: list[Target],
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.float32]]:
    """The targets as two arrays of a row a position, padded to the widest with -1 and 0."""
    width = max([len(found) for found, _ in targets], default=0) or 1
    moves = np.full((len(targets), width), -1, dtype=np.int16)
    shares = np.zeros((len(targets), width), dtype=np.float32)
    for row, (found, share) in enumerate(targets):
        moves[row, : len(found)] = found
        shares[row, : len(share)] = share
    return moves, shares


def save(path: Path, positions: Positions) -> None:
    """Keeps ``positions`` in the ``.npz`` file ``path`` (:func:`load` reads them)."""
    np.savez_compressed(
        path, **{f.name: getattr(positions, f.name) for f in dataclasses.fields(positions)}
    )


def load(path: Path) -> Positions:
    """The positions :func:`save` kept in ``path``."""
    with np.load(path) as data:
        return Positions(**{f.name: data[f.name] for f in dataclasses.fields(Positions)})
