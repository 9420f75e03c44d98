"""Stairs on boards of 3×3 to 8×8 (option ``size``, RULINGS S8): the rules on every size,
the text forms, bad input, the tensors, the web view, and every player to the end."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames import IllegalMoveError, InvalidOptionError, InvalidPositionError
from stairgames.agents import level_player, make_agent
from stairgames.core.registry import get_spec, player_hooks
from stairgames.core.testing import perft
from stairgames.games.stairs import StairsState
from stairgames.games.stairs.game import max_game_length, max_moves
from stairgames.games.stairs.notation import action_codes
from stairgames.games.stairs.play.tensor import TENSOR, observation_tensor
from stairgames.games.stairs.position import format_position
from stairgames.games.stairs.rules import geometry, initial_board, verdict
from stairgames.games.stairs.view.board import board_view

SIZES = (3, 4, 5, 6, 7, 8)
OTHER_SIZES = (3, 4, 5, 7, 8)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
sizes = st.sampled_from(SIZES)


def load(size: int, **options: bool) -> stairgames.Game:
    return stairgames.load("stairs", size=size, **options)


def start(size: int, **options: bool) -> StairsState:
    state = load(size, **options).new_initial_state()
    assert isinstance(state, StairsState)
    return state


def name(square: int, size: int) -> str:
    """The square's name written out here, apart from the engine."""
    return "abcdefgh"[square % size] + str(square // size + 1)


def random_game(size: int, seed: int, **options: bool) -> StairsState:
    state = start(size, **options)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def oracle_moves(stacks: tuple[str, ...], colour: str, size: int) -> set[tuple[int, int]]:
    """S2 + S3 on an n×n board, written out apart from the engine."""
    squares = size * size
    movable = [
        (src, dst)
        for src in range(squares)
        for dst in range(squares)
        if stacks[src]
        and stacks[src][-1] == colour
        and src != dst
        and max(abs(src % size - dst % size), abs(src // size - dst // size)) == 1
        and len(stacks[dst]) == len(stacks[src])
    ]
    if not movable:
        return set()
    lowest = min(len(stacks[src]) for src, _ in movable)
    return {(src, dst) for src, dst in movable if len(stacks[src]) == lowest}


def moves_of(state: StairsState) -> set[tuple[int, int]]:
    size = state.board.size
    found = set()
    for action in state.legal_actions():
        text = state.action_to_string(action)
        if "-" in text:
            source, target = text.split("-")
            found.add(tuple(_index(part, size) for part in (source, target)))
    return found  # type: ignore[return-value]


def _index(square: str, size: int) -> int:
    return (int(square[1]) - 1) * size + "abcdefgh".index(square[0])


# ----- the option ------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_s8_size_option_loads_every_size_from_3_to_8(size):
    game = load(size)
    assert game.options.size == size
    assert game.info().num_distinct_actions == 8 * size * size + 5


def test_s8_default_size_is_the_rulebooks_6x6():
    assert stairgames.load("stairs").options.size == 6
    assert stairgames.load("stairs").new_initial_state().position() == start(6).position()


@pytest.mark.parametrize("bad", [2, 9, 0, -6, 64])
def test_s8_size_outside_3_to_8_is_refused_with_the_range(bad):
    with pytest.raises(InvalidOptionError, match="3 to 8 squares a side, got size=" + str(bad)):
        load(bad)


@pytest.mark.parametrize("bad", ["4", 4.0, True, None])
def test_s8_size_must_be_an_integer(bad):
    with pytest.raises(InvalidOptionError):
        stairgames.load("stairs", size=bad)


def test_s8_size_from_the_command_line_text():
    spec = get_spec("stairs")
    game = stairgames.load("stairs", **{"size": 4})
    assert spec.options_class is type(game.options)
    from stairgames.core.options import build_options

    assert build_options(spec.options_class, "stairs", {"size": "4"}, from_text=True).size == 4
    with pytest.raises(InvalidOptionError, match="expects an integer"):
        build_options(spec.options_class, "stairs", {"size": "four"}, from_text=True)
    with pytest.raises(InvalidOptionError, match="got size=9"):
        build_options(spec.options_class, "stairs", {"size": "9"}, from_text=True)


# ----- set-up (S1 on every size) ---------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_s8_start_has_one_piece_a_square_in_the_checkered_pattern(size):
    board = start(size).board
    assert len(board.stacks) == size * size
    for square, stack in enumerate(board.stacks):
        file, rank = square % size, square // size
        assert stack == ("D" if (file + rank) % 2 == 0 else "L")
    assert board.stacks[0] == "D"  # a1 dark (S1)
    assert board.to_move == "L" and board.last_arrival is None  # light first


@pytest.mark.parametrize("size", SIZES)
def test_s8_piece_counts_on_odd_boards_give_dark_one_more(size):
    board = start(size).board
    squares = size * size
    assert board.count("L") == squares // 2
    assert board.count("D") == squares - squares // 2
    assert board.count("D") - board.count("L") == size % 2


@pytest.mark.parametrize("size", [3, 5, 7])
def test_s8_every_corner_of_an_odd_board_starts_dark(size):
    board = start(size).board
    corners = (0, size - 1, size * (size - 1), size * size - 1)
    assert all(board.stacks[corner] == "D" for corner in corners)


def test_s8_start_texts_of_the_small_boards():
    assert start(3).position() == "D,L,D/L,D,L/D,L,D L -"
    assert start(4).position() == "L,D,L,D/D,L,D,L/L,D,L,D/D,L,D,L L -"


# ----- moves (S2, S3) on every size --------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_s2_first_moves_go_to_every_neighbour_on_the_board_and_never_wrap(size):
    state = start(size)
    expected = set()
    for square in range(size * size):
        file, rank = square % size, square // size
        if (file + rank) % 2 == 0:
            continue  # dark
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                f, r = file + df, rank + dr
                if (df or dr) and 0 <= f < size and 0 <= r < size:
                    expected.add((square, r * size + f))
    assert moves_of(state) == expected
    texts = {state.action_to_string(a) for a in state.legal_actions()}
    assert all(re.fullmatch(f"[a-{'abcdefgh'[size - 1]}][1-{size}]-.*", t) for t in texts)


@pytest.mark.parametrize("size", SIZES)
def test_s2_the_last_square_is_named_by_the_last_file_and_rank(size):
    state = start(size)
    last = name(size * size - 1, size)
    assert last == "abcdefgh"[size - 1] + str(size)
    assert state.board.stacks[size * size - 1] == "D"  # on a1's diagonal
    assert state.board.stacks[size - 1] == ("D" if size % 2 else "L")  # last file, rank 1
    # on the top rank, the last file's square moves only inside the board
    codes = action_codes(size)
    for action in range(codes.pass_action):
        text = codes.texts[action]
        if text is not None and text.startswith(last):
            target = text.split("-")[1]
            assert target in {name(s, size) for s in range(size * size)}


@pytest.mark.parametrize("size", OTHER_SIZES)
def test_s3_only_the_lowest_movable_pieces_move_on_every_size(size):
    state = start(size)
    state.apply_action(state.legal_actions()[0])  # light climbs: height 2 somewhere
    # dark's pieces are all at height 1 with neighbours at height 1: all its moves start
    # at height 1, none from the new stack of height 2 (S3)
    board = state.board
    for source, _ in moves_of(state):
        assert board.height(source) == 1
    assert moves_of(state) == oracle_moves(board.stacks, "D", size)


@pytest.mark.parametrize("size", SIZES)
def test_notation_round_trips_every_action_on_every_size(size):
    codes = action_codes(size)
    for action in range(codes.num_actions):
        text = codes.texts[action]
        if text is None:
            continue
        assert codes.action_from_text(text) == action
        assert codes.format_action(action) == text
    assert codes.words == {
        8 * size * size: "pass",
        8 * size * size + 1: "swap",
        8 * size * size + 2: "offer",
        8 * size * size + 3: "accept",
        8 * size * size + 4: "decline",
    }


@pytest.mark.parametrize("size", SIZES)
def test_string_to_action_inverts_action_to_string_on_every_size(size):
    state = start(size, pie_rule=True)
    rng = random.Random(size)
    while not state.is_terminal():
        for action in state.legal_actions():
            assert state.string_to_action(state.action_to_string(action)) == action
        state.apply_action(rng.choice(state.legal_actions()))


# ----- the end and the winner (S4, S5) on every size --------------------------------


def s5_oracle(state: StairsState) -> str:
    """S5 from the replayed history, apart from the engine's verdict: the winning colour."""
    size = state.board.size
    stacks = [("D" if (s % size + s // size) % 2 == 0 else "L") for s in range(size * size)]
    last_arrival = None
    codes = action_codes(size)
    for action in state.history():
        if action >= codes.pass_action:
            continue
        text = codes.texts[action]
        assert text is not None
        source, target = (_index(part, size) for part in text.split("-"))
        peak = max(len(s) for s in stacks)
        piece = stacks[source][-1]
        stacks[source] = stacks[source][:-1]
        stacks[target] += piece
        if len(stacks[target]) >= peak:
            last_arrival = piece
    peak = max(len(s) for s in stacks)
    light = sum(1 for s in stacks if len(s) == peak and s[-1] == "L")
    dark = sum(1 for s in stacks if len(s) == peak and s[-1] == "D")
    if light != dark:
        return "L" if light > dark else "D"
    assert last_arrival is not None
    return "D" if last_arrival == "L" else "L"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("seed", range(8))
def test_s4_s5_games_end_when_neither_can_move_and_s5_names_the_winner(size, seed):
    state = random_game(size, seed, agreement=False)
    board = state.board
    assert not oracle_moves(board.stacks, "L", size)
    assert not oracle_moves(board.stacks, "D", size)
    winner = s5_oracle(state)
    assert state.returns()[state.seat_of(winner)] == 1.0
    found = verdict(board)
    assert found is not None and found.winner == winner


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.slow
def test_s4_a_blocked_player_passes_on_every_size(size):
    passes = 0
    for seed in range(40):
        state = start(size, agreement=False)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            board = state.board
            if not oracle_moves(board.stacks, board.to_move, size):
                assert actions == [action_codes(size).pass_action]
                passes += 1
            state.apply_action(rng.choice(actions))
    assert passes > 0


def test_s5_a_3x3_game_to_the_end_by_hand():
    """A whole 3×3 game, checked move by move by hand (first legal action each turn).

    Start (dark on a1, c1, b2, a3, c3; light on b1, a2, c2, b3)::

        3  D L D
        2  L D L
        1  D L D
           a b c
    """
    state = start(3, agreement=False)
    state.apply_move("b1-a1")  # light climbs to 2 on a1
    state.apply_move("b2-c1")  # dark climbs to 2 on c1: the last arrival at height 2
    assert state.position() == "D,L,D/L,.,L/DL,.,DD L D"
    # light's lowest movable pieces are at height 1: a2, c2 and b3 (S3)
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        "a2-a3", "a2-b3", "c2-c3", "c2-b3", "b3-c3", "b3-c2", "b3-a2", "b3-a3",
    ]  # fmt: skip
    state.apply_move("a2-a3")
    # dark: c3 (height 1) may climb onto b3 or c2; c1 (height 2) has no neighbour at 2
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["c3-c2", "c3-b3"]
    state.apply_move("c3-c2")
    # light: a1 and a3 at 2, b3 at 1, and no neighbour of the same height: pass (S4)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["pass"]
    state.apply_move("pass")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["c1-c2", "c2-c1"]
    state.apply_move("c1-c2")  # dark reaches height 3; nobody can move any more (S4)
    assert state.is_terminal()
    assert state.position() == "DL,L,./.,.,LDD/DL,.,D L D"
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.reason == "Dark wins: only they reached height 3"


# ----- properties along random playouts (hypothesis) ---------------------------------


def level_sum(stacks: tuple[str, ...]) -> int:
    return sum(len(s) * (len(s) + 1) // 2 for s in stacks)


@settings(max_examples=40, deadline=None)
@given(sizes, seeds, st.booleans())
def test_pieces_stay_and_each_move_raises_one_piece_one_level(size, seed, pie_rule):
    state = start(size, pie_rule=pie_rule)
    shape = geometry(size)
    rng = random.Random(seed)
    peak = 1
    moves = 0
    while not state.is_terminal():
        before = state.board
        state.apply_action(rng.choice(state.legal_actions()))
        after = state.board
        assert (after.count("L"), after.count("D")) == (shape.light_pieces, shape.dark_pieces)
        assert after.max_height() >= peak  # the greatest height never falls
        peak = after.max_height()
        if after.stacks != before.stacks:
            moves += 1
            assert level_sum(after.stacks) == level_sum(before.stacks) + 1
    assert moves <= max_moves(size)
    assert len(state.history()) <= max_game_length(size)


@settings(max_examples=40, deadline=None)
@given(sizes, seeds, st.booleans())
@pytest.mark.slow
def test_legal_moves_match_an_independent_reading_on_every_size(size, seed, pie_rule):
    state = start(size, pie_rule=pie_rule, agreement=False)
    rng = random.Random(seed)
    while not state.is_terminal():
        board = state.board
        assert moves_of(state) == oracle_moves(board.stacks, board.to_move, size)
        state.apply_action(rng.choice(state.legal_actions()))


@settings(max_examples=40, deadline=None)
@given(sizes, seeds, st.booleans())
def test_position_and_clone_round_trip_along_a_playout(size, seed, pie_rule):
    game = load(size, pie_rule=pie_rule)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while True:
        text = state.position()
        again = game.state_from_position(text)
        assert again.position() == text
        assert again == state
        assert again.legal_actions() == state.legal_actions()
        assert again.current_player() == state.current_player()
        twin = state.clone()
        assert twin == state and twin.position() == text
        assert eval(repr(state), {"stairgames": stairgames}) == state  # repr pastes back
        if state.is_terminal():
            assert again.returns() == state.returns()
            break
        state.apply_action(rng.choice(state.legal_actions()))
        assert twin.position() == text  # the clone stays where it was


@settings(max_examples=40, deadline=None)
@given(sizes, seeds)
def test_position_text_says_its_size(size, seed):
    state = random_game(size, seed)
    board_text = state.position().split()[0]
    ranks = board_text.split("/")
    assert len(ranks) == size and all(len(rank.split(",")) == size for rank in ranks)
    for other in SIZES:
        if other != size:
            with pytest.raises(InvalidPositionError, match=f"is a {size}×{size} board"):
                load(other).state_from_position(state.position())


# ----- bad input ----------------------------------------------------------------------


def test_old_6x6_position_on_a_4x4_game_is_refused_with_both_sizes():
    text = start(6).position()
    with pytest.raises(InvalidPositionError, match=r"is a 6×6 board, .* played on 4×4"):
        load(4).state_from_position(text)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("D,L,D/L,D,L L -", "must have 3 ranks"),
        ("D,L,D/L,D,L/D,L L -", "rank 1 must have 3 squares"),
        ("D,L,D/L,D,L/D,L,D,L L -", "rank 1 must have 3 squares"),
        ("D,L,D/L,D,D/D,L,D L -", "has 3 light pieces; there are always 4 on a 3×3 board"),
        ("D,L,D/L,.,L/LDD,.,D L D", "the bottom piece of a1 must be D"),
        ("L,D,L/D,L,D/L,D,L L -", "has 5 light pieces; there are always 4 on a 3×3 board"),
    ],
)
def test_a_3x3_position_that_does_not_fit_the_board_is_refused(text, match):
    with pytest.raises(InvalidPositionError, match=match):
        load(3).state_from_position(text)


@pytest.mark.parametrize("size", OTHER_SIZES)
def test_a_move_off_the_board_is_malformed_and_leaves_the_state_untouched(size):
    state = start(size)
    before = (state.position(), state.history())
    outside = "abcdefghi"[size] + "1"
    with pytest.raises(IllegalMoveError, match=f"files a-{'abcdefgh'[size - 1]}, ranks 1-{size}"):
        state.apply_move(f"{outside}-a1")
    with pytest.raises(IllegalMoveError):
        state.apply_move(f"a{size + 1}-a{size}" if size < 8 else "a9-a8")
    with pytest.raises(IllegalMoveError):
        state.apply_action(action_codes(size).num_actions)
    assert (state.position(), state.history()) == before


# ----- drawing, web view, tensors -------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_terminal_drawing_shows_the_board_of_the_size(size):
    lines = str(start(size)).splitlines()
    files = "abcdefgh"[:size]
    assert lines[0].split() == list(files) == lines[size + 1].split()
    assert [line.split()[0] for line in lines[1 : size + 1]] == [str(r) for r in range(size, 0, -1)]
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize("size", SIZES)
def test_web_view_draws_the_board_the_size_says(size):
    view = board_view(start(size), None)
    assert view["size"] == size
    assert view["files"] == "abcdefgh"[:size] and view["ranks"] == "12345678"[:size]
    assert [square["name"] for square in view["squares"]] == [
        name(s, size) for s in range(size * size)
    ]


@pytest.mark.parametrize("size", SIZES)
def test_tensor_shape_is_fixed_by_the_size(size):
    game = load(size)
    shape = TENSOR.shape(game)
    assert shape == (2 * size * size + 10, size, size)
    assert sum(count for _, count in TENSOR.layout(game)) == shape[0]
    state = random_game(size, 5)
    for seat in (0, 1):
        tensor = observation_tensor(state, seat)
        assert tensor.shape == shape
        assert tensor[: 2 * size * size].sum() == size * size  # every piece once
    assert TENSOR.image is not None
    assert TENSOR.image(state).shape == (12 * size, 12 * size, 3)


def test_tensor_of_the_6x6_board_is_unchanged():
    assert TENSOR.shape(stairgames.load("stairs")) == (82, 6, 6)


# ----- players -------------------------------------------------------------------------


def quick(level: str, game: stairgames.Game) -> str:
    """The level's player with its time cut to 0.02 s a move (the same code paths)."""
    return re.sub(r"time=[0-9.]+", "time=0.02", level_player(level, game))


PLAYERS = [
    "random",
    "greedy",
    "mcts:iterations=16",
    "mcts:iterations=16,endgame=0.8",
    "alphabeta:depth=2",
    "alphabeta:time=0.02,endgame=0.8",
]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.slow
def test_every_player_plays_every_size_to_the_end(size, player):
    game = load(size)
    agents = [make_agent(player, 0, seed=1), make_agent("random", 1, seed=2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0])


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
@pytest.mark.slow
def test_every_level_plays_every_size_to_the_end(size, level):
    game = load(size)
    spec = quick(level, game)
    agents = [make_agent(spec, seat, seed=seat) for seat in (0, 1)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0])


def test_the_levels_themselves_play_a_3x3_game():
    game = load(3)
    for level in ("easy", "medium", "hard", "expert"):
        agents = [make_agent(level, 0, seed=0), make_agent("random", 1, seed=1)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].act(state))
        assert state.is_terminal()


@pytest.mark.parametrize("size", OTHER_SIZES)
def test_compiled_search_declines_other_sizes_and_mcts_searches_the_protocol(size):
    hooks = player_hooks("stairs")
    state = start(size)
    assert hooks.tree_search is not None and hooks.tree_search(state) is None
    agent = make_agent("mcts:iterations=20", 0, seed=3)
    assert agent.act(state) in state.legal_actions()
    assert agent.last_compiled is False  # type: ignore[attr-defined]


def test_compiled_search_still_serves_the_6x6_board():
    hooks = player_hooks("stairs")
    assert hooks.tree_search is not None and hooks.tree_search(start(6)) is not None


@pytest.mark.parametrize("size", OTHER_SIZES)
def test_endgame_solver_proves_nothing_on_other_sizes(size):
    hooks = player_hooks("stairs")
    assert hooks.endgame_solver is not None
    state = random_game(size, 1, agreement=False)
    # a position one move from the end, where the 6×6 solver would prove at once
    replay = start(size, agreement=False)
    for action in state.history()[:-1]:
        replay.apply_action(action)
    assert hooks.endgame_solver().prove(replay) == {}


@pytest.mark.parametrize("size", OTHER_SIZES)
def test_playout_hook_plays_other_sizes_through_the_protocol(size):
    hooks = player_hooks("stairs")
    assert hooks.playout is not None
    state = start(size)
    before = state.position()
    results = {tuple(hooks.playout(state, random.Random(seed))) for seed in range(20)}
    assert results <= {(1.0, -1.0), (-1.0, 1.0)}
    assert state.position() == before


@pytest.mark.parametrize("size", OTHER_SIZES)
def test_evaluation_works_on_every_size(size):
    evaluate = player_hooks("stairs").evaluate
    assert evaluate is not None
    state = start(size)
    rng = random.Random(size)
    while not state.is_terminal():
        for seat in (0, 1):
            assert -1.0 <= evaluate(state, seat) <= 1.0
        state.apply_action(rng.choice(state.legal_actions()))


# ----- OpenSpiel ------------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 5, 8])
def test_openspiel_random_sim_test_on_more_sizes(size):
    pyspiel = pytest.importorskip("pyspiel")
    from stairgames.interop import openspiel as bridge

    game = bridge.load_game("stairs", size=size)
    assert game.num_distinct_actions() == 8 * size * size + 5
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    bridge.register_all()
    loaded = pyspiel.load_game(f"stairgames_stairs(size={size})")
    assert loaded.new_initial_state().inner.board.size == size


def test_initial_board_of_each_size_formats_to_its_start_text():
    for size in SIZES:
        assert format_position(initial_board(size)) == start(size).position()


# ----- the command line and records ---------------------------------------------------


@pytest.mark.parametrize("flag", [["--size", "4"], ["--option", "size=4"]])
def test_cli_plays_a_4x4_game_and_its_record_replays(flag, tmp_path, capsys):
    from stairgames.cli import main
    from stairgames.core.record import GameRecord, final_state

    path = tmp_path / "small.json"
    argv = ["play", "stairs", *flag, "--light", "random", "--dark", "greedy", "--seed", "3"]
    assert main([*argv, "--record", str(path), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "      a   b   c   d  \n  4 " in out and "Game over." in out
    record = GameRecord.from_json(path.read_text())
    assert record.options["size"] == 4
    replayed = final_state(record)
    assert isinstance(replayed, StairsState) and replayed.board.size == 4
    assert replayed.is_terminal()


def test_cli_refuses_a_size_outside_the_range(capsys):
    from stairgames.cli import main

    assert main(["play", "stairs", "--size", "9", "--light", "random"]) == 2
    assert "3 to 8 squares a side, got size=9" in capsys.readouterr().err


def test_a_record_without_the_size_option_replays_on_6x6():
    import json

    from stairgames.core.record import GameRecord, final_state, make_record

    state = random_game(6, 11)
    data = json.loads(make_record(state, seed=11).to_json())
    del data["options"]["size"]
    replayed = final_state(GameRecord.from_json(json.dumps(data)))
    assert replayed.position() == state.position()


# ----- move-tree sizes (perft) ----------------------------------------------------------


def oracle_perft(stacks: tuple[str, ...], colour: str, depth: int, size: int) -> int:
    """Perft from plain stacks with the oracle generator, passes (S4) and the end included."""
    if depth == 0:
        return 1
    other = "D" if colour == "L" else "L"
    moves = oracle_moves(stacks, colour, size)
    if not moves:
        if not oracle_moves(stacks, other, size):
            return 1  # the game is over
        return oracle_perft(stacks, other, depth - 1, size)
    total = 0
    for src, dst in moves:
        after = list(stacks)
        after[dst] += after[src][-1]
        after[src] = after[src][:-1]
        total += oracle_perft(tuple(after), other, depth - 1, size)
    return total


@pytest.mark.parametrize(
    ("size", "counts"),
    [
        (3, [20, 248, 1232, 2104, 4712, 6520]),
        (4, [42, 1396, 31096]),
        (5, [72, 4508]),
        (8, [210, 41948]),
    ],
)
@pytest.mark.slow
def test_perft_from_the_start_of_each_size(size, counts):
    """Move-tree sizes from the start (moves of play: no agreement), pinned and checked
    against the independent generator; on 3×3 the deeper counts include finished games."""
    state = start(size, agreement=False)
    depths = range(1, len(counts) + 1)
    assert [perft(state, d) for d in depths] == counts
    assert [oracle_perft(state.board.stacks, "L", d, size) for d in depths] == counts


# ----- fuzzing the text forms on every size ----------------------------------------------

cells = st.sampled_from([".", "L", "D", "LD", "DL", "DD", "LL", "DLD", "LDL"])


@st.composite
def board_texts(draw: st.DrawFn) -> str:
    """Position-like texts: boards of 2 to 9 ranks (mostly square), the usual fields after."""
    ranks = draw(st.integers(min_value=2, max_value=9))
    width = draw(st.sampled_from([ranks, ranks, ranks, ranks - 1, ranks + 1]))
    rows = [",".join(draw(st.lists(cells, min_size=width, max_size=width))) for _ in range(ranks)]
    fields = [
        "/".join(rows),
        draw(st.sampled_from(["L", "D"])),
        draw(st.sampled_from(["-", "L", "D"])),
    ]
    return " ".join(fields)


@settings(max_examples=150, deadline=None)
@given(sizes, board_texts())
@pytest.mark.slow
def test_any_accepted_position_text_is_a_fixed_point_and_bad_ones_raise_position_errors(size, text):
    game = load(size)
    try:
        state = game.state_from_position(text)
    except InvalidPositionError:
        return
    assert isinstance(state, StairsState) and state.board.size == size
    again = game.state_from_position(state.position())
    assert again.position() == state.position()


@settings(max_examples=40, deadline=None)
@given(sizes, seeds, st.text(max_size=8))
def test_illegal_and_malformed_input_leaves_the_state_unchanged_on_every_size(size, seed, text):
    rng = random.Random(seed)
    state = start(size, pie_rule=True)
    for _ in range(rng.randrange(0, 30)):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    snapshot = (state.position(), state.history(), state.is_terminal())
    legal_texts = {state.action_to_string(a) for a in state.legal_actions()}
    if "".join(text.split()).lower() not in legal_texts:
        with pytest.raises(IllegalMoveError):
            state.apply_move(text)
    codes = action_codes(size)
    illegal = [a for a in range(-2, codes.num_actions + 2) if a not in state.legal_actions()]
    with pytest.raises(IllegalMoveError):
        state.apply_action(rng.choice(illegal))
    assert snapshot == (state.position(), state.history(), state.is_terminal())
