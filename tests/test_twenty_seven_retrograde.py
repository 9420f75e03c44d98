"""27 by retrograde analysis (``stairgames.games.twenty_seven.research.retrograde``): the ranking,
the solved values against independent searches, checkpoints, the command and the
``perfect`` player."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames.agents import make_agent
from stairgames.cli import main
from stairgames.core.errors import InvalidOptionError, InvalidPositionError
from stairgames.core.solvers import SOLVED_DIR_VARIABLE, solved_dir
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.play.evaluate import HOOKS
from stairgames.games.twenty_seven.research import reduced, retrograde, storage, table_play
from stairgames.games.twenty_seven.research.endgame import Solver
from stairgames.games.twenty_seven.research.reduced import Size

LATE_POSITION = "RB/GWW/GWB/G/GBBBB/GWWB/GBWWBWW/G/R W"
"""A late position of the real game (white to move and wins; 3.7 million positions
reachable from it, too many for a test): its children two moves on are small."""


@pytest.fixture(autouse=True)
def solved_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its tables in its own folder, never the user's home."""
    folder = tmp_path / "solved"
    monkeypatch.setenv(SOLVED_DIR_VARIABLE, str(folder))
    return folder


# ----- the ranking -------------------------------------------------------------------


@st.composite
def sized_lines(draw: st.DrawFn) -> tuple[Size, rules.Line]:
    """A size and any basic line of it (reachable or not), either colour to move."""
    size = Size(draw(st.integers(2, 9)), draw(st.integers(1, 9)))
    colours = draw(st.permutations([rules.WHITE] * size.discs + [rules.BLACK] * size.discs))
    cuts = sorted(draw(st.lists(st.integers(0, 2 * size.discs), min_size=size.fields - 1)))
    cuts = cuts[: size.fields - 1]
    edges = [0, *cuts, 2 * size.discs]
    bases = [stack[0] for stack in reduced.initial_line(size).fields]
    fields = tuple(base + "".join(colours[edges[f] : edges[f + 1]]) for f, base in enumerate(bases))
    return size, rules.Line(fields, draw(st.sampled_from(rules.PLAYER_COLOURS)))


@settings(max_examples=300, deadline=None)
@given(sized_lines())
@pytest.mark.slow
def test_unrank_of_rank_gives_the_line_back(sized: tuple[Size, rules.Line]) -> None:
    size, line = sized
    index = reduced.rank(line, size)
    assert 0 <= index < size.positions
    white_to_move = line if line.to_move == rules.WHITE else reduced.mirror(line)
    assert reduced.unrank(index, size) == white_to_move


def test_every_rank_of_a_small_size_is_one_line() -> None:
    size = Size(4, 2)
    lines = {reduced.unrank(index, size) for index in range(size.positions)}
    assert len(lines) == size.positions == 6 * 35
    assert all(
        reduced.rank(line, size) == i
        for i, line in enumerate(
            map(functools.partial(reduced.unrank, size=size), range(size.positions))
        )
    )


def test_the_solver_refuses_a_line_of_another_size() -> None:
    with pytest.raises(InvalidPositionError, match="5 fields"):
        reduced.check_line(rules.initial_line(), Size(5, 2))
    with pytest.raises(InvalidOptionError, match="2 to 9 fields"):
        Size(10, 2)


# ----- the values -------------------------------------------------------------------


def plain_result(line: rules.Line, known: dict[rules.Line, int]) -> int:
    """The result for the colour to move by a plain search over :mod:`rules` (no
    compiled code, no table but this memo)."""
    if line in known:
        return known[line]
    if rules.is_over(line, "basic"):
        white = table_play.white_result_at_end(line)
        found = white if line.to_move == rules.WHITE else -white
    else:
        moves = rules.legal_moves(line, line.to_move, "basic")
        children = [rules.apply_move(line, m) for m in moves] or [rules.pass_turn(line)]
        found = max(-plain_result(child, known) for child in children)
    known[line] = found
    return found


def reachable(line: rules.Line) -> list[rules.Line]:
    """Every line reachable from ``line`` (itself included)."""
    seen = {line}
    todo = [line]
    while todo:
        current = todo.pop()
        if rules.is_over(current, "basic"):
            continue
        moves = rules.legal_moves(current, current.to_move, "basic")
        for child in [rules.apply_move(current, m) for m in moves] or [rules.pass_turn(current)]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return sorted(seen, key=reduced.position_text)


@pytest.mark.parametrize("size", [Size(2, 1), Size(3, 2), Size(5, 2), Size(4, 3), Size(9, 2)])
def test_the_complete_table_holds_every_reachable_position_with_the_plain_search_value(
    size: Size, tmp_path: Path
) -> None:
    table = retrograde.solve(tmp_path, size)
    known: dict[rules.Line, int] = {}
    lines = reachable(reduced.initial_line(size))
    # a line and its mirror share a rank, so the table stores fewer positions
    assert table.meta["stored"] == len({reduced.rank(line, size) for line in lines})
    for line in lines:
        assert table.code(line) - 2 == plain_result(line, known), reduced.position_text(line)
    assert table.meta["result"] == known[reduced.initial_line(size)]


def test_the_proof_stores_fewer_positions_with_the_same_values(tmp_path: Path) -> None:
    size = Size(6, 3)
    complete = retrograde.solve(tmp_path / "complete", size)
    proof = retrograde.solve(tmp_path / "proof", size, complete=False)
    assert proof.meta["result"] == complete.meta["result"]
    assert proof.meta["stored"] < complete.meta["stored"]
    for line in reachable(reduced.initial_line(size)):
        code = proof.code(line)
        assert code in (0, complete.code(line))


def late_lines() -> list[rules.Line]:
    """Lines of the real game two moves after :data:`LATE_POSITION` (those with the
    smaller trees, up to 6,488 positions), and lines four moves before the end of random games."""
    start = reduced.line_from_text(LATE_POSITION)
    found = [
        rules.apply_move(after, reply)
        for first in rules.legal_moves(start, rules.WHITE, "basic")[4:]
        for after in [rules.apply_move(start, first)]
        for reply in rules.legal_moves(after, after.to_move, "basic")[:1]
    ]
    rng = random.Random(27)
    for _ in range(6):
        found.append(random_path(rules.initial_line(), rng)[-5])
    return found


def random_path(line: rules.Line, rng: random.Random) -> list[rules.Line]:
    """The lines of a uniformly random game from ``line`` to its end."""
    path = [line]
    while not rules.is_over(line, "basic"):
        moves = rules.legal_moves(line, line.to_move, "basic")
        line = rules.apply_move(line, rng.choice(moves)) if moves else rules.pass_turn(line)
        path.append(line)
    return path


def test_values_of_the_real_game_agree_with_the_endgame_solver(tmp_path: Path) -> None:
    endgame = Solver()
    rng = random.Random(7)
    for line in late_lines():
        table = retrograde.solve(tmp_path, Size(), line)
        assert table.meta["hashed"]  # the real game's direct table would take 19 GB
        assert table.meta["result"] == endgame.result(line, "basic")
        for _ in range(10):
            for later in random_path(line, rng):
                assert table.code(later) - 2 == endgame.result(later, "basic")


# ----- checkpoints ------------------------------------------------------------------


def entries(table: storage.Table) -> dict[int, int]:
    """Rank -> code of every solved position of a table (direct or hashed)."""
    if table.hashed:
        slots = np.nonzero(table.keys)[0]
        return {
            int(table.keys[s]) - 1: (int(table.codes[s >> 2]) >> int(2 * (s & 3))) & 3
            for s in slots
        }
    codes = np.unpackbits(np.asarray(table.codes)[:, None], axis=1, bitorder="little")
    values = (codes[:, 0::2] + 2 * codes[:, 1::2]).reshape(-1)
    return {int(i): int(values[i]) for i in np.nonzero(values)[0]}


@pytest.mark.parametrize("complete", [True, False])
@pytest.mark.parametrize("hashed", [False, True], ids=["direct", "hashed"])
def test_resuming_from_a_checkpoint_gives_the_table_of_an_uninterrupted_run(
    tmp_path: Path, complete: bool, hashed: bool
) -> None:
    size = Size(7, 3)
    whole = retrograde.solve(tmp_path / "whole", size, complete=complete, hashed=hashed)
    parts = tmp_path / "parts"
    first = retrograde.solve(
        parts, size, complete=complete, hashed=hashed, chunk=500, stop_after=2_000
    )
    assert first.meta["result"] is None and first.meta["stopped"] == "budget"
    assert 2_000 <= first.meta["stored"] < whole.meta["stored"]
    with pytest.raises(retrograde.TableExistsError, match="--resume"):
        retrograde.solve(parts, size, complete=complete, hashed=hashed)
    rest = retrograde.solve(parts, size, complete=complete, hashed=hashed, resume=True, chunk=700)
    assert rest.meta["result"] == whole.meta["result"]
    assert rest.meta["stored"] == whole.meta["stored"]
    assert entries(storage.open_table(rest.folder)) == entries(whole)


def test_a_hashed_table_stops_at_the_memory_allowed_and_says_so(tmp_path: Path) -> None:
    table = retrograde.solve(tmp_path, Size(9, 4), memory=1 << 20, hashed=True)
    assert table.meta["stopped"] == "memory" and table.meta["result"] is None
    assert table.meta["stored"] > 0 and table.bytes <= 1 << 20


# ----- the command ------------------------------------------------------------------


def test_solve_command_writes_its_table_where_it_is_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tables"
    argv = ["solve", "twenty_seven", "--variant", "basic", "--fields", "5", "--discs", "2"]
    assert main([*argv, "--out", str(out), "--stop-after", "10"]) == 0
    assert "--resume" in capsys.readouterr().out
    assert main([*argv, "--out", str(out)]) == 2
    assert "already holds a table" in capsys.readouterr().err
    assert main([*argv, "--out", str(out), "--resume"]) == 0
    said = capsys.readouterr()
    assert "black wins under perfect play" in said.out
    assert re.search(r"\d[\d,.kMG]*/~[\d,.kMG]+ positions", said.err)  # the progress line
    assert (out / "basic-5-fields-2-discs" / "codes.bin").is_file()


def test_solve_command_defaults_to_the_data_folder(
    solved_here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(SOLVED_DIR_VARIABLE)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert solved_dir() == tmp_path / "data" / "stairgames" / "solved"
    assert main(["solve", "27", "--fields", "3", "--discs", "1"]) == 0
    assert (solved_dir() / "twenty_seven" / "basic-3-fields-1-discs" / "meta.json").is_file()


def test_solve_command_refuses_other_variants_and_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "twenty_seven", "--variant", "expert", "--fields", "3"]) == 2
    assert "basic game only" in capsys.readouterr().err
    assert main(["solve", "city_of_stairs"]) == 2
    assert "has no solver" in capsys.readouterr().err


def test_solve_command_solves_after_given_moves(
    solved_here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    position = "RBB/GWW/GWB/G/GBBB/GWWB/GBW/G/RWBWW W"  # a few moves from the end
    assert main(["solve", "twenty_seven", "--from", position, "--after", "1:1 5:1"]) == 0
    said = capsys.readouterr().out
    assert "from RBB/GW/GWBB/G/GBBBW/GWW/GBW/G/RWBWW W:" in said
    assert "under perfect play" in said
    assert main(["solve", "twenty_seven", "--from", position, "--after", "0:9"]) == 2
    assert "not legal" in capsys.readouterr().err


# ----- the perfect player -------------------------------------------------------------


WON_POSITION = "RBB/GWW/GWB/G/GBBB/GWWB/GBW/G/RWBWW W"
"""A late position of the real game (two moves after :data:`LATE_POSITION`) that white,
to move, wins; 2,583 positions are reachable from it."""


def won_late_position() -> str:
    assert Solver().result(reduced.line_from_text(WON_POSITION), "basic") == 1
    return WON_POSITION


def test_the_perfect_player_never_loses_a_solved_won_position_against_random() -> None:
    position = won_late_position()
    assert main(["solve", "twenty_seven", "--from", position]) == 0
    game = stairgames.load("twenty_seven")
    for seed in range(20):
        state = game.state_from_position(position)
        players = [make_agent("perfect", 0, seed=seed), make_agent("random", 1, seed=seed)]
        for player in players:
            player.prepare(game)
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].step(state))
        assert state.returns()[0] == 1.0


def test_perfect_play_gives_values_and_a_principal_variation_that_keeps_them() -> None:
    position = won_late_position()
    retrograde.solve(solved_dir() / "twenty_seven", Size(), reduced.line_from_text(position))
    game = stairgames.load("twenty_seven")
    perfect = HOOKS.perfect_play(game)  # type: ignore[misc]
    state = game.state_from_position(position)
    values = perfect.action_values(state)
    assert max(v[0] for v in values.values()) == 1.0
    line = perfect.principal_variation(state)
    for action in line:
        assert perfect.action_values(state)[action][state.current_player()] >= (
            1.0 if state.current_player() == 0 else -1.0
        )
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]


def test_perfect_play_refuses_clearly_where_nothing_is_solved() -> None:
    game = stairgames.load("twenty_seven")
    assert HOOKS.perfect_play is not None
    with pytest.raises(InvalidOptionError, match="stairgames solve twenty_seven --variant basic"):
        HOOKS.perfect_play(game)
    with pytest.raises(InvalidOptionError, match="only in its basic variant"):
        HOOKS.perfect_play(stairgames.load("twenty_seven", variant="advanced"))
    retrograde.solve(
        solved_dir() / "twenty_seven", Size(), reduced.line_from_text(won_late_position())
    )
    with pytest.raises(table_play.UnsolvedPositionError, match="--from"):
        HOOKS.perfect_play(game).action_values(game.new_initial_state())
