"""Stairs: property-based tests over random playouts (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stairgames
from stairgames import IllegalMoveError, InvalidPositionError
from stairgames.core.record import GameRecord, final_state, make_record
from stairgames.games.stairs import StairsState
from stairgames.games.stairs.game import MAX_GAME_LENGTH, MAX_MOVES
from stairgames.games.stairs.notation import ACCEPT, DECLINE, NUM_ACTIONS, OFFER, PASS, SWAP
from stairgames.games.stairs.rules import NEIGHBOURS

seeds = st.integers(min_value=0, max_value=2**32 - 1)

NOT_MOVES = (PASS, SWAP, OFFER, ACCEPT, DECLINE)
"""Actions that move no piece: pass, swap (S4, S6) and the agreement actions (S7)."""


def random_game(seed: int, *, pie_rule: bool = False) -> StairsState:
    state = stairgames.load("stairs", pie_rule=pie_rule).new_initial_state()
    assert isinstance(state, StairsState)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def oracle_moves(stacks: tuple[str, ...], colour: str) -> set[tuple[int, int]]:
    """S2 + S3 written out independently of the engine: all moves, then the lowest sources."""
    movable = [
        (src, dst)
        for src in range(36)
        for dst in range(36)
        if stacks[src]
        and stacks[src][-1] == colour
        and src != dst
        and max(abs(src % 6 - dst % 6), abs(src // 6 - dst // 6)) == 1
        and len(stacks[dst]) == len(stacks[src])
    ]
    if not movable:
        return set()
    lowest = min(len(stacks[src]) for src, _ in movable)
    return {(src, dst) for src, dst in movable if len(stacks[src]) == lowest}


def level_sum(stacks: tuple[str, ...]) -> int:
    return sum(len(s) * (len(s) + 1) // 2 for s in stacks)


@given(seeds, st.booleans())
def test_pieces_18_and_18_always_and_each_move_raises_one_piece_one_level(seed, pie_rule):
    state = stairgames.load("stairs", pie_rule=pie_rule).new_initial_state()
    assert isinstance(state, StairsState)
    rng = random.Random(seed)
    while not state.is_terminal():
        before = state.board
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        after = state.board
        assert after.count("L") == 18 and after.count("D") == 18
        if action in NOT_MOVES:
            assert after.stacks == before.stacks
            continue
        changed = [i for i in range(36) if before.stacks[i] != after.stacks[i]]
        assert len(changed) == 2
        src = next(i for i in changed if len(after.stacks[i]) < len(before.stacks[i]))
        dst = next(i for i in changed if i != src)
        piece = before.stacks[src][-1]
        assert after.stacks[src] == before.stacks[src][:-1]
        assert after.stacks[dst] == before.stacks[dst] + piece
        assert len(after.stacks[dst]) == len(before.stacks[src]) + 1  # exactly one level up
        assert level_sum(after.stacks) == level_sum(before.stacks) + 1


@given(seeds, st.booleans())
def test_legal_moves_match_an_independent_reading_of_s2_s3_s4(seed, agreement):
    state = stairgames.load("stairs", agreement=agreement).new_initial_state()
    assert isinstance(state, StairsState)
    rng = random.Random(seed)
    while not state.is_terminal():
        board = state.board
        expected = oracle_moves(board.stacks, board.to_move)
        actions = state.legal_actions()
        if state.offer_pending():
            assert actions == [ACCEPT, DECLINE]
        elif expected:
            got = set()
            for a in (a for a in actions if a != OFFER):
                src, direction = divmod(a, 8)
                got.add((src, NEIGHBOURS[src][direction]))
            assert got == expected
        else:
            assert actions == [PASS]
            other = "D" if board.to_move == "L" else "L"
            assert oracle_moves(board.stacks, other)
        state.apply_action(rng.choice(actions))
    board = state.board
    if not state.ended_by_agreement():
        assert not oracle_moves(board.stacks, "L") and not oracle_moves(board.stacks, "D")


@given(seeds, st.booleans())
def test_games_end_within_the_proven_bound(seed, pie_rule):
    state = random_game(seed, pie_rule=pie_rule)
    moves = [a for a in state.history() if a not in NOT_MOVES]
    assert len(moves) <= MAX_MOVES
    assert len(state.history()) <= MAX_GAME_LENGTH
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0])


@given(seeds, st.booleans())
def test_position_round_trips_along_a_playout(seed, pie_rule):
    game = stairgames.load("stairs", pie_rule=pie_rule)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        text = state.position()
        again = game.state_from_position(text)
        assert again.position() == text
        assert again.legal_actions() == state.legal_actions()
        assert again.current_player() == state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.state_from_position(state.position())
    assert again.is_terminal() and again.returns() == state.returns()


@given(seeds, st.booleans())
def test_record_round_trips_and_replays_exactly(seed, pie_rule):
    state = random_game(seed, pie_rule=pie_rule)
    record = make_record(state, seed=seed)
    again = GameRecord.from_json(record.to_json())
    assert again == record
    replayed = final_state(again)
    assert replayed.history() == state.history()
    assert replayed.position() == state.position()
    assert replayed.returns() == state.returns()


@given(seeds)
def test_clone_is_independent(seed):
    rng = random.Random(seed)
    state = stairgames.load("stairs", pie_rule=True).new_initial_state()
    for _ in range(rng.randrange(0, 30)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        return
    twin = state.clone()
    snapshot = (state.position(), state.history(), state.legal_actions(), state.current_player())
    while not twin.is_terminal():
        twin.apply_action(rng.choice(twin.legal_actions()))
    assert snapshot == (
        state.position(),
        state.history(),
        state.legal_actions(),
        state.current_player(),
    )


@given(seeds, st.text(max_size=8))
def test_illegal_and_malformed_input_leaves_the_state_unchanged(seed, text):
    rng = random.Random(seed)
    state = stairgames.load("stairs", pie_rule=True).new_initial_state()
    for _ in range(rng.randrange(0, 40)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    snapshot = (state.position(), state.history(), state.is_terminal())
    legal_texts = {state.action_to_string(a) for a in state.legal_actions()}
    if "".join(text.split()).lower() not in legal_texts:
        with pytest.raises(IllegalMoveError):
            state.apply_move(text)
    illegal = [a for a in range(-2, 292) if a not in state.legal_actions()]
    with pytest.raises(IllegalMoveError):
        state.apply_action(rng.choice(illegal))
    assert snapshot == (state.position(), state.history(), state.is_terminal())


@given(seeds)
def test_replay_is_deterministic(seed):
    first = random_game(seed)
    second = random_game(seed)
    assert first.history() == second.history()


def s5_oracle(state: StairsState) -> tuple[str, str]:
    """S5 recomputed from the replayed history: (winning colour, deciding step)."""
    replay = state.get_game().new_initial_state()
    assert isinstance(replay, StairsState)
    last_arrival_at: dict[int, str] = {}
    for action in state.history():
        mover = replay.board.to_move
        if action not in NOT_MOVES:
            src, direction = divmod(action, 8)
            height = len(replay.board.stacks[NEIGHBOURS[src][direction]]) + 1
            last_arrival_at[height] = mover
        replay.apply_action(action)
    stacks = replay.board.stacks
    peak = max(len(s) for s in stacks)
    light = sum(1 for s in stacks if len(s) == peak and s[-1] == "L")
    dark = sum(1 for s in stacks if len(s) == peak and s[-1] == "D")
    if not light or not dark:
        return ("L" if light else "D"), "height"
    if light != dark:
        return ("L" if light > dark else "D"), "count"
    return ("D" if last_arrival_at[peak] == "L" else "L"), "first arrival"


def test_s5_all_three_steps_decide_random_games_as_an_independent_reading_says():
    seen = set()
    for seed in range(300):
        state = random_game(seed, pie_rule=seed % 2 == 1)
        colour, step = s5_oracle(state)
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.details["decision"] == step
        assert outcome.winners == (state.seat_of(colour),)
        seen.add(step)
    assert seen == {"height", "count", "first arrival"}


@given(seeds, st.lists(st.tuples(st.integers(0, 200), st.sampled_from("LD.,/ -\tx")), max_size=4))
def test_fuzzed_position_text_is_refused_or_prints_to_a_fixed_point(seed, edits):
    rng = random.Random(seed)
    state = stairgames.load("stairs").new_initial_state()
    for _ in range(rng.randrange(0, 40)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    text = state.position()
    for index, char in edits:
        index %= len(text) + 1
        text = (
            text[:index] + char + text[index + 1 :]
            if rng.random() < 0.5
            else text[:index] + char + text[index:]
        )
    game = stairgames.load("stairs")
    try:
        parsed = game.state_from_position(text)
    except InvalidPositionError:
        return
    printed = parsed.position()
    assert game.state_from_position(printed).position() == printed
    assert printed.split() == text.split()


@given(seeds)
def test_a_board_has_climbed_exactly_when_its_greatest_height_is_above_1(seed):
    state = stairgames.load("stairs").new_initial_state()
    assert isinstance(state, StairsState)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.board.climbed() == (state.board.max_height() > 1)
        state.apply_action(rng.choice(state.legal_actions()))


@given(seeds)
def test_reading_a_move_directly_agrees_with_searching_the_legal_moves(seed):
    """string_to_action reads Stairs notation straight to an action (no search); for
    every action id, legal or not, it must answer exactly what the search would."""
    state = stairgames.load("stairs", pie_rule=True).new_initial_state()
    rng = random.Random(seed)
    for _ in range(rng.randrange(40)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    legal = set(state.legal_actions())
    for action in [a for a in range(NUM_ACTIONS) if a in legal or a % 7 == 0]:
        try:
            text = state.action_to_string(action)
        except IllegalMoveError:
            continue  # an id that names no move (off the board)
        if action in legal:
            assert state.string_to_action(text.upper().replace("-", " - ")) == action
        else:
            with pytest.raises(IllegalMoveError):
                state.string_to_action(text)
