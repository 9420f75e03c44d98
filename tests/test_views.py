"""Per-seat views everywhere: histories, records, replays and computer players carry only
what a seat may know (City of Stairs' departure cards, C8), and the full history once the
game is over."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import stairgames
from stairgames.agents import Agent, make_agent
from stairgames.arena import runner
from stairgames.cli import main
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import IllegalMoveError, InvalidRecordError
from stairgames.core.game import State
from stairgames.core.record import (
    FULL_VIEW,
    PUBLIC_VIEW,
    GameRecord,
    final_state,
    make_record,
    replay,
)
from stairgames.core.views import seat_view
from stairgames.games.city_of_stairs import CityOfStairsState
from stairgames.terminal import TerminalSession

DEAL = re.compile(r"deal (\d) to (\w+)")


def city(players: int = 2, **options: object) -> CityOfStairsState:
    state = stairgames.load("city_of_stairs", players=players, **options).new_initial_state()
    assert isinstance(state, CityOfStairsState)
    return state


def to_the_middle(state: CityOfStairsState, seed: int, placements: int = 10) -> CityOfStairsState:
    """Random play (chance by its odds) until ``placements`` city cards are down."""
    rng = random.Random(seed)
    while sum(card is not None for card in state.table.city) < placements:
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def hidden_deals(state: CityOfStairsState, seat: int | None) -> list[str]:
    """The true deal texts of the cards ``seat`` (``None``: a spectator) may not know."""
    colours = state.table.colours
    known = state.visible_departures(seat) if seat is not None else frozenset()
    return [
        f"deal {card} to {colours[other]}"
        for other, card in enumerate(state.table.departures)
        if card is not None and other not in known and not state.stroll_started(other)
    ]


# ----- history_strings(seat) ------------------------------------------------------------


def test_history_strings_for_a_seat_hide_the_other_seats_deals():
    state = to_the_middle(city(players=3), seed=1)
    full = state.history_strings()
    assert len(DEAL.findall(" | ".join(full))) == 3
    for seat in range(3):
        own = state.history_strings(seat)
        assert len(own) == len(full)
        mine = f"deal {state.table.departures[seat]} to {state.table.colours[seat]}"
        assert mine in own
        for other in range(3):
            if other != seat:
                assert f"deal ? to {state.table.colours[other]}" in own
        assert not set(hidden_deals(state, seat)) & set(own)
        # everything else is as it was
        assert [m for m in own if not m.startswith("deal")] == [
            m for m in full if not m.startswith("deal")
        ]
    assert [m for m in state.public_history_strings() if m.startswith("deal")] == [
        "deal ? to red",
        "deal ? to blue",
        "deal ? to green",
    ]


def test_a_deal_is_known_to_everyone_once_its_owners_stroll_begins():
    rng = random.Random(3)
    state = city(players=2)
    while not state.is_terminal():
        started = {s for s in range(2) if state.stroll_started(s)}
        for seat in range(2):
            for other in range(2):
                card = state.table.departures[other]
                if card is None or other == seat:
                    continue
                clear = f"deal {card} to {state.table.colours[other]}"
                assert (clear in state.history_strings(seat)) == (other in started)
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(2):
        assert state.history_strings(seat) == state.history_strings()
    assert state.public_history_strings() == state.history_strings()


def test_history_strings_of_a_game_without_hidden_information_are_the_same_for_every_seat():
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")
    assert state.history_strings(0) == state.history_strings(1) == state.history_strings()


def test_history_strings_refuse_a_seat_the_game_does_not_have():
    with pytest.raises(ValueError, match="not a seat"):
        city(players=2).history_strings(2)


# ----- records for a seat ---------------------------------------------------------------


def test_records_of_a_city_of_stairs_game_in_the_middle_hold_no_other_seats_departure_card():
    """Done when: in the middle of a game, no seat's record (nor its history) names another
    seat's departure card."""
    for players in (2, 3, 4):
        state = to_the_middle(city(players=players), seed=players)
        for seat in range(players):
            record = make_record(state, seed=7, viewer=seat)
            text = record.to_json()
            hidden = hidden_deals(state, seat)
            assert len(hidden) == players - 1
            for deal in hidden:
                assert deal not in text
                assert deal not in state.history_strings(seat)
            assert record.view == seat and record.seed is None
            assert json.loads(text)["view"] == seat
        public = make_record(state, seed=7).to_json()
        assert not DEAL.search(public)
        assert json.loads(public)["view"] == PUBLIC_VIEW


def test_a_finished_game_has_a_full_record_with_its_seed():
    state = to_the_middle(city(players=2), seed=5, placements=28)
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for viewer in (None, 0, 1):
        record = make_record(state, seed=9, viewer=viewer)
        assert record.view == FULL_VIEW and record.is_full and record.viewer is None
        assert record.moves == tuple(state.history_strings()) and record.seed == 9
        assert final_state(record).position() == state.position()


def test_a_record_of_a_game_without_hidden_information_is_full_before_the_end():
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")
    record = make_record(state, viewer=1)
    assert record.is_full and record.moves == ("d3-c4",)


def test_a_view_record_replays_to_the_viewers_view():
    state = to_the_middle(city(players=3), seed=11)
    for viewer in (None, 0, 1, 2):
        record = GameRecord.from_json(make_record(state, viewer=viewer).to_json())
        assert record.viewer == viewer
        steps = list(replay(record))
        assert [move for move, _ in steps[1:]] == list(record.moves)
        last = steps[-1][1]
        assert isinstance(last, CityOfStairsState)
        if viewer is None:
            assert last.public_history_strings() == state.public_history_strings()
            assert last.table.city == state.table.city
        else:
            assert last.observation_string(viewer) == state.observation_string(viewer)
            assert last.history_strings(viewer) == state.history_strings(viewer)


def test_replay_goes_back_when_a_stand_in_contradicts_a_later_move():
    # red is dealt first and hidden from blue; the first stand-in (card 1) is blue's own
    state = city(players=2, first_player=0)
    for move in ("draw P03", "draw E07", "deal 4 to red", "deal 1 to blue", "E07@c1"):
        state.apply_move(move)
    record = make_record(state, viewer=1)
    assert record.moves[2:4] == ("deal ? to red", "deal 1 to blue")
    last = final_state(record)
    assert isinstance(last, CityOfStairsState)
    assert last.table.departures[1] == 1 and last.table.departures[0] not in (None, 1)
    assert last.observation_string(1) == state.observation_string(1)


def test_a_full_record_gets_no_stand_ins():
    record = GameRecord(
        game="city_of_stairs",
        options={"players": 2},
        moves=("start red", "draw P03", "draw E07", "deal ? to red"),
    )
    with pytest.raises(InvalidRecordError, match=r"move 4 \('deal \? to red'\) does not replay"):
        final_state(record)


def test_a_view_record_that_no_stand_in_can_replay_is_refused_with_the_move():
    record = GameRecord(
        game="city_of_stairs",
        options={"players": 2, "first_player": 0},
        moves=("draw P03", "draw E07", "deal ? to red", "deal ? to blue", "E07@g4"),
        view=PUBLIC_VIEW,
    )
    with pytest.raises(InvalidRecordError, match=r"move 5 \('E07@g4'\) does not replay"):
        final_state(record)


@pytest.mark.parametrize(
    ("view", "message"), [("everything", "'view' must be"), (-1, "'view' must be"), (5, "seat")]
)
def test_bad_record_views_are_refused(view: object, message: str):
    text = json.dumps({"game": "city_of_stairs", "moves": [], "view": view})
    with pytest.raises(InvalidRecordError, match=message):
        list(replay(GameRecord.from_json(text)))


def test_a_record_without_a_view_is_full():
    record = GameRecord.from_json('{"game": "stairs", "moves": ["d3-c4"]}')
    assert record.view == FULL_VIEW and record.is_full


# ----- the terminal's record of a quit game, and its replay -----------------------------


def human_then_quit(session_ref: list[TerminalSession], turns: int) -> Callable[[str], str]:
    """A human who plays random legal moves for ``turns`` turns, then quits."""
    rng = random.Random(turns)
    played = [0]

    def answer(prompt: str) -> str:
        del prompt
        state = session_ref[0].state
        if played[0] >= turns:
            return "quit"
        played[0] += 1
        return state.action_to_string(rng.choice(state.legal_actions()))

    return answer


def test_quitting_city_of_stairs_midway_saves_only_the_human_seats_view(tmp_path: Path, capsys):
    path = tmp_path / "quit.json"
    ref: list[TerminalSession] = []
    session = TerminalSession(
        stairgames.load("city_of_stairs", players=3),
        ["random", "human", "random"],
        seed=4,
        record_path=path,
        input_fn=human_then_quit(ref, 5),
        output=io.StringIO(),
    )
    ref.append(session)
    state = session.run()
    assert isinstance(state, CityOfStairsState) and not state.is_terminal()
    text = path.read_text()
    hidden = hidden_deals(state, 1)
    assert len(hidden) == 2
    for deal in hidden:
        assert deal not in text
    data = json.loads(text)
    assert data["view"] == 1 and data["seed"] is None
    assert data["moves"] == state.history_strings(1)

    assert main(["replay", str(path), "--no-color"]) == 0
    shown = capsys.readouterr().out
    for deal in hidden:
        assert deal not in shown
    assert "deal ? to red" in shown and "deal ? to green" in shown
    own = state.table.departures[1]
    assert f"deal {own} to blue" in shown
    # while the city is built a seat line names only its own departure card (two seats
    # to a line where they fit: split them)
    parts = re.split(r"   |\n", shown)
    seat_lines = [part for part in parts if re.match(r"(red|green) likes", part)]
    assert seat_lines and not any(re.search("departure [①-⑦]", part) for part in seat_lines)


def test_several_people_at_one_screen_save_the_public_view(tmp_path: Path):
    path = tmp_path / "quit.json"
    ref: list[TerminalSession] = []
    session = TerminalSession(
        stairgames.load("city_of_stairs", players=2),
        ["human", "human"],
        seed=2,
        record_path=path,
        input_fn=human_then_quit(ref, 4),
        output=io.StringIO(),
    )
    ref.append(session)
    session.run()
    data = json.loads(path.read_text())
    assert data["view"] == PUBLIC_VIEW
    assert not DEAL.search(" ".join(data["moves"]))


# ----- computer players receive their seat's view ----------------------------------------


class Spy(Agent):
    """Records everything it is given, and plays at random."""

    name = "spy"

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        super().__init__(seat, seed=seed)
        self.seen: list[tuple[object, ...]] = []
        self.acting = False

    def act(self, state: State) -> int:
        self.acting = True
        try:
            return super().act(state)
        finally:
            self.acting = False

    def step(self, state: State) -> int:
        assert self.acting, "a driver called step directly instead of act"
        players = state.get_game().num_players()
        self.seen.append(
            (
                state.position(),
                tuple(state.history_strings()),
                tuple(state.history()),
                tuple(state.observation_string(seat) for seat in range(players)),
                str(state),
            )
        )
        return self.rng.choice(state.legal_actions())


def spied_game(seed: int, other_card_shift: int) -> tuple[Spy, CityOfStairsState]:
    """A 2-player game with a spy on seat 0 until seat 1's card is revealed; seat 1's deal
    is moved ``other_card_shift`` places along the cards left to deal, all else the same."""
    state = city(players=2)
    spy = Spy(0, seed=seed)
    chance = random.Random(seed)
    others = random.Random(seed + 1)
    while not state.is_terminal() and not state.stroll_started(1):
        if state.is_chance_node():
            action = sample_chance_outcome(state, chance)
            if state.action_to_string(action).endswith("to blue"):
                outcomes = [a for a, _ in state.chance_outcomes()]
                action = outcomes[(outcomes.index(action) + other_card_shift) % len(outcomes)]
            state.apply_action(action)
        elif state.current_player() == 0:
            state.apply_action(spy.act(state))
        else:
            state.apply_action(others.choice(state.legal_actions()))
    return spy, state


@pytest.mark.parametrize("seed", range(4))
def test_a_computer_player_gets_the_same_inputs_whatever_the_hidden_card(seed: int):
    spy, state = spied_game(seed, 0)
    twin_spy, twin = spied_game(seed, 1)
    assert state.table.departures[1] != twin.table.departures[1]
    assert state.table.departures[0] == twin.table.departures[0]
    assert len(spy.seen) >= 14
    assert spy.seen == twin_spy.seen


def test_act_refuses_an_illegal_choice_and_the_wrong_seat():
    class Wrong(Agent):
        def step(self, state: State) -> int:
            return 999

    state = stairgames.load("stairs").new_initial_state()
    with pytest.raises(IllegalMoveError, match="999"):
        Wrong(0).act(state)
    with pytest.raises(IllegalMoveError, match="plays seat 1"):
        Wrong(1).act(state)
    assert state.move_number() == 0


def test_the_view_of_a_game_without_hidden_information_is_a_copy():
    state = stairgames.load("stairs").new_initial_state()
    view = seat_view(state, 1, random.Random(0))
    assert view is not state and view.history() == state.history()
    view.apply_move("d3-c4")
    assert state.move_number() == 0


def test_the_view_keeps_what_the_seat_knows_and_nothing_else():
    state = to_the_middle(city(players=3), seed=8)
    for seat in range(3):
        view = seat_view(state, seat, random.Random(seat))
        assert isinstance(view, CityOfStairsState)
        assert view.observation_string(seat) == state.observation_string(seat)
        assert view.history_strings(seat) == state.history_strings(seat)
        assert view.table.departures[seat] == state.table.departures[seat]


def test_the_terminal_and_the_arena_go_through_act(tmp_path: Path, monkeypatch):
    spies: list[Spy] = []

    def spy_factory(kind: str, seat: int, seed: int | None = None) -> Agent:
        del kind
        spies.append(Spy(seat, seed=seed))
        return spies[-1]

    monkeypatch.setattr(runner, "make_agent", spy_factory)
    task = runner.schedule("city_of_stairs", {}, ["random", "greedy"], 1, seed=1)[0]
    assert runner.play_game(task)["length"] > 0
    monkeypatch.setattr("stairgames.terminal.make_agent", spy_factory)
    TerminalSession(
        stairgames.load("city_of_stairs"),
        ["random", "random"],
        seed=1,
        record_path=tmp_path / "g.json",
        output=io.StringIO(),
    ).run()
    assert len(spies) == 4 and all(spy.seen for spy in spies)


@pytest.mark.slow
def test_players_still_finish_city_of_stairs_through_act():
    game = stairgames.load("city_of_stairs", players=3)
    players = [make_agent(kind, s, seed=s) for s, kind in enumerate(["greedy", "easy", "random"])]
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(players[state.current_player()].act(state))
    assert state.outcome() is not None


def test_a_record_refuses_a_view_it_does_not_know():
    with pytest.raises(InvalidRecordError, match="'view' must be"):
        GameRecord(game="stairs", options={}, moves=(), view="mine")
