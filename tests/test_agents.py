"""Computer players on every registered game: legal play, repeatable choices, forced wins,
no use of hidden information, the text forms of players and the levels."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.agents import (
    DEFAULT_LEVELS,
    LEVEL_NAMES,
    Agent,
    AlphaBetaAgent,
    Determiniser,
    MctsAgent,
    level_player,
    make_agent,
    parse_player_spec,
    player_kinds,
)
from stairgames.agents.evaluation import evaluator_for, find_evaluator
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import State
from stairgames.core.registry import get_spec, player_hooks

GAMES_AND_OPTIONS = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]

QUICK_PLAYERS = ["random", "greedy", "mcts:iterations=8"]


def play_out(
    game: stairgames.Game, players: list[Agent], seed: int, max_moves: int | None = None
) -> State:
    """Play a game (or its first ``max_moves`` actions); every action chosen must be legal."""
    state = game.new_initial_state()
    chance = random.Random(seed)
    while not state.is_terminal():
        if max_moves is not None and state.move_number() >= max_moves:
            break
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, chance))
            continue
        seat = state.current_player()
        action = players[seat].act(state)  # act refuses an illegal choice
        state.apply_action(action)
    return state


def two_perfect(game: stairgames.Game) -> bool:
    info = game.info()
    return info.num_players == 2 and not info.chance and not info.hidden_information


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
@pytest.mark.parametrize("player", QUICK_PLAYERS)
def test_every_player_completes_every_game_without_an_illegal_move(name, options, player):
    game = stairgames.load(name, **options)
    players = [make_agent(player, s, seed=s + 1) for s in range(game.num_players())]
    assert play_out(game, players, seed=3).is_terminal()


@pytest.mark.parametrize("name", stairgames.game_names())
def test_a_level_completes_a_game_against_random(name):
    game = stairgames.load(name)
    players = [make_agent("easy" if s == 0 else "random", s, seed=s) for s in range(2)]
    players += [make_agent("random", s, seed=s) for s in range(2, game.num_players())]
    assert play_out(game, players, seed=2).is_terminal()


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_alphabeta_plays_two_player_perfect_information_games_and_refuses_others(name, options):
    game = stairgames.load(name, **options)
    if not two_perfect(game):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        with pytest.raises(InvalidOptionError, match="use mcts"):
            AlphaBetaAgent(state.current_player(), time_limit=0.05).step(state)
        return
    players = [make_agent("alphabeta:time=0.01,depth=2", s, seed=s) for s in range(2)]
    assert play_out(game, players, seed=1).is_terminal()


# ----- repeatable -------------------------------------------------------------


@pytest.mark.parametrize("name", stairgames.game_names())
@pytest.mark.parametrize("player", ["random", "greedy", "mcts:iterations=20"])
@pytest.mark.slow
def test_a_seed_makes_the_choices_repeatable(name, player):
    game = stairgames.load(name)
    first = [make_agent(player, s, seed=42 + s) for s in range(game.num_players())]
    second = [make_agent(player, s, seed=42 + s) for s in range(game.num_players())]
    played = play_out(game, first, 5, max_moves=30).history()
    assert played == play_out(game, second, 5, max_moves=30).history()
    other = [make_agent(player, s, seed=7 + s) for s in range(game.num_players())]
    if player != "greedy":  # greedy only draws lots between equal values
        assert played != play_out(game, other, 5, max_moves=30).history()


# ----- forced wins ------------------------------------------------------------

FORCED_WINS = [
    # (position, moves that win; found by random play, proven below by full search)
    (
        "LD,.,LDD,.,.,D/.,L,.,.,.,LLD/.,DL,LL,D,.,DL/DLL,.,DLD,.,DDD,./"
        ".,DLL,.,.,LL,./D,.,.,L,DD,L L D",
        {"e2-e1"},
    ),
    (
        "LL,D,LLD,.,LDL,D/.,.,DDD,.,.,./L,.,.,DLD,.,DL/.,LL,.,LD,DLL,./"
        "LD,.,.,.,.,D/DD,LD,.,.,DLL,. D L",
        {"a1-b1", "b1-a1"},
    ),
    (
        "LD,.,L,.,L,DL/D,.,DD,LD,DDL,./LLL,.,.,.,LDD,./DL,L,.,.,D,./"
        ".,.,LLD,DLD,.,./.,L,DDL,.,DL,. L D",
        {"e5-e4"},
    ),
]


def solve(state: State, seat: int) -> float:
    """Exact minimax value for ``seat`` (small endgames only)."""
    if state.is_terminal():
        return state.returns()[seat]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(solve(child, seat))
    return max(values) if state.current_player() == seat else min(values)


def winning_moves(state: State) -> set[str]:
    """The moves of play that win by force (offers to end by agreement, S7, aside)."""
    state = state.without_agreement()
    seat = state.current_player()
    wins = set()
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        if solve(child, seat) > 0:
            wins.add(state.action_to_string(action))
    return wins


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_the_forced_win_positions_are_what_they_claim(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    assert winning_moves(state) == wins
    assert len(state.legal_actions()) > len(wins)


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_mcts_finds_the_forced_win(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    for seed in range(3):
        agent = MctsAgent(state.current_player(), seed=seed, time_limit=None, iterations=3000)
        assert state.action_to_string(agent.act(state)) in wins


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_mcts_without_the_solver_finds_the_forced_win(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    agent = MctsAgent(
        state.current_player(), seed=1, time_limit=None, iterations=3000, solver=False
    )
    assert state.action_to_string(agent.act(state)) in wins


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_alphabeta_finds_the_forced_win(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    agent = AlphaBetaAgent(state.current_player(), seed=0, time_limit=None, max_depth=16)
    assert state.action_to_string(agent.act(state)) in wins
    assert agent.last_depth <= 16


def test_mcts_takes_an_immediate_win_at_once():
    """With ``decisive`` on, a move that wins at once is played even with one iteration."""
    game = stairgames.load("stairs")
    rng = random.Random(8)
    for _ in range(200):
        state = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            finishing = [a for a in legal if _ends_with_win(state, a, seat)]
            if finishing and len(finishing) < len(legal):
                agent = MctsAgent(seat, seed=0, time_limit=None, iterations=1)
                assert agent.act(state) in finishing
                assert agent.last_iterations == 0
                return
            state.apply_action(rng.choice(legal))
    raise AssertionError("no position with an immediately winning move was reached")


def _ends_with_win(state: State, action: int, seat: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    return child.is_terminal() and child.returns()[seat] > 0


# ----- hidden information -----------------------------------------------------

HIDDEN_GAMES = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
    if stairgames.load(name, **options).info().hidden_information
]


def _midgame(game: stairgames.Game, seed: int, moves: int) -> State:
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal() and state.move_number() < moves:
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(sample_chance_outcome(state, rng))
    return state


def _twin_with_other_hidden_data(state: State, seat: int) -> State | None:
    """A state the seat cannot tell from ``state`` whose hidden data differ."""
    worlds = Determiniser(state, seat, pool_size=200)
    rng = random.Random(0)
    for _ in range(200):
        twin = worlds.sample(rng)
        if twin.position() != state.position():
            return twin
    return None


@pytest.mark.skipif(not HIDDEN_GAMES, reason="no registered game has hidden information yet")
@pytest.mark.parametrize(("name", "options"), HIDDEN_GAMES)
@pytest.mark.parametrize("player", ["greedy", "mcts:iterations=40"])
def test_a_choice_does_not_change_when_only_hidden_information_changes(name, options, player):
    game = stairgames.load(name, **options)
    checked = 0
    for seed in range(12):
        state = _midgame(game, seed, moves=20 + 7 * seed)
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player()
        twin = _twin_with_other_hidden_data(state, seat)
        if twin is None:
            continue
        assert twin.observation_string(seat) == state.observation_string(seat)
        assert twin.legal_actions() == state.legal_actions()
        choice = make_agent(player, seat, seed=9).act(state)
        assert make_agent(player, seat, seed=9).act(twin) == choice
        checked += 1
    assert checked > 0, "no position with hidden data to vary was reached"


def test_perfect_information_determinisation_is_a_plain_copy():
    state = stairgames.load("stairs").new_initial_state()
    world = Determiniser(state, 0).sample(random.Random(1))
    assert world is not state and world.position() == state.position()


# ----- text forms, settings, levels ------------------------------------------


def test_player_kinds_include_the_algorithms_and_the_levels():
    kinds = set(player_kinds())
    assert {"random", "greedy", "mcts", "alphabeta", *LEVEL_NAMES} <= kinds


def test_player_spec_parsing():
    assert parse_player_spec("mcts:time=0.5,c=1.2") == ("mcts", {"time": "0.5", "c": "1.2"})
    assert parse_player_spec(" Random ") == ("random", {})
    with pytest.raises(InvalidOptionError, match="NAME=VALUE"):
        parse_player_spec("mcts:time")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("wizard", "unknown player 'wizard'"),
        ("mcts:speed=3", "unknown setting"),
        ("mcts:time=fast", "not a number"),
        ("mcts:iterations=0", "at least 1"),
        ("greedy:noise=2", "between 0 and 1"),
        ("random:x=1", "unknown setting"),
        ("hard:time=1", "unknown setting"),
    ],
)
def test_bad_player_specs_are_refused_with_the_reason(spec, message):
    with pytest.raises(InvalidOptionError, match=message):
        make_agent(spec, 0)


def test_describe_gives_back_a_text_form_that_builds_the_same_player():
    agent = make_agent("mcts:iterations=20,c=0.7", 0)
    again = make_agent(agent.describe(), 0)
    assert isinstance(again, MctsAgent) and again.iterations == 20 and again.exploration == 0.7


@pytest.mark.parametrize("name", stairgames.game_names())
def test_every_level_names_a_valid_player_for_every_game(name):
    game = stairgames.load(name)
    for level in LEVEL_NAMES:
        spec = level_player(level, game)
        agent = make_agent(spec, 0, game=game)  # prepared for the game: refused if it cannot
        assert isinstance(agent, Agent)
        kind, settings = parse_player_spec(spec)
        described_kind, described = parse_player_spec(agent.describe())
        assert described_kind == kind, (level, spec, agent.describe())
        assert settings.items() <= described.items(), (level, spec, agent.describe())


def test_levels_default_configuration():
    assert set(DEFAULT_LEVELS) == set(LEVEL_NAMES)
    assert DEFAULT_LEVELS["expert"].endswith("time=1.8")  # at most 2 seconds a move


@pytest.mark.parametrize("name", stairgames.game_names())
def test_expert_is_alphabeta_exactly_in_two_player_perfect_information_games(name):
    game = stairgames.load(name)
    expert = level_player("expert", game)
    own = player_hooks(name).levels.get("expert", "")
    if two_perfect(game) and own.startswith("mcts"):
        # a game's own expert, measured stronger (Stairs: mcts with learned priors)
        assert expert == own and "net=1" in own
    else:
        assert expert.startswith("alphabeta") == two_perfect(game)
    kind, settings = parse_player_spec(expert)
    if kind in ("mcts", "alphabeta"):  # searches with a time budget: at most 2 s a move
        assert float(settings["time"]) <= 1.8


def test_a_level_resolves_to_its_player_on_the_first_move():
    state = stairgames.load("stairs").new_initial_state()
    agent = make_agent("easy", 0, seed=1)
    assert state.is_legal(agent.act(state))
    assert agent.describe() == "easy"


def test_the_stairs_evaluation_is_found_and_bounded():
    assert find_evaluator("stairs") is not None
    evaluate = evaluator_for(stairgames.load("stairs"))
    rng = random.Random(2)
    state = stairgames.load("stairs").new_initial_state()
    while not state.is_terminal():
        for seat in (0, 1):
            assert -1.0 <= evaluate(state, seat) <= 1.0
        state.apply_action(rng.choice(state.legal_actions()))
    assert evaluate(state, 0) == state.returns()[0]


# ----- mcts with a game's own playout ----------------------------------------------


def protocol_playout(state: State, rng: random.Random) -> list[float]:
    """Random play through the protocol, drawing from ``rng`` as ``mcts`` itself does."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def test_mcts_chooses_the_same_with_and_without_the_fast_playout(monkeypatch):
    """With a playout hook that plays the protocol's games move for move (the compiled
    ones only match them in distribution, see ``tests/test_compiled_playouts.py``),
    ``mcts`` searches exactly as through the protocol (``solver=0`` keeps it off the
    compiled search, which needs the solver)."""
    from stairgames.agents import mcts

    monkeypatch.setattr(mcts, "find_playout", lambda name: protocol_playout)
    state = stairgames.load("stairs").new_initial_state()
    rng = random.Random(4)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    fast = MctsAgent(seat, seed=5, time_limit=None, iterations=150, solver=False)
    slow = MctsAgent(seat, seed=5, time_limit=None, iterations=150, fast=False, solver=False)
    assert fast.act(state) == slow.act(state)
    assert not fast.last_compiled


@pytest.mark.parametrize("setting", ["rave=100", "implicit=0.4", "prior=3"])
def test_mcts_settings_that_measured_no_stronger_are_gone(setting):
    with pytest.raises(InvalidOptionError, match=setting.split("=")[0]):
        make_agent(f"mcts:{setting}", 0)
