"""Ishigaki Race text forms: notation, position text, narration, the terminal drawing and play."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import stairgames
from stairgames import IllegalMoveError, InvalidPositionError
from stairgames.cli import main
from stairgames.core.registry import get_spec
from stairgames.games.ishigaki_race import IshigakiRaceState, narrate, render_race
from stairgames.games.ishigaki_race.play.evaluate import evaluate, height_lead
from stairgames.terminal import TerminalSession
from tests.scripted import scripted


def at(text: str, **options: object) -> IshigakiRaceState:
    state = stairgames.load("ishigaki_race", **options).state_from_position(text)
    assert isinstance(state, IshigakiRaceState)
    return state


def told(state: IshigakiRaceState, move: str) -> list[str]:
    """The narration of ``move`` in ``state`` (which it then plays)."""
    before = state.clone()
    action = state.apply_move(move)
    return narrate(before, action, state)


# ----- notation ------------------------------------------------------------------------


def test_moves_are_read_without_regard_to_case_or_spaces():
    state = at("race ninjas=0,0 turn=red dice=-")
    assert state.apply_move(" Die : 4 ") == 4
    assert state.apply_move("ROLL") == 1
    assert state.history_strings() == ["die:4", "roll"]


@pytest.mark.parametrize("text", ["", "jump", "die", "die:x", "start:", "4", "stop now"])
def test_a_malformed_move_is_refused_with_the_notation(text):
    state = at("race ninjas=0,0 turn=red dice=4")
    with pytest.raises(IllegalMoveError, match="malformed move"):
        state.apply_move(text)
    assert state.position() == "race ninjas=0,0 turn=red dice=4"


@pytest.mark.parametrize(
    ("position", "move", "reason"),
    [
        ("race ninjas=0,0 turn=red dice=-", "stop", "a die is rolled for red next"),
        ("race ninjas=0,0 turn=red dice=4,?", "roll", "a die is rolled for red next"),
        ("race ninjas=0,0 turn=red dice=4", "die:3", "red has rolled 4 and decides"),
        ("race ninjas=0,0 turn=red dice=4", "start:1", "red has rolled 4 and decides"),
        ("setup ninjas=0,0", "die:3", r"not the draw; the start player is drawn first \(start:0, "),
        ("setup ninjas=0,0", "start:2", r"names no seat of this game"),
        ("race ninjas=0,0 turn=red dice=-", "die:7", "a die shows 1 to 6"),
        ("over ninjas=20,0 winner=red", "stop", "the game is over"),
    ],
)
def test_a_move_not_legal_here_is_refused_with_the_reason(position, move, reason):
    state = at(position)
    with pytest.raises(IllegalMoveError, match=reason):
        state.apply_move(move)
    assert state.position() == position and state.history() == []


def test_actions_that_are_not_legal_are_refused_with_the_state_untouched():
    state = at("race ninjas=0,0 turn=red dice=-")
    for action in (0, 7, -1):
        with pytest.raises(IllegalMoveError):
            state.apply_action(action)
    decision = at("race ninjas=0,0 turn=red dice=4")
    with pytest.raises(IllegalMoveError):
        decision.apply_action(2)
    assert decision.position() == "race ninjas=0,0 turn=red dice=4"


# ----- position text -------------------------------------------------------------------

EVERY_PHASE = [
    ("setup ninjas=0,0,0", {"players": 3}),
    ("race ninjas=3,7,0 turn=blue dice=-", {"players": 3}),
    ("race ninjas=3,7,0 turn=blue dice=4", {"players": 3}),
    ("race ninjas=3,7,0 turn=blue dice=4,?", {"players": 3}),
    ("goal ninjas=20,7,5 turn=blue dice=4 arrived=red left=blue,yellow", {"players": 3}),
    ("goal ninjas=20,7,5 turn=yellow dice=2,? arrived=red left=yellow", {"players": 3}),
    ("goal ninjas=20,7,20,1 turn=blue dice=- arrived=yellow,red left=blue", {"players": 4}),
    ("rolloff ninjas=20,20,5 turn=blue dice=6 rollers=blue,red", {"players": 3}),
    ("rolloff ninjas=20,20,5 turn=red dice=3,? rollers=blue:7,red", {"players": 3}),
    ("rolloff ninjas=20,20,20,20 turn=green dice=- rollers=green,red", {"players": 4}),
    ("over ninjas=20,20,5 winner=blue", {"players": 3}),
    ("race ninjas=3,8 turn=red dice=-", {"crumbling_wall": True}),
]


@pytest.mark.parametrize(("text", "options"), EVERY_PHASE)
def test_position_text_of_every_phase_round_trips(text, options):
    assert at(text, **options).position() == text


def test_position_text_of_the_goal_round_tells_who_still_has_to_play_as_it_goes():
    state = at("race ninjas=19,3,4,5 turn=red dice=-", players=4)
    seen = []
    for _ in range(4):
        state.apply_move("die:6")
        state.apply_move("stop")
        seen.append(state.position())
    assert seen == [
        "goal ninjas=20,3,4,5 turn=blue dice=- arrived=red left=blue,yellow,green",
        "goal ninjas=20,5,4,5 turn=yellow dice=- arrived=red left=yellow,green",
        "goal ninjas=20,5,6,5 turn=green dice=- arrived=red left=green",
        "over ninjas=20,5,6,7 winner=red",
    ]


def test_the_documented_examples_read_as_described():
    goal = at("goal ninjas=20,7,5 turn=blue dice=4 arrived=red left=blue,yellow", players=3)
    assert goal.race.arrived == (0,) and goal.race.goal_round_left() == (1, 2)
    assert goal.current_player() == 1
    rolloff = at("rolloff ninjas=20,20,5 turn=red dice=3,? rollers=blue:7,red", players=3)
    assert rolloff.race.rollers == (1, 0) and rolloff.race.scores == (7,)
    assert rolloff.is_chance_node()


@pytest.mark.parametrize(
    ("text", "options", "message"),
    [
        ("", {}, "empty"),
        ("sprint ninjas=0,0", {}, "unknown phase 'sprint'"),
        ("race ninjas=0,0 turn=red", {}, "needs the fields dice"),
        ("race ninjas=0,0 dice=- turn=red", {}, "in the order ninjas, turn, dice"),
        ("race ninjas=0,0 turn=red dice=- winner=red", {}, "does not belong to the race phase"),
        ("race ninjas=0,0 turn=red turn=red dice=-", {}, "given twice"),
        ("race ninjas=0,0 turn dice=-", {}, "not a key=value field"),
        ("race ninjas=0,0,0 turn=red dice=-", {}, "lists 3 steps; this game has 2 players"),
        ("race ninjas=0,x turn=red dice=-", {}, "whole number"),
        ("race ninjas=0,-1 turn=red dice=-", {}, "whole number"),
        ("race ninjas=0,21 turn=red dice=-", {}, "above the goal"),
        ("race ninjas=0,5 turn=red dice=-", {"crumbling_wall": True}, "'−2' square"),
        ("race ninjas=0,20 turn=red dice=-", {}, "starts the goal round"),
        ("race ninjas=0,0 turn=yellow dice=-", {}, "not a seat; the seats are red, blue"),
        ("race ninjas=0,0 turn=red dice=7", {}, "a die shows 1 to 6"),
        ("race ninjas=0,0 turn=red dice=0", {}, "a die shows 1 to 6"),
        ("race ninjas=0,0 turn=red dice=3,4", {}, "'K,\\?' while the"),
        ("setup ninjas=0,1", {}, "every ninja is on the start"),
        ("setup ninjas=0,0", {"first_player": 0}, "no setup phase"),
        ("goal ninjas=20,3 turn=blue dice=- arrived=blue left=blue", {}, "exactly the ninjas"),
        ("goal ninjas=20,20 turn=blue dice=- arrived=red,blue left=", {}, "key=value"),
        ("goal ninjas=20,20 turn=blue dice=- arrived=red,blue left=blue", {}, "no turn left"),
        ("goal ninjas=20,3 turn=blue dice=- arrived=red,red left=blue", {}, "a seat twice"),
        (
            "goal ninjas=20,3,4 turn=blue dice=- arrived=red left=blue",
            {"players": 3},
            "still has blue,yellow",
        ),
        (
            "goal ninjas=20,3,20 turn=blue dice=- arrived=red,yellow left=blue,yellow",
            {"players": 3},
            "still to play",
        ),
        (
            "goal ninjas=20,20,3 turn=yellow dice=- arrived=blue,red left=yellow,red",
            {"players": 3},
            "still to play",
        ),
        ("rolloff ninjas=20,20 turn=red dice=- rollers=red", {}, "at least two"),
        ("rolloff ninjas=20,20 turn=red dice=- rollers=red,red", {}, "at least two"),
        ("rolloff ninjas=20,3 turn=red dice=- rollers=red,blue", {}, "not on the goal"),
        ("rolloff ninjas=20,20 turn=red dice=- rollers=red:4,blue:5", {}, "decided"),
        ("rolloff ninjas=20,20 turn=red dice=- rollers=red:4,blue", {}, "blue rolls next"),
        ("rolloff ninjas=20,20 turn=red dice=- rollers=red:13,blue", {}, "0 to 12"),
        (
            "rolloff ninjas=20,20,20 turn=red dice=- rollers=red,blue:4,yellow",
            {"players": 3},
            "come first",
        ),
        ("over ninjas=20,3 winner=blue", {}, "must be on the goal"),
    ],
)
def test_an_impossible_or_malformed_position_is_refused_clearly(text, options, message):
    with pytest.raises(InvalidPositionError, match=message):
        at(text, **options)


def test_a_position_that_is_not_text_is_refused():
    game = stairgames.load("ishigaki_race")
    with pytest.raises(InvalidPositionError, match="is text"):
        game.state_from_position(None)  # type: ignore[arg-type]


def test_repr_pastes_back():
    state = at("race ninjas=3,8 turn=red dice=2", crumbling_wall=True)
    again = eval(repr(state), {"stairgames": stairgames})
    assert again.position() == state.position()
    assert again.get_game().options == state.get_game().options


def test_observations_show_everything_with_the_viewer_seat():
    state = at("race ninjas=3,8 turn=red dice=2")
    assert state.observation_string(1) == "seat=1 colour=blue race ninjas=3,8 turn=red dice=2"


# ----- narration -------------------------------------------------------------------------


def test_narration_of_a_whole_turn_that_climbs():
    state = at("race ninjas=3,0 turn=red dice=-")
    assert told(state, "die:4") == ["Red rolls 4."]
    assert told(state, "roll") == ["Red rolls the second die."]
    assert told(state, "die:6") == [
        "Red rolls 6, making 10: climbs 5 steps.",
        "Red goes from step 3 to step 8.",
    ]


def test_narration_of_stopping_slipping_and_doubles():
    state = at("race ninjas=3,9,9 turn=red dice=1", players=3)
    assert told(state, "stop") == [
        "Red stops on 1: climbs 1 step.",
        "Red goes from step 3 to step 4.",
    ]
    state = at("race ninjas=3,9 turn=red dice=5,?")
    assert told(state, "die:2") == [
        "Red rolls 2, lower than 5: slips 1 step.",
        "Red goes from step 3 to step 2.",
    ]
    state = at("race ninjas=3,9,9 turn=red dice=4,?", players=3)
    assert told(state, "die:4") == [
        "Red rolls 4: doubles! Blue and yellow fall 3.",
        "Blue goes from step 9 to step 6.",
        "Yellow goes from step 9 to step 6.",
    ]


def test_narration_of_doubles_when_the_highest_are_on_the_start():
    state = at("race ninjas=0,0,0 turn=blue dice=1,?", players=3)
    assert told(state, "die:1") == [
        "Blue rolls 1: doubles! Red, blue and yellow are highest but on the start, and nobody "
        "falls below it."
    ]
    state = at("race ninjas=0,0 turn=red dice=2,?")
    assert told(state, "die:2") == [
        "Red rolls 2: doubles! Red and blue are highest but on the start, and nobody falls "
        "below it."
    ]


def test_narration_of_doubles_that_knock_a_ninja_to_the_start():
    state = at("race ninjas=0,2 turn=red dice=5,?")
    assert told(state, "die:5") == [
        "Red rolls 5: doubles! Blue falls 3.",
        "Blue goes from step 2 to step 0.",
    ]


def test_narration_of_a_chain_of_crumbling_drops_names_every_square():
    state = at("race ninjas=6,0 turn=red dice=2,?", crumbling_wall=True, crumbling_squares=(3, 5))
    assert told(state, "die:1") == [
        "Red rolls 1, lower than 2: slips 1 step.",
        "Red lands on the crumbling step 5 and drops to step 3, crumbling too, then to step 1.",
    ]
    state = at("race ninjas=2,0 turn=red dice=1", crumbling_wall=True, crumbling_squares=(1, 3))
    assert told(state, "stop")[1] == (
        "Red lands on the crumbling step 3 and drops to step 1, crumbling too, then to step 0."
    )


def test_narration_of_the_crumbling_wall_and_the_start():
    state = at("race ninjas=3,0 turn=red dice=4", crumbling_wall=True)
    assert told(state, "stop")[1] == "Red lands on the crumbling step 5 and drops to step 3."
    state = at("race ninjas=0,0 turn=red dice=2,?")
    assert told(state, "die:1")[1] == "Red stays on step 0."


def test_narration_of_the_start_goal_round_and_rolloff():
    assert told(at("setup ninjas=0,0,0", players=3), "start:2") == ["Yellow starts."]
    state = at("race ninjas=19,0,0 turn=red dice=3", players=3)
    assert told(state, "stop")[-1] == "Red reaches the goal! Everyone else plays one more turn."
    state = at("goal ninjas=20,19,0 turn=blue dice=4 arrived=red left=blue,yellow", players=3)
    assert told(state, "stop")[-1] == "Blue reaches the goal too!"
    assert told(state, "die:1") == ["Yellow rolls 1."]
    assert told(state, "stop")[-1] == (
        "The goal round is over: red and blue are on the goal and roll off, blue and red in "
        "that order."
    )
    assert told(state, "die:5") == ["Blue rolls 5."]
    assert told(state, "stop") == ["Blue stops on 5: scores 5 in the roll-off."]
    told(state, "die:2")
    told(state, "roll")
    assert told(state, "die:3") == [
        "Red rolls 3 (higher): scores 5 in the roll-off.",
        "Blue and red tie on 5 and roll off again.",
    ]
    for move in ("die:6", "roll"):
        told(state, move)
    assert told(state, "die:6") == ["Blue rolls 6 (doubles): scores 12 in the roll-off."]
    told(state, "die:6")
    told(state, "roll")
    assert told(state, "die:1") == [
        "Red rolls 1, lower than 6: scores 0 in the roll-off.",
        "Blue wins!",
    ]


def test_narration_of_a_lone_winner():
    state = at("goal ninjas=20,3 turn=blue dice=1 arrived=red left=blue")
    assert told(state, "stop")[-2:] == [
        "The goal round is over: red is alone on the goal.",
        "Red wins!",
    ]


# ----- the drawing -------------------------------------------------------------------------


def test_drawing_lays_the_wall_on_its_side_with_every_ninja_the_minus_2_squares_and_the_decision():
    state = at("race ninjas=3,8,0 turn=blue dice=4", players=3, crumbling_wall=True)
    rows = render_race(state).splitlines()
    assert rows[0] == "Ishigaki Race, 3 players, crumbling wall: start 0, goal 20"
    assert rows[1] == "step      " + "".join(f"{step:>3}" for step in range(21))
    assert rows[2] == " " * 10 + "".join(" -2" if s in (5, 9, 13, 17) else "   " for s in range(18))
    assert rows[3] == "red     3 " + "  ." * 3 + "  R" + "  ." * 17
    assert rows[4] == "blue    8 " + "  ." * 8 + "  B" + "  ." * 12
    assert rows[5] == "yellow  0 " + "  Y" + "  ." * 20
    assert rows[-2:] == [
        "Blue to decide: first die 4 ⚃.",
        "stop (climb 2) or roll (higher: climb on the sum, lower: slip 1)?",
    ]


def test_drawing_fits_an_80_by_24_screen_with_room_for_the_account_of_the_turns():
    state = at(
        "goal ninjas=20,7,6,19 turn=blue dice=4 arrived=red left=blue,yellow,green",
        players=4,
        crumbling_wall=True,
    )
    rows = render_race(state).splitlines()
    assert len(rows) <= 10
    assert max(len(row) for row in rows) <= 80


def test_drawing_of_a_long_wall_comes_in_bands_of_21_steps():
    state = stairgames.load("ishigaki_race", goal=30).new_initial_state()
    assert isinstance(state, IshigakiRaceState)
    rows = render_race(state).splitlines()
    assert rows[1].endswith(" 20") and rows[4] == "step    " + "".join(
        f"{s:>3}" for s in range(21, 31)
    )
    assert max(len(row) for row in rows) <= 80


def test_drawing_of_the_other_phases():
    assert "The start player is drawn next." in render_race(at("setup ninjas=0,0"))
    text = render_race(at("race ninjas=0,0 turn=red dice=-"))
    assert "plain wall" in text and "-2" not in text
    assert text.endswith("Red rolls the first die next.")
    text = render_race(at("race ninjas=0,0 turn=red dice=2,?"))
    assert text.endswith("Red: first die 2 ⚁, second die rolling.")
    text = render_race(
        at("goal ninjas=20,7,5 turn=blue dice=- arrived=red left=blue,yellow", players=3)
    )
    assert "Goal round: on the goal red; still to play blue, yellow." in text
    text = render_race(at("rolloff ninjas=20,20 turn=red dice=3 rollers=blue:7,red"))
    assert "Roll-off (highest wins): blue 7, red -." in text
    assert text.endswith("stop (score 3) or roll (higher: the sum, lower: 0)?")
    text = render_race(at("over ninjas=20,20 winner=blue"))
    assert text.endswith("Game over. Blue wins the roll-off between red and blue")


def test_drawing_uses_colours_only_when_asked():
    state = at("race ninjas=3,8 turn=blue dice=4")
    spec = get_spec("ishigaki_race")
    assert "\x1b[" not in spec.render(state, colour=False, viewer=None)
    assert "\x1b[1;37;41mR\x1b[0m" in spec.render(state, colour=True, viewer=0)
    assert str(state) == render_race(state)


def test_evaluate_prefers_the_leader_and_knows_the_result():
    state = at("race ninjas=3,8 turn=blue dice=4")
    assert evaluate(state, 1) > 0.0 > evaluate(state, 0)  # blue leads by 5 and is rolling
    assert evaluate(state, 0) + evaluate(state, 1) == pytest.approx(0.0)  # 2·P(win) − 1 each
    assert height_lead(state, 1) == pytest.approx(5 / 20)
    over = at("over ninjas=20,8 winner=red")
    assert evaluate(over, 0) == 1.0 and evaluate(over, 1) == -1.0


# ----- play in the terminal ------------------------------------------------------------------


def test_a_human_plays_against_random_players_with_the_dice_shown(tmp_path: Path):
    out = io.StringIO()
    session = TerminalSession(
        stairgames.load("ishigaki_race", players=3, crumbling_wall=True, first_player=0),
        ["human", "random", "random"],
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=scripted(["jump", "roll", "stop"]),
        output=out,
    )
    session.run()
    text = out.getvalue()
    assert "Red to decide: first die" in text and "stop (climb" in text
    assert "Not accepted: malformed move 'jump'" in text
    assert "Red rolls the second die." in text
    assert "Legal moves (2): stop roll" in text
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["moves"][:2] == [record["moves"][0], "roll"]


def test_the_command_line_plays_a_whole_game_with_random_players(tmp_path: Path):
    path = tmp_path / "game.json"
    args = ["play", "ishigaki_race", "--players", "3", "--crumbling-wall", "--red", "random"]
    assert main([*args, "--seed", "4", "--record", str(path), "--no-color"]) == 0
    record = json.loads(path.read_text())
    assert record["options"]["players"] == 3 and record["options"]["crumbling_wall"] is True
    assert record["moves"][0].startswith("start:")
    assert "wins" in record["result"]
    assert sorted(record["returns"]) == [0.0, 0.0, 1.0]
    assert main(["replay", "--no-color", str(path)]) == 0


def test_a_bad_input_is_answered_without_chance_notation():
    state = at("race ninjas=3,8 turn=blue dice=4")
    with pytest.raises(IllegalMoveError) as raised:
        state.apply_move("jump")
    message = str(raised.value)
    assert "'stop'" in message and "'roll'" in message
    assert "die:" not in message and "start:" not in message and "chance" not in message
