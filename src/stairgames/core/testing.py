"""A conformance check of the protocol, shipped with the package (like pgx's ``api_test``).

Every game's tests call :func:`check_game`; it plays random games (chance
sampled from ``chance_outcomes``) and checks at every step what the protocol
promises: sorted legal actions, probabilities summing to one, notation that
round-trips, position text that round-trips (the state read back acts alike:
player, legal actions, chance outcomes, returns, every seat's observation),
``eval(repr(...))`` of games and states, clones that are equal and independent
(even after every list they returned is mutated), records that replay exactly
(a finished game's in full; an unfinished game's record for each seat, and the
public one, to that seat's observation and history), illegal input refused with
the state unchanged, and returns inside the declared bounds.
"""

from __future__ import annotations

import inspect
import math
import random
from typing import Any

from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import IllegalMoveError
from stairgames.core.game import CHANCE, TERMINAL, Game, State
from stairgames.core.record import GameRecord, final_state, make_record


def check_state(state: State) -> None:
    """Check one state against the protocol's promises."""
    game = state.get_game()
    info = game.info()
    player = state.current_player()
    assert player in (CHANCE, TERMINAL) or 0 <= player < info.num_players, player
    assert state.is_terminal() == (player == TERMINAL)
    assert state.is_chance_node() == (player == CHANCE)
    # position text round-trips to a fixed point, and the state read back behaves alike
    text = state.position()
    again = game.state_from_position(text)
    assert again.position() == text, (text, again.position())
    check_same_behaviour(state, again)
    check_repr_round_trips(state)
    if state.is_terminal():
        assert state.legal_actions() == []
        assert state.chance_outcomes() == []
        returns = state.returns()
        assert len(returns) == info.num_players
        assert all(info.min_utility <= r <= info.max_utility for r in returns), returns
        assert state.outcome() is not None
        return
    assert state.outcome() is None
    assert state.returns() == [0.0] * info.num_players
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        assert actions == sorted(set(actions)), actions
        assert all(0 <= a < max(info.max_chance_outcomes, 1) for a in actions), actions
        assert math.isclose(sum(p for _, p in outcomes), 1.0, abs_tol=1e-9)
        assert state.legal_actions() == []
        for action in actions:
            assert state.string_to_action(state.action_to_string(action)) == action
        return
    legal = state.legal_actions()
    assert legal, "a decision node has at least one legal action"
    assert legal == sorted(set(legal)), legal
    assert sorted(state._legal_action_ids()) == legal, "the legality check's own set differs"
    assert all(0 <= a < info.num_distinct_actions for a in legal), legal
    for other in range(info.num_players):
        if other != player:
            assert state.legal_actions(other) == []
    for action in legal:
        assert state.string_to_action(state.action_to_string(action)) == action
    for observer in range(info.num_players):
        assert isinstance(state.observation_string(observer), str)


def check_same_behaviour(state: State, again: State) -> None:
    """``again`` (``state`` read back from its position text) decides everything that
    happens next the same way: player to act, legal actions, chance outcomes, returns,
    every seat's observation."""
    assert again.current_player() == state.current_player(), state.position()
    assert again.legal_actions() == state.legal_actions(), state.position()
    assert again.chance_outcomes() == state.chance_outcomes(), state.position()
    assert again.returns() == state.returns(), state.position()
    for seat in range(state.get_game().num_players()):
        assert again.observation_string(seat) == state.observation_string(seat), seat
    assert again == state


def check_repr_round_trips(state: State) -> None:
    """``eval(repr(game))`` and ``eval(repr(state))`` give equal objects."""
    import stairgames

    namespace = {"stairgames": stairgames}
    game = state.get_game()
    assert eval(repr(game), namespace) == game, repr(game)
    assert eval(repr(state), namespace) == state, repr(state)


def _snapshot(state: State) -> tuple[object, ...]:
    seats = range(state.get_game().num_players())
    return (
        state.position(),
        state.current_player(),
        state.legal_actions(),
        state.chance_outcomes(),
        state.returns(),
        state.history(),
        state.history_strings(),
        [state.history_strings(seat) for seat in seats],
        [state.observation_string(seat) for seat in seats],
    )


def _returned_lists(state: State) -> list[list[Any]]:
    """Every list the state's public getters return: the protocol's, and a game's own
    (methods of no arguments annotated to return a list, such as 27's ``moves()``)."""
    seats = range(state.get_game().num_players())
    lists: list[list[Any]] = [
        state.legal_actions(),
        state.chance_outcomes(),
        state.returns(),
        state.history(),
        state.history_strings(),
        *(state.history_strings(seat) for seat in seats),
    ]
    for name in dir(type(state)):
        method = getattr(type(state), name)
        if name.startswith("_") or not inspect.isfunction(method):
            continue
        signature = inspect.signature(method)
        takes_nothing = all(
            p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
            for p in list(signature.parameters.values())[1:]
        )
        if takes_nothing and str(signature.return_annotation).startswith("list["):
            lists.append(getattr(state, name)())
    return lists


def check_clone_independent(state: State, action: int) -> None:
    """A clone is equal, and independent: clearing every list it returned and applying
    ``action`` to it leave ``state`` unchanged."""
    before = _snapshot(state)
    twin = state.clone()
    assert twin == state and twin.history() == state.history()
    for returned in _returned_lists(twin):
        returned.clear()
    twin.apply_action(action)
    assert twin.history() != state.history()
    assert _snapshot(state) == before


def check_rejects_bad_input(state: State, rng: random.Random) -> None:
    """Illegal actions and malformed text raise :class:`IllegalMoveError`; nothing changes."""
    before = (state.position(), state.history(), state.current_player())
    info = state.get_game().info()
    legal = set(state.legal_actions()) | {a for a, _ in state.chance_outcomes()}
    bound = max(info.num_distinct_actions, info.max_chance_outcomes)
    illegal = [a for a in range(-1, bound + 2) if a not in legal]
    for action in rng.sample(illegal, min(5, len(illegal))):
        try:
            state.apply_action(action)
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"illegal action {action} was accepted")
    for text in ("", "??", "x9-z0", "pass pass", "999:999"):
        try:
            state.apply_move(text)
        except IllegalMoveError:
            pass
        else:
            if state.history() != before[1]:
                raise AssertionError(f"malformed move {text!r} was accepted")
    assert (state.position(), state.history(), state.current_player()) == before


def random_playout(state: State, rng: random.Random, *, check: bool = True) -> State:
    """Play ``state`` to the end with uniformly random actions (chance by its odds)."""
    info = state.get_game().info()
    steps = 0
    earlier = len(state.history())
    texts = []  # the notation of each action in the state it is played in
    while not state.is_terminal():
        if check:
            check_state(state)
        if state.is_chance_node():
            action = sample_chance_outcome(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        if check and rng.random() < 0.1:
            check_clone_independent(state, action)
            check_rejects_bad_input(state, rng)
        if check:
            texts.append(state.action_to_string(action))
        state.apply_action(action)
        steps += 1
        assert steps <= info.max_game_length, f"game longer than {info.max_game_length}"
    if check:
        check_state(state)
        # history strings, formatted as actions are applied or only when asked, are the
        # notation each action had when it was played
        assert state.history_strings()[earlier:] == texts
    return state


def check_view_records(state: State) -> None:
    """Records of ``state`` made for each seat (and the public one) replay to a state that
    seat cannot tell from ``state``: the same observation and history for it."""
    for viewer in [None, *range(state.get_game().num_players())]:
        record = make_record(state, viewer=viewer)
        replayed = final_state(GameRecord.from_json(record.to_json()))
        assert replayed.public_history_strings() == state.public_history_strings()
        if viewer is None:
            continue
        expected = state.history_strings() if record.is_full else state.history_strings(viewer)
        assert list(record.moves) == expected
        assert replayed.observation_string(viewer) == state.observation_string(viewer)
        assert replayed.history_strings(viewer) == state.history_strings(viewer)


def check_game(game: Game, *, games: int = 5, seed: int = 0) -> None:
    """Play ``games`` random games of ``game`` and check the protocol throughout."""
    rng = random.Random(seed)
    for _ in range(games):
        start = game.new_initial_state()
        check_state(start)
        final = random_playout(start.clone(), rng)
        middle = start.clone()
        for action in final.history()[: len(final.history()) // 2]:
            middle.apply_action(action)
        check_view_records(middle)
        record = make_record(final, seed=seed)
        replayed = final_state(type(record).from_json(record.to_json()))
        assert replayed.position() == final.position()
        assert replayed.history() == final.history()
        assert replayed.returns() == final.returns()


def perft(state: State, depth: int) -> int:
    """The number of move sequences of ``depth`` plies from ``state`` (a finished game
    counts as one leaf): the classic check of a move generator against known counts."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total
