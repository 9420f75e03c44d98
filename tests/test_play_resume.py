"""``stairgames play --resume RECORD``: a game stopped at the terminal goes on from its
record with the same seats and levels, the position as the person knew it, and what the
record hides dealt anew from a new seed, never shown to a seat that could not see it."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import stairgames
from stairgames.cli import main
from stairgames.core.errors import InvalidRecordError, StairgamesError
from stairgames.core.game import State
from stairgames.core.record import PUBLIC_VIEW, GameRecord, final_state, make_record
from stairgames.games.city_of_stairs import CityOfStairsState
from stairgames.resume import (
    Resumed,
    check_seats,
    opening_notes,
    recorded_players,
    resume,
    seated_players,
    stand_in_rng,
)
from stairgames.terminal import TerminalSession
from tests.pty_screen import PtyPlay

GAMES: list[tuple[str, dict[str, object], tuple[str, ...]]] = [
    ("stairs", {"size": 4}, ("human", "random")),
    ("stairs", {}, ("greedy", "human")),
    ("twenty_seven", {}, ("human", "random")),
    ("ishigaki_race", {"players": 3}, ("random", "human", "greedy")),
    ("city_of_stairs", {"players": 2}, ("human", "random")),
    ("city_of_stairs", {"players": 3}, ("random", "human", "random")),
    ("city_of_stairs", {"players": 4}, ("human", "random", "random", "random")),
    ("city_of_stairs", {"players": 2}, ("human", "human")),
]
"""Every game, with a person at one seat (two at one keyboard in the last)."""


def random_person(ref: list[TerminalSession], seed: int, turns: int | None) -> Callable[[str], str]:
    """A person who types random legal moves (Enter to pass the keyboard) and quits after
    ``turns`` moves (``None``: never)."""
    rng = random.Random(seed)
    played = [0]

    def answer(prompt: str) -> str:
        if "Pass the keyboard" in prompt:
            return ""
        if turns is not None and played[0] >= turns:
            return "quit"
        played[0] += 1
        state = ref[0].state
        return state.action_to_string(rng.choice(state.legal_actions()))

    return answer


def play(
    game: stairgames.Game,
    players: tuple[str, ...],
    path: Path,
    *,
    seed: int,
    turns: int | None,
    start: State | None = None,
) -> tuple[State, str]:
    """Play at the terminal with scripted people until they quit after ``turns`` moves
    (or the game ends); the state and what the screen said."""
    ref: list[TerminalSession] = []
    out = io.StringIO()
    session = TerminalSession(
        game,
        list(players),
        seed=seed,
        record_path=path,
        input_fn=random_person(ref, seed, turns),
        output=out,
        start=start,
    )
    ref.append(session)
    return session.run(), out.getvalue()


def stopped(
    name: str, options: dict[str, object], players: tuple[str, ...], path: Path, turns: int = 4
) -> State:
    state, _ = play(stairgames.load(name, **options), players, path, seed=8, turns=turns)
    assert not state.is_terminal()
    return state


def known(state: State, viewer: int | None) -> tuple[object, ...]:
    """What ``viewer`` (``None``: a spectator) knows of ``state``."""
    if viewer is None:
        return (state.public_history_strings(),)
    return (state.observation_string(viewer), state.history_strings(viewer))


@pytest.mark.parametrize(("name", "options", "players"), GAMES)
def test_a_stopped_game_resumes_as_its_viewer_knew_it_and_goes_on_to_the_end(
    name: str, options: dict[str, object], players: tuple[str, ...], tmp_path: Path
):
    path = tmp_path / "game.json"
    before = stopped(name, options, players, path)
    record = GameRecord.load(path)
    resumed = resume(path, stand_in_rng(1))
    seated = tuple(recorded_players(resumed.record, len(players)))
    assert seated == players
    assert resumed.state.get_game().options == before.get_game().options
    assert known(resumed.state, record.viewer) == known(before, record.viewer)
    if not before.get_game().info().hidden_information:
        assert resumed.state.position() == before.position()
        assert resumed.dealt_anew == ()

    state, _ = play(resumed.game, seated, path, seed=3, turns=None, start=resumed.state)
    assert state.is_terminal()
    finished = GameRecord.load(path)
    assert finished.is_full and finished.result is not None
    assert finished.players == players
    assert (
        finished.moves[: len(record.moves)] == tuple(state.history_strings())[: len(record.moves)]
    )
    assert final_state(finished).outcome() == state.outcome()


def test_the_resumed_game_is_drawn_only_for_the_person_and_keeps_their_own_card(
    tmp_path: Path,
):
    path = tmp_path / "game.json"
    before = stopped("city_of_stairs", {"players": 3}, ("random", "human", "random"), path)
    assert isinstance(before, CityOfStairsState)
    resumed = resume(path, stand_in_rng(5))
    state = resumed.state
    assert isinstance(state, CityOfStairsState)
    assert state.table.departures[1] == before.table.departures[1]
    assert resumed.dealt_anew == ("deal ? to red", "deal ? to green")
    _, screen = play(
        resumed.game, ("random", "human", "random"), path, seed=3, turns=0, start=state
    )
    # a seat line names only the person's own departure card (two seats to a line where
    # they fit: split them)
    seat_lines = re.split(r"   |\n", screen)
    for seat in (0, 2):
        colour = state.table.colours[seat]
        assert f"deal {state.table.departures[seat]} to {colour}" not in screen
        lines = [line for line in seat_lines if line.startswith(f"{colour} likes")]
        assert lines and not any("departure" in line for line in lines)
    assert any(line.startswith("blue likes") and "departure" in line for line in seat_lines)
    assert "deal ? to red" in json.loads(path.read_text())["moves"]


def hidden_cards(path: Path, seed: int) -> tuple[int | None, ...]:
    state = resume(path, stand_in_rng(seed)).state
    assert isinstance(state, CityOfStairsState)
    return state.table.departures


def test_hidden_cards_dealt_anew_differ_by_seed_and_repeat_with_one(tmp_path: Path):
    path = tmp_path / "game.json"
    before = stopped(
        "city_of_stairs", {"players": 4}, ("human", "random", "random", "random"), path
    )
    assert isinstance(before, CityOfStairsState)
    deals = {seed: hidden_cards(path, seed) for seed in range(12)}
    assert all(cards[0] == before.table.departures[0] for cards in deals.values())
    assert len({cards[1:] for cards in deals.values()}) > 1
    assert hidden_cards(path, 7) == deals[7]
    assert all(len(set(cards)) == len(cards) for cards in deals.values())


def test_without_a_generator_replay_still_gives_the_same_stand_ins(tmp_path: Path):
    path = tmp_path / "game.json"
    stopped("city_of_stairs", {"players": 4}, ("human", "random", "random", "random"), path)
    record = GameRecord.load(path)
    first = final_state(record)
    assert isinstance(first, CityOfStairsState)
    again = final_state(record)
    assert isinstance(again, CityOfStairsState)
    assert first.table.departures == again.table.departures


def test_random_stand_ins_still_agree_with_the_rest_of_the_record():
    # red is dealt first and hidden from blue; blue's own card (1) is dealt after it, so
    # red's stand-in can be any card but 1, whatever the generator tries first
    state = stairgames.load("city_of_stairs", players=2, first_player=0).new_initial_state()
    for move in ("draw P03", "draw E07", "deal 4 to red", "deal 1 to blue", "E07@c1"):
        state.apply_move(move)
    record = make_record(state, viewer=1)
    reds = set()
    for seed in range(20):
        last = final_state(record, rng=random.Random(seed))
        assert isinstance(last, CityOfStairsState)
        assert last.table.departures[1] == 1
        assert last.history_strings(1) == state.history_strings(1)
        reds.add(last.table.departures[0])
    assert 1 not in reds and len(reds) > 2


def test_a_public_record_deals_every_hidden_card_anew_and_says_so(tmp_path: Path):
    path = tmp_path / "game.json"
    stopped("city_of_stairs", {"players": 2}, ("human", "human"), path)
    resumed = resume(path, stand_in_rng(2))
    assert resumed.record.view == PUBLIC_VIEW
    assert resumed.dealt_anew == ("deal ? to red", "deal ? to blue")
    notes = opening_notes(path, resumed, 2, path)
    assert notes[0] == (
        f"Resumed from {path} ({len(resumed.record.moves)} moves); the record is saved there again."
    )
    assert "dealt anew: deal ? to red, deal ? to blue." in notes[1]
    assert "new seed (2)" in notes[2]
    assert len(notes) == 3


def test_a_game_without_chance_says_nothing_of_seeds(tmp_path: Path):
    path = tmp_path / "game.json"
    stopped("twenty_seven", {}, ("human", "random"), path)
    resumed = resume(path, stand_in_rng(2))
    notes = opening_notes(path, resumed, 2, tmp_path / "other.json")
    assert notes == [f"Resumed from {path} ({len(resumed.record.moves)} moves)."]


# ----- seats ------------------------------------------------------------------------------


def test_seats_are_the_recorded_ones_unless_flags_name_others():
    recorded = ["human", "medium", "random"]
    assert seated_players(recorded) == recorded
    assert seated_players(recorded, named={2: "greedy"}) == ["human", "medium", "greedy"]
    assert seated_players(recorded, level="hard") == ["human", "hard", "hard"]
    assert seated_players(recorded, level="easy", named={1: "human"}) == [
        "human",
        "human",
        "easy",
    ]
    assert seated_players(recorded, seats="random,human,random") == ["random", "human", "random"]
    with pytest.raises(StairgamesError, match="--seats names 2 players; this game has 3"):
        seated_players(recorded, seats="human,random")


def test_a_record_that_does_not_name_its_players_gets_a_person_at_its_viewers_seat():
    record = GameRecord(game="city_of_stairs", options={"players": 3}, moves=(), view=2)
    assert recorded_players(record, 3) == ["random", "random", "human"]
    plain = GameRecord(game="stairs", options={}, moves=())
    assert recorded_players(plain, 2) == ["human", "random"]


def seat_view_record(path: Path) -> Resumed:
    stopped("city_of_stairs", {"players": 3}, ("random", "human", "random"), path)
    return resume(path, stand_in_rng(1))


def test_a_record_of_one_seats_view_resumes_only_with_computers_at_the_others(tmp_path: Path):
    resumed = seat_view_record(tmp_path / "game.json")
    check_seats(resumed, ["random", "human", "greedy"])
    check_seats(resumed, ["random", "random", "random"])
    for players in (["human", "human", "random"], ["human", "random", "random"]):
        with pytest.raises(StairgamesError, match="holds blue's hidden cards") as caught:
            check_seats(resumed, players)
        assert "red cannot be played by a person" in str(caught.value)


def test_a_public_record_resumes_with_any_seats(tmp_path: Path):
    path = tmp_path / "game.json"
    stopped("city_of_stairs", {"players": 2}, ("human", "human"), path)
    resumed = resume(path, stand_in_rng(1))
    for players in (["human", "human"], ["random", "human"], ["human", "random"]):
        check_seats(resumed, players)


# ----- records that cannot be resumed -------------------------------------------------------


def write(path: Path, data: object) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_a_finished_game_is_not_resumed(tmp_path: Path):
    path = tmp_path / "over.json"
    state, _ = play(stairgames.load("twenty_seven"), ("random", "random"), path, seed=1, turns=0)
    assert state.is_terminal()
    with pytest.raises(InvalidRecordError, match="is over: see it with 'stairgames replay"):
        resume(path, stand_in_rng(1))
    # a record whose result was lost is over too if its moves end the game
    data = json.loads(path.read_text())
    data["result"] = None
    with pytest.raises(InvalidRecordError, match="is over"):
        resume(write(path, data), stand_in_rng(1))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not a record", "not valid JSON"),
        ({"moves": []}, "'game' is missing"),
        ({"game": "chess", "moves": []}, "cannot be set up"),
        ({"game": "stairs", "options": {"size": 99}, "moves": []}, "cannot be set up"),
        ({"game": "stairs", "options": {"colour": "red"}, "moves": []}, "cannot be set up"),
        ({"game": "stairs", "moves": ["d3-c4", "z9-z9"]}, r"move 2 \('z9-z9'\) does not replay"),
        ({"game": "stairs", "moves": [], "start_position": "x"}, "starts from a position"),
    ],
)
def test_records_that_cannot_be_resumed_are_refused_with_the_reason(
    content: object, message: str, tmp_path: Path
):
    with pytest.raises(InvalidRecordError, match=message):
        resume(write(tmp_path / "bad.json", content), stand_in_rng(1))


def test_a_missing_file_is_refused(tmp_path: Path):
    with pytest.raises(InvalidRecordError, match="cannot read record"):
        resume(tmp_path / "nowhere.json", stand_in_rng(1))


# ----- the command line -------------------------------------------------------------------


def run_cli(
    argv: list[str], typed: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_play_resume_through_the_command_line_goes_on_and_saves_to_the_same_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "game.json"
    code, _, _ = run_cli(
        ["play", "ishigaki_race", "--seed", "4", "--record", str(path), "--no-color"],
        "roll\nquit\n",
        monkeypatch,
        capsys,
    )
    assert code == 0
    moves = len(GameRecord.load(path).moves)
    argv = ["play", "--resume", str(path), "--seed", "6", "--no-color", "--blue", "greedy"]
    code, out, err = run_cli(argv, "stop\nquit\n", monkeypatch, capsys)
    assert code == 0, err
    said = " ".join(out.split())  # the long path breaks the line
    assert said.startswith(
        f"Resumed from {path} ({moves} moves); the record is saved there again. "
        "Chance from here on comes from a new seed (6)"
    )
    assert "Ishigaki Race: red (human), blue (greedy)" in out
    assert f"Record saved to {path}" in out
    record = GameRecord.load(path)
    assert record.players == ("human", "greedy")
    assert len(record.moves) > moves

    again = tmp_path / "again.json"
    argv = ["play", "--resume", str(path), "--record", str(again), "--no-color"]
    code, out, _ = run_cli(argv, "quit\n", monkeypatch, capsys)
    assert code == 0 and again.exists() and "saved there again" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "stairs", "--resume", "R"], "leave out 'stairs'"),
        (["play", "--resume", "nowhere.json"], "cannot read record"),
        (["play", "--resume", "{seat}", "--red", "human"], "holds blue's hidden cards"),
        (
            ["play", "--resume", "{seat}", "--red", "nobody"],
            "red seat cannot be played by 'nobody' (unknown player 'nobody'; choose from human, ",
        ),
        (["play", "--resume", "{online}"], "name its player with --black PLAYER"),
    ],
)
def test_play_resume_refusals_are_one_clear_line(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
):
    path = tmp_path / "seat.json"
    seat_view_record(path)
    online = tmp_path / "web.json"  # a web match's record: a person online at black
    stopped("twenty_seven", {}, ("human", "random"), online)
    data = json.loads(online.read_text())
    write(online, {**data, "players": ["human", "online"]})
    monkeypatch.chdir(tmp_path)
    argv = [word.format(seat=path, online=online) for word in argv]
    code, _, err = run_cli(argv, "quit\n", monkeypatch, capsys)
    assert code == 2
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_play_resume_refuses_a_game_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    path = tmp_path / "game.json"
    stopped("twenty_seven", {}, ("human", "random"), path)
    with pytest.raises(SystemExit) as exited:
        run_cli(["play", "--resume", str(path), "--variant", "x"], "", monkeypatch, capsys)
    assert exited.value.code == 2
    assert "unrecognized arguments: --variant" in capsys.readouterr().err


def test_play_help_without_a_game_shows_both_forms_and_the_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    code, out, _ = run_cli(["play", "--help"], "", monkeypatch, capsys)
    assert code == 0
    assert "usage: stairgames play GAME [options]" in out
    assert "stairgames play --resume RECORD [options]" in out
    assert "city_of_stairs, ishigaki_race, stairs, twenty_seven" in out
    assert "stairgames play GAME --help" in out
    assert all(len(line) <= 80 for line in out.splitlines())
    code, _, err = run_cli(["play"], "", monkeypatch, capsys)
    assert code == 2 and "stairgames play --help" in err


def test_play_resume_help_lists_its_flags(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    code, out, _ = run_cli(["play", "--resume", "--help"], "", monkeypatch, capsys)
    assert code == 0
    for flag in ("--resume RECORD", "--seats", "--seed", "--record", "--level", "--no-color"):
        assert flag in out
    assert "as recorded" in out


def test_a_resumed_record_is_saved_for_the_same_viewer(tmp_path: Path):
    path = tmp_path / "game.json"
    seat_view_record(path)
    resumed = resume(path, stand_in_rng(4))
    state, _ = play(
        resumed.game, ("random", "human", "random"), path, seed=4, turns=1, start=resumed.state
    )
    again = GameRecord.load(path)
    assert again.view == 1
    assert again.moves == make_record(state, viewer=1).moves
    assert again.moves[: len(resumed.record.moves)] == resumed.record.moves


# ----- through a terminal ----------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.slow
def test_a_resumed_game_at_a_terminal_shows_the_board_and_no_other_seats_card(
    language: str, tmp_path: Path
):
    """A City of Stairs game stopped at the first prompt and resumed through a pty of
    80×24 whose emulator keeps its history: the screen shows the board and the person's
    prompt, and nothing on it or in the history names a computer's card (dealt anew)."""
    lang = ["--lang", language]
    first = PtyPlay(
        [*lang, "play", "city_of_stairs", "--players", "3", "--seed", "4", "--record", "c.json"],
        cwd=tmp_path,
    )
    first.read_until(r"> $")
    first.answer("quit")
    assert first.finish() == 0
    resumed = resume(tmp_path / "c.json", stand_in_rng(2))
    state = resumed.state
    assert isinstance(state, CityOfStairsState)

    play = PtyPlay([*lang, "play", "--resume", "c.json", "--seed", "2"], cwd=tmp_path)
    play.read_until(r"> $")
    screen = play.terminal.display()
    everything = "\n".join(play.terminal.everything())
    play.answer("quit")
    assert play.finish() == 0
    red = "赤" if language == "ja" else "red"
    assert screen[-1].startswith(red) and any("a4" in row for row in screen)
    assert ("から再開しました" if language == "ja" else "Resumed from c.json") in everything
    departure = "出発カード" if language == "ja" else "departure"
    for seat in (1, 2):
        colour = state.table.colours[seat]
        assert f"deal {state.table.departures[seat]} to {colour}" not in everything
    seat_lines = re.split(r"   |\n", everything)
    owners = [line.split()[0] for line in seat_lines if departure in line]
    assert owners and set(owners) == {red}
