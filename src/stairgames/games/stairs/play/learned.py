"""The compiled tree search of Stairs with its leaves valued by the learned evaluation
(the ``valued_tree_search`` hook, ``mcts:net=1``): the shipped network
(:mod:`stairgames.games.stairs.research.learn`) judges each new leaf, mixed with a
uniformly random playout by the share ``mix`` (``mcts:net=1,mix=0.5``); and the same
search guided by the shipped policy head's move priors (PUCT, the ``policy_tree_search``
hook, ``mcts:net=1,policy=1``). The 6×6 board only, as the compiled search
(:mod:`.playout`).
"""

from __future__ import annotations

from collections.abc import Callable

from stairgames.core import uct
from stairgames.core.game import State
from stairgames.games.stairs.play import playout
from stairgames.games.stairs.research.endgame_kernel import MAX_MOVES
from stairgames.games.stairs.research.learn import kernel, net, priors


def valued_tree_search(state: State, mix: float) -> uct.TreeSearch | None:
    """The search of ``state`` whose leaves the shipped network values, mixed with a
    playout by ``mix`` (0-1); ``None`` where :func:`.playout.tree_search` is ``None``."""
    return _search_with(
        state, kernel.net_tree_search, lambda: kernel.params(playout.CONSTANTS, net.shipped(), mix)
    )


def policy_tree_search(state: State) -> uct.TreeSearch | None:
    """The search of ``state`` whose leaves the shipped network values and whose moves
    its policy head gives priors (:func:`stairgames.core.uct.iterate_guided`); ``None``
    where :func:`.playout.tree_search` is ``None``."""
    return _search_with(
        state,
        priors.guided_net_tree_search,
        lambda: priors.params(playout.CONSTANTS, net.shipped(), net.shipped_policy()),
    )


def _search_with(
    state: State, search: uct.SearchKernel, params: Callable[[], uct.Params]
) -> uct.TreeSearch | None:
    """:func:`.playout.tree_search`'s search of ``state`` run by ``search`` on
    ``params()`` instead (``None`` where it is ``None``)."""
    plain = playout.tree_search(state)
    if plain is None:
        return None
    return uct.TreeSearch(
        search, plain.root, params(), plain.actions, plain.seats, max_moves=MAX_MOVES
    )


def warm_up() -> None:
    """Compile (the first time on a machine) or load the valued search, mixed and not
    (one compiled function serves both), by searching the opening a little; recorded,
    so that ``kernel.KERNEL.cold()`` is false from then on."""
    search = valued_tree_search(_opening(), 0.5)
    assert search is not None
    uct.warm_up(search)
    kernel.KERNEL.warmed()


def policy_warm_up() -> None:
    """:func:`warm_up` for the search guided by the policy (``priors.KERNEL``)."""
    search = policy_tree_search(_opening())
    assert search is not None
    uct.warm_up(search)
    priors.KERNEL.warmed()


def _opening() -> State:
    from stairgames.games.stairs.game import StairsGame, StairsOptions

    return StairsGame(StairsOptions()).new_initial_state()
