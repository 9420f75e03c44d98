"""Ishigaki Race over random playouts: invariants, text round-trips, records, conformance."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames import InvalidPositionError
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.record import final_state, make_record, replay
from stairgames.core.registry import get_spec
from stairgames.core.testing import check_game
from stairgames.games.ishigaki_race import IshigakiRaceState, Phase
from stairgames.games.ishigaki_race.position import format_position, parse_position

OPTION_SETS = get_spec("ishigaki_race").option_sets


def new_game(players: int, crumbling: bool, **more: object) -> stairgames.Game:
    return stairgames.load("ishigaki_race", players=players, crumbling_wall=crumbling, **more)


def check_invariants(state: IshigakiRaceState) -> None:
    """Nobody below start or above the goal, nobody resting on a "−2" square, and each
    phase's facts about the goal."""
    board = state.board
    race = state.race
    on_goal = {s for s, h in enumerate(race.heights) if h == board.goal}
    assert all(0 <= h <= board.goal for h in race.heights), race.heights
    assert not set(race.heights) & board.crumbling, race.heights
    if race.phase in (Phase.SETUP, Phase.RACE):
        assert not on_goal
    if race.phase == Phase.GOAL:
        assert set(race.arrived) == on_goal and race.turn not in on_goal
    if race.phase == Phase.ROLLOFF:
        assert set(race.rollers) <= on_goal and len(race.rollers) >= 2
    if race.phase == Phase.OVER:
        assert race.winner in on_goal


def random_game(game: stairgames.Game, seed: int) -> IshigakiRaceState:
    """A random game to the end, checking the invariants and the position text at each step,
    and that a ninja on the goal never leaves it."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, IshigakiRaceState)
    players = game.num_players()
    reached: set[int] = set()
    while not state.is_terminal():
        check_invariants(state)
        on_goal = {s for s, h in enumerate(state.heights()) if h == state.board.goal}
        assert reached <= on_goal, (reached, state.heights())
        reached = on_goal
        text = format_position(state.race)
        start_given = game.options.first_player is not None
        assert parse_position(text, state.board, players, start_given=start_given) == state.race
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    check_invariants(state)
    return state


PLAYERS_AND_WALLS = [(players, crumbling) for players in (2, 3, 4) for crumbling in (False, True)]


@pytest.mark.parametrize(("players", "crumbling"), PLAYERS_AND_WALLS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_ninja_on_the_wall_and_end_with_one_winner(
    players, crumbling, seed
):
    state = random_game(new_game(players, crumbling), seed)
    returns = state.returns()
    assert sorted(returns) == [0.0] * (players - 1) + [1.0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (returns.index(1.0),)
    assert state.move_number() <= state.get_game().info().max_game_length


@pytest.mark.parametrize(("players", "crumbling"), PLAYERS_AND_WALLS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_records_of_random_games_replay_exactly(players, crumbling, seed):
    state = random_game(new_game(players, crumbling), seed)
    record = make_record(state, seed=seed)
    loaded = type(record).from_json(record.to_json())
    replayed = final_state(loaded)
    assert replayed.history_strings() == state.history_strings()
    assert replayed.position() == state.position()
    assert replayed.returns() == state.returns()
    # Every position along the way, from the record's text, matches the game's own actions.
    again = state.get_game().new_initial_state()
    expected = [again.position()]
    for action in state.history():
        again.apply_action(action)
        expected.append(again.position())
    assert [s.position() for _, s in replay(loaded)] == expected


@settings(max_examples=8, deadline=None)
@given(
    goal=st.integers(4, 12),
    squares=st.sets(st.integers(1, 11), max_size=6),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_games_on_any_valid_board_respect_the_wall(goal, squares, seed):
    squares = tuple(sorted(s for s in squares if s < goal))
    game = stairgames.load(
        "ishigaki_race", players=3, goal=goal, crumbling_wall=True, crumbling_squares=squares
    )
    state = random_game(game, seed)
    assert sum(state.returns()) == 1.0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_state_along_a_game_reads_back_from_its_position(seed):
    game = new_game(3, True, first_player=1)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        again = game.state_from_position(state.position())
        assert again.position() == state.position()
        assert again.current_player() == state.current_player()
        assert again.legal_actions() == state.legal_actions()
        assert again.chance_outcomes() == state.chance_outcomes()
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_conformance_check_for_every_option_set(options):
    check_game(stairgames.load("ishigaki_race", **options), games=4, seed=3)


@pytest.mark.slow
def test_conformance_check_with_a_given_start_player_and_a_small_board():
    check_game(
        stairgames.load(
            "ishigaki_race",
            players=4,
            first_player=2,
            goal=8,
            crumbling_wall=True,
            crumbling_squares=(2, 4, 5, 7),
        ),
        games=4,
        seed=5,
    )


def test_the_option_sets_cover_2_3_4_players_with_and_without_the_crumbling_wall():
    assert {(o["players"], o["crumbling_wall"]) for o in OPTION_SETS} == {
        (p, c) for p in (2, 3, 4) for c in (False, True)
    }


def test_length_report_measures_games_and_extends_their_tail():
    from stairgames.games.ishigaki_race.research.lengths import length_report, tail_scale

    game = stairgames.load("ishigaki_race", players=2, first_player=0)
    stop = length_report(game, games=50, seed=2, policy="always_stop")
    # Always stopping climbs at least 1 step a turn and never falls: within 20 turns of each
    # seat (2 actions a turn) red has arrived and blue has played its goal-round turn.
    assert stop.longest <= 20 * 2 * 2
    assert stop.bound == 40_000 and stop.log10_chance_beyond_bound < -100
    assert tail_scale(list(range(1000))) == pytest.approx(4.5)
    assert tail_scale([7] * 100) == 1.0


_SEATS = ("red", "blue", "yellow")


def _names(draw: st.DrawFn, seats: list[int]) -> str:
    """Seats as names, now and then spoiled by an unknown or repeated name."""
    names = [_SEATS[s] for s in seats]
    spoil = draw(st.sampled_from(["", "", "", "", "", "", "", "", "green", "repeat"]))
    if spoil == "green":
        names.append("green")
    elif spoil == "repeat" and names:
        names.append(names[0])
    return ",".join(names)


@st.composite
def position_texts(draw: st.DrawFn) -> str:
    """Texts shaped like 3-player positions: many possible, many subtly impossible."""
    phase = draw(st.sampled_from(["setup", "race", "goal", "rolloff", "over"]))
    steps = st.sampled_from([0, 0, 3, 5, 7, 19, 20, 20, 20, 21])
    heights = draw(st.lists(steps, min_size=3, max_size=3))
    on_goal = [s for s, h in enumerate(heights) if h == 20]
    fields = [f"ninjas={','.join(map(str, heights))}"]
    turn = draw(st.integers(0, 2))
    rollers = list(draw(st.permutations(on_goal))) if len(on_goal) > 1 else [0, 1]
    scored = draw(st.integers(0, len(rollers)))
    if phase == "rolloff" and draw(st.booleans()):
        turn = rollers[min(scored, len(rollers) - 1)]
    elif phase == "goal" and draw(st.booleans()):
        turn = draw(st.sampled_from([s for s in range(3) if s not in on_goal] or [0]))
    if phase in ("race", "goal", "rolloff"):
        fields.append(f"turn={_SEATS[turn]}")
        die = draw(st.sampled_from([1, 2, 3, 4, 5, 6, 0, 7]))
        fields.append(f"dice={draw(st.sampled_from(['-', str(die), f'{die},?']))}")
    if phase == "goal":
        arrived = draw(st.permutations(on_goal)) if on_goal else [0]
        fields.append(f"arrived={_names(draw, list(arrived))}")
        left = [turn]
        while (left[-1] + 1) % 3 != arrived[0] and len(left) < 3:
            left.append((left[-1] + 1) % 3)
        if draw(st.integers(0, 3)) == 0:
            left = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3))
        fields.append(f"left={_names(draw, left)}")
    if phase == "rolloff":
        scores = st.sampled_from([*range(13), 13])
        parts = [
            f"{_SEATS[seat]}:{draw(scores)}" if i < scored else _SEATS[seat]
            for i, seat in enumerate(rollers)
        ]
        fields.append(f"rollers={','.join(parts)}")
    if phase == "over":
        fields.append(f"winner={_SEATS[turn]}")
    return " ".join([phase, *fields])


@settings(max_examples=300, deadline=None)
@given(text=position_texts(), crumbling=st.booleans())
def test_any_accepted_position_text_prints_back_the_same_and_others_are_refused(text, crumbling):
    game = new_game(3, crumbling)
    try:
        state = game.state_from_position(text)
    except InvalidPositionError:
        return
    assert state.position() == text
    assert isinstance(state, IshigakiRaceState)
    check_invariants(state)


def test_a_whole_scripted_game_from_the_draw_to_a_rolloff():
    game = stairgames.load("ishigaki_race", goal=6, crumbling_wall=True, crumbling_squares=(3,))
    state = game.new_initial_state()
    moves = [
        "start:1",
        "die:4",
        "stop",  # blue climbs 2: step 2
        "die:2",
        "roll",
        "die:5",  # red climbs 3 (sum 7): 3 is crumbling, drops to 1
        "die:3",
        "roll",
        "die:3",  # doubles: blue, highest at 2, falls to 0
        "die:6",
        "roll",
        "die:5",  # red slips from 1 to 0
        "die:5",
        "roll",
        "die:6",  # blue climbs 6 (sum 11): on the goal
        "die:6",
        "roll",
        "die:4",  # red slips again: the goal round is over, blue alone
    ]
    for move in moves[:-3]:
        state.apply_move(move)
    assert state.position() == "goal ninjas=0,6 turn=red dice=- arrived=blue left=red"
    for move in moves[-3:]:
        state.apply_move(move)
    assert state.position() == "over ninjas=0,6 winner=blue"
    assert state.returns() == [0.0, 1.0]
    assert state.history_strings() == moves
    replayed = final_state(type(make_record(state)).from_json(make_record(state).to_json()))
    assert replayed.position() == state.position()
