"""Ishigaki Race in the browser: the drawing data of games/ishigaki_race/view/board.py."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

import stairgames
from stairgames.core.registry import get_spec
from stairgames.games.ishigaki_race import IshigakiRaceState, narrate
from stairgames.games.ishigaki_race.research.value_iteration import solve
from stairgames.games.ishigaki_race.view.board import (
    ACCOUNT_TURNS,
    board_view,
    prepare_solution,
    said_json,
)
from stairgames.games.ishigaki_race.view.narrate import _plural_forms, account, say
from stairgames.i18n import set_language


def view(state: IshigakiRaceState) -> dict[str, Any]:
    data = board_view(state, None)
    assert json.loads(json.dumps(data)) == data, "the view must be JSON-ready"
    return data


def played(moves: list[str], **options: Any) -> IshigakiRaceState:
    state = stairgames.load("ishigaki_race", **options).new_initial_state()
    assert isinstance(state, IshigakiRaceState)
    for move in moves:
        state.apply_move(move)
    return state


def random_game(seed: int, **options: Any) -> IshigakiRaceState:
    rng = random.Random(seed)
    state = played([], **options)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_ishigaki_registers_its_view_and_board_js():
    spec = get_spec("ishigaki_race")
    assert spec.web_view is board_view and spec.web_assets is not None
    script = (spec.web_assets / "board.js").read_text(encoding="utf-8")
    assert "export function draw(svg, board, ui)" in script


def test_the_start_shows_every_ninja_on_step_0_and_the_draw_to_come():
    data = view(played([], players=4))
    assert data["ninjas"] == [
        {"seat": s, "colour": c, "step": 0}
        for s, c in enumerate(("red", "blue", "yellow", "green"))
    ]
    assert (data["goal"], data["crumbling"], data["phase"]) == (20, [], "setup")
    assert (data["turn"], data["dice"], data["choice"], data["last_roll"]) == (None, [], None, None)
    assert data["account"] == []


def test_the_crumbling_wall_lists_its_minus_two_steps():
    assert view(played([], crumbling_wall=True))["crumbling"] == [5, 9, 13, 17]


def test_after_the_first_die_the_choice_says_how_far_stop_climbs():
    data = view(played(["start:1", "die:5"], players=3))
    assert (data["turn"], data["dice"]) == (1, [5])
    assert data["choice"] == {
        "seat": 1,
        "first": 5,
        "rolloff": False,
        "stop": {"move": "stop", "climb": 2, "to": 2},
        "roll": {"move": "roll"},
    }


def test_the_choice_moves_are_the_legal_moves():
    state = played(["start:0", "die:3"])
    choice = view(state)["choice"]
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert {choice["stop"]["move"], choice["roll"]["move"]} == legal


def test_stopping_onto_a_minus_two_step_says_where_the_ninja_drops():
    state = stairgames.load("ishigaki_race", crumbling_wall=True).state_from_position(
        "race ninjas=3,0 turn=red dice=4"
    )
    assert isinstance(state, IshigakiRaceState)
    stop = view(state)["choice"]["stop"]
    assert stop == {"move": "stop", "climb": 2, "to": 3, "crumbles_at": 5}


def test_while_a_die_is_awaited_there_is_no_choice():
    data = view(played(["start:0", "die:3", "roll"]))
    assert (data["dice"], data["choice"]) == ([3], None)


def test_the_last_roll_names_its_dice_and_what_they_did():
    data = view(played(["start:0", "die:5", "roll", "die:2"]))
    assert data["last_roll"] == {"seat": 0, "dice": [5, 2], "result": "slip"}
    data = view(played(["start:0", "die:4", "stop", "die:3"]))
    assert data["last_roll"] == {"seat": 0, "dice": [4], "result": "climb"}
    assert (data["turn"], data["dice"]) == (1, [3])
    data = view(played(["start:0", "die:4", "stop", "die:3", "roll", "die:3"]))
    assert data["last_roll"] == {"seat": 1, "dice": [3, 3], "result": "doubles"}


def test_the_goal_round_names_the_arrived_and_who_still_plays():
    state = stairgames.load("ishigaki_race", players=3).state_from_position(
        "race ninjas=19,5,3 turn=red dice=4"
    )
    assert isinstance(state, IshigakiRaceState)
    state.apply_move("stop")
    data = view(state)
    assert data["phase"] == "goal"
    assert data["goal_round"] == {"arrived": [0], "left": [1, 2]}
    assert data["ninjas"][0]["step"] == 20


def test_a_roll_off_names_its_rollers_and_scores_and_the_stop_scores_the_die():
    state = stairgames.load("ishigaki_race", players=3).state_from_position(
        "rolloff ninjas=20,20,5 turn=red dice=3 rollers=blue:7,red"
    )
    assert isinstance(state, IshigakiRaceState)
    data = view(state)
    assert data["rolloff"] == {"rollers": [1, 0], "scores": [7]}
    assert data["choice"]["rolloff"] is True
    assert data["choice"]["stop"] == {"move": "stop", "score": 3}


def test_a_finished_game_names_the_winner():
    state = random_game(5, players=3)
    data = view(state)
    assert data["phase"] == "over" and data["winner"] == state.race.winner
    assert data["choice"] is None and data["turn"] is None


def test_the_account_is_the_narration_of_the_last_turns_oldest_first():
    state = played(["start:0", "die:4", "stop", "die:5", "roll", "die:6"])
    turns = view(state)["account"]
    assert [turn["seat"] for turn in turns] == [None, 0, 1]
    english = [[say_json(line) for line in turn["lines"]] for turn in turns]
    assert english == [
        ["Red starts."],
        ["Red rolls 4.", "Red stops on 4: climbs 2 steps.", "Red goes from step 0 to step 2."],
        [
            "Blue rolls 5.",
            "Blue rolls the second die.",
            "Blue rolls 6, making 11: climbs 6 steps.",
            "Blue goes from step 0 to step 6.",
        ],
    ]


def test_the_account_keeps_only_the_last_turns():
    state = random_game(11, players=4)
    turns = view(state)["account"]
    assert len(turns) == ACCOUNT_TURNS
    assert "wins!" in say_json(turns[-1]["lines"][-1])


def say_json(node: Any) -> str:
    """The English of a sentence as the browser's board.js writes it (its say())."""
    if not isinstance(node, dict):
        return str(node)
    if "names" in node:
        words = [say_json(item) for item in node["names"]]
        if not node["and"] or len(words) < 2:
            return ", ".join(words) if not node["and"] else "".join(words)
        return ", ".join(words[:-1]) + " and " + words[-1]
    if "join" in node:
        return "".join(say_json(item) for item in node["join"])
    template = node["id"]
    if "plural" in node and node["n"] != 1:
        template = node["plural"]
    return str(template.format(**{k: say_json(v) for k, v in node.get("args", {}).items()}))


@pytest.mark.parametrize("seed", range(6))
def test_every_sentence_of_the_account_reads_as_the_terminal_narration(seed):
    """The JSON the browser fills gives the same English as narrate(), for every action."""
    rng = random.Random(seed)
    state = played([], players=2 + seed % 3, crumbling_wall=seed % 2 == 0)
    while not state.is_terminal():
        before = state.clone()
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        sentences = account(before.board, before.race, action, state.race)
        assert [say_json(said_json(s)) for s in sentences] == narrate(before, action, state)


def test_the_account_reads_in_japanese_with_the_rulebooks_words():
    state = played(["start:0", "die:5", "roll", "die:5"])
    before = played(["start:0", "die:5", "roll"])
    lines = account(before.board, before.race, 5, state.race)
    try:
        set_language("ja")
        assert (
            say(lines[0])
            == "赤の出目は5：ゾロ目！一番高いのは赤と青ですが、すたあとにいるので誰も落ちません。"
        )
    finally:
        set_language("en")


def test_the_plural_sentences_are_plural_messages_of_the_catalog():
    try:
        set_language("ja")
        forms = _plural_forms()
    finally:
        set_language("en")
    assert forms[0] == "{count}段"
    assert all("steps" not in form and "fall" not in form for form in forms)


def test_a_view_of_a_position_read_from_text_has_no_account_or_last_roll():
    state = stairgames.load("ishigaki_race").state_from_position("race ninjas=3,7 turn=blue dice=2")
    assert isinstance(state, IshigakiRaceState)
    data = view(state)
    assert (data["account"], data["last_roll"], data["dice"]) == ([], None, [2])


# ----- winning chances ------------------------------------------------------------------


def test_two_players_get_the_exact_chances_of_each_choice_once_solved():
    state = played(["start:0", "die:2"])
    prepare_solution(state.board)
    chances = view(state)["chances"]
    stop, roll = solve(state.board, 2).decision_values(state.race)
    assert chances == {
        "stop": [round(p, 4) for p in stop],
        "roll": [round(p, 4) for p in roll],
    }
    assert sum(chances["stop"]) == pytest.approx(1.0, abs=1e-3)


def test_three_players_and_die_rolls_get_no_chances():
    assert view(played(["start:0", "die:2"], players=3))["chances"] is None
    assert view(played(["start:0", "die:2", "roll"]))["chances"] is None


@pytest.mark.slow
def test_a_view_never_waits_for_the_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unsolved wall (goal 30) gives no chances at once: the solution is asked of a
    background thread, not worked out in the view; once it is there, chances come."""
    from stairgames.games.ishigaki_race.view import board as ishigaki_web

    asked: list[tuple[Any, tuple[Any, ...]]] = []

    class BackgroundThread:  # records the work instead of starting it
        def __init__(self, target: Any, args: tuple[Any, ...], daemon: bool) -> None:
            asked.append((target, args))

        def start(self) -> None:
            pass

    monkeypatch.setattr(ishigaki_web, "threading", SimpleNamespace(Thread=BackgroundThread))
    monkeypatch.setattr(ishigaki_web, "_solutions", {})
    monkeypatch.setattr(ishigaki_web, "_solving", set())
    state = played(["start:0", "die:2"], goal=30)
    assert view(state)["chances"] is None
    assert view(state)["chances"] is None and len(asked) == 1  # asked once, not waited for
    target, args = asked[0]
    target(*args)  # the background thread's work
    assert view(state)["chances"] is not None


def test_views_of_a_long_game_stay_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each view replays only the actions since the last one it saw (cached): a game of
    n actions viewed after each costs n replayed actions, not n²/2."""
    from stairgames.games.ishigaki_race.view import board as ishigaki_web

    applied = 0
    apply = ishigaki_web._apply

    def counted(*args: Any) -> Any:
        nonlocal applied
        applied += 1
        return apply(*args)

    monkeypatch.setattr(ishigaki_web, "_apply", counted)
    state = random_game(3, players=4, crumbling_wall=True)
    history = state.history()
    replay = played([], players=4, crumbling_wall=True)
    for action in history:
        replay.apply_action(action)
        board_view(replay, None)
    assert len(history) > 50 and applied <= len(history), (applied, len(history))


def test_a_view_of_a_game_read_from_a_position_leaves_other_games_views_alone() -> None:
    """A state read from a position text has a short history that does not start at the
    game's start: its races are replayed from its own start, and never lent to a game
    played from the start with the same options and history (the server's views of
    three-seat games once failed with ``KeyError`` after a puzzle or an analysis of a
    position had been drawn in the same process)."""
    from stairgames.games.ishigaki_race.view import board as ishigaki_web

    game = stairgames.load("ishigaki_race", players=3)
    middle = random_game(8, players=3).history()
    partway = played([], players=3)
    for action in middle[:20]:
        partway.apply_action(action)

    def views_from_the_start() -> list[dict[str, Any]]:
        state = played([], players=3)
        drawn = [view(state)]
        for action in middle[:6]:
            state.apply_action(action)
            drawn.append(view(state))
        return drawn

    ishigaki_web._races_cache.clear()
    alone = views_from_the_start()
    ishigaki_web._races_cache.clear()
    continued = game.state_from_position(partway.position())
    assert isinstance(continued, IshigakiRaceState) and continued.history() == []
    view(continued)  # drawn first: its start is not the game's
    for action in middle[20:26]:
        continued.apply_action(action)
        view(continued)
    assert views_from_the_start() == alone
    assert alone[-1]["account"] and alone[1]["account"][0]["seat"] is None
    assert continued.start_race == partway.race != played([], players=3).start_race


def test_a_state_read_from_a_position_has_its_account_from_there() -> None:
    partway = played([], players=3)
    middle = random_game(9, players=3)
    for action in middle.history()[:30]:
        partway.apply_action(action)
    continued = stairgames.load("ishigaki_race", players=3).state_from_position(partway.position())
    assert isinstance(continued, IshigakiRaceState)
    for action in middle.history()[30:34]:
        continued.apply_action(action)
    # four actions from the position are told; nothing before it is invented
    told = [line for turn in view(continued)["account"] for line in turn["lines"]]
    assert told and len(told) <= 8


def test_a_clone_draws_as_its_original() -> None:
    partway = random_game(10, players=3)
    read = stairgames.load("ishigaki_race", players=3).state_from_position(partway.position())
    assert isinstance(read, IshigakiRaceState)
    for state in (partway, read):
        copy = state.clone()
        assert copy.start_race == state.start_race and view(copy) == view(state)
