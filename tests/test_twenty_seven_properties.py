"""27: properties over random games of every variant, and the shared conformance check."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import stairgames
from stairgames import IllegalMoveError
from stairgames.core.record import final_state, make_record
from stairgames.core.testing import check_game
from stairgames.games.twenty_seven import MAX_GAME_LENGTH, PASS, TwentySevenState
from stairgames.games.twenty_seven.game import LINE_SIZES, count_key_vectors
from stairgames.games.twenty_seven.notation import NUM_ACTIONS, decode_move
from stairgames.games.twenty_seven.position import format_position, parse_position
from stairgames.games.twenty_seven.rules import (
    BLACK,
    DISC_COUNTS,
    GREY,
    RED,
    VARIANTS,
    WHITE,
    Line,
    Variant,
    apply_move,
    destination,
    legal_moves,
    progress,
    stack_count,
)

variants = st.sampled_from(VARIANTS)
seeds = st.integers(0, 2**32 - 1)

LONGEST_RANDOM_GAME = 300
"""Random games are far shorter: about 20 actions; searches for long games found 147."""


def new_state(variant: str) -> TwentySevenState:
    state = stairgames.load("twenty_seven", variant=variant).new_initial_state()
    assert isinstance(state, TwentySevenState)
    return state


def playout(variant: str, seed: int) -> list[TwentySevenState]:
    """Every state of one random game, from the start to the end."""
    rng = random.Random(seed)
    state = new_state(variant)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
        assert len(states) <= LONGEST_RANDOM_GAME, "a random game did not end"
    return states


def assert_well_formed(line: Line, variant: str) -> None:
    assert {disc: line.count(disc) for disc in DISC_COUNTS} == DISC_COUNTS
    assert sum(len(stack) for stack in line.fields) == 27
    assert all(stack and stack[0] in (RED, GREY) for stack in line.fields)
    if variant != "expert":
        assert line.fields[0][0] == RED and line.fields[-1][0] == RED
    if variant == "basic":
        assert len(line.fields) == 9


# ----- the shared conformance check ----------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_conformance_check_game(variant):
    check_game(stairgames.load("twenty_seven", variant=variant), games=8, seed=27)


# ----- invariants along random games ---------------------------------------------------


@given(variants, seeds)
def test_27_discs_are_conserved_bases_included(variant, seed):
    for state in playout(variant, seed):
        assert_well_formed(state.line, variant)


@given(variants, seeds)
def test_the_line_never_grows(variant, seed):
    sizes = [len(state.line) for state in playout(variant, seed)]
    assert sizes[0] == 9
    assert all(later <= earlier for earlier, later in itertools.pairwise(sizes))
    if variant == "basic":
        assert set(sizes) == {9}


@given(variants, seeds)
def test_every_random_game_ends(variant, seed):
    states = playout(variant, seed)
    final = states[-1]
    assert final.is_terminal() and final.outcome() is not None
    assert len(states) - 1 <= MAX_GAME_LENGTH[variant]


@given(variants, seeds)
def test_no_position_repeats(variant, seed):
    positions = [state.position() for state in playout(variant, seed)]
    assert len(positions) == len(set(positions))


@given(variants, seeds)
def test_every_move_goes_exactly_as_far_as_the_mover_has_stacks(variant, seed):
    states = playout(variant, seed)
    for before, after in itertools.pairwise(states):
        action = after.history()[-1]
        line = before.line
        colour = line.to_move
        if action == PASS:
            assert before.moves() == []
            assert after.line.fields == line.fields
            continue
        move = decode_move(action)
        assert move is not None
        distance = stack_count(line, colour)
        target = destination(line, move)
        assert target - move.field == (distance if colour == WHITE else -distance)
        assert line.fields[move.field][-1] == colour
        moved = line.fields[move.field][-move.count :]
        removed = len(after.line) < len(line)
        if removed:
            assert move.count == len(line.fields[move.field])
        landing = target - 1 if removed and colour == WHITE else target
        assert after.line.fields[landing].endswith(moved)


@given(variants, seeds)
def test_returns_match_the_scores(variant, seed):
    final = playout(variant, seed)[-1]
    outcome = final.outcome()
    assert outcome is not None
    white, black = outcome.details["scores"]
    assert white == len(final.line.fields[-1]) - 1 and black == len(final.line.fields[0]) - 1
    expected = [0.0, 0.0] if white == black else ([1.0, -1.0] if white > black else [-1.0, 1.0])
    assert final.returns() == expected


# ----- round trips -------------------------------------------------------------------


@given(variants, seeds)
def test_position_text_round_trips_along_games(variant, seed):
    game = stairgames.load("twenty_seven", variant=variant)
    for state in playout(variant, seed):
        text = state.position()
        assert parse_position(text, variant) == state.line
        again = game.state_from_position(text)
        assert again.position() == text
        assert again.legal_actions() == state.legal_actions()
        assert format_position(state.line) == text


@given(variants, seeds)
def test_record_round_trips(variant, seed):
    final = playout(variant, seed)[-1]
    record = make_record(final, seed=seed)
    replayed = final_state(type(record).from_json(record.to_json()))
    assert replayed.position() == final.position()
    assert replayed.history() == final.history()
    assert replayed.returns() == final.returns()
    assert record.options == {"variant": variant}


@given(variants, seeds)
def test_notation_round_trips(variant, seed):
    for state in playout(variant, seed)[:-1]:
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action


# ----- bad input ---------------------------------------------------------------------


@settings(max_examples=15)
@given(variants, seeds, st.data())
def test_illegal_and_malformed_input_is_refused_with_the_state_unchanged(variant, seed, data):
    states = playout(variant, seed)
    state = data.draw(st.sampled_from(states[:-1]))
    before = (state.position(), state.history(), state.current_player())
    legal = set(state.legal_actions())
    action = data.draw(st.integers(-3, NUM_ACTIONS + 3).filter(lambda a: a not in legal))
    with pytest.raises(IllegalMoveError):
        state.apply_action(action)
    text = data.draw(st.text(alphabet="0123456789: pasx-", max_size=8))
    try:
        parsed = state.string_to_action(text)
    except IllegalMoveError:
        pass
    else:
        assert parsed in legal
    assert (state.position(), state.history(), state.current_player()) == before


def test_nothing_is_legal_after_the_end():
    final = playout("basic", 1)[-1]
    with pytest.raises(IllegalMoveError, match="game is over"):
        final.apply_action(PASS)
    assert final.legal_actions() == []


def test_clones_are_independent():
    state = new_state("advanced")
    twin = state.clone()
    twin.apply_move("0:4")
    assert state.position() != twin.position() and state.history() == []


@settings(max_examples=15)
@given(variants, seeds, st.data())
def test_well_formed_illegal_moves_are_refused_with_the_state_unchanged(variant, seed, data):
    states = playout(variant, seed)
    state = data.draw(st.sampled_from(states[:-1]))
    before = (state.position(), state.history(), state.current_player())
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    field = data.draw(st.integers(0, 12))
    count = data.draw(st.integers(1, 30))
    text = data.draw(st.sampled_from([f"{field}:{count}", "pass"]).filter(lambda t: t not in legal))
    with pytest.raises(IllegalMoveError, match="illegal move"):
        state.apply_move(text)
    assert (state.position(), state.history(), state.current_player()) == before


# ----- the length bound ---------------------------------------------------------------


@given(variants, seeds)
def test_every_move_raises_the_progress_value_and_passes_keep_it(variant, seed):
    states = playout(variant, seed)
    for before, after in itertools.pairwise(states):
        if after.history()[-1] == PASS:
            assert progress(after.line) == progress(before.line)
        else:
            assert progress(after.line) > progress(before.line)


@st.composite
def any_lines(draw: st.DrawFn) -> tuple[Variant, Line]:
    """Any position the text accepts, reachable or not: bases, then the other discs
    shuffled and cut into stacks."""
    moving_bases: tuple[Variant, ...] = ("advanced", "expert")
    variant = draw(st.sampled_from(moving_bases))
    size = draw(st.integers(2 if variant == "advanced" else 1, 9))
    if size == 1:
        bases = [draw(st.sampled_from((RED, GREY)))]
    else:
        ends = (
            [RED, RED]
            if variant == "advanced"
            else draw(st.lists(st.sampled_from((RED, GREY)), min_size=2, max_size=2))
        )
        bases = [ends[0], *[GREY] * (size - 2), ends[1]]
    assume(bases.count(GREY) <= 7)  # else too many grey bases for this size
    rest = [WHITE] * 9 + [BLACK] * 9
    rest += [GREY] * (7 - bases.count(GREY)) + [RED] * (2 - bases.count(RED))
    order = draw(st.permutations(rest))
    cuts = sorted(draw(st.lists(st.integers(0, len(order)), min_size=size - 1, max_size=size - 1)))
    bounds = (0, *cuts, len(order))
    fields = tuple(
        base + "".join(order[a:b])
        for base, (a, b) in zip(bases, itertools.pairwise(bounds), strict=True)
    )
    line = parse_position(
        format_position(Line(fields, draw(st.sampled_from((WHITE, BLACK))))), variant
    )
    return variant, line


@given(any_lines())
def test_every_move_from_any_position_raises_the_progress_value(case):
    """The no-repetition argument holds in every position the rules accept, not only in
    those random games reach: every legal move of either colour raises the value."""
    variant, line = case
    for colour in (WHITE, BLACK):
        mover = Line(line.fields, colour)
        for move in legal_moves(mover, colour, variant):
            assert progress(apply_move(mover, move)) > progress(mover)


@pytest.mark.parametrize(("fields", "above"), [(1, 0), (1, 3), (2, 1), (2, 4), (3, 3), (3, 5)])
def test_key_vector_count_covers_every_line(fields, above):
    """Enumerate every line with ``fields`` grey bases and ``above`` discs of W, B and G."""
    keys = set()
    for word in itertools.product("WBG", repeat=above):
        for cuts in itertools.combinations_with_replacement(range(above + 1), fields - 1):
            bounds = (0, *cuts, above)
            stacks = ["G" + "".join(word[a:b]) for a, b in itertools.pairwise(bounds)]
            keys.add(progress(Line(tuple(stacks), WHITE)))
    assert len(keys) <= count_key_vectors(fields, above)


def test_max_game_length_counts_the_progress_values_twice():
    assert count_key_vectors(2, 1) == 5  # (0, 0), (+2, 0), (-2, 0), (0, +2), (0, -2)
    for variant in VARIANTS:
        values = sum(count_key_vectors(n, 27 - n) for n in LINE_SIZES[variant])
        info = stairgames.load("twenty_seven", variant=variant).info()
        assert info.max_game_length == MAX_GAME_LENGTH[variant] == 2 * (values - 1)
    assert MAX_GAME_LENGTH["basic"] == 826_885_544
    assert MAX_GAME_LENGTH["basic"] < MAX_GAME_LENGTH["advanced"] < MAX_GAME_LENGTH["expert"]


def test_the_colour_to_move_is_part_of_a_position():
    line = new_state("basic").line
    assert format_position(line).endswith(" W")
    assert format_position(Line(line.fields, BLACK)).endswith(" B")
